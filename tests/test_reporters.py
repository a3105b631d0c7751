"""Every output format, parsed back; the text format against golden files.

Regenerate the golden files after an intended change with
``CARDZ_UPDATE_GOLDEN=1 python -m pytest tests/test_reporters.py``.
"""

from __future__ import annotations

import json
import os
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from cardz_tools.diagnostics import RULES, Severity
from cardz_tools.lint import LintResult, lint_paths
from cardz_tools.reporters import REPORTERS, ReportOptions, render, statistics_report, summary_line

from .conftest import ROOT

INVALID = ROOT / "tests" / "examples" / "invalid"
GOLDEN = ROOT / "tests" / "golden"
MIXED = ["overlapping-depots", "trailing-comma", "unknown-depot", "unknown-key", "invalid-utf8"]
SEEDS = [Path("games/monte-carlo.cardz"), Path("games/weathervane.cardz")]


@pytest.fixture
def result(monkeypatch: pytest.MonkeyPatch) -> LintResult:
    monkeypatch.chdir(ROOT)  # file names in reports are relative to the working directory
    return lint_paths([Path("tests/examples/invalid") / f"{name}.cardz" for name in MIXED] + SEEDS)


@pytest.fixture
def clean(monkeypatch: pytest.MonkeyPatch) -> LintResult:
    monkeypatch.chdir(ROOT)
    return lint_paths(SEEDS)


def assert_golden(name: str, actual: str) -> None:
    path = GOLDEN / name
    if os.environ.get("CARDZ_UPDATE_GOLDEN"):
        path.write_text(actual, encoding="utf-8")
    assert actual == path.read_text(encoding="utf-8")


def test_text_report_matches_golden(result: LintResult) -> None:
    assert_golden("lint-text.txt", render(result, "text"))


def test_clean_text_report_matches_golden(clean: LintResult) -> None:
    assert_golden("lint-clean.txt", render(clean, "text"))


def test_text_report_draws_the_caret_under_the_span(result: LintResult) -> None:
    lines = render(result, "text").splitlines()
    for index, line in enumerate(lines):
        if line.lstrip().startswith("-->") and "unknown-depot" in line:
            source_line, carets = lines[index + 2], lines[index + 3]
            start = carets.index("^")
            assert source_line[start : start + carets.count("^")] == '"wast"'
            return
    pytest.fail("no diagnostic for unknown-depot.cardz")


def test_colour_only_when_asked(result: LintResult) -> None:
    assert "\x1b[" not in render(result, "text")
    coloured = render(result, "text", ReportOptions(color=True))
    assert "\x1b[" in coloured
    assert re.sub(r"\x1b\[[0-9;]*m", "", coloured) == render(result, "text")


def test_long_lines_are_shown_around_the_span(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    path = tmp_path / "long.cardz"
    path.write_text('{"description": "' + "x" * 500 + '", "name": 5 @}', encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    text = render(lint_paths([Path("long.cardz")]), "text")
    lines = text.splitlines()
    shown, carets = lines[3], lines[4]
    assert len(shown) < 200 and shown.rstrip().endswith('"name": 5 @}')
    start = carets.index("^")
    assert shown[start : start + carets.count("^")] == "@"


def test_summary_line(result: LintResult, clean: LintResult) -> None:
    assert summary_line(result) == "Found 4 errors, 2 warnings in 5 files."
    assert summary_line(clean) == "All checks passed (2 files)."


def test_concise_report(result: LintResult) -> None:
    lines = render(result, "concise").splitlines()
    pattern = re.compile(r"^(?P<file>[^:]+):(?P<line>\d+):(?P<col>\d+): (?P<code>CZ\d{3}) \[(error|warning)\] .+$")
    assert all(pattern.match(line) for line in lines[:-1])
    assert len(lines) - 1 == len(result.diagnostics)


def test_json_report_has_exactly_the_promised_shape(result: LintResult) -> None:
    document = json.loads(render(result, "json"))
    assert set(document) == {"diagnostics", "summary"}
    assert document["summary"] == {"files": 7, "errors": 4, "warnings": 2}
    keys = {
        "file",
        "line",
        "column",
        "end_line",
        "end_column",
        "severity",
        "code",
        "name",
        "message",
        "pointer",
        "hint",
    }
    for item in document["diagnostics"]:
        assert set(item) == keys
        assert RULES[item["code"]].name == item["name"]
    unknown = next(d for d in document["diagnostics"] if d["code"] == "CZ302")
    assert (unknown["file"], unknown["line"], unknown["column"], unknown["end_column"]) == (
        "tests/examples/invalid/unknown-depot.cardz",
        5,
        100,
        106,
    )
    assert unknown["pointer"] == "/depots/0/draw/to" and unknown["hint"] == "did you mean 'waste'?"


def test_github_annotations(result: LintResult) -> None:
    lines = render(result, "github").splitlines()
    pattern = re.compile(
        r"^::(error|warning|notice) file=(?P<file>[^,]+),line=\d+,col=\d+,endLine=\d+,endColumn=\d+,"
        r"title=(?P<code>CZ\d{3}) (?P<name>[a-z0-9-]+)::(?P<message>[^\n]+)$"
    )
    matches = [pattern.match(line) for line in lines]
    assert all(matches) and len(lines) == len(result.diagnostics)
    assert {m["code"] for m in matches if m} == {d.code for d in result.diagnostics}
    assert any("%0Ahint: did you mean" in line for line in lines)  # newlines are escaped


def test_sarif_report(result: LintResult) -> None:
    document = json.loads(render(result, "sarif"))
    assert document["version"] == "2.1.0" and "sarif" in document["$schema"]
    (run,) = document["runs"]
    driver = run["tool"]["driver"]
    assert driver["name"] == "cardz" and driver["version"]
    rules = driver["rules"]
    assert all({"id", "name", "shortDescription"} <= set(rule) for rule in rules)
    assert len(run["results"]) == len(result.diagnostics)
    for item in run["results"]:
        assert rules[item["ruleIndex"]]["id"] == item["ruleId"]
        assert item["level"] in ("error", "warning", "note") and item["message"]["text"]
        (location,) = item["locations"]
        physical = location["physicalLocation"]
        uri = physical["artifactLocation"]["uri"]
        assert not uri.startswith("/") and (ROOT / uri).is_file()
        region = physical["region"]
        assert region["startLine"] >= 1 and region["startColumn"] >= 1
        assert (region["endLine"], region["endColumn"]) >= (region["startLine"], region["startColumn"])


def test_junit_report(result: LintResult) -> None:
    root = ET.fromstring(render(result, "junit"))
    suites = root.findall("testsuite")
    assert [s.get("name") for s in suites] == [f.path for f in result.files]
    for suite, report in zip(suites, result.files, strict=True):
        (case,) = suite.findall("testcase")
        errors = [d for d in report.diagnostics if d.severity is Severity.ERROR]
        assert len(case.findall("failure")) == len(errors) == int(suite.get("failures", "-1"))
    assert int(root.get("failures", "-1")) == result.errors


def test_junit_strict_makes_warnings_failures(result: LintResult) -> None:
    root = ET.fromstring(render(result, "junit", ReportOptions(strict=True)))
    assert int(root.get("failures", "-1")) == result.errors + result.warnings


def test_statistics(result: LintResult) -> None:
    table = statistics_report(result).splitlines()
    assert table[-1] == summary_line(result)
    counts = {line.split()[1]: int(line.split()[0]) for line in table[:-1]}
    assert counts == {"CZ101": 1, "CZ104": 1, "CZ204": 1, "CZ302": 1, "CZ304": 1, "CZ305": 1}
    as_json = json.loads(statistics_report(result, "json"))
    assert {row["code"]: row["count"] for row in as_json} == counts


def test_every_reporter_handles_an_empty_run() -> None:
    empty = LintResult(files=())
    shown = {name: render(empty, name) for name in REPORTERS}
    assert shown["text"] == shown["concise"] == "All checks passed (0 files).\n"
    assert json.loads(shown["json"]) == {"diagnostics": [], "summary": {"files": 0, "errors": 0, "warnings": 0}}
    assert shown["github"] == ""
    assert [run["results"] for run in json.loads(shown["sarif"])["runs"]] == [[]]
    suites = ET.fromstring(shown["junit"].encode("utf-8"))
    assert (suites.get("tests"), suites.get("failures"), list(suites)) == ("0", "0", [])
    assert set(shown) == {"text", "concise", "json", "github", "sarif", "junit"}, (
        "a new reporter: say what it shows here"
    )
