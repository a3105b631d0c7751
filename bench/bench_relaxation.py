"""What the relaxation's "no column can be emptied" loss proof costs the search, and what it prunes.

    python bench/bench_relaxation.py [--deals N] [--budget N] [--rounds N] [--only NAME ...]

:mod:`cardz_tools.analysis.relaxation` has a second test for boards where nothing lies outside
the columns and the sinks ("before any depot is empty" in its module doc). Each design here is
solved deal by deal (seed 101, a fixed position budget, the shipped portfolio) with that test as
it is and with it switched off (the game's card flow with no depot that takes cards, so the test
never applies), in alternating rounds in one process. It prints, per design, the positions and
verdicts of both sides (identical positions: the test pruned nothing), the least CPU seconds of
each side (``time.process_time``) and the ratio with / without.
"""

from __future__ import annotations

import argparse
import dataclasses
import pathlib
import sys
import time
from typing import Any

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))

from cardz_tools.analysis import relaxation  # noqa: E402
from cardz_tools.analysis.playout import deal_seed  # noqa: E402
from cardz_tools.analysis.runner import game_for  # noqa: E402
from cardz_tools.analysis.tableau_search import Pruning, search  # noqa: E402
from cardz_tools.loading import open_design  # noqa: E402

GAMES = pathlib.Path(__file__).resolve().parents[1] / "games"
DEFAULT_GAMES = (
    "freecell", "bakers-game", "eight-off", "seahaven-towers", "beleaguered-castle", "streets-and-alleys",
    "stronghold", "siegecraft", "british-canister", "alpha-star", "thirty", "worm-hole",
)
"""The shipped designs the test applies to (a card flow with columns only), a few of each family."""

_REAL_CARD_FLOW = relaxation.card_flow


def _without_the_test(game: Any) -> relaxation.CardFlow | str:
    flow = _REAL_CARD_FLOW(game)
    return flow if isinstance(flow, str) else dataclasses.replace(flow, takers=frozenset())


def _solve(game: Any, deals: int, budget: int, with_test: bool) -> tuple[float, list[tuple[str, int]]]:
    """CPU seconds and (verdict, positions) of each deal, with or without the test."""
    relaxation.card_flow = _REAL_CARD_FLOW if with_test else _without_the_test  # type: ignore[assignment]
    relaxation._FLOWS.clear()
    try:
        started = time.process_time()
        found = []
        for deal in range(deals):
            result = search(game.new_initial_state(seed=deal_seed(101, deal)), budget, None, Pruning())
            found.append((result.result, result.nodes))
        return time.process_time() - started, found
    finally:
        relaxation.card_flow = _REAL_CARD_FLOW
        relaxation._FLOWS.clear()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=6)
    parser.add_argument("--budget", type=int, default=20_000)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--only", action="append", default=[], metavar="NAME", help="only this design (file stem)")
    args = parser.parse_args()
    print(f"{args.deals} deals a design (seed 101), {args.budget:,} positions each, best of {args.rounds} rounds")
    columns = f"{'positions with':>16}{'without':>10}{'decided':>9}{'CPU s with':>12}{'without':>9}{'ratio':>7}"
    print(f"{'game':<22}{columns}")
    for name in args.only or DEFAULT_GAMES:
        game = game_for(open_design(GAMES / f"{name}.cardz").json_text)
        best = {True: float("inf"), False: float("inf")}
        found: dict[bool, list[tuple[str, int]]] = {}
        for with_test in (True, False):  # first use: compiled rules, tables built once per game
            _solve(game, 1, min(args.budget, 1_000), with_test)
        for round_number in range(args.rounds):
            for with_test in (True, False) if round_number % 2 == 0 else (False, True):
                cpu, found[with_test] = _solve(game, args.deals, args.budget, with_test)
                best[with_test] = min(best[with_test], cpu)
        positions = {side: sum(nodes for _, nodes in found[side]) for side in found}
        decided = sum(verdict != "unknown" for verdict, _ in found[True])
        same = "" if found[True] == found[False] else "  (verdicts or positions differ: the test pruned)"
        print(f"{name:<22}{positions[True]:>16,}{positions[False]:>10,}{decided:>6}/{args.deals:<2}"
              f"{best[True]:>12.2f}{best[False]:>9.2f}{best[True] / best[False]:>7.2f}{same}")


if __name__ == "__main__":
    main()
