"""Simulation and solver throughput, measured against baselines in the same run.

    python bench/bench_sim.py [--playouts N] [--deals N] [--budget N] [--only NAME ...]
    python bench/bench_sim.py --pointless [--playouts N] [--only NAME ...]

Prints, for every shipped game:
- ``cardz sim`` playouts per second with one worker and with two, and their ratio
  (the goal: two workers give at least 1.7 times the throughput of one);
- solver deals per second at a fixed budget.

``--pointless`` instead prints what the CZ509 check (moves that change nothing) costs random
play: CPU seconds of the same playouts with the check off and on, best of three alternating
rounds, and their ratio.
The engine against hand-written playouts of the seed games is ``bench/bench_engine.py``.
"""

from __future__ import annotations

import argparse
import pathlib
import sys
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))

from cardz_tools.analysis import pointless  # noqa: E402
from cardz_tools.analysis.playout import play_range  # noqa: E402
from cardz_tools.analysis.runner import game_for  # noqa: E402
from cardz_tools.analysis.sim import simulate  # noqa: E402
from cardz_tools.analysis.solve import solve  # noqa: E402
from cardz_tools.loading import DesignError, open_design  # noqa: E402

GAMES = pathlib.Path(__file__).resolve().parents[1] / "games"


def _rate(design_json: str, playouts: int, workers: int) -> float:
    started = time.perf_counter()
    simulate(design_json, playouts, seed=1, workers=workers)
    return playouts / (time.perf_counter() - started)


def _pointless_cost(design_json: str, playouts: int, rounds: int = 3) -> tuple[float, float, int]:
    """Best CPU seconds of ``playouts`` playouts with the CZ509 check off and on, and the moves it counted."""
    game = game_for(design_json)
    best = {False: float("inf"), True: float("inf")}
    counted = 0
    for _ in range(rounds):
        for enabled in (False, True):
            pointless._CACHE.pop(game, None)
            if not enabled:
                pointless._CACHE[game] = None  # as for a design with no interchangeable piles
            started = time.process_time()
            aggregate = play_range(game, 0, playouts, 1, max_moves=2000)
            best[enabled] = min(best[enabled], time.process_time() - started)
            counted = sum(aggregate.pointless_moves.values()) if enabled else counted
    pointless._CACHE.pop(game, None)
    return best[False], best[True], counted


def _main_pointless(paths: list[pathlib.Path], playouts: int) -> None:
    print(f"{'game':<28} {'check off':>10} {'check on':>10} {'ratio':>6} {'pointless moves':>16}")
    for path in paths:
        try:
            text = open_design(path).json_text
        except DesignError:
            continue
        off, on, counted = _pointless_cost(text, playouts)
        print(f"{path.stem:<28} {off:>9.2f}s {on:>9.2f}s {on / off:>6.3f} {counted:>16}", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--playouts", type=int, default=3000)
    parser.add_argument("--deals", type=int, default=6)
    parser.add_argument("--budget", type=int, default=5000)
    parser.add_argument("--only", action="append", default=[], metavar="NAME", help="only this design (file stem)")
    parser.add_argument("--pointless", action="store_true", help="the cost of the CZ509 check in random play")
    args = parser.parse_args()
    if args.pointless:
        paths = [p for p in sorted(GAMES.glob("*.cardz")) if not args.only or p.stem in args.only]
        _main_pointless(paths, args.playouts)
        return
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
        print(
            f"{path.stem:<28} {one:>8.0f}/s {two:>8.0f}/s {two / one:>6.2f}   {deals_per_s:>8.2f} deals/s", flush=True
        )


if __name__ == "__main__":
    main()
