"""``cardz expr``: check one expression in the scope of a design, and evaluate it on a deal.

The library side of the command: it returns text and an exit status, the CLI prints.
Diagnostics show the expression with a caret line under the exact sub-expression.
"""

from __future__ import annotations

import dataclasses
import json
import pathlib
from typing import Any

from ..cards import NO_CARD, Color, Rank, Suit, card_str, face_up, shuffle, standard_deck
from ..model import Design, DepotType, ModelError, build_design
from .checker import Checked, ExprIssue, check
from .compiler import compile_expr
from .env import DesignEnv
from .sites import Site
from .types import ABSENT_DEPOT, ABSENT_SUIT, Kind, Type

__all__ = ["ExprRun", "run_expr", "format_issue", "initial_piles"]

EXIT_OK, EXIT_ERRORS, EXIT_USAGE = 0, 1, 2


@dataclasses.dataclass(frozen=True, slots=True)
class ExprRun:
    """What ``cardz expr`` prints and the status it exits with."""

    output: str
    exit_code: int


def format_issue(text: str, issue: ExprIssue) -> str:
    """``error[CZ405] message``, the expression, and carets under ``issue.start:issue.end``."""
    start = max(0, min(issue.start, len(text)))
    end = max(start + 1, min(issue.end, len(text) + 1))
    lines = [f"{issue.severity.value}[{issue.code}] {issue.message}", f"  {text}", "  " + " " * start + "^" * (end - start)]
    if issue.hint:
        lines.append(f"  hint: {issue.hint}")
    return "\n".join(lines)


def _load_design(path: pathlib.Path) -> Design:
    data = json.loads(path.read_text(encoding="utf-8"))
    return build_design(data)


def initial_piles(design: Design, seed: int) -> list[list[int]]:
    """The piles after the deal of ``seed``: the engine's deal when it is installed, else a minimal one.

    The minimal deal follows docs/format.md: ``dealGroup`` (face-down then face-up counts,
    round robin or not), ``remove``, and the rest to the first Stock with the next deck card on top.
    """
    try:
        from ..engine import Game  # type: ignore[attr-defined]
    except ImportError:
        Game = None
    if Game is not None:
        state = Game(design).new_initial_state(seed=seed)
        piles = getattr(state, "piles", None)
        if piles is not None:
            return [list(p) for p in piles]
    env = DesignEnv.from_design(design)
    deck = shuffle(standard_deck(design.decks, design.jokers), seed)
    piles: list[list[int]] = [[] for _ in design.depots]
    position = 0
    for rule in design.deal_rules:
        if rule.kind == "remove":
            for pile in piles:
                pile[:] = [c for c in pile if (c & 0x0F) not in {int(r) for r in rule.ranks}]
            continue
        if rule.kind != "dealGroup" or rule.to is None:
            continue
        targets = design.resolve(rule.to) or ()
        plans: dict[int, list[bool]] = {}
        for depot in targets:
            down = _deal_count(rule.face_down, env, piles, depot)
            up = _deal_count(rule.face_up, env, piles, depot)
            plans[depot] = [False] * down + [True] * up
        rounds = max((len(p) for p in plans.values()), default=0)
        order = ([(d, r) for r in range(rounds) for d in targets if r < len(plans[d])] if rule.round_robin
                 else [(d, r) for d in targets for r in range(len(plans[d]))])
        for depot, r in order:
            if position >= len(deck):
                break
            card = deck[position]
            position += 1
            piles[depot].append(face_up(card) if plans[depot][r] else card)
    stocks = [d.index for d in design.depots if d.type is DepotType.STOCK]
    if stocks:
        piles[stocks[0]].extend(reversed(deck[position:]))
    return piles


def _deal_count(value: Any, env: DesignEnv, piles: list[list[int]], depot: int) -> int:
    if value is None:
        return 0
    checked = check(value.text, Site.DEAL, env)
    if not checked.ok:
        return 0
    return max(0, int(compile_expr(checked, env)(piles, None, depot)))


@dataclasses.dataclass
class _State:
    """The little of an engine state that expressions read."""

    declared: list[int | None]


def _show(value: Any, result: Type, env: DesignEnv) -> str:
    kind = result.kind
    if kind is Kind.BOOL:
        return "true" if value else "false"
    if kind is Kind.RANK:
        return Rank(value).title if isinstance(value, int) and 1 <= value <= 13 else "(no rank)"
    if kind is Kind.SUIT:
        return Suit(value).title if value != ABSENT_SUIT and 0 <= value <= 3 else "(absent)"
    if kind is Kind.COLOR:
        return Color(value).title if value in (0, 1) else "(none)"
    if kind is Kind.CARD:
        return "(absent)" if value == NO_CARD else card_str(value)
    if kind is Kind.DEPOT:
        return "(absent)" if value == ABSENT_DEPOT else env.depot_names[value]
    return str(value)


def _evaluate(checked: Checked, env: DesignEnv, design: Design, seed: int) -> list[str]:
    piles = initial_piles(design, seed)
    fn = compile_expr(checked, env)
    state = _State(declared=[None] * env.size)
    names = env.depot_names
    lines = [f"deal of seed {seed}:"]
    for index, pile in enumerate(piles):
        top = card_str(pile[-1]) + ("" if pile[-1] & 0x80 else " (down)") if pile else "empty"
        lines.append(f"  {names[index]}: {len(pile)} card{'s' if len(pile) != 1 else ''}, top {top}")
    site = checked.site
    if site in (Site.WIN, Site.LOSS, Site.SCORING):
        lines.append(f"value: {_show(fn(piles, state), checked.type, env)}")
    elif site in (Site.TRIGGER, Site.ACTION, Site.COUNT, Site.DEAL):
        lines.append("value at each depot:")
        lines += [f"  {names[d]}: {_show(fn(piles, state, d), checked.type, env)}" for d in range(env.size)]
    elif site is Site.EJECT:
        lines.append("top card of each depot, dragged alone:")
        for d, pile in enumerate(piles):
            if pile:
                lines.append(f"  {names[d]} ({card_str(pile[-1])}): "
                             f"{_show(fn(piles, state, pile[-1], (pile[-1],), d), checked.type, env)}")
    else:
        lines.append("drops of each top card that the rule allows (source -> depot):")
        found = 0
        for s, pile in enumerate(piles):
            if not pile:
                continue
            card = pile[-1]
            targets = [names[d] for d in range(env.size) if d != s and fn(piles, state, card, (card,), s, d)]
            if targets:
                found += 1
                lines.append(f"  {names[s]} ({card_str(card)}) -> {', '.join(targets)}")
        if not found:
            lines.append("  none")
    return lines


def run_expr(text: str, site: str | Site, design_path: pathlib.Path | None = None,
             seed: int | None = None) -> ExprRun:
    """Check ``text`` at ``site`` (in the scope of the design at ``design_path``) and, with ``seed``, evaluate it."""
    try:
        site = site if isinstance(site, Site) else Site(site.lower())
    except ValueError:
        return ExprRun(f"unknown site {site!r}; sites: {', '.join(s.value for s in Site)}", EXIT_USAGE)
    design: Design | None = None
    if design_path is not None:
        try:
            design = _load_design(design_path)
        except (OSError, UnicodeDecodeError, json.JSONDecodeError, ModelError) as error:
            return ExprRun(f"{design_path}: cannot load the design ({error}); run `cardz lint` on it", EXIT_USAGE)
    if seed is not None and design is None:
        return ExprRun("--seed needs --design: a deal needs a design", EXIT_USAGE)
    env = DesignEnv.from_design(design) if design is not None else DesignEnv()
    checked = check(text, site, env)
    lines = [format_issue(text, issue) for issue in checked.issues]
    if not checked.ok:
        return ExprRun("\n".join(lines), EXIT_ERRORS)
    lines.append(f"ok: {site.value} expression of type {checked.type}")
    if seed is not None and design is not None:
        lines += _evaluate(checked, env, design, seed)
    return ExprRun("\n".join(lines), EXIT_OK)

