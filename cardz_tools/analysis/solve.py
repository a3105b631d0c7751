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
from .findings import Finding, Thresholds, solver_findings
from .dead_cards import dead_card_check
from .playout import deal_seed
from .position_key import key_function
from .compact import compact_solve
from .runner import game_for, run
from .stats import bounded_interval

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

    def to_dict(self) -> dict[str, Any]:
        return {"deal": self.index, "result": self.result, "nodes": self.nodes, "line": list(self.line)}


class _Progress:
    """Orders children: closer to the win condition first, then better score."""

    def __init__(self, game: Any) -> None:
        design = game.design
        self._targets: tuple[int, ...] = ()
        self._sign = 0
        win = design.win
        if win.kind in ("allCardsIn", "depotsEmpty") and win.depots:
            self._targets = design.resolve(win.depots) or ()
            self._sign = 1 if win.kind == "allCardsIn" else -1
        self._score_sign = -1 if design.scoring.better.value == "Low" else 1

    def __call__(self, state: Any) -> tuple[int, int, int]:
        piles = state.piles
        progress = self._sign * sum(len(piles[i]) for i in self._targets)
        return (progress, self._score_sign * state.score(), len(state.legal_moves()))


KEPT_CHILDREN = 64
"""A position with more legal moves than this keeps only the moves on the search stack, not the
positions they lead to (replayed when visited): a hostile design with thousands of moves per
position cannot fill the memory with copies of its board."""

MAX_LINE = 10_000
"""The deepest line the solver follows; a deal whose search was cut there is "unknown", never "lost"."""


class _Budget(Exception):
    """The position budget or the deadline ran out."""


def solve_state(
    root: Any, budget: int = DEFAULT_BUDGET, deadline: float | None = None, max_positions: int | None = None
) -> tuple[str, list[Any], int]:
    """Search from ``root``: ("won", winning moves, nodes) / ("lost", [], nodes) / ("unknown", [], nodes).

    A sink game (Golf, Black Hole) is searched by :mod:`.sink_search`, every other
    design over engine states as below. The search stops with "unknown" after
    ``min(budget, max_positions)`` positions (``max_positions`` defaults to what the
    search's memory allows: :data:`MAX_POSITIONS` here,
    :data:`.sink_search.MAX_POSITIONS` there) or at ``deadline`` (a
    :func:`time.monotonic` time), whichever comes first; lines deeper than
    :data:`MAX_LINE` are not followed (then it is never "lost").
    """
    compact = compact_solve(root, budget if max_positions is None else min(budget, max_positions), deadline)
    if compact is not None:
        return compact
    return search_states(root, min(budget, MAX_POSITIONS if max_positions is None else max_positions), deadline)


def search_states(root: Any, budget: int, deadline: float | None = None) -> tuple[str, list[Any], int]:
    """The search over engine states that :func:`solve_state` runs for any design (same answers).

    ``nodes`` counts the distinct positions generated (the root included), told
    apart by :func:`~.position_key.key_function`. A child already generated anywhere in
    the search is skipped before its rules are looked at, a won child ends the search
    as soon as it is generated, and a child :func:`~.dead_cards.dead_card_check` proves
    lost is not searched.
    """
    if root.is_terminal():
        return ("won" if root.outcome().won else "lost"), [], 1
    progress = _Progress(root.game)
    key_of = key_function(root.game)
    dead = dead_card_check(root.game)
    seen = {key_of(root)}

    def expand(state: Any) -> tuple[Any, list[tuple[Any, Any]]]:
        """(a winning move or None, the new children worth searching, best first).

        Past :data:`KEPT_CHILDREN` moves a child is returned as None (replayed when visited).
        """
        moves = state.legal_moves()
        keep = len(moves) <= KEPT_CHILDREN
        fresh = []
        for number, move in enumerate(moves):
            child = state.clone()
            child.apply(move)
            key = key_of(child)
            if key in seen:
                continue
            seen.add(key)
            # The clock is read at every position: one position of a hostile design can take long.
            if len(seen) > budget or (deadline is not None and time.monotonic() > deadline):
                raise _Budget
            if child.is_terminal():
                if child.outcome().won:
                    return move, []
                continue
            if dead is not None and dead(child):
                continue
            fresh.append((progress(child), -number, move, child if keep else None))
        fresh.sort(key=lambda entry: (entry[0], entry[1]), reverse=True)
        return None, [(move, child) for _, _, move, child in fresh]

    cut = False  # a line was cut at MAX_LINE: "lost" can no longer be proven
    path: list[Any] = []
    try:
        won, options = expand(root)
        if won is not None:
            return "won", [won], len(seen)
        stack = [(root, iter(options))]
        while stack:
            parent, pending = stack[-1]
            step = next(pending, None)
            if step is None:
                stack.pop()
                if path:
                    path.pop()
                continue
            move, child = step
            if len(stack) >= MAX_LINE:
                cut = True
                continue
            if child is None:
                child = parent.clone()
                child.apply(move)
            won, options = expand(child)
            if won is not None:
                return "won", [*path, move, won], len(seen)
            if options:
                stack.append((child, iter(options)))
                path.append(move)
    except _Budget:
        return "unknown", [], len(seen)
    return ("unknown" if cut else "lost"), [], len(seen)


def _solve_task(game: Any, start: int, stop: int, seed: int, options: Mapping[str, Any]) -> list[Verdict]:
    budget = int(options.get("budget", DEFAULT_BUDGET))
    deal_seconds = options.get("deal_seconds")
    deck = options.get("deck")
    verdicts = []
    for index in range(start, stop):
        began = time.perf_counter()
        deadline = time.monotonic() + float(deal_seconds) if deal_seconds else None
        state = game.new_initial_state(deck=deck) if deck else game.new_initial_state(seed=deal_seed(seed, index))
        result, line, nodes = solve_state(state, budget, deadline)
        verdicts.append(Verdict(index, result, nodes, tuple(str(m) for m in line), time.perf_counter() - began))
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
        lines = [
            f"{self.game}: solved {d['deals']} deal{'s' if d['deals'] != 1 else ''} (seed {self.seed}, budget {self.budget} positions)",
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
) -> SolveReport:
    """Solve ``deals`` deals (or the one explicit ``deck``) of the design given as JSON text.

    ``deal_seconds`` bounds the time of each deal (then "unknown"), besides ``budget``.
    """
    started = time.perf_counter()
    options: dict[str, Any] = {"budget": budget, "deal_seconds": deal_seconds}
    if deck is not None:
        options["deck"] = list(deck)
        deals = 1
    verdicts: list[Verdict] = []
    for _, part in run(_solve_task, design_json, deals, seed, options, workers, scheduler, on_progress):
        verdicts.extend(part)
    verdicts.sort(key=lambda v: v.index)
    won = sum(v.result == "won" for v in verdicts)
    lost = sum(v.result == "lost" for v in verdicts)
    unknown = len(verdicts) - won - lost
    findings = solver_findings(len(verdicts), won, lost, unknown, random_win_rate, thresholds)
    return SolveReport(
        game=game_for(design_json).design.name,
        seed=seed,
        budget=budget,
        verdicts=tuple(verdicts),
        findings=tuple(findings),
        elapsed_s=time.perf_counter() - started,
    )
