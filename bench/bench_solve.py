"""The compact search of sink games against the search over engine states, in one run.

    python bench/bench_solve.py [--deals N] [--budget N]

Both searches get the same deals and the same position budget. For each sink game it
prints how many deals each decided (won or proved lost), their CPU time, positions per
second, and the ratio of the times (engine-state search / compact search): how many
times faster the compact search reaches its answers. Decided deals must agree.
"""

from __future__ import annotations

import argparse
import pathlib
import sys
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))

from cardz_tools.analysis.playout import deal_seed  # noqa: E402
from cardz_tools.analysis.runner import game_for  # noqa: E402
from cardz_tools.analysis.sink_search import compact_solve  # noqa: E402
from cardz_tools.analysis.solve import search_states  # noqa: E402
from cardz_tools.loading import open_design  # noqa: E402

GAMES = pathlib.Path(__file__).resolve().parents[1] / "games"
SINK_GAMES = ("golf", "golf-queen-on-king", "golf-wrap", "black-hole")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=12)
    parser.add_argument("--budget", type=int, default=200_000)
    args = parser.parse_args()
    print(f"budget {args.budget:,} positions per deal, {args.deals} deals per game (seed 0)")
    print(f"{'game':<20} {'engine-state search':>34} {'compact search':>34} {'time ratio':>10}")
    for name in SINK_GAMES:
        game = game_for(open_design(GAMES / f"{name}.cardz").json_text)
        totals = {"engine": [0, 0.0, 0], "compact": [0, 0.0, 0]}  # decided, seconds, positions
        for index in range(args.deals):
            state = game.new_initial_state(seed=deal_seed(0, index))
            answers = {}
            for side in ("engine", "compact"):
                started = time.process_time()
                if side == "engine":
                    result, _, nodes = search_states(state.clone(), args.budget)
                else:
                    answer = compact_solve(state.clone(), args.budget, None)
                    assert answer is not None, f"{name} is not a sink game"
                    result, _, nodes = answer
                totals[side][1] += time.process_time() - started
                totals[side][2] += nodes
                totals[side][0] += result != "unknown"
                answers[side] = result
            if "unknown" not in answers.values():
                assert answers["engine"] == answers["compact"], f"{name} deal {index}: {answers}"
        cells = []
        for side in ("engine", "compact"):
            decided, seconds, nodes = totals[side]
            cells.append(f"{decided:>2}/{args.deals} decided {seconds:7.1f} s {nodes / seconds / 1000:5.0f}k pos/s")
        ratio = totals["engine"][1] / totals["compact"][1]
        print(f"{name:<20} {cells[0]:>34} {cells[1]:>34} {ratio:>9.1f}x")


if __name__ == "__main__":
    main()
