"""The ``runs`` members with two decks and the beams: left out (:data:`~cardz_tools.analysis.tableau_search.TWIN_BEAMS`)
against kept, on the same deals and budget, in one run.

    python bench/bench_twin_beams.py [--games spider] [--deals N | --only 0,2,9] [--seed S] [--budget N] [--side new]

Both sides get the same deals and the same budget of positions per deal with no time bound, so the counts are
deterministic whatever the machine's load (180,000 is about what a 10 s deal of Spider stores in the results run).
Per deal it prints each side's verdict, positions and the member that decided; per game the deals decided, the
positions and the CPU seconds of each side. Verdicts that contradict each other stop the bench. ``--side new``
or ``--side old`` runs one side only.
"""

from __future__ import annotations

import argparse
import pathlib
import sys
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))

from cardz_tools.analysis import tableau_search  # noqa: E402
from cardz_tools.analysis.playout import deal_seed  # noqa: E402
from cardz_tools.analysis.runner import game_for  # noqa: E402
from cardz_tools.loading import open_design  # noqa: E402

GAMES = pathlib.Path(__file__).resolve().parents[1] / "games"


def solve(root: object, budget: int, twins: bool) -> tuple[str, int, str | None, float]:
    """(verdict, positions, stage, CPU seconds) of the portfolio with :data:`TWIN_BEAMS` set to ``twins``."""
    saved, tableau_search.TWIN_BEAMS = tableau_search.TWIN_BEAMS, twins
    started = time.process_time()
    try:
        found = tableau_search.search(root, budget, None, tableau_search.Pruning())
    finally:
        tableau_search.TWIN_BEAMS = saved
    if found.result == "won" and not tableau_search.replays_to_a_win(root, found.line):
        raise SystemExit("a win that does not replay")
    return found.result, found.nodes, found.stage, time.process_time() - started


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", default="spider")
    parser.add_argument("--deals", type=int, default=10)
    parser.add_argument("--only", default=None, help="deal indices, comma-separated")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--budget", type=int, default=180_000)
    parser.add_argument("--side", choices=("both", "new", "old"), default="both")
    args = parser.parse_args()
    deals = [int(d) for d in args.only.split(",")] if args.only else list(range(args.deals))
    sides = {"both": (True, False), "new": (True,), "old": (False,)}[args.side]
    for name in args.games.split(","):
        game = game_for(open_design(GAMES / f"{name}.cardz").json_text)
        totals = {twins: [0, 0, 0.0] for twins in sides}
        for index in deals:
            cells, verdicts = [], set()
            for twins in sides:
                result, nodes, stage, cpu = solve(game.new_initial_state(seed=deal_seed(args.seed, index)),
                                                  args.budget, twins)
                totals[twins][0] += result != "unknown"
                totals[twins][1] += nodes
                totals[twins][2] += cpu
                if result != "unknown":
                    verdicts.add(result)
                cells.append(f"{'without' if twins else 'with'} the runs members: {result} {nodes:,} ({stage})")
            print(f"{name} seed {args.seed} deal {index}: " + "; ".join(cells), flush=True)
            if len(verdicts) > 1:
                raise SystemExit(f"{name} deal {index}: the verdicts disagree")
        for twins, (decided, positions, cpu) in totals.items():
            print(f"{name} seed {args.seed} {'without' if twins else 'with'} the runs members: decided {decided} of "
                  f"{len(deals)} at {args.budget:,}, positions {positions:,}, CPU {cpu:.0f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
