"""Instructions per position of the tableau search, this tree against a baseline tree, counted by valgrind.

    git archive <base> | tar -x -C /tmp/speed-base
    python bench/bench_instructions.py --baseline /tmp/speed-base [--games klondike,canfield-runs] [--low 0.04]

CPU seconds on a shared machine (load 5 to 15 on two cores) move by 10% or more between runs of the same code, so
:mod:`bench_speed` cannot show a change of a few percent. An instruction count does not depend on the load: each
side's worker (:func:`bench_speed.worker`, the same deals and budgets) runs under ``valgrind --tool=cachegrind
--cache-sim=no`` at two budgets (``--low`` and ``--high`` times :data:`bench_speed.DEALS`' budget), and the slope,
(instructions at the high budget - at the low) / (positions at the high - at the low), leaves out the start-up (imports,
compiling the game). The bench stops unless both sides search the same positions. About 50 times the CPU of a plain
run: keep the budgets small (a few thousand positions). It counts instructions, not cache misses: say so beside it.
"""

from __future__ import annotations

import argparse
import os
import pathlib
import re
import subprocess
import sys

HERE = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(HERE / "bench"))

from bench_speed import DEALS  # noqa: E402


def counted(root: pathlib.Path, game: str, scale: float) -> tuple[int, int]:
    """(positions, instructions) of the worker of ``root`` on ``game`` at ``scale`` times its budget."""
    python = os.path.realpath(sys.executable)  # the interpreter itself, not a launcher valgrind would not follow
    command = ["valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null", python,
               str(HERE / "bench" / "bench_speed.py"), "--worker", str(root), "--games", game, "--scale", str(scale)]
    done = subprocess.run(command, capture_output=True, text=True, env={**os.environ, "PYTHONHASHSEED": "0"}, cwd=root,
                          check=False)
    refs = re.search(r"I\s+refs:\s+([\d,]+)", done.stderr)
    if done.returncode != 0 or refs is None:
        raise SystemExit(f"{root} {game}: exit {done.returncode}\n{done.stderr[-2000:]}")
    nodes = sum(int(n) for n in re.findall(r'"nodes": (\d+)', done.stdout))
    return nodes, int(refs.group(1).replace(",", ""))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", type=pathlib.Path, default=pathlib.Path("/tmp/speed-base"))
    parser.add_argument("--games", default="klondike,canfield-runs,canfield")
    parser.add_argument("--low", type=float, default=0.04, help="The low budget, times each deal's.")
    parser.add_argument("--high", type=float, default=0.24, help="The high budget, times each deal's.")
    args = parser.parse_args()
    games = [name for name in args.games.split(",") if name]
    if unknown := [name for name in games if name not in DEALS]:
        raise SystemExit(f"no deals set for {', '.join(unknown)} (known: {', '.join(DEALS)})")
    if not (args.baseline / "cardz_tools").is_dir():
        raise SystemExit(f"{args.baseline} holds no cardz_tools (git archive <base> | tar -x -C {args.baseline})")
    print(f"{'game':<16} {'positions':>17} {'base instr/pos':>15} {'this instr/pos':>15} {'ratio':>6}")
    for game in games:
        slopes = {}
        spans = {}
        for side, root in (("base", args.baseline.resolve()), ("this", HERE)):
            (low_nodes, low), (high_nodes, high) = (counted(root, game, scale) for scale in (args.low, args.high))
            if high_nodes <= low_nodes:
                raise SystemExit(f"{game}: no more positions at --high than at --low")
            slopes[side] = (high - low) / (high_nodes - low_nodes)
            spans[side] = (low_nodes, high_nodes)
        if spans["base"] != spans["this"]:
            raise SystemExit(f"{game}: positions differ: base {spans['base']}, this {spans['this']}")
        span = f"{spans['base'][0]:,}-{spans['base'][1]:,}"
        print(f"{game:<16} {span:>17} {slopes['base']:>15,.0f} {slopes['this']:>15,.0f} "
              f"{slopes['base'] / slopes['this']:>5.2f}x")
    print("both sides searched the same positions")


if __name__ == "__main__":
    main()
