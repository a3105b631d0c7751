"""Engine random playouts against the hand-written reference playouts, in one run.

    python bench/bench_engine.py [--playouts N]

Both sides deal the same seeds and pick moves with the same SplitMix64 stream,
so they play the very same games; the run checks that and prints playouts per
second for each side and the ratio engine / hand-written (the goal is 0.5).
Best of three alternating rounds of CPU time (time.process_time): the machine is shared.
"""

from __future__ import annotations

import argparse
import json
import pathlib
import sys
import time
from collections.abc import Callable

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))

from cardz_tools.cards import SplitMix64  # noqa: E402
from cardz_tools.engine import Game  # noqa: E402
from cardz_tools.model import build_design  # noqa: E402
from tests.reference_games import monte_carlo_playout, weathervane_playout  # noqa: E402

GAMES = pathlib.Path(__file__).resolve().parents[1] / "games"
MAX_MOVES = 10_000


def engine_playout(game: Game, deal_seed: int, play_seed: int) -> tuple[bool, int, int]:
    """One random game through the public API: (won, score, moves)."""
    state = game.new_initial_state(seed=deal_seed)
    rng = SplitMix64(play_seed)
    while not state.is_terminal() and state.move_count < MAX_MOVES:
        legal = state.legal_moves()
        state.apply(legal[rng.below(len(legal))])
    outcome = state.outcome()
    return outcome.won, outcome.score, state.move_count


def _timed(
    play: Callable[[int, int], tuple[bool, int, int]], playouts: int
) -> tuple[float, list[tuple[bool, int, int]]]:
    started = time.process_time()
    results = [play(i, i + 1000) for i in range(playouts)]
    return time.process_time() - started, results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--playouts", type=int, default=500)
    playouts = parser.parse_args().playouts
    for name, reference in (("monte-carlo", monte_carlo_playout), ("weathervane", weathervane_playout)):
        game = Game(build_design(json.loads((GAMES / f"{name}.cardz").read_text(encoding="utf-8"))))
        best_reference = best_engine = float("inf")
        same = True
        for _ in range(3):
            took, expected = _timed(reference, playouts)
            best_reference = min(best_reference, took)
            took, got = _timed(lambda d, p, game=game: engine_playout(game, d, p), playouts)
            best_engine = min(best_engine, took)
            same = same and got == expected
        print(
            f"{name:12} same games: {same}  hand-written {playouts / best_reference:7.0f}/s  "
            f"engine {playouts / best_engine:7.0f}/s  ratio {best_reference / best_engine:.2f}"
        )


if __name__ == "__main__":
    main()
