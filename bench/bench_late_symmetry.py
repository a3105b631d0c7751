"""The late classes of the position key (columns interchangeable once the stock is empty for good), on and off.

    python bench/bench_late_symmetry.py [--deals N] [--positions N]

For each game with late classes (:func:`~cardz_tools.analysis.symmetry.late_classes`), the
solver searches the same deals (seed 101) to the same number of positions with and without
them, so the figures do not depend on the machine's load: it prints the deals each setting
wins and the positions each spent in all (without / with: how many times fewer positions).
"""

from __future__ import annotations

import argparse
import pathlib
import sys
from typing import Any

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))

from cardz_tools.analysis import symmetry, tableau_search  # noqa: E402
from cardz_tools.analysis.playout import deal_seed  # noqa: E402
from cardz_tools.analysis.solve import solve_deal  # noqa: E402
from cardz_tools.engine import Game  # noqa: E402
from cardz_tools.loading import open_design  # noqa: E402

GAMES = ("spider-one-suit", "spiderette", "spider", "will-o-the-wisp")
ROOT = pathlib.Path(__file__).resolve().parents[1] / "games"


def searched(game: Game, deals: int, positions: int, late: bool) -> tuple[int, int]:
    """(deals won, positions searched) over ``deals`` deals, ``positions`` each, with or without late classes."""
    real = symmetry.late_classes

    def no_late(_: Any) -> tuple[frozenset[int], tuple[tuple[int, ...], ...]]:
        return frozenset(), ()

    symmetry.late_classes = real if late else no_late  # type: ignore[assignment]
    tableau_search._PLANS.clear()
    try:
        won = nodes = 0
        for deal in range(deals):
            found = solve_deal(game.new_initial_state(seed=deal_seed(101, deal)), positions, None)
            won += found.result == "won"
            nodes += found.nodes
        return won, nodes
    finally:
        symmetry.late_classes = real


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=10)
    parser.add_argument("--positions", type=int, default=15_000)
    args = parser.parse_args()
    print(f"{'game':<18} {'won without':>11} {'won with':>9} {'positions without':>18} {'with':>8} {'ratio':>6}")
    for name in GAMES:
        game = Game(open_design(ROOT / f"{name}.cardz").design)
        won_before, before = searched(game, args.deals, args.positions, late=False)
        won_after, after = searched(game, args.deals, args.positions, late=True)
        print(f"{name:<18} {won_before:>11} {won_after:>9} {before:>18} {after:>8} {before / after:>6.2f}")


if __name__ == "__main__":
    main()
