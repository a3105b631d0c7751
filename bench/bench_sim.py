"""Simulation and solver throughput, measured against baselines in the same run.

    python bench/bench_sim.py [--playouts N] [--deals N] [--budget N] [--only NAME ...]

Prints, for every shipped game:
- ``cardz sim`` playouts per second with one worker and with two, and their ratio
  (the goal: two workers give at least 1.7 times the throughput of one);
- solver deals per second at a fixed budget.
The engine against hand-written playouts of the seed games is ``bench/bench_engine.py``.
"""

from __future__ import annotations

import argparse
import pathlib
import sys
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))

from cardz_tools.analysis.sim import simulate  # noqa: E402
from cardz_tools.analysis.solve import solve  # noqa: E402
from cardz_tools.loading import DesignError, open_design  # noqa: E402

GAMES = pathlib.Path(__file__).resolve().parents[1] / "games"


def _rate(design_json: str, playouts: int, workers: int) -> float:
    started = time.perf_counter()
    simulate(design_json, playouts, seed=1, workers=workers)
    return playouts / (time.perf_counter() - started)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--playouts", type=int, default=3000)
    parser.add_argument("--deals", type=int, default=6)
    parser.add_argument("--budget", type=int, default=5000)
    parser.add_argument("--only", action="append", default=[], metavar="NAME", help="only this design (file stem)")
    args = parser.parse_args()
    print(f"{'game':<28} {'1 worker':>10} {'2 workers':>10} {'ratio':>6}   {'solver':>12}")
    for path in sorted(GAMES.glob("*.cardz")):
        if args.only and path.stem not in args.only:
            continue
        try:
            text = open_design(path).json_text
        except DesignError:
            print(f"{path.stem:<28} (does not lint clean; skipped)")
            continue
        _rate(text, 50, 2)  # warm the pool's import and compile paths once
        one = _rate(text, args.playouts, 1)
        two = _rate(text, args.playouts, 2)
        started = time.perf_counter()
        solve(text, args.deals, seed=1, budget=args.budget, workers=1)
        deals_per_s = args.deals / (time.perf_counter() - started)
        print(f"{path.stem:<28} {one:>8.0f}/s {two:>8.0f}/s {two / one:>6.2f}   {deals_per_s:>8.2f} deals/s", flush=True)


if __name__ == "__main__":
    main()
