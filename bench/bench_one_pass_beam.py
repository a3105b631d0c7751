"""The one-pass beam alone (``tableau_search._Search.beams``) on two-deck one-pass rows: its wins and its tries.

    python bench/bench_one_pass_beam.py [--games forty-thieves,streets] [--deals N] [--seed S] [--budget N]
                                        [--homes 20,30] [--unit 32] [--tries]

Each deal is searched by the beam member the portfolio gives a design of two or more decks whose waste is never
turned back (:data:`~cardz_tools.analysis.tableau_search.ONE_PASS_BEAM_WEIGHT`), alone, to ``--budget``
positions, with the weights of a card home its tries take in turn (``--homes``, default
:data:`~cardz_tools.analysis.tableau_search.ONE_PASS_BEAM_HOMES`) and the narrowest width (``--unit``, default
:data:`~cardz_tools.analysis.tableau_search.BEAM_UNIT`). Budgets are positions, so the answers do not depend on the
load of the machine. Per game it prints the deals won with their positions (each line replayed through the
engine); with ``--tries``, per deal, the positions each try stored and how many it expanded (a try's cost is
what decides how many tries a row's positions hold).
"""

from __future__ import annotations

import argparse
import pathlib
import sys
import time
from collections.abc import Callable
from typing import Any

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))

from cardz_tools.analysis import tableau_search  # noqa: E402
from cardz_tools.analysis.playout import deal_seed  # noqa: E402
from cardz_tools.analysis.runner import game_for  # noqa: E402
from cardz_tools.loading import open_design  # noqa: E402

GAMES = pathlib.Path(__file__).resolve().parents[1] / "games"


def beam_alone(root: Any, budget: int, homes: tuple[int, ...], unit: int) -> tuple[str, int, list[tuple[int, int]]]:
    """(result, positions, [(positions, expansions) of each try]) of the one-pass beam alone from ``root``; a win
    whose line the engine does not replay is reported "replay failed"."""
    pruning = tableau_search.Pruning()
    found = tableau_search._Search(root, tableau_search.plan_for(root.game, pruning), pruning, budget, None)
    expansions = [0]
    expand: Callable[[Any], Any] = found.expand

    def counted(state: Any) -> Any:
        expansions[0] += 1
        return expand(state)

    found.expand = counted  # type: ignore[method-assign]
    tries: list[tuple[int, int]] = []
    table, start = found.seen, 0
    steps = found.beams(unit, homes)
    result = "unknown"
    try:
        while True:
            next(steps)
            if found.seen is not table:  # a new try started afresh (its first expansion is counted in it)
                tries.append((found.spent - start, expansions[0] - 1))
                table, start, expansions[0] = found.seen, found.spent, 1
    except StopIteration as finished:
        result, line = finished.value
        if result == "won" and not tableau_search.replays_to_a_win(root, line):
            result = "replay failed"
    except tableau_search._Budget:
        pass
    tries.append((found.positions() - start, expansions[0]))
    return result, found.positions(), tries


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", default="forty-thieves,streets")
    parser.add_argument("--deals", type=int, default=10)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--budget", type=int, default=150_000)
    parser.add_argument("--homes", default=",".join(map(str, tableau_search.ONE_PASS_BEAM_HOMES)))
    parser.add_argument("--unit", type=int, default=tableau_search.BEAM_UNIT)
    parser.add_argument("--tries", action="store_true")
    args = parser.parse_args(argv)
    homes = tuple(int(weight) for weight in args.homes.split(","))
    print(f"seed {args.seed}, {args.deals} deals, {args.budget:,} positions a deal; homes {homes}, unit {args.unit}")
    for name in args.games.split(","):
        game = game_for(open_design(GAMES / f"{name}.cardz").json_text)
        if tableau_search.best_first_pass(game, tableau_search.plan_for(game, tableau_search.Pruning())):
            print(f"{name}: not two decks with one pass through the stock")
            continue
        wins, started = [], time.process_time()
        for deal in range(args.deals):
            root = game.new_initial_state(seed=deal_seed(args.seed, deal))
            result, positions, tries = beam_alone(root, args.budget, homes, args.unit)
            if result != "unknown":
                wins.append(f"{deal} {result} at {positions:,}")
            if args.tries:
                print(f"  {name} deal {deal}: {result}; tries (positions, expansions) {tries}")
        print(f"{name}: {len(wins)} of {args.deals} won ({'; '.join(wins)}); {time.process_time() - started:.0f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
