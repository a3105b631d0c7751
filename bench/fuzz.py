"""Nightly fuzzing of every command's library entry with broken and hostile designs.

    python bench/fuzz.py --inputs 100000 [--seed S] [--commands lint,check,sim,solve,fmt]
                         [--seconds N] [--regressions DIR]

Each input is a mutation of a seed design, a shipped game or a template (keys
deleted, duplicated and retyped, expressions corrupted, bytes flipped, text cut,
deep nesting, huge numbers, wrong types). Every chosen command runs on it with
small bounds; a command that raises (other than its documented refusal), takes
longer than :data:`CALL_CEILING_S`, or (fmt) changes the data is a failure, and
the input is written, shrunk when that is cheap, to ``tests/fuzz_regressions/``,
which ``tests/test_fuzz_regressions.py`` replays through every command.

The mutators and the command harness are shared with the hypothesis tests
(``tests/test_fuzz_designs.py``); they live here so the nightly run and CI agree
on what "safe" means.
"""

from __future__ import annotations

import argparse
import copy
import dataclasses
import hashlib
import json
import random
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # run as a script from anywhere
    sys.path.insert(0, str(ROOT))

SEED_DIRS = (ROOT / "games", ROOT / "cardz_tools" / "templates")
REGRESSIONS = ROOT / "tests" / "fuzz_regressions"
CALL_CEILING_S = 20.0
"""A command that takes longer than this on one input is a bound violation (generous: loaded machines)."""

COMMANDS = ("lint", "check", "sim", "solve", "fmt")
SMALL_PLAYOUTS = 2
SMALL_MAX_MOVES = 60
SMALL_BUDGET = 150
SMALL_DEAL_SECONDS = 2.0


def seed_texts() -> list[str]:
    """The texts every input starts from: the shipped games and templates (the seeds are among the games)."""
    return [path.read_text(encoding="utf-8") for folder in SEED_DIRS for path in sorted(folder.glob("*.cardz"))]


# ---------------------------------------------------------------- mutations

HOSTILE_STRINGS = (
    "", " ", "@self", "__class__", "__import__('os')", "os.system('true')", "().__class__.__bases__",
    "card.__class__", "x" * 5000, "é" * 50, "\u202e", "\x00", "\ud800", "1" * 40, "-1", "NaN", "TODO: x",
    "count(depot) > 0", "any(cell, all(cell, all(cell, true)))", "((((((((((1))))))))))", "pow(2,30)",
    "1000000000", "999999999*999999999", "0-1000000000", "true", "top.rank == Ace", "it", "all",
    "../../etc/passwd", "/etc/passwd", "C:\\Windows\\win.ini", "\\\\server\\share\\x.cardz", "base.cardz\x00",
)
HOSTILE_NUMBERS = (0, -1, 1, 2, 25, 1000, 1001, 10**9, -(10**9), 2**31, 2**63, 10**30, 0.5, -0.0, 1e308, 3.0)
HOSTILE_VALUES: tuple[Any, ...] = (None, True, False, [], {}, [[]], {"": {}}, *HOSTILE_NUMBERS, *HOSTILE_STRINGS)


MAX_INPUT_CHARS = 400_000
"""A mutation that makes the JSON longer than this is undone: the inputs stay quick, and copies
of copies of nested values cannot grow without bound (they once reached 17 GB)."""


def _random_path(value: Any, rng: random.Random) -> tuple[Any, ...]:
    """A path into a JSON value, by a random walk from the root (cost: the depth, not the size)."""
    path: list[Any] = []
    while rng.random() < 0.75:
        if isinstance(value, dict) and value:
            key = rng.choice(list(value))
        elif isinstance(value, list) and value:
            key = rng.randrange(len(value))
        else:
            break
        path.append(key)
        value = value[key]
    return tuple(path)


def _hostile_value(rng: random.Random) -> Any:
    """A fresh copy of a hostile value (a shared list could end up inside itself)."""
    return copy.deepcopy(rng.choice(HOSTILE_VALUES))


def _get(value: Any, path: tuple[Any, ...]) -> Any:
    for part in path:
        value = value[part]
    return value


def _set(root: Any, path: tuple[Any, ...], new: Any) -> Any:
    if not path:
        return new
    _get(root, path[:-1])[path[-1]] = new
    return root


def _corrupt_expression(text: str, rng: random.Random) -> str:
    pieces = [
        "(", ")", "&&", "||", "!", "it", "in", ",", ".", "__", "card", "depot", "9" * 12, "all(cell, ", "'", "\"", "\\"
    ]
    if not text or rng.random() < 0.2:
        return rng.choice(HOSTILE_STRINGS)
    at = rng.randint(0, len(text))
    how = rng.randint(0, 3)
    if how == 0:
        return text[:at] + rng.choice(pieces) + text[at:]
    if how == 1:
        return text[:at] + text[at + rng.randint(1, 8):]
    if how == 2:
        return f"({text}) && ({text})" if rng.random() < 0.5 else f"any(cell, {text})"
    return text[:at]


_CONDITIONS = (
    "true", "false", "!empty(depot)", "empty(depot)", "count(depot) > 0", "count(depot) < 3", "top.rank == Ace",
    "card.rank == top.rank + 1", "card.rank == top.rank - 1", "card.color != top.color", "card.suit == top.suit",
    "any(Tableau, empty(it))", "all(Foundation, count(it) == 13)", "count(Stock) == 0", "descending(cards)",
    "count(depot) == 2", "!empty(Stock)", "sum(Tableau, count(it)) > 10",
)
_COUNTS = ("0", "1", "2", "3", "13", "52", "count(depot)", "col(depot)", "index(depot)", "0 - 5", "1000000000",
           "999999999 * 999999999", "pow(2, 30)", "count(Stock)", "all")
_EXPRESSION_KEYS = {"when": _CONDITIONS, "value": _COUNTS, "count": _COUNTS, "faceUp": _COUNTS, "faceDown": _COUNTS}


def _plausible_expression(key: str, rng: random.Random) -> Any:
    """A well-formed value for an expression key: mutants that pass lint and get played."""
    pieces = _EXPRESSION_KEYS[key]
    text = rng.choice(pieces)
    if pieces is _CONDITIONS and rng.random() < 0.5:
        text = f"{text} {rng.choice(('&&', '||'))} {rng.choice(pieces)}"
    if key in ("faceUp", "faceDown", "count") and rng.random() < 0.3:
        return rng.choice((0, 1, 2, 5, 13, 1000))
    return text


def mutate_playable(data: Any, rng: random.Random) -> Any:
    """Change one rule expression or deal count to another well-formed one (the design stays lint-clean more often)."""
    sites = []
    stack: list[Any] = [data]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            sites.extend((node, key) for key in node if key in _EXPRESSION_KEYS and isinstance(node[key], (str, int)))
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)
    if sites:
        node, key = rng.choice(sites)
        node[key] = _plausible_expression(key, rng)
    return data


def mutate_data(data: Any, rng: random.Random) -> Any:
    """One structural mutation of a JSON value (in place where it can be; returns the new root)."""
    path = _random_path(data, rng)
    node = _get(data, path)
    how = rng.randint(0, 9)
    if how == 0 and path:  # delete
        parent = _get(data, path[:-1])
        del parent[path[-1]]
        return data
    if how == 1 and path:  # duplicate an item or move a key's value to a new name
        parent = _get(data, path[:-1])
        if isinstance(parent, list):
            parent.insert(path[-1], json.loads(json.dumps(node)))
        else:
            parent[f"{path[-1]}{rng.choice(['', '_', 'X'])}"] = json.loads(json.dumps(node))
        return data
    if how == 2:  # retype
        return _set(data, path, _hostile_value(rng))
    if how == 3 and isinstance(node, str):
        return _set(data, path, _corrupt_expression(node, rng))
    if how == 4:  # nest
        wrapped: Any = node
        for _ in range(rng.choice((1, 2, 50, 250))):
            wrapped = [wrapped] if rng.random() < 0.5 else {"x": wrapped}
        return _set(data, path, wrapped)
    if how == 5 and isinstance(node, (int, float)) and not isinstance(node, bool):
        return _set(data, path, rng.choice(HOSTILE_NUMBERS))
    if how == 6 and isinstance(node, dict) and node:  # a key of another spelling
        key = rng.choice(list(node))
        node[key.upper() if rng.random() < 0.5 else key + " "] = node.pop(key)
        return data
    if how == 7 and isinstance(node, list) and node:  # many copies (repeat-like blow-up)
        node.extend(json.loads(json.dumps(node[0])) for _ in range(rng.choice((2, 30))))
        return data
    if how == 8:  # a design knob at a hostile value
        knobs = (
            ("decks",),
            ("jokers",),
            ("depots", 0, "repeat"),
            ("dealRules", 0, "faceUp"),
            ("dealRules", 0, "faceDown"),
            ("depots", 0, "triggers"),
            ("extends",),
            ("scoring", "value"),
        )
        knob = rng.choice(knobs)
        try:
            _set(data, knob, _hostile_value(rng))
        except (KeyError, IndexError, TypeError):
            pass
        return data
    return _set(data, path, _hostile_value(rng))


def mutate_text(text: str, rng: random.Random) -> str:
    """One byte-level mutation: flip, cut, splice or repeat."""
    if not text:
        return rng.choice(("{", "[]", "null", "\ufeff{}", "{" * 300))
    at = rng.randint(0, len(text) - 1)
    how = rng.randint(0, 5)
    if how == 0:
        return (
            text[:at]
            + chr(
                rng.choice((0, 0x22, 0x5C, 0x7B, 0x7D, 0x5B, 0x5D, 0x2C, 0x3A, 0xFFFF, 0xD800, rng.randint(1, 0x2FF)))
            )
            + text[at + 1 :]
        )
    if how == 1:
        return text[:at]
    if how == 2:
        end = min(len(text), at + rng.randint(1, 40))
        return text[:at] + text[at:end] * rng.choice((2, 3, 20)) + text[end:]
    if how == 3:
        return text[:at] + text[at + rng.randint(1, 20) :]
    if how == 4:
        return (
            text[:at]
            + rng.choice(("//", "/*", "NaN", "Infinity", "1e999", "-", "\t", "\r", "\\u0000", "\\ud800", ",", "'"))
            + text[at:]
        )
    return "[" * rng.choice((199, 200, 201, 5000)) + text


def make_input(rng: random.Random, seeds: Sequence[str]) -> str:
    """A fresh input: a few mutations of one seed, mostly structural, sometimes byte-level."""
    text = rng.choice(seeds)
    try:
        data = json.loads(text)
    except ValueError:
        data = None
    if data is not None and rng.random() < 0.3:  # a playable variant: the engine and the solver get exercised
        for _ in range(rng.randint(1, 4)):
            data = mutate_playable(data, rng)
        return json.dumps(data)
    if data is not None and rng.random() < 0.8:
        for _ in range(rng.choice((1, 1, 2, 3, 6))):
            before = json.dumps(data)
            try:
                data = mutate_data(data, rng)
                too_big = len(json.dumps(data)) > MAX_INPUT_CHARS
            except (RecursionError, ValueError):  # nested past what json.dumps can write: undo
                too_big = True
            if too_big:
                data = json.loads(before)
        text = json.dumps(data, ensure_ascii=rng.random() < 0.5, indent=rng.choice((None, 2)))
    for _ in range(rng.choice((0, 0, 0, 1, 2))):
        text = mutate_text(text, rng)
    return text


# ---------------------------------------------------------------- the commands, with small bounds


class BoundViolation(Exception):
    """A command broke one of its promises: too slow, or fmt changed the data."""


def _file(text: str, folder: Path) -> Path:
    path = folder / "design.cardz"
    path.write_text(text, encoding="utf-8", errors="surrogatepass")
    return path


def run_lint(text: str, folder: Path) -> None:
    from cardz_tools.lint import lint_paths, lint_text

    lint_text(text)
    lint_paths([_file(text, folder)])


def run_fmt(text: str, folder: Path) -> None:
    from cardz_tools import fmt, jsoncst

    try:
        formatted = fmt.format_text(text)
    except jsoncst.JsonSyntaxError:
        return
    if json.loads(formatted) != json.loads(text):
        raise BoundViolation("fmt changed the data")
    if fmt.format_text(formatted) != formatted:
        raise BoundViolation("fmt is not idempotent")


def _opened(text: str, folder: Path) -> Any:
    from cardz_tools.loading import DesignError, open_design

    try:
        return open_design(_file(text, folder))
    except DesignError:
        return None


PLAYED: dict[str, int] = {}
"""Per command: inputs that lint clean and were really played (the others stop at the linter)."""


def _played(command: str) -> None:
    PLAYED[command] = PLAYED.get(command, 0) + 1


def run_sim(text: str, folder: Path) -> None:
    from cardz_tools.analysis.sim import simulate

    opened = _opened(text, folder)
    if opened is not None:
        _played("sim")
        simulate(opened.json_text, SMALL_PLAYOUTS, 0, 1, None, SMALL_MAX_MOVES)


def run_solve(text: str, folder: Path) -> None:
    from cardz_tools.analysis.solve import solve

    opened = _opened(text, folder)
    if opened is not None:
        _played("solve")
        solve(opened.json_text, 1, 0, SMALL_BUDGET, None, 1, None, deal_seconds=SMALL_DEAL_SECONDS)


def run_check(text: str, folder: Path) -> None:
    from cardz_tools.analysis.check import CheckOptions, check_paths

    options = CheckOptions(
        playouts=SMALL_PLAYOUTS,
        deals=1,
        budget=SMALL_BUDGET,
        max_moves=SMALL_MAX_MOVES,
        deal_seconds=SMALL_DEAL_SECONDS,
    )
    result = check_paths([_file(text, folder)], options=options)
    if not any(
        d.code.startswith(("CZ1", "CZ2", "CZ3", "CZ4", "CZ6")) and d.severity.value == "error"
        for d in result.diagnostics
    ):
        _played("check")


RUNNERS: dict[str, Callable[[str, Path], None]] = {
    "lint": run_lint,
    "check": run_check,
    "sim": run_sim,
    "solve": run_solve,
    "fmt": run_fmt,
}


@dataclasses.dataclass(frozen=True)
class Failure:
    """One command that crashed or broke a bound on one input."""

    command: str
    kind: str  # "crash" or "bound"
    detail: str


def run_command(command: str, text: str, ceiling: float = CALL_CEILING_S) -> Failure | None:
    """Run one command's library entry on ``text``; the failure, or None when it behaved."""
    with tempfile.TemporaryDirectory(prefix="cardz-fuzz-") as folder:
        began = time.monotonic()
        try:
            RUNNERS[command](text, Path(folder))
        except BoundViolation as exc:
            return Failure(command, "bound", str(exc))
        except MemoryError:
            return Failure(command, "bound", "ran out of the memory limit (--memory-mb)")
        except Exception as exc:  # noqa: BLE001 - a crash is what we are looking for
            return Failure(command, "crash", f"{type(exc).__name__}: {exc}"[:500])
        elapsed = time.monotonic() - began
        if elapsed > ceiling:
            return Failure(command, "bound", f"took {elapsed:.1f} s (ceiling {ceiling:.0f} s)")
    return None


def shrink(text: str, command: str, kind: str, budget: int = 60) -> str:
    """A shorter input that fails the same way (line, then chunk deletion, ``budget`` tries)."""

    def fails(candidate: str) -> bool:
        failure = run_command(command, candidate)
        return failure is not None and failure.kind == kind

    lines = text.split("\n")
    chunk = max(1, len(lines) // 2)
    tries = 0
    while chunk >= 1 and tries < budget:
        i = 0
        changed = False
        while i < len(lines) and tries < budget:
            candidate = lines[:i] + lines[i + chunk :]
            tries += 1
            if candidate and fails("\n".join(candidate)):
                lines = candidate
                changed = True
            else:
                i += chunk
        if not changed:
            chunk //= 2
    return "\n".join(lines)


def save_regression(text: str, failure: Failure, folder: Path = REGRESSIONS) -> Path:
    """Write a failing input as ``<command>-<kind>-<hash>.cardz``."""
    folder.mkdir(parents=True, exist_ok=True)
    digest = hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:12]
    path = folder / f"{failure.command}-{failure.kind}-{digest}.cardz"
    path.write_text(text, encoding="utf-8", errors="surrogatepass")
    return path


# ---------------------------------------------------------------- the run


@dataclasses.dataclass
class Tally:
    """Counts of a run, per command."""

    tried: dict[str, int] = dataclasses.field(default_factory=dict)
    crashes: dict[str, int] = dataclasses.field(default_factory=dict)
    bounds: dict[str, int] = dataclasses.field(default_factory=dict)
    seconds: dict[str, float] = dataclasses.field(default_factory=dict)

    def line(self) -> str:
        return ", ".join(
            f"{c}: {self.tried.get(c, 0)} tried{f' ({PLAYED[c]} played)' if c in PLAYED else ''}, "
            f"{self.crashes.get(c, 0)} crashes, {self.bounds.get(c, 0)} bound violations, "
            f"{self.seconds.get(c, 0.0):.0f} s"
            for c in self.tried
        )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--inputs", type=int, default=1000, help="inputs to generate (each goes through every command)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--commands", default=",".join(COMMANDS), help="comma-separated subset of " + ",".join(COMMANDS)
    )
    parser.add_argument("--seconds", type=float, default=None, help="stop after this long, whatever --inputs says")
    parser.add_argument("--regressions", type=Path, default=REGRESSIONS, help="where failing inputs are written")
    parser.add_argument("--no-shrink", action="store_true")
    parser.add_argument(
        "--memory-mb", type=int, default=4096, help="address-space limit: using more is a bound violation"
    )
    args = parser.parse_args(argv)
    if args.memory_mb:
        import resource

        limit = args.memory_mb * 1024 * 1024
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    commands = [c.strip() for c in args.commands.split(",") if c.strip()]
    unknown = [c for c in commands if c not in RUNNERS]
    if unknown:
        parser.error(f"unknown command(s): {', '.join(unknown)}")
    rng = random.Random(args.seed)
    seeds = seed_texts()
    tally = Tally()
    started = time.monotonic()
    inputs = 0
    for inputs in range(1, args.inputs + 1):
        text = make_input(rng, seeds)
        for command in commands:
            began = time.monotonic()
            failure = run_command(command, text)
            tally.seconds[command] = tally.seconds.get(command, 0.0) + time.monotonic() - began
            tally.tried[command] = tally.tried.get(command, 0) + 1
            if failure is None:
                continue
            counts = tally.crashes if failure.kind == "crash" else tally.bounds
            counts[command] = counts.get(command, 0) + 1
            kept = text if args.no_shrink or failure.kind == "bound" else shrink(text, command, failure.kind)
            path = save_regression(kept, failure, args.regressions)
            print(
                f"input {inputs}: {failure.command} {failure.kind}: "
                f"{failure.detail.splitlines()[0] if failure.detail else ''} -> {path}",
                flush=True,
            )
        if inputs % 1000 == 0:
            print(f"[{time.monotonic() - started:.0f} s] {inputs} inputs; {tally.line()}", flush=True)
        if args.seconds is not None and time.monotonic() - started > args.seconds:
            break
    print(f"done: {inputs} inputs in {time.monotonic() - started:.0f} s (seed {args.seed}); {tally.line()}")
    failed = sum(tally.crashes.values()) + sum(tally.bounds.values())
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
