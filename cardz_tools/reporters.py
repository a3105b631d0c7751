"""Output formats of ``cardz lint``, in a registry by name.

Each reporter turns a :class:`~cardz_tools.lint.LintResult` into text:

``text``     rustc/ruff style, with the source line and a caret under the span
``concise``  one line per diagnostic: ``file:line:col: CODE message``
``json``     ``{"diagnostics": [...], "summary": {...}}``
``github``   GitHub Actions workflow commands (annotations on the pull request)
``sarif``    SARIF 2.1.0 for GitHub code scanning
``junit``    JUnit XML for CI test reports
"""

from __future__ import annotations

import dataclasses
import io
import json
import xml.etree.ElementTree as ET
from collections.abc import Callable

from rich.console import Console
from rich.text import Text

from . import __version__
from .diagnostics import RULES, Diagnostic, Severity
from .lint import FileReport, LintResult

TOOL_NAME = "cardz"
SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"


@dataclasses.dataclass(frozen=True)
class ReportOptions:
    """How to render: colour (only for a terminal) and whether warnings fail the run."""

    color: bool = False
    strict: bool = False


Reporter = Callable[[LintResult, ReportOptions], str]

REPORTERS: dict[str, Reporter] = {}
"""Every output format by name."""


def reporter(name: str) -> Callable[[Reporter], Reporter]:
    """Register a reporter under ``name``."""

    def register(function: Reporter) -> Reporter:
        REPORTERS[name] = function
        return function

    return register


def render(result: LintResult, format: str = "text", options: ReportOptions | None = None) -> str:
    """The report in a registered format.

    :raises KeyError: for an unknown format name.
    """
    return REPORTERS[format](result, options or ReportOptions())


def _plural(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


def summary_line(result: LintResult) -> str:
    """``Found 3 errors, 1 warning in 2 files.`` or ``All checks passed (2 files).``"""
    diagnostics = result.diagnostics
    if not diagnostics:
        return f"All checks passed ({_plural(len(result.files), 'file')})."
    with_problems = len({d.file for d in diagnostics})
    parts = [_plural(result.errors, "error"), _plural(result.warnings, "warning")]
    infos = result.count(Severity.INFO)
    if infos:
        parts.append(_plural(infos, "note"))
    return f"Found {', '.join(parts)} in {_plural(with_problems, 'file')}."


# ---------------------------------------------------------------- text


_MAX_SHOWN = 120
"""Longer source lines are shown as a window around the span."""

_STYLE = {Severity.ERROR: "bold red", Severity.WARNING: "bold yellow", Severity.INFO: "bold cyan"}


@reporter("text")
def text_report(result: LintResult, options: ReportOptions) -> str:
    """The full report: each diagnostic with its source line and a caret under the span."""
    out = Text()
    for report in result.files:
        for diagnostic in report.diagnostics:
            out.append_text(_text_diagnostic(diagnostic, report))
            out.append("\n")
    out.append(summary_line(result), style="bold")
    return _finish(out, options)


def _finish(text: Text, options: ReportOptions) -> str:
    if not options.color:
        return text.plain + "\n"
    buffer = io.StringIO()
    Console(file=buffer, force_terminal=True, color_system="standard", width=10_000, highlight=False).print(text)
    return buffer.getvalue()


def _text_diagnostic(diagnostic: Diagnostic, report: FileReport) -> Text:
    span = diagnostic.span
    style = _STYLE[diagnostic.severity]
    out = Text()
    out.append(f"{diagnostic.severity.value}[{diagnostic.code}]", style=style)
    out.append(f": {diagnostic.message}\n", style="bold")
    gutter = " " * len(str(span.line))
    out.append(f"{gutter}--> ", style="bold blue")
    out.append(f"{diagnostic.file}:{span.line}:{span.column}\n")
    source = report.source_for(diagnostic.file)
    if source.text:
        line = source.line_text(span.line).expandtabs(1)
        start = max(span.column, 1)
        end = span.end_column if span.end_line == span.line else len(line) + 1
        shown, start, end = _window(line, start, max(end, start + 1))
        out.append(f"{gutter} |\n", style="bold blue")
        out.append(f"{span.line} | ", style="bold blue")
        out.append(shown + "\n")
        out.append(f"{gutter} | ", style="bold blue")
        out.append(" " * (start - 1) + "^" * (end - start), style=style)
        if span.end_line > span.line:
            out.append(f" (to line {span.end_line})", style=style)
        out.append("\n")
    if diagnostic.hint:
        if source.text:
            out.append(f"{gutter} |\n", style="bold blue")
        out.append(f"{gutter} = ", style="bold blue")
        out.append("hint", style="bold")
        out.append(f": {diagnostic.hint}\n")
    return out


def _window(line: str, start: int, end: int, width: int = _MAX_SHOWN) -> tuple[str, int, int]:
    """A long line cut around the span, with the span's columns moved to match."""
    if len(line) <= width:
        return line, start, end
    first = max(0, min(start - 1 - width // 3, len(line) - width))
    shown = line[first : first + width]
    prefix = "..." if first > 0 else ""
    suffix = "..." if first + width < len(line) else ""
    start = start - first + len(prefix)
    end = min(end - first, width + 1) + len(prefix)
    return prefix + shown + suffix, start, max(end, start + 1)


# ---------------------------------------------------------------- concise


@reporter("concise")
def concise_report(result: LintResult, options: ReportOptions) -> str:
    """One line per diagnostic, then the summary."""
    lines = [
        f"{d.file}:{d.span.line}:{d.span.column}: {d.code} [{d.severity.value}] {d.message}"
        for d in result.diagnostics
    ]
    lines.append(summary_line(result))
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------- json


@reporter("json")
def json_report(result: LintResult, options: ReportOptions) -> str:
    """``{"diagnostics": [Diagnostic.to_dict(), ...], "summary": {"files", "errors", "warnings"}}``."""
    document = {
        "diagnostics": [d.to_dict() for d in result.diagnostics],
        "summary": {"files": len(result.files), "errors": result.errors, "warnings": result.warnings},
    }
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"


# ---------------------------------------------------------------- github


_GITHUB_LEVEL = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "notice"}


def _escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _escape_property(text: str) -> str:
    return _escape_data(text).replace(":", "%3A").replace(",", "%2C")


@reporter("github")
def github_report(result: LintResult, options: ReportOptions) -> str:
    """GitHub Actions ``::error file=...,line=...::message`` workflow commands."""
    lines = []
    for d in result.diagnostics:
        span = d.span
        properties = ",".join(
            [
                f"file={_escape_property(d.file)}",
                f"line={span.line}",
                f"col={span.column}",
                f"endLine={span.end_line}",
                f"endColumn={span.end_column}",
                f"title={_escape_property(f'{d.code} {d.name}')}",
            ]
        )
        message = d.message + (f"\nhint: {d.hint}" if d.hint else "")
        lines.append(f"::{_GITHUB_LEVEL[d.severity]} {properties}::{_escape_data(message)}")
    return "".join(line + "\n" for line in lines)


# ---------------------------------------------------------------- sarif


_SARIF_LEVEL = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "note"}


@reporter("sarif")
def sarif_report(result: LintResult, options: ReportOptions) -> str:
    """SARIF 2.1.0, one run, every rule described, locations relative to the working directory."""
    codes = sorted(RULES)
    rules = [
        {
            "id": code,
            "name": RULES[code].name,
            "shortDescription": {"text": RULES[code].summary},
            "defaultConfiguration": {"level": _SARIF_LEVEL[RULES[code].severity]},
        }
        for code in codes
    ]
    results = []
    for d in result.diagnostics:
        message = d.message + (f" ({d.hint})" if d.hint else "")
        results.append(
            {
                "ruleId": d.code,
                "ruleIndex": codes.index(d.code),
                "level": _SARIF_LEVEL[d.severity],
                "message": {"text": message},
                "locations": [
                    {
                        "physicalLocation": {
                            "artifactLocation": {"uri": d.file},
                            "region": {
                                "startLine": d.span.line,
                                "startColumn": d.span.column,
                                "endLine": d.span.end_line,
                                "endColumn": d.span.end_column,
                            },
                        }
                    }
                ],
            }
        )
    document = {
        "$schema": SARIF_SCHEMA,
        "version": "2.1.0",
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": TOOL_NAME,
                        "version": __version__,
                        "rules": rules,
                    }
                },
                "columnKind": "unicodeCodePoints",
                "results": results,
            }
        ],
    }
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"


# ---------------------------------------------------------------- junit


@reporter("junit")
def junit_report(result: LintResult, options: ReportOptions) -> str:
    """JUnit XML: a test suite and a test case per file, a failure per error (and per warning under --strict)."""
    root = ET.Element("testsuites", name="cardz lint")
    total_failures = 0
    for report in result.files:
        failing = [
            d
            for d in report.diagnostics
            if d.severity is Severity.ERROR or (options.strict and d.severity is Severity.WARNING)
        ]
        total_failures += len(failing)
        suite = ET.SubElement(root, "testsuite", name=report.path, tests="1", failures=str(len(failing)), errors="0")
        case = ET.SubElement(suite, "testcase", name=report.path, classname="cardz.lint")
        for d in failing:
            failure = ET.SubElement(case, "failure", message=f"{d.code} {d.message}", type=d.name)
            failure.text = f"{d.file}:{d.span.line}:{d.span.column}: {d.code} {d.message}" + (
                f"\nhint: {d.hint}" if d.hint else ""
            )
        others = [d for d in report.diagnostics if d not in failing]
        if others:
            out = ET.SubElement(case, "system-out")
            out.text = "\n".join(f"{d.file}:{d.span.line}:{d.span.column}: {d.code} {d.message}" for d in others)
    root.set("tests", str(len(result.files)))
    root.set("failures", str(total_failures))
    ET.indent(root)
    return ET.tostring(root, encoding="unicode", xml_declaration=True) + "\n"


# ---------------------------------------------------------------- statistics


def statistics_report(result: LintResult, format: str = "text") -> str:
    """Counts per code (``--statistics``): a table, or JSON for the json format."""
    rows = result.statistics()
    if format == "json":
        return json.dumps([{"code": rule.code, "name": rule.name, "count": n} for rule, n in rows], indent=2) + "\n"
    width = max((len(str(n)) for _, n in rows), default=1)
    lines = [f"{n:>{width}}  {rule.code}  {rule.name}" for rule, n in rows]
    lines.append(summary_line(result))
    return "\n".join(lines) + "\n"
