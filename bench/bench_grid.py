"""The grid search (Gaps and its variants) in this tree against another checkout, on the same deals and budget.

    python bench/bench_grid.py --baseline CHECKOUT [--games gaps-no-redeal,gaps-basic] [--deals 0,2,3,4]
                               [--seed 0] [--budget 200000] [--repeat 2] [--member complete|quick|looser|portfolio]

Each side runs in its own process (``--member``: the complete depth-first search alone, the quick
best-first pass alone, the looser quick pass alone (newest first), or the portfolio of ``grid_solve``),
taking turns ``--repeat`` times, on the same deals with the same position budget and no time bound, so
the verdicts and positions must match deal by deal when only the speed changed (a change of the
search itself prints both). It prints the least CPU seconds of each side per game and their ratio
(baseline / this): above 1 this tree is faster. Make a baseline with ``git worktree add`` or ``git archive``.
"""

from __future__ import annotations

import argparse
import json
import pathlib
import subprocess
import sys

HERE = pathlib.Path(__file__).resolve().parents[1]

WORKER = """
import json, pathlib, sys, time
sys.path.insert(0, sys.argv[1])
from cardz_tools.analysis.grid_search import GridSearch, _finish, grid_solve
from cardz_tools.analysis.playout import deal_seed
from cardz_tools.analysis.runner import game_for
from cardz_tools.loading import open_design
name, seed, deals, budget, member = sys.argv[2], int(sys.argv[3]), sys.argv[4], int(sys.argv[5]), sys.argv[6]
game = game_for(open_design(pathlib.Path(sys.argv[1]) / "games" / f"{name}.cardz").json_text)
answers = []
started = time.process_time()
for index in [int(part) for part in deals.split(",")]:
    state = game.new_initial_state(seed=deal_seed(seed, index))
    if member == "portfolio":
        result, _, nodes = grid_solve(state, budget, None)
    else:
        search = GridSearch.of(state)
        search.looser = search.newest_first = member == "looser"
        run = search.depth_first(budget, None) if member == "complete" else search.best_first(budget, None)
        result, _, nodes = _finish(run)
    answers.append([index, result, nodes])
print(json.dumps({"seconds": time.process_time() - started, "answers": answers}))
"""


def side(tree: pathlib.Path, game: str, args: argparse.Namespace) -> dict[str, object]:
    """One run of the worker in ``tree``: its CPU seconds and (deal, result, positions) per deal."""
    command = [sys.executable, "-c", WORKER, str(tree), game, str(args.seed), args.deals, str(args.budget), args.member]
    done = subprocess.run(command, capture_output=True, text=True, check=True)
    answer: dict[str, object] = json.loads(done.stdout)
    return answer


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", type=pathlib.Path, required=True)
    parser.add_argument("--games", default="gaps-no-redeal,gaps-basic")
    parser.add_argument("--deals", default="0,2,3,4")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--budget", type=int, default=200_000)
    parser.add_argument("--repeat", type=int, default=2)
    parser.add_argument("--member", choices=("complete", "quick", "looser", "portfolio"), default="complete")
    args = parser.parse_args()
    print(f"{args.member}, deals {args.deals} of seed {args.seed}, {args.budget:,} positions each")
    print(f"{'game':<18} {'baseline s':>10} {'this s':>8} {'ratio':>6}  answers")
    for game in args.games.split(","):
        best = {"baseline": float("inf"), "this": float("inf")}
        answers: dict[str, object] = {}
        for _ in range(args.repeat):
            for name, tree in (("baseline", args.baseline), ("this", HERE)):
                run = side(tree, game, args)
                best[name] = min(best[name], float(run["seconds"]))  # type: ignore[arg-type]
                answers[name] = run["answers"]
        same = answers["baseline"] == answers["this"]
        shown = answers["this"] if same else answers
        print(f"{game:<18} {best['baseline']:>10.2f} {best['this']:>8.2f} {best['baseline'] / best['this']:>6.2f}  "
              f"{'same: ' if same else 'DIFFER: '}{shown}")


if __name__ == "__main__":
    main()
