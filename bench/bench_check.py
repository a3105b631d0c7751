"""``cardz check`` and ``cardz publish`` as CI runs them: cold, warm, and with one file changed.

    python bench/bench_check.py [--games DIR] [--workers N] [--skip-publish]

Copies the designs into a temporary repository (with a ``pyproject.toml`` that carries the
project's ``[tool.cardz]`` tables, so the cache is made there and the per-file ignores and check
settings are the project's own: the bench measures the real job) and times the real command
lines, each in a fresh process:

- ``cardz check DIR`` cold (empty cache), warm (nothing changed), and after one file changed
  (its description: a new cache key), next to that one file checked alone cold: the goal is
  that the changed run costs what its file costs;
- ``cardz publish DIR --out site`` cold and warm.

It prints each time with its goal (issue 16: cold check <= 35 s and warm <= 2 s on 2 cores,
cold publish <= 120 s and warm <= 10 s), the ratios, and the load average before and after,
since on a shared machine wall-clock times say as much about the neighbours as about the code.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
GOALS = {"check cold": 35.0, "check warm": 2.0, "publish cold": 120.0, "publish warm": 10.0}


CPU: dict[str, float] = {}
"""CPU seconds (user + system) of each run, its worker processes included: on a shared machine
they say what the run costs, while the wall-clock time also says how busy the neighbours are."""


def _run(arguments: list[str], cwd: Path, label: str = "", code: Path = ROOT) -> tuple[float, int, str]:
    env = {**os.environ, "PYTHONPATH": str(code)}
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    command = [sys.executable, "-m", "cardz_tools", *arguments]
    done = subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True)
    elapsed = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if label:
        CPU[label] = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return elapsed, done.returncode, done.stdout + done.stderr


def cardz_tables(pyproject: str) -> str:
    """The ``[tool.cardz]`` tables (``[tool.cardz.check]`` ...) of a ``pyproject.toml`` text, as written there."""
    kept: list[str] = []
    inside = False
    for line in pyproject.splitlines():
        header = line.strip()
        if header.startswith("["):
            name = header.strip("[] ")
            inside = name == "tool.cardz" or name.startswith("tool.cardz.")
        if inside:
            kept.append(line)
    return "\n".join(kept) + "\n" if kept else ""


def _last_line(output: str) -> str:
    lines = output.strip().splitlines()
    return lines[-1] if lines else ""


def _load() -> str:
    try:
        return " ".join(f"{x:.1f}" for x in os.getloadavg())
    except OSError:  # pragma: no cover
        return "?"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=Path, default=ROOT / "games")
    parser.add_argument("--workers", type=int, default=None, help="--workers for both commands (default: one per CPU)")
    parser.add_argument("--skip-publish", action="store_true")
    parser.add_argument("--changed", default="klondike.cardz", help="the file changed for the one-file run")
    parser.add_argument("--baseline", type=Path, default=None,
                        help="a checkout of cardz-tools to compare with: both check the designs cold with the fixed "
                             "counts (--seconds 0, the same work on any machine), and the CPU ratio is printed")
    args = parser.parse_args()
    workers = ["--workers", str(args.workers)] if args.workers else []
    print(f"cpus {os.cpu_count()}, load average before: {_load()}")
    times: dict[str, float] = {}
    with tempfile.TemporaryDirectory(prefix="bench-check-") as folder:
        repo = Path(folder)
        project = cardz_tables((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
        (repo / "pyproject.toml").write_text(f"[project]\nname = 'games'\nversion = '0'\n\n{project}", encoding="utf-8")
        shutil.copytree(args.games, repo / "games")
        count = len(list((repo / "games").glob("*.cardz")))
        for label in ("check cold", "check warm"):
            times[label], status, output = _run(["check", "games", *workers], repo, label)
            print(f"{label:<22} {times[label]:7.2f} s   exit {status}   {_last_line(output)}", flush=True)
        changed = repo / "games" / args.changed
        data = json.loads(changed.read_text(encoding="utf-8"))
        data["description"] = str(data.get("description", "")) + " (changed)"
        changed.write_text(json.dumps(data, indent=2, ensure_ascii=False), encoding="utf-8")
        times["check one changed"], status, _ = _run(["check", "games", *workers], repo, "check one changed")
        print(f"{'check one changed':<22} {times['check one changed']:7.2f} s   exit {status}", flush=True)
        alone = repo / "alone"
        alone.mkdir()
        shutil.copy(changed, alone / changed.name)
        alone_command = ["check", str(alone / changed.name), "--no-cache", *workers]
        times["that file alone"], status, _ = _run(alone_command, repo, "that file alone")
        print(f"{'that file alone, cold':<22} {times['that file alone']:7.2f} s   exit {status}", flush=True)
        if args.baseline is not None:
            fixed = ["check", "games", "--no-cache", "--seconds", "0", *workers]
            for label, code in (("fixed counts, baseline", args.baseline.resolve()), ("fixed counts, this", ROOT)):
                times[label], status, output = _run(fixed, repo, label, code)
                print(f"{label:<22} {times[label]:7.2f} s   {CPU[label]:7.2f} CPU-s   exit {status}   "
                      f"{_last_line(output)}", flush=True)
        if not args.skip_publish:
            for label in ("publish cold", "publish warm"):
                times[label], status, output = _run(["publish", "games", "--out", "site", *workers], repo, label)
                print(f"{label:<22} {times[label]:7.2f} s   exit {status}   {_last_line(output)}", flush=True)
    print(f"\n{count} designs; load average after: {_load()}")
    for label, goal in GOALS.items():
        if label in times:
            verdict = "ok" if times[label] <= goal else "over"
            print(f"  {label:<14} {times[label]:7.2f} s wall, {CPU[label]:7.2f} s CPU  (goal <= {goal:g} s: {verdict})")
    print(f"  warm / cold check      {times['check warm'] / times['check cold']:.3f}")
    print(f"  one changed / alone    {times['check one changed'] / times['that file alone']:.2f}  (goal: about 1; "
          f"CPU {CPU['check one changed'] / CPU['that file alone']:.2f})")
    if "publish cold" in times:
        print(f"  warm / cold publish    {times['publish warm'] / times['publish cold']:.3f}")
    if args.baseline is not None:
        ratio = CPU["fixed counts, this"] / CPU["fixed counts, baseline"]
        print(f"  fixed counts, this / baseline: CPU {ratio:.2f}, wall "
              f"{times['fixed counts, this'] / times['fixed counts, baseline']:.2f}")


if __name__ == "__main__":
    main()
