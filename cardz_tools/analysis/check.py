"""`cardz check`: lint, then a short simulation and a short solve per file, as diagnostics.

It is the command for CI on a game repository: the same output formats and exit
codes as ``cardz lint``, with findings from play reported as CZ5xx diagnostics
placed at the part of the design they are about. Budgets and thresholds come from
``[tool.cardz.check]``.
"""

from __future__ import annotations

import dataclasses
import json
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .. import diagnostics as dx
from ..config import ConfigError, LintConfig
from ..diagnostics import Diagnostic, Severity
from ..lint import FileReport, LintResult, lint_paths
from ..model import Design, build_design
from ..source import SourceFile
from .findings import Finding, FindingKind, Thresholds, interval_text, skill_gap_finding
from .playable import DealError, deal_diagnostic, deal_error
from .runner import default_workers, game_for, run_each
from .sim import SimReport, simulate
from .solve import MAX_POSITIONS, SolveReport, solve
from .stats import wilson_interval

if TYPE_CHECKING:
    from ..cache import Cache


DEFAULT_SECONDS = 3.0
"""The time budget per file of ``cardz check`` unless ``[tool.cardz.check] seconds`` says otherwise."""
PLAYOUT_SHARE = 0.4
"""Of a file's time budget, the most the random playouts may use; the solver gets the rest."""
TIMED_BUDGET = MAX_POSITIONS
"""Solver positions per deal under a time budget (the clock decides first; this bounds memory)."""
FIXED_BUDGET = 5_000
"""Solver positions per deal without a time budget."""


@dataclasses.dataclass(frozen=True)
class CheckOptions:
    """How much play ``cardz check`` does per file (``[tool.cardz.check]``).

    With ``seconds`` (the default of :meth:`from_config`) each file gets that much time:
    playouts run until ``playouts`` are done or :data:`PLAYOUT_SHARE` of it is used, then
    the solver shares what is left among its ``deals`` (``deal_seconds`` each, at most).
    Without it (``seconds=None``, or ``seconds = 0`` in the file) the fixed counts decide
    alone, and the result is the same on any machine.
    """

    playouts: int = 300
    deals: int = 5
    budget: int | None = None
    """Solver positions per deal; None: :data:`TIMED_BUDGET` under a time budget, else :data:`FIXED_BUDGET`."""
    seed: int = 0
    max_moves: int = 2_000
    workers: int | None = 1
    deal_seconds: float | None = 10.0
    """Time bound of the solver per deal: a slow design cannot stall CI."""
    thresholds: Thresholds = Thresholds()
    seconds: float | None = None
    """Time budget per file (playouts and solver together), or None for the fixed counts alone."""

    @property
    def node_budget(self) -> int:
        """Solver positions per deal."""
        if self.budget is not None:
            return self.budget
        return TIMED_BUDGET if self.seconds else FIXED_BUDGET

    def settings(self) -> dict[str, Any]:
        """Every option that changes what play finds (the cache key; workers do not)."""
        return {
            "playouts": self.playouts,
            "deals": self.deals,
            "budget": self.node_budget,
            "seed": self.seed,
            "max_moves": self.max_moves,
            "deal_seconds": self.deal_seconds,
            "seconds": self.seconds,
            "thresholds": dataclasses.asdict(self.thresholds),
        }

    @classmethod
    def from_config(cls, config: LintConfig) -> CheckOptions:
        """Options from ``[tool.cardz.check]``; unknown keys or bad values raise :class:`ConfigError`."""
        table: Mapping[str, Any] = config.sections.get("check", {})
        ints = {
            "playouts": (0, 1_000_000),
            "deals": (0, 100_000),
            "budget": (1, 100_000_000),
            "seed": (0, 2**64 - 1),
            "max-moves": (1, 10_000_000),
            "workers": (1, 1024),
        }
        floats = {
            name: name.replace("-", "_") for name in ("always-won", "forced-play", "skill-gap", "stuck-at-deal")
        }
        values: dict[str, Any] = {"seconds": DEFAULT_SECONDS}
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
            elif key == "seconds":
                if not isinstance(value, (int, float)) or isinstance(value, bool) or not 0 <= value <= 86_400:
                    raise ConfigError("[tool.cardz.check] seconds must be a number from 0 (no time budget) to 86400")
                values["seconds"] = float(value) or None
            else:
                hint = dx.did_you_mean(key, [*ints, *floats, "seconds"])
                raise ConfigError(f"[tool.cardz.check] has no key '{key}'" + (f" ({hint})" if hint else ""))
        return cls(**values, thresholds=Thresholds(**thresholds))


def _pointer_for(finding: Finding, design: Design) -> str:
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

    def summary(self) -> PlaySummary:
        """The counts and findings that check and publish report (what the cache keeps)."""
        solved = self.solve
        return PlaySummary(
            playouts=self.sim.playouts if self.sim else 0,
            wins=self.sim.aggregate.wins if self.sim else 0,
            won=solved.count("won") if solved else 0,
            lost=solved.count("lost") if solved else 0,
            unknown=solved.count("unknown") if solved else 0,
            findings=self.findings,
            won_lines=tuple((v.index, v.line) for v in solved.verdicts if v.result == "won") if solved else (),
        )


@dataclasses.dataclass(frozen=True)
class PlaySummary:
    """The numbers and findings of a play analysis: all that ``check`` and ``publish`` show."""

    playouts: int
    wins: int
    won: int
    lost: int
    unknown: int
    findings: tuple[Finding, ...]
    won_lines: tuple[tuple[int, tuple[str, ...]], ...] = ()
    """(deal index, winning line) of each deal the solver won: what a published page replays."""

    def to_dict(self) -> dict[str, Any]:
        """The JSON value kept in the cache."""
        return {
            "playouts": self.playouts,
            "wins": self.wins,
            "won": self.won,
            "lost": self.lost,
            "unknown": self.unknown,
            "findings": [{**f.to_dict(), "pointer": f.pointer} for f in self.findings],
            "won_lines": [[index, list(line)] for index, line in self.won_lines],
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> PlaySummary:
        """The summary a cache entry holds; ValueError, KeyError or TypeError if it is not one."""
        findings = tuple(
            Finding(FindingKind(f["kind"]), Severity(f["severity"]), str(f["message"]), str(f.get("pointer", "")))
            for f in data["findings"]
        )
        counts = {name: int(data[name]) for name in ("playouts", "wins", "won", "lost", "unknown")}
        won_lines = tuple((int(index), tuple(str(m) for m in line)) for index, line in data["won_lines"])
        return cls(**counts, findings=findings, won_lines=won_lines)


CONFIRM_DEALS = 12
"""When every sampled deal is proven lost, check solves this many before it reports the design
unwinnable (:data:`.findings.UNWINNABLE_CEILING`): a handful of lost deals may be a hard game."""


def play_analysis(design_data: Any, options: CheckOptions) -> PlayAnalysis:
    """A short simulation and a short solve of one (flattened) design, with their findings.

    Under a time budget (``options.seconds``) the playouts stop at their share of it and
    the solver divides what is left among its deals.
    """
    text = json.dumps(design_data, sort_keys=True)
    started = time.monotonic()
    findings: list[Finding] = []
    sim_report = None
    solved = None
    if options.playouts:
        sim_report = simulate(
            text, options.playouts, options.seed, options.workers, max_moves=options.max_moves,
            thresholds=options.thresholds, seconds=options.seconds * PLAYOUT_SHARE if options.seconds else None,
        )
        findings.extend(sim_report.findings)
    if options.deals:
        deal_seconds = options.deal_seconds
        if options.seconds:
            left = max(options.seconds - (time.monotonic() - started), 0.05 * options.seconds)
            deal_seconds = min(deal_seconds or left, left / options.deals)
        solved = solve(
            text,
            options.deals,
            options.seed,
            options.node_budget,
            workers=options.workers,
            thresholds=options.thresholds,
            deal_seconds=deal_seconds,
        )
        if solved.count("lost") == options.deals < CONFIRM_DEALS:
            # Every deal lost is a strong claim: solve enough deals for its interval to carry it (CZ503).
            solved = solve(
                text, CONFIRM_DEALS - options.deals, options.seed, options.node_budget, workers=options.workers,
                thresholds=options.thresholds, deal_seconds=deal_seconds, first=options.deals,
                earlier=solved.verdicts,
            )
        findings.extend(solved.findings)
        if sim_report is not None:
            random_play = wilson_interval(sim_report.aggregate.wins, sim_report.playouts)
            wins = sim_report.aggregate.wins
            words = f"random play won {wins} of {sim_report.playouts} playouts ({interval_text(random_play)})"
            skill = skill_gap_finding(solved.count("won"), solved.count("lost"), solved.count("unknown"), random_play,
                                      options.thresholds, words)
            if skill is not None:
                findings.append(skill)
        if solved.count("won") or any(f.kind is FindingKind.UNWINNABLE for f in solved.findings):
            # "run cardz solve" was advice: the solve just ran, and its verdict says more
            findings = [f for f in findings if f.kind is not FindingKind.NEVER_WON]
    return PlayAnalysis(sim_report, solved, tuple(findings))


def play_findings(design_data: Any, options: CheckOptions) -> list[Finding]:
    """Findings from a short simulation and a short solve of one (flattened) design."""
    return list(play_analysis(design_data, options).findings)


def cached_summary(cache: Cache | None, design_data: Any, options: CheckOptions) -> PlaySummary | None:
    """The summary ``cache`` holds for this design and these options, or None."""
    if cache is None or not cache.enabled:
        return None
    stored = cache.get(cache.key("play", design_data, options.settings()))
    if stored is None:
        return None
    try:
        return PlaySummary.from_dict(stored)
    except (KeyError, TypeError, ValueError):
        return None


def _play_job(job: tuple[Any, CheckOptions]) -> PlaySummary | DealError:
    """One file's play in a worker process (module level, so that pools can pickle it), or why the
    engine cannot deal it: the test compiles the game the play then uses (:func:`.runner.game_for`)."""
    data, options = job
    problem = deal_error(lambda: game_for(json.dumps(data, sort_keys=True)))
    if problem is not None:
        return problem
    return play_analysis(data, options).summary()


def play_summaries(
    designs: Sequence[Any],
    options: CheckOptions,
    cache: Cache | None = None,
    workers: int | None = None,
    scheduler: str | None = None,
    on_done: Callable[[int], None] | None = None,
) -> list[PlaySummary | DealError]:
    """The summary of each (flattened) design, in the order given, whatever order the work finishes in,
    or, for a design the engine cannot deal, why (:class:`.playable.DealError`; never cached).

    Cached summaries are read first; the rest are spread over ``workers`` processes (or
    a Dask cluster at ``scheduler``), one design per task, each dealt and played in one process.
    A single design to play is played here with ``workers`` for its own playouts.
    ``on_done(n)`` is told as designs finish (cached ones included).
    """
    results: dict[int, PlaySummary | DealError] = {}
    for index, data in enumerate(designs):
        found = cached_summary(cache, data, options)
        if found is not None:
            results[index] = found
    if on_done and results:
        on_done(len(results))
    todo = [index for index in range(len(designs)) if index not in results]
    workers = workers or default_workers()
    if len(todo) == 1 and not scheduler:
        single = dataclasses.replace(options, workers=workers)
        finished: Iterator[tuple[int, PlaySummary | DealError]] = iter([(0, _play_job((designs[todo[0]], single)))])
    else:
        jobs = [(designs[index], dataclasses.replace(options, workers=1)) for index in todo]
        finished = run_each(_play_job, jobs, workers, scheduler)
    for position, summary in finished:
        index = todo[position]
        results[index] = summary
        if isinstance(summary, PlaySummary) and cache is not None and cache.enabled:
            cache.put(cache.key("play", designs[index], options.settings()), summary.to_dict())
        if on_done:
            on_done(1)
    return [results[index] for index in range(len(designs))]


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
    *,
    cache: Cache | None = None,
    workers: int | None = 1,
    scheduler: str | None = None,
    on_progress: Callable[[int, int], None] | None = None,
) -> LintResult:
    """Lint ``paths``, then play every file that has no errors and add its findings.

    Files are played in parallel (``workers``, ``scheduler``: see :func:`play_summaries`)
    and through ``cache``; the report is in file order whatever the scheduling.
    ``on_file(path)`` is told each file about to be played; ``on_progress(done, total)``
    as files finish.
    """
    config = config or LintConfig()
    options = options or CheckOptions.from_config(config)
    linted = lint_paths(paths, config)
    reports: list[FileReport | None] = []
    playable: list[tuple[int, FileReport, Any, Design]] = []
    for report in linted.files:
        if any(d.severity is Severity.ERROR for d in report.diagnostics):
            reports.append(report)
            continue
        data = _design_data(report)
        design = build_design(data)
        if on_file:
            on_file(report.path)
        playable.append((len(reports), report, data, design))
        reports.append(None)
    done = [0]

    def advance(count: int) -> None:
        done[0] += count
        if on_progress:
            on_progress(done[0], len(playable))

    summaries = play_summaries([data for _, _, data, _ in playable], options, cache, workers, scheduler, advance)
    for (slot, report, _, design), summary in zip(playable, summaries, strict=True):
        if isinstance(summary, DealError):  # found where the design was to be played, so compiled once
            kept = [deal_diagnostic(summary, report)]
        else:
            found = [finding_diagnostic(finding, design, report.source) for finding in summary.findings]
            kept = [d for d in found if config.reports(d, Path(report.path))]
        merged = tuple(sorted((*report.diagnostics, *kept), key=Diagnostic.sort_key))
        reports[slot] = FileReport(report.path, merged, report.source, report.sources)
    return LintResult(tuple(r for r in reports if r is not None), strict=config.strict)


def finding_diagnostic(finding: Finding, design: Design, source: SourceFile) -> Diagnostic:
    """A finding as a CZ5xx diagnostic, placed at the part of the design it is about."""
    pointer = _pointer_for(finding, design)
    return dx.make(
        finding.kind.code,
        finding.message,
        source.filename,
        span=source.head_span(pointer),
        pointer=pointer,
        severity=finding.severity,
    )
