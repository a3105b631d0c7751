"""How long after a save does `cardz watch` show the new diagnostics? Time real saves.

Run from the repository root: ``python bench/bench_watch.py [--saves N] [--design FILE]``.
A :class:`Watcher` runs in a thread on a temporary copy of the design (real files, real
watchfiles, as ``cardz watch`` runs); the bench saves the file ``--saves`` times,
alternating a broken and a fixed text, and times each save until the frame that shows its
diagnostics. The baseline, in the same run, is the watcher's own work on the same texts
called directly (:meth:`Watcher.refresh`: load, lint, board), so the ratio is what
watching the directory adds (the file system's notice and watchfiles' grouping of
changes, ``step_ms``). Wall times on a shared machine vary with its load, which is printed.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from cardz_tools.preview.sources import Summary  # noqa: E402
from cardz_tools.preview.watch import Frame, Watcher  # noqa: E402


class _NoSimulation:
    """No background playouts: the bench times the redraw alone."""

    def start(self, design_json: str, done: Callable[[Summary], None]) -> None:
        pass

    def cancel(self) -> None:
        pass

    def close(self) -> None:
        pass


def _texts(design: Path) -> tuple[str, str]:
    """The design's text and a broken one (its depots not a list: CZ1xx)."""
    text = design.read_text(encoding="utf-8")
    data = json.loads(text)
    return text, json.dumps({**data, "depots": "not a list"}, indent=2)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--saves", type=int, default=20)
    parser.add_argument("--design", type=Path, default=ROOT / "games" / "monte-carlo.cardz")
    args = parser.parse_args()
    good, broken = _texts(args.design)
    with tempfile.TemporaryDirectory() as directory:
        path = Path(directory) / "game.cardz"
        path.write_text(good, encoding="utf-8")
        watcher = Watcher(path, simulator=_NoSimulation())
        arrived: list[tuple[float, Frame]] = []
        condition = threading.Condition()

        def listen(frame: Frame) -> None:
            with condition:
                arrived.append((time.perf_counter(), frame))
                condition.notify_all()

        watcher.subscribe(listen)
        stop = threading.Event()
        thread = threading.Thread(target=watcher.run, args=(stop,), daemon=True)
        thread.start()
        if not watcher.ready.wait(10):
            print("the watcher did not start", file=sys.stderr)
            return 1
        time.sleep(0.2)
        watched: list[float] = []
        for number in range(args.saves):
            wants_errors = number % 2 == 0
            saved = time.perf_counter()
            path.write_text(broken if wants_errors else good, encoding="utf-8")
            deadline = saved + 10
            with condition:
                while True:
                    hit = next(
                        (t for t, f in arrived if t >= saved and bool(f.checked.diagnostics) == wants_errors), None
                    )
                    if hit is not None or time.perf_counter() > deadline:
                        break
                    condition.wait(0.05)
            if hit is None:
                print(f"save {number}: no frame within 10 s", file=sys.stderr)
                return 1
            watched.append(hit - saved)
            time.sleep(0.1)
        stop.set()
        thread.join(10)
        direct: list[float] = []
        for number in range(args.saves):
            path.write_text(broken if number % 2 == 0 else good, encoding="utf-8")
            started = time.perf_counter()
            watcher.refresh()
            direct.append(time.perf_counter() - started)
    load = os.getloadavg()[0]
    watched_ms = [1000 * s for s in watched]
    direct_ms = [1000 * s for s in direct]
    print(f"{args.design.name}, {args.saves} saves, load {load:.1f}")
    print(f"save to frame (watching): median {statistics.median(watched_ms):.0f} ms, max {max(watched_ms):.0f} ms")
    print(f"refresh called directly:  median {statistics.median(direct_ms):.0f} ms, max {max(direct_ms):.0f} ms")
    print(f"ratio (median): {statistics.median(watched_ms) / max(statistics.median(direct_ms), 1e-3):.2f}x")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
