"""`cardz check`: lint, then a short simulation and a short solve per file, as diagnostics.

It is the command for CI on a game repository: the same output formats and exit
codes as ``cardz lint``, with findings from play reported as CZ5xx diagnostics
placed at the part of the design they are about. Budgets and thresholds come from
``[tool.cardz.check]``.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from .. import diagnostics as dx
from ..config import ConfigError, LintConfig
from ..diagnostics import Diagnostic, Severity
from ..lint import FileReport, LintResult, lint_paths
from ..model import build_design
from ..source import SourceFile
from .findings import Finding, FindingKind, Thresholds
from .playable import deal_problem, with_diagnostic
from .sim import SimReport, simulate
from .solve import SolveReport, solve

_CODE_OF_KIND = {rule.name: rule.code for rule in dx.RULES.values() if rule.code.startswith("CZ5")}
_SEVERITY = {"error": Severity.ERROR, "warning": Severity.WARNING, "info": Severity.INFO}


@dataclasses.dataclass(frozen=True)
class CheckOptions:
    """How much play ``cardz check`` does per file (``[tool.cardz.check]``)."""

    playouts: int = 300
    deals: int = 5
    budget: int = 5_000
    seed: int = 0
    max_moves: int = 2_000
    workers: int | None = 1
    deal_seconds: float | None = 10.0
    """Time bound of the solver per deal: a slow design cannot stall CI."""
    thresholds: Thresholds = Thresholds()

    @classmethod
    def from_config(cls, config: LintConfig) -> CheckOptions:
        """Options from ``[tool.cardz.check]``; unknown keys or bad values raise :class:`ConfigError`."""
        table: Mapping[str, Any] = config.sections.get("check", {})
        ints = {"playouts": (0, 1_000_000), "deals": (0, 100_000), "budget": (1, 100_000_000), "seed": (0, 2**64 - 1), "max-moves": (1, 10_000_000), "workers": (1, 1024)}
        floats = {"always-won": "always_won", "forced-play": "forced_play", "skill-gap": "skill_gap"}
        values: dict[str, Any] = {}
        thresholds: dict[str, float] = {}
        for key, value in table.items():
            if key in ints:
                low, high = ints[key]
                if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
                    raise ConfigError(f"[tool.cardz.check] {key} must be a whole number from {low} to {high}")
                values[key.replace("-", "_")] = value
            elif key in floats:
                if not isinstance(value, (int, float)) or isinstance(value, bool) or not 0 <= value <= 1:
                    raise ConfigError(f"[tool.cardz.check] {key} must be a number from 0 to 1")
                thresholds[floats[key]] = float(value)
            else:
                hint = dx.did_you_mean(key, [*ints, *floats])
                raise ConfigError(f"[tool.cardz.check] has no key '{key}'" + (f" ({hint})" if hint else ""))
        return cls(**values, thresholds=Thresholds(**thresholds))


def _pointer_for(finding: Finding, design: Any) -> str:
    if finding.pointer:
        return finding.pointer
    if finding.kind is FindingKind.STUCK_AT_DEAL:
        return "/dealRules" if design.deal_rules else "/depots"
    if finding.kind is FindingKind.NON_TERMINATING:
        return "/depots"
    return "/winCondition"


@dataclasses.dataclass(frozen=True)
class PlayAnalysis:
    """What a short simulation and a short solve of one design found (either may be skipped)."""

    sim: SimReport | None
    solve: SolveReport | None
    findings: tuple[Finding, ...]


def play_analysis(design_data: Any, options: CheckOptions) -> PlayAnalysis:
    """A short simulation and a short solve of one (flattened) design, with their findings."""
    text = json.dumps(design_data, sort_keys=True)
    findings: list[Finding] = []
    sim_report = None
    solved = None
    if options.playouts:
        sim_report = simulate(text, options.playouts, options.seed, options.workers, max_moves=options.max_moves, thresholds=options.thresholds)
        findings.extend(sim_report.findings)
    if options.deals:
        solved = solve(
            text,
            options.deals,
            options.seed,
            options.budget,
            workers=options.workers,
            random_win_rate=sim_report.win_rate if sim_report else None,
            thresholds=options.thresholds,
            deal_seconds=options.deal_seconds,
        )
        findings.extend(solved.findings)
        if any(f.kind is FindingKind.UNWINNABLE for f in solved.findings):
            findings = [f for f in findings if f.kind is not FindingKind.NEVER_WON]
    return PlayAnalysis(sim_report, solved, tuple(findings))


def play_findings(design_data: Any, options: CheckOptions) -> list[Finding]:
    """Findings from a short simulation and a short solve of one (flattened) design."""
    return list(play_analysis(design_data, options).findings)


def _design_data(report: FileReport) -> Any:
    data = report.source.data
    if isinstance(data, dict) and "extends" in data:
        from ..variants import flatten

        data, _ = flatten(Path(report.source.filename))
    return data


def check_paths(
    paths: Sequence[str | Path],
    config: LintConfig | None = None,
    options: CheckOptions | None = None,
    on_file: Callable[[str], None] | None = None,
) -> LintResult:
    """Lint ``paths``, then play every file that has no errors and add its findings."""
    config = config or LintConfig()
    options = options or CheckOptions.from_config(config)
    linted = lint_paths(paths, config)
    reports = []
    for report in linted.files:
        if any(d.severity is Severity.ERROR for d in report.diagnostics):
            reports.append(report)
            continue
        if on_file:
            on_file(report.path)
        data = _design_data(report)
        design = build_design(data)
        problem = deal_problem(design, report)
        if problem is not None:
            reports.append(with_diagnostic(LintResult((report,)), problem).files[0])
            continue
        found = [finding_diagnostic(finding, design, report.source) for finding in play_findings(data, options)]
        kept = [d for d in found if config.reports(d, Path(report.path))]
        merged = tuple(sorted((*report.diagnostics, *kept), key=Diagnostic.sort_key))
        reports.append(FileReport(report.path, merged, report.source))
    return LintResult(tuple(reports), strict=config.strict)


def finding_diagnostic(finding: Finding, design: Any, source: SourceFile) -> Diagnostic:
    """A finding as a CZ5xx diagnostic, placed at the part of the design it is about."""
    pointer = _pointer_for(finding, design)
    return dx.make(
        _CODE_OF_KIND[finding.kind.value],
        finding.message,
        source.filename,
        span=source.head_span(pointer),
        pointer=pointer,
        severity=_SEVERITY[finding.severity],
    )
