"""The restarts' jitter keyed by the position against the jitter drawn from one stream, on the same deals and budget.

    python bench/bench_keyed_jitter.py [--games freecell,baker-s-game] [--deals 20] [--seed S] [--budget N]

:func:`cardz_tools.analysis.tableau_search.search` with every piece, the restarts of a portfolio that shares its
proofs of loss scoring children with :func:`.tableau_search.keyed_noise` (the tree now) against the noise drawn from
one generator per restart (before). Both get the same deals and budget of positions, with no time bound, so the
counts are deterministic whatever the machine's load (the late restarts of an open board then join after
:data:`.tableau_search.LATE_SHARE` of the positions: at 90,000, about what a 10 s deal stores in the results run, after
9,000, as after its first second). A deal decided before the restarts join is searched alike either way and is run
once. Per game: the verdicts (w won, l lost, . unknown), the deals decided, the positions of all the deals and
their ratio (before / now), the CPU seconds.
"""

from __future__ import annotations

import argparse
import pathlib
import sys
import time
from typing import Any

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))

from cardz_tools.analysis import tableau_search  # noqa: E402
from cardz_tools.analysis.playout import deal_seed  # noqa: E402
from cardz_tools.engine import Game  # noqa: E402
from cardz_tools.loading import open_design  # noqa: E402

GAMES = pathlib.Path(__file__).resolve().parents[1] / "games"
KEYED = tableau_search.Progress.jitter


def streamed(self: Any, seed: int, keyed: bool = False) -> None:
    """The jitter as it was: drawn from one generator whatever ``keyed`` says."""
    KEYED(self, seed, False)


def solve(root: Any, budget: int, keyed: bool) -> tableau_search.SearchResult:
    """The portfolio on ``root`` with the keyed jitter or the streamed one; a win that does not replay stops."""
    tableau_search.Progress.jitter = KEYED if keyed else streamed  # type: ignore[method-assign]
    try:
        found = tableau_search.search(root, budget, None, tableau_search.Pruning())
    finally:
        tableau_search.Progress.jitter = KEYED  # type: ignore[method-assign]
    if found.result == "won" and not tableau_search.replays_to_a_win(root, found.line):
        raise SystemExit("a win that does not replay")
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", default="freecell")
    parser.add_argument("--deals", type=int, default=20)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--budget", type=int, default=90_000)
    args = parser.parse_args(argv)
    join = tableau_search.LATE_SHARE * args.budget
    print(f"seed {args.seed}, {args.deals} deals, {args.budget:,} positions a deal, restarts join at {join:,.0f}")
    header = f"{'game':26} {'before':>22} {'now':>22} {'decided':>9} {'positions before':>17} {'now':>10} {'ratio':>6}"
    print(f"{header} CPU s")
    for name in args.games.split(","):
        game = Game(open_design(GAMES / f"{name}.cardz").design)
        verdicts: list[list[str]] = [[], []]
        positions, seconds = [0, 0], [0.0, 0.0]
        for index in range(args.deals):
            root = game.new_initial_state(seed=deal_seed(args.seed, index))
            for side, keyed in enumerate((False, True)):
                started = time.process_time()
                found = solve(root, args.budget, keyed)
                seconds[side] += time.process_time() - started
                verdicts[side].append(found.result[0] if found.result != "unknown" else ".")
                positions[side] += found.nodes
                if found.nodes < join:  # decided before the restarts joined: the same search either way
                    verdicts[1].append(verdicts[0][-1])
                    positions[1] += found.nodes
                    break
        before, now = ("".join(v) for v in verdicts)
        decided = [sum(v != "." for v in side) for side in (before, now)]
        print(
            f"{name:26} {before:>22} {now:>22} {decided[0]:>4} {decided[1]:>4} {positions[0]:>17,} {positions[1]:>10,}"
            f" {positions[0] / max(1, positions[1]):>5.2f}x {seconds[0]:>5.0f} {seconds[1]:>5.0f}",
            flush=True,
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
