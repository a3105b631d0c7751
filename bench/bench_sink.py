"""The sink games' solver against a baseline checkout, in one run: deals decided, positions, CPU and the ratio.

    python bench/bench_sink.py --baseline DIR [--games black-hole,golf-queen-on-king,worm-hole]
                               [--deals N] [--budget N] [--deal-seconds S] [--seed N]

``DIR`` is another checkout of cardz-tools (``git archive main | tar -x -C DIR``). Each game's
deals are solved one after another in a child process per checkout (so neither shares the
other's imports or caches), with ``solve_state`` at the same budget and time bound per deal.
It prints, per game and checkout, the deals won, lost and unknown, the positions, the CPU
seconds of the child, and the ratio of the CPU times (this / baseline: below 1 is faster).
Decided deals must agree (it says so when they do not).
"""

from __future__ import annotations

import argparse
import json
import os
import pathlib
import resource
import subprocess
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parents[1]

CHILD = """
import json, pathlib, sys, time
sys.path.insert(0, sys.argv[1])
from cardz_tools.analysis.playout import deal_seed
from cardz_tools.analysis.runner import game_for
from cardz_tools.analysis.solve import solve_state
from cardz_tools.loading import open_design
path, (deals, budget), seconds, seed = sys.argv[2], map(int, sys.argv[3:5]), float(sys.argv[5]), int(sys.argv[6])
game = game_for(open_design(pathlib.Path(path)).json_text)
answers = []
for index in range(deals):
    state = game.new_initial_state(seed=deal_seed(seed, index))
    result, _, nodes = solve_state(state, budget, time.monotonic() + seconds)
    answers.append([result, nodes])
print(json.dumps(answers))
"""


def _solve(code: pathlib.Path, game: str, args: argparse.Namespace) -> tuple[list[list[object]], float]:
    """(per deal [result, positions], the child's CPU seconds) with the checkout ``code``."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    path = ROOT / "games" / f"{game}.cardz"
    command = [sys.executable, "-c", CHILD, str(code), str(path), str(args.deals), str(args.budget),
               str(args.deal_seconds), str(args.seed)]
    output = subprocess.run(command, check=True, capture_output=True, text=True).stdout
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return json.loads(output), cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", type=pathlib.Path, required=True, help="another checkout of cardz-tools")
    parser.add_argument("--games", default="black-hole,golf-queen-on-king,worm-hole")
    parser.add_argument("--deals", type=int, default=20)
    parser.add_argument("--budget", type=int, default=1_000_000)
    parser.add_argument("--deal-seconds", type=float, default=10.0)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    load = os.getloadavg()[0]
    print(f"{args.deals} deals a game (seed {args.seed}), {args.budget:,} positions and {args.deal_seconds:g} s "
          f"a deal; load {load:.1f}")
    print(f"{'game':<20} {'checkout':<9} {'won':>4} {'lost':>5} {'unknown':>8} {'positions':>11} {'CPU s':>8} "
          f"{'deals/CPU s':>12}")
    started = time.monotonic()
    for game in args.games.split(","):
        rows = {}
        for label, code in (("baseline", args.baseline.resolve()), ("this", ROOT)):
            answers, cpu = _solve(code, game, args)
            counts = {kind: sum(1 for result, _ in answers if result == kind) for kind in ("won", "lost", "unknown")}
            positions = sum(int(str(nodes)) for _, nodes in answers)
            rows[label] = (answers, cpu)
            print(f"{game:<20} {label:<9} {counts['won']:>4} {counts['lost']:>5} {counts['unknown']:>8} "
                  f"{positions:>11,} {cpu:>8.1f} {args.deals / cpu:>12.2f}", flush=True)
        base, this = rows["baseline"][0], rows["this"][0]
        pairs = enumerate(zip(base, this, strict=True))
        clash = [i for i, (a, b) in pairs if "unknown" not in (a[0], b[0]) and a[0] != b[0]]
        ratio = rows["this"][1] / rows["baseline"][1]
        print(f"{game:<20} CPU this / baseline {ratio:.2f}" + (f"   DISAGREE on deals {clash}" if clash else ""))
    print(f"{time.monotonic() - started:.0f} s wall, load {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
