"""The portfolio with and without the shared proofs of loss, on the same deals and budget, in one run.

    python bench/bench_shared_losses.py [--games freecell-two-cell,beleaguered-castle] [--deals 0,5,19]
                                        [--seed S] [--budget N]

:func:`cardz_tools.analysis.tableau_search.search` with every piece (``Pruning()``) against the same
search with ``shared_losses`` off (docs/analysis.md, ``shared_losses``). Both get the same deals and the
same budget of positions per deal, with no time bound, so the counts are deterministic whatever the
machine's load. Per game it prints the verdicts (w won, l lost, . unknown), the deals decided, the
positions of all the deals (an undecided deal counts what it stored, about its budget) and their ratio
(off / on), and the CPU seconds.
"""

from __future__ import annotations

import argparse
import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))

from bench.deal_runs import portfolio_run  # noqa: E402
from cardz_tools.analysis.tableau_search import Pruning  # noqa: E402
from cardz_tools.engine import Game  # noqa: E402
from cardz_tools.loading import open_design  # noqa: E402

GAMES = pathlib.Path(__file__).resolve().parents[1] / "games"


def run(game: Game, pruning: Pruning, deals: list[int], seed: int, budget: int) -> tuple[str, int, float]:
    """(verdicts, positions, CPU seconds) of the portfolio with ``pruning`` on ``deals``."""
    return portfolio_run(game, deals, seed, budget, pruning)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", default="freecell-two-cell,beleaguered-castle")
    parser.add_argument("--deals", default="5,19", help="Deal numbers, comma-separated, or a count.")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--budget", type=int, default=60_000)
    args = parser.parse_args(argv)
    deals = [int(d) for d in args.deals.split(",")] if "," in args.deals else list(range(int(args.deals)))
    print(f"seed {args.seed}, deals {','.join(map(str, deals))}, {args.budget:,} positions a deal")
    header = f"{'game':22} {'off':>10} {'on':>10} {'decided':>9} {'positions off':>14} {'on':>10} {'ratio':>6}"
    print(f"{header} {'CPU s':>11}")
    for name in args.games.split(","):
        game = Game(open_design(GAMES / f"{name}.cardz").design)
        off = run(game, Pruning(shared_losses=False), deals, args.seed, args.budget)
        on = run(game, Pruning(), deals, args.seed, args.budget)
        decided = [sum(1 for v in verdicts if v != ".") for verdicts, _, _ in (off, on)]
        print(
            f"{name:22} {off[0]:>10} {on[0]:>10} {decided[0]:>4} {decided[1]:>4} {off[1]:>14,} {on[1]:>10,}"
            f" {off[1] / max(1, on[1]):>5.2f}x {off[2]:>5.1f} {on[2]:>5.1f}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
