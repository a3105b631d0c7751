"""``cardz sim`` and ``cardz solve`` through the analysis cache (:mod:`cardz_tools.cache`).

A report is kept as the JSON of its exact parts (the playouts' integer sums, the solver's
verdicts) and rebuilt from it, so a cached report prints the same numbers as the run that
made it, its ``elapsed_s`` included. The key is the design and every argument that changes
the answer; the workers and the backend do not (the answer does not depend on them).
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from typing import Any, TypeVar

from ..cache import Cache
from ..cards import Card
from ..diagnostics import Severity
from .findings import Finding, FindingKind, Thresholds
from .playout import DEFAULT_MAX_MOVES, Aggregate
from .sim import SimReport, simulate
from .solve import DEFAULT_BUDGET, SolveReport, Verdict, solve

R = TypeVar("R")

_COUNTERS = ("scores", "moves", "rule_fires")
_INT_KEYS = ("scores", "moves")


def _findings(values: Sequence[Mapping[str, Any]]) -> tuple[Finding, ...]:
    return tuple(
        Finding(FindingKind(v["kind"]), Severity(v["severity"]), str(v["message"]), str(v.get("pointer", "")))
        for v in values
    )


def _finding_values(findings: Sequence[Finding]) -> list[dict[str, str]]:
    return [{**f.to_dict(), "pointer": f.pointer} for f in findings]


def sim_to_value(report: SimReport) -> dict[str, Any]:
    """The JSON value of a simulation report, exact."""
    aggregate = {
        field.name: getattr(report.aggregate, field.name)
        for field in dataclasses.fields(report.aggregate)
        if field.name not in _COUNTERS
    }
    for name in _COUNTERS:
        aggregate[name] = {str(k): v for k, v in getattr(report.aggregate, name).items()}
    return {
        "game": report.game, "seed": report.seed, "elapsed_s": report.elapsed_s, "workers": report.workers,
        "aggregate": aggregate, "findings": _finding_values(report.findings),
    }


def sim_from_value(value: Mapping[str, Any]) -> SimReport:
    """The report a stored value holds; KeyError, TypeError or ValueError when it holds none."""
    stored: dict[str, Any] = dict(value["aggregate"])
    counters: dict[str, Any] = {
        name: Counter({(int(k) if name in _INT_KEYS else str(k)): int(v) for k, v in stored.pop(name).items()})
        for name in _COUNTERS
    }
    stored["repeating_example"] = tuple(str(m) for m in stored["repeating_example"])
    stored["bound_indexes"] = tuple(int(i) for i in stored["bound_indexes"])
    known = {field.name for field in dataclasses.fields(Aggregate)}
    if set(stored) | set(counters) != known:
        raise ValueError("not an aggregate of this version")
    aggregate = Aggregate(**stored, **counters)
    return SimReport(str(value["game"]), int(value["seed"]), aggregate, _findings(value["findings"]),
                     float(value["elapsed_s"]), int(value["workers"]))


def solve_to_value(report: SolveReport) -> dict[str, Any]:
    """The JSON value of a solver report, exact."""
    return {
        "game": report.game, "seed": report.seed, "budget": report.budget, "elapsed_s": report.elapsed_s,
        "verdicts": [[v.index, v.result, v.nodes, list(v.line), v.seconds] for v in report.verdicts],
        "findings": _finding_values(report.findings),
    }


def solve_from_value(value: Mapping[str, Any]) -> SolveReport:
    """The report a stored value holds; KeyError, TypeError or ValueError when it holds none."""
    verdicts = []
    for index, result, nodes, line, seconds in value["verdicts"]:
        if result not in ("won", "lost", "unknown"):
            raise ValueError(f"not a verdict: {result!r}")
        verdicts.append(Verdict(int(index), str(result), int(nodes), tuple(str(m) for m in line), float(seconds)))
    return SolveReport(str(value["game"]), int(value["seed"]), int(value["budget"]), tuple(verdicts),
                       _findings(value["findings"]), float(value["elapsed_s"]))


def _through(cache: Cache | None, kind: str, design: Any, settings: Mapping[str, Any], run: Callable[[], R],
             to_value: Callable[[R], dict[str, Any]], from_value: Callable[[Mapping[str, Any]], R]) -> R:
    """``run()``, or its report as ``cache`` holds it for this design and these settings (then kept there)."""
    if cache is None or not cache.enabled:
        return run()
    key = cache.key(kind, design, settings)
    stored = cache.get(key)
    if stored is not None:
        try:
            return from_value(stored)
        except (KeyError, TypeError, ValueError):
            pass  # a corrupt or foreign entry: run again and write it anew
    report = run()
    cache.put(key, to_value(report))
    return report


def cached_simulate(
    cache: Cache | None,
    design: Any,
    design_json: str,
    playouts: int,
    seed: int = 0,
    workers: int | None = None,
    scheduler: str | None = None,
    max_moves: int = DEFAULT_MAX_MOVES,
    on_progress: Callable[[int], None] | None = None,
) -> SimReport:
    """:func:`~.sim.simulate`, answered from ``cache`` when it has the same run."""
    thresholds = dataclasses.asdict(Thresholds())
    settings = {"playouts": playouts, "seed": seed, "max_moves": max_moves, "thresholds": thresholds}
    return _through(
        cache, "sim", design, settings,
        lambda: simulate(design_json, playouts, seed, workers, scheduler, max_moves, on_progress=on_progress),
        sim_to_value, sim_from_value,
    )


def cached_solve(
    cache: Cache | None,
    design: Any,
    design_json: str,
    deals: int,
    seed: int = 0,
    budget: int = DEFAULT_BUDGET,
    deck: Sequence[Card] | None = None,
    workers: int | None = None,
    scheduler: str | None = None,
    on_progress: Callable[[int], None] | None = None,
    deal_seconds: float | None = None,
    verbose: bool = False,
) -> SolveReport:
    """:func:`~.solve.solve`, answered from ``cache`` when it has the same run; a ``verbose`` run (its
    report says which pruning does not apply) is neither answered from the cache nor kept there."""
    order = list(deck) if deck else None
    settings = {"deals": deals, "seed": seed, "budget": budget, "deck": order, "deal_seconds": deal_seconds}
    return _through(
        None if verbose else cache, "solve", design, settings,
        lambda: solve(design_json, deals, seed, budget, deck, workers, scheduler, on_progress=on_progress,
                      deal_seconds=deal_seconds, verbose=verbose),
        solve_to_value, solve_from_value,
    )
