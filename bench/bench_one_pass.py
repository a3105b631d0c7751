"""The portfolio with and without the best-first pass on two-deck one-pass games, same deals and budget.

    python bench/bench_one_pass.py [--games rank-and-file,streets] [--deals N] [--seed S] [--budget N]

In a design with more than one deck whose waste is never turned back,
:func:`cardz_tools.analysis.tableau_search.search` gives the greedy best-first pass no turns
(:func:`~cardz_tools.analysis.tableau_search.best_first_pass`; docs/analysis.md, "The best-first
pass with one pass through the stock"). "With" is the same search with the pass put back.
Both get the same deals and the same budget of positions per deal, with no time bound, so the counts
are deterministic whatever the machine's load. Per game it prints the verdicts (w won, l lost,
. unknown), the deals decided, the positions of all the deals (an undecided deal counts its budget),
their ratio (with / without) and the CPU seconds; verdicts that disagree stop it.
"""

from __future__ import annotations

import argparse
import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))

from bench.deal_runs import portfolio_run, print_comparison  # noqa: E402
from cardz_tools.analysis import tableau_search  # noqa: E402
from cardz_tools.engine import Game  # noqa: E402
from cardz_tools.loading import open_design  # noqa: E402

GAMES = pathlib.Path(__file__).resolve().parents[1] / "games"


def run(game: Game, with_pass: bool, deals: int, seed: int, budget: int) -> tuple[str, int, float]:
    """(verdicts, positions, CPU seconds) of the portfolio, with the best-first pass when ``with_pass``."""
    saved = tableau_search.best_first_pass
    if with_pass:
        tableau_search.best_first_pass = lambda game, plan: True
    try:
        return portfolio_run(game, range(deals), seed, budget)
    finally:
        tableau_search.best_first_pass = saved


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", default="rank-and-file,streets")
    parser.add_argument("--deals", type=int, default=5)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--budget", type=int, default=20_000)
    args = parser.parse_args(argv)
    print(f"seed {args.seed}, {args.deals} deals, {args.budget:,} positions a deal")
    for name in args.games.split(","):
        game = Game(open_design(GAMES / f"{name}.cardz").design)
        if tableau_search.best_first_pass(game, tableau_search.plan_for(game, tableau_search.Pruning())):
            print(f"{name}: one deck or a waste that is turned back, the best-first pass keeps its turns")
            continue
        with_it = run(game, True, args.deals, args.seed, args.budget)
        without = run(game, False, args.deals, args.seed, args.budget)
        print_comparison(name, ("with", with_it), ("without", without))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
