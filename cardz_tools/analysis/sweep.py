"""`cardz sweep`: the same design with some values changed, every variant played alike.

A *parameter* is a JSON pointer into the standalone (flattened) design and a list of
values; every combination of the parameters' values is a *variant*: the design with
those values written at those pointers. Each variant is linted (a variant that does
not lint is a row with its diagnostics), then played with the **same** deals and the
same random streams — deal ``i`` and its move choices are seeded from the run's seed and
``i`` alone (:mod:`.playout`), so two rows differ by their designs, not by their luck
(common random numbers) — and solved on the same deals.
"""

from __future__ import annotations

import copy
import csv
import dataclasses
import io
import itertools
import json
import math
import re
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from ..diagnostics import Diagnostic, Severity
from ..lint import lint_file
from ..model import build_design
from .playable import deal_problem
from .sim import SimReport, simulate
from .solve import SolveReport, solve

MAX_VARIANTS = 1_000
"""The most combinations one sweep may ask for (a typo like ``1..100000`` is refused, not run)."""

MAX_RANGE = 1_000
"""The most values one ``A..B`` range may hold."""

_RANGE = re.compile(r"^\s*(-?\d+)\s*\.\.\s*(-?\d+)\s*$")


class SweepError(ValueError):
    """A ``--set`` that cannot be used: its message says which and why."""


@dataclasses.dataclass(frozen=True, slots=True)
class Parameter:
    """One ``--set POINTER=VALUES``: where to write, and the values to try in order."""

    pointer: str
    values: tuple[Any, ...]

    @classmethod
    def parse(cls, text: str) -> Parameter:
        """``/dealRules/0/faceDown=3..6``, ``/x=4,5,6``, ``/y=true,false``, ``/when=card.rank == Ace``.

        Each value is read as JSON when it is JSON (numbers, ``true``, ``null``, quoted
        strings) and kept as a string otherwise (an expression); values are split at
        commas outside parentheses, brackets and quotes.

        :raises SweepError: for a missing ``=``, a pointer not starting with ``/``, an empty
            list or a range too long.
        """
        pointer, sep, spec = text.partition("=")
        pointer = pointer.strip()
        if not sep:
            raise SweepError(f"--set {text!r}: expected POINTER=VALUES, e.g. /dealRules/0/faceDown=3..6")
        if not pointer.startswith("/"):
            raise SweepError(f"--set {text!r}: a JSON pointer starts with '/', e.g. /dealRules/0/faceDown")
        ranged = _RANGE.match(spec)
        if ranged:
            low, high = int(ranged[1]), int(ranged[2])
            if high < low:
                raise SweepError(f"--set {text!r}: the range {low}..{high} is empty (write the smaller bound first)")
            if high - low + 1 > MAX_RANGE:
                raise SweepError(f"--set {text!r}: the range holds {high - low + 1} values, more than {MAX_RANGE}")
            return cls(pointer, tuple(range(low, high + 1)))
        values = tuple(_value(part) for part in _split_top_level(spec))
        if not values:
            raise SweepError(f"--set {text!r}: no values after '='")
        return cls(pointer, values)


def _split_top_level(spec: str) -> list[str]:
    """Split at commas that are outside brackets and quotes; blank parts are dropped."""
    parts: list[str] = []
    current: list[str] = []
    depth, quote = 0, ""
    for char in spec:
        if quote:
            quote = "" if char == quote else quote
        elif char in "\"'":
            quote = char
        elif char in "([{":
            depth += 1
        elif char in ")]}":
            depth -= 1
        elif char == "," and depth == 0:
            parts.append("".join(current))
            current = []
            continue
        current.append(char)
    parts.append("".join(current))
    return [part.strip() for part in parts if part.strip()]


def _value(text: str) -> Any:
    try:
        return json.loads(text)
    except ValueError:
        return text


def _unescape(token: str) -> str:
    return token.replace("~1", "/").replace("~0", "~")


def set_pointer(document: Any, pointer: str, value: Any) -> None:
    """Write ``value`` at ``pointer`` (RFC 6901), replacing a value or adding an object key.

    :raises SweepError: when the pointer's parent does not exist or an index is out of range.
    """
    tokens = [_unescape(token) for token in pointer.split("/")[1:]]
    target = document
    for depth, token in enumerate(tokens[:-1]):
        target = _step(target, token, "/".join(pointer.split("/")[: depth + 2]))
    last = tokens[-1]
    if isinstance(target, dict):
        target[last] = value
    elif isinstance(target, list) and last.isdigit() and int(last) < len(target):
        target[int(last)] = value
    else:
        raise SweepError(f"{pointer}: there is no place to write at {last!r} (index out of range or not a container)")


def _step(node: Any, token: str, where: str) -> Any:
    if isinstance(node, dict) and token in node:
        return node[token]
    if isinstance(node, list) and token.isdigit() and int(token) < len(node):
        return node[int(token)]
    raise SweepError(f"{where}: the design has no such value")


@dataclasses.dataclass(frozen=True)
class Row:
    """One variant: its values, and either its reports or the diagnostics that stopped it."""

    values: dict[str, Any]
    sim: SimReport | None = None
    solve: SolveReport | None = None
    diagnostics: tuple[Diagnostic, ...] = ()

    @property
    def playable(self) -> bool:
        return self.sim is not None

    def to_dict(self) -> dict[str, Any]:
        entry: dict[str, Any] = {"values": self.values}
        entry["sim"] = self.sim.to_dict() if self.sim else None
        entry["solve"] = self.solve.to_dict() if self.solve else None
        if self.diagnostics:
            entry["diagnostics"] = [
                {"code": d.code, "severity": d.severity.value, "message": d.message, "pointer": d.pointer}
                for d in self.diagnostics
            ]
        return entry


@dataclasses.dataclass(frozen=True)
class SweepReport:
    """The result of ``cardz sweep``; :meth:`to_dict` gives the documented JSON."""

    game: str
    parameters: tuple[Parameter, ...]
    rows: tuple[Row, ...]
    seed: int

    def to_dict(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "seed": self.seed,
            "parameters": [{"pointer": p.pointer, "values": list(p.values)} for p in self.parameters],
            "rows": [row.to_dict() for row in self.rows],
        }

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), indent=2, ensure_ascii=False)

    def table(self) -> tuple[list[str], list[list[str]]]:
        """The header and cells shared by the text and CSV reports."""
        header = [p.pointer for p in self.parameters] + [
            "random win rate",
            "random 95% interval",
            "mean score",
            "score sd",
            "mean moves",
            "solver winnability",
            "solver 95% interval",
            "won",
            "lost",
            "unknown",
            "problems",
        ]
        cells = []
        for row in self.rows:
            line = [_cell(row.values[p.pointer]) for p in self.parameters]
            if row.sim is None:
                errors = [d for d in row.diagnostics if d.severity is Severity.ERROR] or list(row.diagnostics)
                problem = "; ".join(f"{d.code} {d.message}" for d in errors[:3])
                line += [""] * 10 + [problem]
            else:
                s = row.sim.to_dict()
                line += [
                    f"{100 * s['win_rate']:.2f}%",
                    f"{100 * s['win_rate_interval'][0]:.2f}–{100 * s['win_rate_interval'][1]:.2f}%",
                    f"{s['mean_score']:.2f}",
                    f"{s['score_stdev']:.2f}",
                    f"{s['mean_moves']:.1f}",
                ]
                if row.solve is None:
                    line += [""] * 5
                else:
                    v = row.solve.to_dict()
                    rate = "undecided" if v["winnability"] is None else f"{100 * v['winnability']:.1f}%"
                    line += [
                        rate,
                        f"{100 * v['interval'][0]:.1f}–{100 * v['interval'][1]:.1f}%",
                        str(v["won"]),
                        str(v["lost"]),
                        str(v["unknown"]),
                    ]
                line.append("")
            cells.append(line)
        return header, cells

    def to_text(self) -> str:
        header, cells = self.table()
        used = [i for i in range(len(header)) if any(line[i] for line in cells) or i < len(self.parameters)]
        widths = {i: max(len(header[i]), *(len(line[i]) for line in cells)) for i in used}
        plural = "s" if len(self.rows) != 1 else ""
        out = [f"{self.game}: {len(self.rows)} variant{plural} (seed {self.seed}, the same deals in every row)"]
        out.append("  ".join(header[i].ljust(widths[i]) for i in used).rstrip())
        out += ["  ".join(line[i].ljust(widths[i]) for i in used).rstrip() for line in cells]
        return "\n".join(out) + "\n"

    def to_csv(self) -> str:
        """One line per variant with plain numbers (rates as fractions), for spreadsheets and scripts."""
        columns = [p.pointer for p in self.parameters] + [
            "win_rate",
            "win_rate_low",
            "win_rate_high",
            "mean_score",
            "score_stdev",
            "mean_moves",
            "winnability",
            "winnability_low",
            "winnability_high",
            "won",
            "lost",
            "unknown",
            "problems",
        ]
        buffer = io.StringIO()
        writer = csv.writer(buffer, lineterminator="\n")
        writer.writerow(columns)
        for row in self.rows:
            line: list[Any] = [_cell(row.values[p.pointer]) for p in self.parameters]
            if row.sim is None:
                line += [""] * 12 + ["; ".join(f"{d.code} {d.message}" for d in row.diagnostics[:3])]
            else:
                s = row.sim.to_dict()
                line += [s["win_rate"], *s["win_rate_interval"], s["mean_score"], s["score_stdev"], s["mean_moves"]]
                if row.solve is None:
                    line += [""] * 6
                else:
                    v = row.solve.to_dict()
                    line += [
                        "" if v["winnability"] is None else v["winnability"],
                        *v["interval"],
                        v["won"],
                        v["lost"],
                        v["unknown"],
                    ]
                line.append("")
            writer.writerow(line)
        return buffer.getvalue()


def _cell(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value)


def variant_count(parameters: Sequence[Parameter]) -> int:
    """How many variants the parameters make: the product of their numbers of values."""
    return math.prod(len(parameter.values) for parameter in parameters)


def variants(base: Any, parameters: Sequence[Parameter]) -> list[tuple[dict[str, Any], Any]]:
    """Every combination of the parameters' values: ``(values by pointer, the changed design)``.

    :raises SweepError: for more than :data:`MAX_VARIANTS` combinations or a pointer with no place.
    """
    total = variant_count(parameters)
    if total > MAX_VARIANTS:
        raise SweepError(f"{total} combinations of values, more than {MAX_VARIANTS}: sweep fewer values at once")
    out = []
    for combination in itertools.product(*(p.values for p in parameters)):
        design = copy.deepcopy(base)
        values = {}
        for parameter, value in zip(parameters, combination, strict=True):
            set_pointer(design, parameter.pointer, value)
            values[parameter.pointer] = value
        out.append((values, design))
    return out


def _problems(design: Any, filename: str) -> tuple[Diagnostic, ...]:
    """The linter's diagnostics of a variant, plus why the engine cannot deal it (as every command that plays)."""
    report = lint_file(Path(filename), text=json.dumps(design, ensure_ascii=False, indent=1))
    if any(d.severity is Severity.ERROR for d in report.diagnostics):
        return report.diagnostics
    problem = deal_problem(build_design(design), report)
    return report.diagnostics if problem is None else (*report.diagnostics, problem)


def sweep(
    base: Any,
    parameters: Sequence[Parameter],
    *,
    playouts: int,
    deals: int = 0,
    seed: int = 0,
    budget: int = 50_000,
    deal_seconds: float | None = None,
    workers: int | None = None,
    scheduler: str | None = None,
    filename: str = "<sweep>",
    on_progress: Callable[[int], None] | None = None,
) -> SweepReport:
    """Play every variant of ``base`` (a standalone design value) alike; rows in combination order.

    ``on_progress`` is told each finished playout and solved deal.
    """
    rows = []
    for values, design in variants(base, parameters):
        problems = _problems(design, filename)
        if any(d.severity is Severity.ERROR for d in problems):
            rows.append(Row(values, diagnostics=problems))
            if on_progress:
                on_progress(playouts + deals)
            continue
        text = json.dumps(design, sort_keys=True, ensure_ascii=False)
        sim_report = simulate(text, playouts, seed, workers, scheduler, on_progress=on_progress)
        solve_report = None
        if deals:
            solve_report = solve(
                text,
                deals,
                seed,
                budget,
                workers=workers,
                scheduler=scheduler,
                random_win_rate=sim_report.win_rate,
                on_progress=on_progress,
                deal_seconds=deal_seconds,
            )
        rows.append(Row(values, sim_report, solve_report, problems))
    name = base.get("name", "design") if isinstance(base, dict) else "design"
    return SweepReport(str(name), tuple(parameters), tuple(rows), seed)
