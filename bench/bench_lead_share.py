"""The portfolio's lead share on and off, on the same deals and budget, in one run.

    python bench/bench_lead_share.py [--games rank-and-file,limited] [--deals N] [--seed S] [--budget N]

In a design whose waste is never turned back, :func:`cardz_tools.analysis.tableau_search.search`
gives the member that has got :data:`~cardz_tools.analysis.tableau_search.LEAD_MARGIN` cards home
more than every other :data:`~cardz_tools.analysis.tableau_search.LEAD_WEIGHT` times its share
(docs/analysis.md, "The lead share"). "Off" is the same search with that switched off in the
game's plan. Both get the same deals and the same budget of positions per deal, with no time
bound, so the counts are deterministic whatever the machine's load. Per game it prints the
verdicts (w won, l lost, . unknown), the deals decided, the positions of all the deals (an
undecided deal counts its budget) and their ratio (off / on), and the CPU seconds.
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


def run(game: Game, lead: bool, deals: int, seed: int, budget: int) -> tuple[str, int, float]:
    """(verdicts, positions, CPU seconds) of the portfolio with the lead share ``lead``."""
    plan = tableau_search.plan_for(game, tableau_search.Pruning())
    saved, plan.lead = plan.lead, lead
    try:
        return portfolio_run(game, range(deals), seed, budget)
    finally:
        plan.lead = saved


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", default="rank-and-file,limited")
    parser.add_argument("--deals", type=int, default=10)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--budget", type=int, default=20_000)
    args = parser.parse_args(argv)
    print(f"seed {args.seed}, {args.deals} deals, {args.budget:,} positions a deal")
    for name in args.games.split(","):
        game = Game(open_design(GAMES / f"{name}.cardz").design)
        if not tableau_search.plan_for(game, tableau_search.Pruning()).lead:
            print(f"{name}: its waste is turned back, no lead share")
            continue
        off = run(game, False, args.deals, args.seed, args.budget)
        on = run(game, True, args.deals, args.seed, args.budget)
        print_comparison(name, ("off", off), ("on", on))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
