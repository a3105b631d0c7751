"""Random playouts (``play_range``, what ``cardz sim`` and ``cardz check`` run) against another checkout.

    python bench/bench_playout.py --baseline PATH [--playouts N] [--rounds N] [--only NAME ...]

Each round plays the same playouts of each design once with the baseline checkout's code and
once with this one, each in a fresh process, alternating which goes first, and takes the CPU
time of the playouts alone (``time.process_time`` in the child: no start-up, no neighbours'
load). It prints playouts per CPU second for both sides, best of the rounds, and the ratio
this / baseline (issue 18: no slower than before, a ratio of at least 1.0 within noise).
Without ``--baseline`` it prints this checkout's rates only.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_GAMES = ("monte-carlo", "weathervane", "klondike", "freecell", "golf", "spider")

_CHILD = """
import json, sys, time
from pathlib import Path
import cardz_tools
from cardz_tools.analysis.playout import play_range
from cardz_tools.analysis.runner import game_for
from cardz_tools.loading import open_design
games, playouts = json.loads(sys.argv[1]), int(sys.argv[2])
rates = {}
for path in games:
    game = game_for(open_design(Path(path)).json_text)
    play_range(game, 0, 20, 7)  # first use: compile caches, interned moves
    started = time.process_time()
    play_range(game, 0, playouts, 1)
    rates[path] = playouts / (time.process_time() - started)
print(json.dumps({"package": cardz_tools.__file__, "rates": rates}))
"""


def _rates(code: Path, games: list[str], playouts: int) -> dict[str, float]:
    """Playouts per CPU second of each design, with the package found under ``code``.

    The child runs in ``code``: ``python -c`` puts its working folder ahead of ``PYTHONPATH`` on
    ``sys.path``, so a child started from another checkout would import that one's package instead.
    """
    env = {**os.environ, "PYTHONPATH": str(code)}
    done = subprocess.run(
        [sys.executable, "-c", _CHILD, json.dumps(games), str(playouts)],
        cwd=code, env=env, capture_output=True, text=True, check=True,
    )
    answer = json.loads(done.stdout)
    package = Path(answer["package"]).resolve()
    if not package.is_relative_to(code.resolve()):
        sys.exit(f"bench_playout: the child meant to run {code} imported {package}")
    rates: dict[str, float] = answer["rates"]
    return rates


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", type=Path, default=None, help="a checkout of cardz-tools to compare with")
    parser.add_argument("--playouts", type=int, default=500)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--only", action="append", default=[], metavar="NAME", help="only this design (file stem)")
    args = parser.parse_args()
    names = args.only or list(DEFAULT_GAMES)
    games = [str(ROOT / "games" / f"{name}.cardz") for name in names]
    sides = {"this": ROOT} if args.baseline is None else {"baseline": args.baseline.resolve(), "this": ROOT}
    best: dict[str, dict[str, float]] = {side: {} for side in sides}
    order = list(sides)
    for round_number in range(args.rounds):
        for side in order if round_number % 2 == 0 else reversed(order):
            for path, rate in _rates(sides[side], games, args.playouts).items():
                best[side][path] = max(best[side].get(path, 0.0), rate)
    print(f"{args.playouts} playouts a design, best of {args.rounds} rounds, playouts per CPU second")
    header = f"{'game':<22}" + "".join(f"{side:>12}" for side in sides)
    print(header + (f"{'ratio':>8}" if args.baseline is not None else ""))
    for name, path in zip(names, games, strict=True):
        line = f"{name:<22}" + "".join(f"{best[side][path]:>10.0f}/s" for side in sides)
        if args.baseline is not None:
            line += f"{best['this'][path] / best['baseline'][path]:>8.2f}"
        print(line)


if __name__ == "__main__":
    main()
