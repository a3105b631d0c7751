"""The search's move ordering with the per-pile terms of its score kept, against recounting them.

    python bench/bench_heuristic.py [--deals N] [--positions N]

:meth:`Progress.heuristic` sums terms over every pile of a position, and a move changes one
or two piles, so the terms of the others are kept by pile (:data:`PILE_TERMS_KEPT`). For each
game both settings search the same deals to the same number of positions (so the same
positions, whatever the machine's load); it prints the CPU seconds of each and their ratio
(recounting / kept: how many times faster the search runs with the terms kept).
"""

from __future__ import annotations

import argparse
import pathlib
import sys
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))

from cardz_tools.analysis import tableau_search  # noqa: E402
from cardz_tools.analysis.playout import deal_seed  # noqa: E402
from cardz_tools.engine import Game  # noqa: E402
from cardz_tools.loading import open_design  # noqa: E402

GAMES = ("spider-one-suit", "forty-thieves", "freecell", "klondike")
ROOT = pathlib.Path(__file__).resolve().parents[1] / "games"


def cpu_seconds(game: Game, deals: int, positions: int, kept: int) -> tuple[float, list[str]]:
    """CPU seconds to search ``deals`` deals to ``positions`` positions each, and the verdicts."""
    tableau_search.PILE_TERMS_KEPT = kept
    tableau_search._PLANS.clear()
    verdicts = []
    started = time.process_time()
    for deal in range(deals):
        root = game.new_initial_state(seed=deal_seed(101, deal))
        verdicts.append(tableau_search.search(root, positions).result)
    return time.process_time() - started, verdicts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=3)
    parser.add_argument("--positions", type=int, default=20_000)
    args = parser.parse_args()
    kept = tableau_search.PILE_TERMS_KEPT
    print(f"{'game':<18} {'recount s':>10} {'kept s':>8} {'ratio':>6}")
    for name in GAMES:
        game = Game(open_design(ROOT / f"{name}.cardz").design)
        recount, before = cpu_seconds(game, args.deals, args.positions, 0)
        cached, after = cpu_seconds(game, args.deals, args.positions, kept)
        assert before == after, (name, before, after)  # the same search, only faster
        print(f"{name:<18} {recount:>10.2f} {cached:>8.2f} {recount / cached:>6.2f}")


if __name__ == "__main__":
    main()
