"""The stall share with one pass through the stock: the portfolio without it (``STALL_MOST`` = 1) against with it
(:data:`~cardz_tools.analysis.tableau_search.STALL_UNIT`), on the same deals and budget, in one run.

    python bench/bench_stall.py [--games forty-thieves,rank-and-file,streets,limited,lucas,maria] [--deals N]
        [--only 0,6] [--seed S] [--budget N]
    python bench/bench_stall.py --games duchess,chameleon --deals 20     # one deck (session 19)

Both sides get the same deals and the same budget of positions per deal with no time bound, so the counts are
deterministic whatever the machine's load (``--budget 0``: each row's figure, :data:`ROW_POSITIONS`). Per game it
prints the verdicts (w won, l lost, . unknown), the deals decided, the positions of all the deals (an undecided deal
counts its budget) and their ratio (without / with), and the CPU seconds; verdicts that contradict each other stop
the bench.
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
ROW_POSITIONS = {"forty-thieves": 150_000, "maria": 160_000, "streets": 160_000, "rank-and-file": 140_000,
                 "limited": 120_000, "lucas": 56_000, "duchess": 120_000, "chameleon": 120_000}
"""Each row's positions a second (docs/results.md, session 11; Duchess and Chameleon session 19) times the seconds
that decide it: 10 (the second phase), Lucas its own 4."""


def run(game: Game, most: int, deals: list[int], seed: int, budget: int) -> tuple[str, int, float]:
    """(verdicts, positions, CPU seconds) of the portfolio with the stall share at most ``most`` times."""
    saved, tableau_search.STALL_MOST = tableau_search.STALL_MOST, most
    try:
        return portfolio_run(game, deals, seed, budget)
    finally:
        tableau_search.STALL_MOST = saved


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", default="forty-thieves,rank-and-file,streets,limited,lucas,maria")
    parser.add_argument("--deals", type=int, default=10)
    parser.add_argument("--only", default=None, help="deal indices, comma-separated")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--budget", type=int, default=0, help="positions a deal; 0: ROW_POSITIONS")
    parser.add_argument("--side", choices=("both", "new"), default="both")
    args = parser.parse_args(argv)
    deals = [int(d) for d in args.only.split(",")] if args.only else list(range(args.deals))
    most = tableau_search.STALL_MOST
    for name in args.games.split(","):
        game = Game(open_design(GAMES / f"{name}.cardz").design)
        budget = args.budget or ROW_POSITIONS.get(name, 100_000)
        print(f"{name}: seed {args.seed}, deals {deals}, {budget:,} positions a deal; stall at most 1 against {most}",
              flush=True)
        after = run(game, most, deals, args.seed, budget)
        if args.side == "new":
            verdicts, positions, cpu = after
            print(f"{name:16} {most} {verdicts}  positions {positions:>9,}  CPU {cpu:6.1f} s", flush=True)
            continue
        before = run(game, 1, deals, args.seed, budget)
        print_comparison(name, ("1", before), (str(most), after))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
