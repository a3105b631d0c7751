"""The depth-first member's share with two decks and one pass through the stock: two against
:data:`~cardz_tools.analysis.tableau_search.ONE_PASS_TWINS_WEIGHT`, on the same deals and budget, in one run.

    python bench/bench_one_pass_weight.py [--games rank-and-file,streets,limited,lucas] [--deals N] [--seed S]
        [--budget N]

Both sides get the same deals and the same budget of positions per deal with no time bound, so the
counts are deterministic whatever the machine's load (90,000 is about what a 10 s deal stores in the
results run). Per game it prints the verdicts (w won, l lost, . unknown), the deals decided, the
positions of all the deals (an undecided deal counts its budget) and their ratio (two / the weight),
and the CPU seconds; verdicts that contradict each other stop the bench.
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


def run(game: Game, weight: int, deals: int, seed: int, budget: int) -> tuple[str, int, float]:
    """(verdicts, positions, CPU seconds) of the portfolio with the depth-first member's share ``weight``."""
    saved, tableau_search.ONE_PASS_TWINS_WEIGHT = tableau_search.ONE_PASS_TWINS_WEIGHT, weight
    try:
        return portfolio_run(game, range(deals), seed, budget)
    finally:
        tableau_search.ONE_PASS_TWINS_WEIGHT = saved


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", default="rank-and-file,streets,limited,lucas")
    parser.add_argument("--deals", type=int, default=10)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--budget", type=int, default=90_000)
    args = parser.parse_args(argv)
    weight = tableau_search.ONE_PASS_TWINS_WEIGHT
    print(f"seed {args.seed}, {args.deals} deals, {args.budget:,} positions a deal; shares 2 against {weight}")
    for name in args.games.split(","):
        game = Game(open_design(GAMES / f"{name}.cardz").design)
        if tableau_search.best_first_pass(game, tableau_search.plan_for(game, tableau_search.Pruning())):
            print(f"{name}: not two decks with one pass through the stock")
            continue
        before = run(game, 2, args.deals, args.seed, args.budget)
        after = run(game, weight, args.deals, args.seed, args.budget)
        print_comparison(name, ("2", before), (str(weight), after))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
