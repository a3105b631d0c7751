"""`cardz solve`: a thoughtful solver that knows every card.

The published solitaire research calls a player who sees the face-down cards and the
stock order "thoughtful". The engine's state already holds every card, so the
solver is a depth-first search over engine states with

* a transposition table on :meth:`State.key`, so each position is expanded once, and
* move ordering by progress toward the win condition, then by score.

A deal is *won* (with the winning line, which the engine replays), *lost* (every
reachable position was searched: proven), or *unknown* (the node budget ran out).
"""

from __future__ import annotations

import dataclasses
import json
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from ..cards import Card
from .compact import compact_solve
from .dead_cards import dead_card_check
from .findings import Finding, Thresholds, solver_findings
from .playout import deal_seed
from .runner import game_for, run
from .stats import bounded_interval
from .tableau_search import KEPT_CHILDREN, MAX_LINE, Pruning, SearchResult, plan_for, search

__all__ = ["KEPT_CHILDREN", "MAX_LINE", "Pruning", "SolveReport", "Verdict", "solve", "solve_deal", "solve_state"]

DEFAULT_BUDGET = 50_000
"""Positions a solve may expand per deal before it answers "unknown"."""

MAX_POSITIONS = 2_000_000
"""The most positions the transposition table of one deal holds, whatever the budget.

A position's key and the search stack cost a few hundred bytes, so this keeps one
solve under about a gigabyte; a deal that needs more answers "unknown"."""


@dataclasses.dataclass(frozen=True, slots=True)
class Verdict:
    """The solver's answer for one deal."""

    index: int
    result: str  # "won", "lost" or "unknown"
    nodes: int
    line: tuple[str, ...] = ()
    seconds: float = 0.0
    stage: str | None = None
    """What decided the deal: "quick" (the quick pass), "search" (the complete search) or
    "proof" (a proof of loss before any search); None when it is unknown."""

    def to_dict(self) -> dict[str, Any]:
        return {
            "deal": self.index,
            "result": self.result,
            "nodes": self.nodes,
            "line": list(self.line),
            "seconds": round(self.seconds, 4),
            "stage": self.stage,
        }


def solve_state(
    root: Any,
    budget: int = DEFAULT_BUDGET,
    deadline: float | None = None,
    max_positions: int | None = None,
    pruning: Pruning = Pruning(),
) -> tuple[str, list[Any], int]:
    """Search from ``root``: ("won", winning moves, nodes) / ("lost", [], nodes) / ("unknown", [], nodes).

    A sink game (Golf, Black Hole) is searched by :mod:`.sink_search`, every other
    design over engine states by :mod:`.tableau_search` with ``pruning``. The search stops
    with "unknown" after ``min(budget, max_positions)`` positions (``max_positions``
    defaults to what the search's memory allows: :data:`MAX_POSITIONS` here,
    :data:`.sink_search.MAX_POSITIONS` there) or at ``deadline`` (a
    :func:`time.monotonic` time), whichever comes first; lines deeper than
    :data:`MAX_LINE` are not followed (then it is never "lost").
    """
    found = solve_deal(root, budget, deadline, max_positions, pruning)
    return found.result, found.line, found.nodes


def solve_deal(
    root: Any,
    budget: int = DEFAULT_BUDGET,
    deadline: float | None = None,
    max_positions: int | None = None,
    pruning: Pruning = Pruning(),
) -> SearchResult:
    """:func:`solve_state` with the stage that decided (``"quick"``, ``"search"``, ``"proof"`` or None).

    A deal the dead-card test (:mod:`.dead_cards`) proves lost before any search is "proof".
    """
    dead = dead_card_check(root.game)
    if dead is not None and not root.is_terminal() and dead(root):
        return SearchResult("lost", [], 1, "proof")
    compact = compact_solve(root, budget if max_positions is None else min(budget, max_positions), deadline)
    if compact is not None:
        result, line, nodes = compact
        return SearchResult(result, line, nodes, None if result == "unknown" else "search")
    return search(root, min(budget, MAX_POSITIONS if max_positions is None else max_positions), deadline, pruning)


def search_states(
    root: Any, budget: int, deadline: float | None = None, pruning: Pruning | None = None
) -> tuple[str, list[Any], int]:
    """The search over engine states for any design (the answers of :func:`solve_state`), by
    default the plain one (:meth:`Pruning.none`): the reference the other searches are checked against.

    ``nodes`` counts the distinct positions stored, told apart by the key of
    :mod:`.symmetry`; see :mod:`.tableau_search` for the pruning pieces.
    """
    pruning = Pruning.none() if pruning is None else pruning
    found = search(root, budget, deadline, pruning)
    return found.result, found.line, found.nodes


def _solve_task(game: Any, start: int, stop: int, seed: int, options: Mapping[str, Any]) -> list[Verdict]:
    budget = int(options.get("budget", DEFAULT_BUDGET))
    deal_seconds = options.get("deal_seconds")
    deck = options.get("deck")
    first = int(options.get("first", 0))
    verdicts = []
    for index in range(first + start, first + stop):
        began = time.perf_counter()
        deadline = time.monotonic() + float(deal_seconds) if deal_seconds else None
        state = game.new_initial_state(deck=deck) if deck else game.new_initial_state(seed=deal_seed(seed, index))
        found = solve_deal(state, budget, deadline)
        line = tuple(str(m) for m in found.line)
        verdicts.append(Verdict(index, found.result, found.nodes, line, time.perf_counter() - began, found.stage))
    return verdicts


@dataclasses.dataclass(frozen=True)
class SolveReport:
    """The result of ``cardz solve``; :meth:`to_dict` gives the documented JSON keys."""

    game: str
    seed: int
    budget: int
    verdicts: tuple[Verdict, ...]
    findings: tuple[Finding, ...]
    elapsed_s: float
    notes: tuple[str, ...] = ()
    """Which pruning pieces do not apply to this design, and why (shown by ``--verbose``)."""
    verbose: bool = False

    def count(self, result: str) -> int:
        return sum(1 for v in self.verdicts if v.result == result)

    @property
    def winnability(self) -> float | None:
        """Won among decided deals (None when nothing was decided)."""
        won, lost = self.count("won"), self.count("lost")
        return won / (won + lost) if won + lost else None

    def to_dict(self) -> dict[str, Any]:
        won, lost, unknown = self.count("won"), self.count("lost"), self.count("unknown")
        low, high = bounded_interval(won, lost, unknown)
        return {
            "game": self.game,
            "seed": self.seed,
            "budget": self.budget,
            "deals": len(self.verdicts),
            "won": won,
            "lost": lost,
            "unknown": unknown,
            "winnability": None if self.winnability is None else round(self.winnability, 6),
            "interval": [round(low, 6), round(high, 6)],
            "per_deal": [v.to_dict() for v in self.verdicts],
            "findings": [f.to_dict() for f in self.findings],
            "elapsed_s": round(self.elapsed_s, 3),
            "deals_per_s": round(len(self.verdicts) / self.elapsed_s, 2) if self.elapsed_s > 0 else None,
        }

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), indent=2, ensure_ascii=False)

    def to_text(self) -> str:
        d = self.to_dict()
        low, high = d["interval"]
        rate = "undecided" if d["winnability"] is None else f"{100 * d['winnability']:.1f}%"
        deals = f"{d['deals']} deal{'s' if d['deals'] != 1 else ''}"
        lines = [
            f"{self.game}: solved {deals} (seed {self.seed}, budget {self.budget} positions)",
            f"  won {d['won']}, lost {d['lost']}, unknown {d['unknown']}",
            f"  winnability {rate} (95% CI {100 * low:.1f}%–{100 * high:.1f}%, unknown counted both ways)",
            f"  {d['elapsed_s']:.2f} s, {d['deals_per_s']} deals/s",
        ]
        for verdict in self.verdicts[:20]:
            tail = f": {' ; '.join(verdict.line[:12])}{' …' if len(verdict.line) > 12 else ''}" if verdict.line else ""
            lines.append(f"  deal {verdict.index}: {verdict.result} ({verdict.nodes} positions){tail}")
        if len(self.verdicts) > 20:
            lines.append(f"  … {len(self.verdicts) - 20} more deals")
        lines += ["", "Findings:" if self.findings else "Findings: none"]
        lines += [f"  {f.severity:<7} {f.kind.value}: {f.message}" for f in self.findings]
        if self.verbose:
            lines += ["", "Search:" if self.notes else "Search: every pruning piece applies"]
            lines += [f"  {note}" for note in self.notes]
        return "\n".join(lines) + "\n"


def solve(
    design_json: str,
    deals: int,
    seed: int = 0,
    budget: int = DEFAULT_BUDGET,
    deck: Sequence[Card] | None = None,
    workers: int | None = None,
    scheduler: str | None = None,
    random_win_rate: float | None = None,
    thresholds: Thresholds = Thresholds(),
    on_progress: Callable[[int], None] | None = None,
    deal_seconds: float | None = None,
    verbose: bool = False,
    first: int = 0,
    earlier: Sequence[Verdict] = (),
) -> SolveReport:
    """Solve ``deals`` deals (or the one explicit ``deck``) of the design given as JSON text.

    ``deal_seconds`` bounds the time of each deal (then "unknown"), besides ``budget``;
    with ``verbose`` the text report says which pruning pieces do not apply, and why.
    ``first`` is the index of the first deal (deals ``first .. first + deals - 1`` of the
    seed's run); ``earlier`` are verdicts already reached on other deals of the same run, with
    the same settings, which the report and its findings count too: more deals are solved
    without solving the first ones again.
    """
    started = time.perf_counter()
    options: dict[str, Any] = {"budget": budget, "deal_seconds": deal_seconds, "first": first}
    if deck is not None:
        options["deck"] = list(deck)
        deals = 1
    verdicts: list[Verdict] = list(earlier)
    for _, part in run(_solve_task, design_json, deals, seed, options, workers, scheduler, on_progress):
        verdicts.extend(part)
    verdicts.sort(key=lambda v: v.index)
    won = sum(v.result == "won" for v in verdicts)
    lost = sum(v.result == "lost" for v in verdicts)
    unknown = len(verdicts) - won - lost
    findings = solver_findings(len(verdicts), won, lost, unknown, random_win_rate, thresholds)
    game = game_for(design_json)
    return SolveReport(
        game=game.design.name,
        seed=seed,
        budget=budget,
        verdicts=tuple(verdicts),
        findings=tuple(findings),
        elapsed_s=time.perf_counter() - started,
        notes=search_notes(game),
        verbose=verbose,
    )


def search_notes(game: Any) -> tuple[str, ...]:
    """Why pruning pieces of the search over engine states do not apply to ``game``."""
    return plan_for(game, Pruning()).notes
