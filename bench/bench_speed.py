"""Positions per second of the tableau search against a baseline tree, node counts identical.

    git archive <base> | tar -x -C /tmp/speed-base
    python bench/bench_speed.py --baseline /tmp/speed-base [--games klondike,canfield-runs] [--scale 2] [--repeat 2]

Each side runs in its own subprocess with its own tree first on ``sys.path`` (this tree, and the
baseline checkout), solving the same deals (:data:`DEALS`: seed 0, a fixed position budget each, no
deadline, one process) with :func:`.tableau_search.search`. A faster search must search the same
positions: the bench stops unless every deal's verdict and ``nodes`` agree between the two sides.
It prints per game the positions, the CPU seconds of the searches alone (the game is compiled
before the clock starts) and positions per CPU second of each side, and the ratio (this / baseline).
The two sides run at the same time (so both meet the same load), ``--repeat`` times, each keeping
its least CPU time per deal. Say ``uptime`` next to the figures: CPU time is less noisy than the wall
clock, but the machine is shared.
"""

from __future__ import annotations

import argparse
import json
import os
import pathlib
import subprocess
import sys
import time

HERE = pathlib.Path(__file__).resolve().parents[1]

DEALS: dict[str, tuple[tuple[int, ...], int]] = {
    "klondike": ((0, 1), 25_000),
    "canfield-runs": ((0, 1), 25_000),
    "canfield": ((0,), 25_000),
    "freecell": ((0, 1), 15_000),
    "bakers-game": ((0, 1), 15_000),
    "eight-off": ((0, 1), 15_000),
    "seahaven-towers": ((0, 1), 15_000),
    "forty-thieves": ((0, 1), 15_000),
    "spider": ((0,), 15_000),
    "gargantua": ((0, 1), 15_000),
    "ultra-klondike-2-deck": ((0, 3), 15_000),
    "king-albert": ((10, 14, 17), 40_000),
    "chateau-de-cartes": ((9,), 40_000),
    "alina": ((0,), 25_000),
    "northwest-territory": ((0,), 25_000),
    "duchess": ((0,), 25_000),
    "chameleon": ((0,), 25_000),
}
"""Per design in ``games/``: the deals of seed 0 and the position budget of each (Klondike draw three,
Canfield with runs and Canfield first: the stock games issue 15 asks most of; Gargantua and Ultra Klondike: the
two-deck rows with splits, deal 3 of Ultra Klondike open at 15,000; King Albert's deals 10, 14 and 17, open at
40,000, with idle and safe moves; Château de cartes' deal 9, whose triggers fire on most moves; Alina, Northwest
Territory, Duchess and Chameleon, undecided rows of safe moves without a stock, idle moves, and both with a stock)."""


def worker(root: pathlib.Path, games: list[str], scale: float) -> None:
    """Solve :data:`DEALS` of ``games`` with the tree at ``root``; print one JSON line per deal."""
    sys.path.insert(0, str(root))
    import cardz_tools
    from cardz_tools.analysis import tableau_search
    from cardz_tools.analysis.playout import deal_seed
    from cardz_tools.analysis.runner import game_for
    from cardz_tools.loading import open_design

    if not pathlib.Path(cardz_tools.__file__).resolve().is_relative_to(root.resolve()):
        raise SystemExit(f"imported {cardz_tools.__file__}, not the tree at {root}")
    for name in games:
        deals, budget = DEALS[name]
        game = game_for(open_design(HERE / "games" / f"{name}.cardz").json_text)
        for index in deals:
            root_state = game.new_initial_state(seed=deal_seed(0, index))
            started = time.process_time()
            found = tableau_search.search(root_state, int(budget * scale), None, tableau_search.Pruning())
            seconds = time.process_time() - started
            row = {"game": name, "deal": index, "result": found.result, "nodes": found.nodes, "seconds": seconds}
            print(json.dumps(row), flush=True)


def run_sides(roots: dict[str, pathlib.Path], games: list[str], scale: float) -> dict[str, list[dict[str, object]]]:
    """Each side's rows: a subprocess per side with its tree first on its path (hash seed fixed), both running
    at once, so that both meet the same load on a shared machine."""
    env = {**os.environ, "PYTHONHASHSEED": "0"}
    running = {}
    for side, root in roots.items():
        command = [sys.executable, __file__, "--worker", str(root), "--games", ",".join(games), "--scale", str(scale)]
        running[side] = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
                                         cwd=root)
    rows = {}
    for side, process in running.items():
        out, err = process.communicate()
        if process.returncode != 0:
            raise SystemExit(f"{roots[side]}: exit {process.returncode}\n{err[-3000:]}")
        rows[side] = [json.loads(line) for line in out.splitlines() if line.startswith("{")]
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", type=pathlib.Path, default=pathlib.Path("/tmp/speed-base"))
    parser.add_argument("--games", default=",".join(DEALS))
    parser.add_argument("--scale", type=float, default=1.0, help="Times each deal's position budget.")
    parser.add_argument("--repeat", type=int, default=1, help="Runs of the two sides at once (least CPU kept).")
    parser.add_argument("--worker", type=pathlib.Path, default=None, help=argparse.SUPPRESS)
    args = parser.parse_args()
    games = [name for name in args.games.split(",") if name]
    if unknown := [name for name in games if name not in DEALS]:
        raise SystemExit(f"no deals set for {', '.join(unknown)} (known: {', '.join(DEALS)})")
    if args.worker is not None:
        worker(args.worker, games, args.scale)
        return
    if not (args.baseline / "cardz_tools").is_dir():
        raise SystemExit(f"{args.baseline} holds no cardz_tools (git archive <base> | tar -x -C {args.baseline})")
    best: dict[str, dict[tuple[str, int], dict[str, object]]] = {"base": {}, "this": {}}
    for _ in range(args.repeat):
        for side, rows in run_sides({"base": args.baseline.resolve(), "this": HERE}, games, args.scale).items():
            for row in rows:
                slot = (str(row["game"]), int(str(row["deal"])))
                kept = best[side].get(slot)
                if kept is None or float(str(row["seconds"])) < float(str(kept["seconds"])):
                    best[side][slot] = row
    print(f"load: {os.getloadavg()[0]:.2f} (1 min), budget × {args.scale:g}, {args.repeat} run(s) a side")
    print(f"{'game':<16} {'deals':>5} {'positions':>10} {'base s':>8} {'this s':>8} {'base pos/s':>11} "
          f"{'this pos/s':>11} {'ratio':>6}")
    mismatches = []
    for name in games:
        slots = [slot for slot in best["base"] if slot[0] == name]
        for slot in slots:
            a, b = best["base"][slot], best["this"].get(slot)
            if b is None or (a["result"], a["nodes"]) != (b["result"], b["nodes"]):
                mismatches.append(f"{name} deal {slot[1]}: base {a['result']} {a['nodes']}, this {b}")
        nodes = sum(int(str(best["base"][slot]["nodes"])) for slot in slots)
        base_s = sum(float(str(best["base"][slot]["seconds"])) for slot in slots)
        this_s = sum(float(str(best["this"][slot]["seconds"])) for slot in slots if slot in best["this"])
        verdicts = "".join(str(best["base"][slot]["result"])[0] for slot in slots)
        print(f"{name:<16} {verdicts:>5} {nodes:>10,} {base_s:>8.2f} {this_s:>8.2f} {nodes / base_s:>11,.0f} "
              f"{nodes / max(this_s, 1e-9):>11,.0f} {base_s / max(this_s, 1e-9):>5.2f}x")
    if mismatches:
        raise SystemExit("node counts or verdicts differ:\n" + "\n".join(mismatches))
    print("every deal: the same verdict and the same nodes on both sides")


if __name__ == "__main__":
    main()
