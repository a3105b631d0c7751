"""The two-deck and one-pass stock games, solved before and after the fixed-waste pieces, in one run.

    python bench/bench_two_deck.py [--deals N] [--budget N] [--games a,b,...]

"Before" is the solver with :func:`cardz_tools.analysis.dominance.fixed_wastes` switched off:
the waste of a draw with no redeal is then neither a source of safe moves nor a pile the move
ordering scores, and it no longer brings in the portfolio's ``restarts`` member (the search as
it was before them). "After" is the solver as it is. Both get
the same deals (seed 101) and the same budget of positions per deal, with no time bound, so
the counts are deterministic whatever the machine's load. Per game it prints the deals decided
(won / lost), the positions stored over all deals (an undecided deal counts its whole budget),
the CPU seconds and the ratio of the positions (before / after). Decided deals must agree.
"""

from __future__ import annotations

import argparse
import pathlib
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))

from cardz_tools.analysis import dominance, tableau_search  # noqa: E402
from cardz_tools.analysis.playout import deal_seed  # noqa: E402
from cardz_tools.analysis.solve import solve_deal  # noqa: E402
from cardz_tools.engine import Game  # noqa: E402
from cardz_tools.loading import open_design  # noqa: E402

GAMES = pathlib.Path(__file__).resolve().parents[1] / "games"
TWO_DECK_GAMES = ("duchess", "lucas", "limited", "forty-thieves", "chameleon")


@contextmanager
def without_fixed_wastes() -> Iterator[None]:
    """The solver as it was before the fixed-waste pieces (module doc)."""
    saved = dominance.fixed_wastes

    def none(game: object) -> set[int]:
        return set()

    dominance.fixed_wastes = none
    tableau_search.fixed_wastes = none
    try:
        yield
    finally:
        dominance.fixed_wastes = saved
        tableau_search.fixed_wastes = saved


def run(name: str, deals: int, budget: int) -> tuple[list[str], int, float]:
    """(verdict per deal, positions, CPU seconds) of one side, on a Game of its own."""
    game = Game(open_design(GAMES / f"{name}.cardz").design)
    verdicts, positions = [], 0
    started = time.process_time()
    for index in range(deals):
        found = solve_deal(game.new_initial_state(seed=deal_seed(101, index)), budget)
        verdicts.append(found.result)
        positions += found.nodes
    return verdicts, positions, time.process_time() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=3)
    parser.add_argument("--budget", type=int, default=20_000)
    parser.add_argument("--games", default=",".join(TWO_DECK_GAMES), help="Designs, comma-separated.")
    args = parser.parse_args()
    print(f"{args.deals} deals per game (seed 101), {args.budget:,} positions per deal; CPU seconds")
    print(f"{'game':<16} {'before':>32} {'after':>32} {'positions ratio':>16}")
    for name in args.games.split(","):
        with without_fixed_wastes():
            before = run(name, args.deals, args.budget)
        after = run(name, args.deals, args.budget)
        for deal, (old, new) in enumerate(zip(before[0], after[0], strict=True)):
            assert "unknown" in (old, new) or old == new, f"{name} deal {deal}: {old} before, {new} after"
        cells = []
        for verdicts, positions, seconds in (before, after):
            won, lost = verdicts.count("won"), verdicts.count("lost")
            cells.append(f"{won}+{lost}/{args.deals} decided {positions:>9,} pos {seconds:6.1f} s")
        print(f"{name:<16} {cells[0]:>32} {cells[1]:>32} {before[1] / after[1]:>15.2f}x", flush=True)


if __name__ == "__main__":
    main()
