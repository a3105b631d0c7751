"""``cardz expr``: check one expression in the scope of a design, and evaluate it on a deal.

The library side of the command: it returns text and an exit status, the CLI prints.
Diagnostics show the expression with a caret line under the exact sub-expression.
With a seed it deals through the engine (``Game(design).new_initial_state(seed=N)``).
A front end: it sits above expressions, the engine and the linter in the layer order.
"""

from __future__ import annotations

import dataclasses
import pathlib
from typing import Any

from .cards import NO_CARD, Color, Rank, Suit, card_str, standard_deck
from .engine import Game, RuleError, State
from .expr.checker import Checked, ExprIssue, check
from .expr.compiler import compile_expr
from .expr.env import DesignEnv
from .expr.sites import Site
from .expr.types import ABSENT_DEPOT, ABSENT_SUIT, Kind, Type
from .lint import LintResult
from .loading import OpenDesign, open_or_report
from .model import Design, ModelError, build_design
from .reporters import render
from .variants import VariantError, flatten

__all__ = ["ExprRun", "run_expr", "format_issue"]

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
    carets = "  " + " " * start + "^" * (end - start)
    lines = [f"{issue.severity.value}[{issue.code}] {issue.message}", f"  {text}", carets]
    if issue.hint:
        lines.append(f"  hint: {issue.hint}")
    return "\n".join(lines)


def _open(path: pathlib.Path, playable: bool) -> Design | ExprRun:
    """The design at ``path``, through :func:`cardz_tools.loading.open_or_report` (lint, variants, model).

    Checking an expression only needs the design's names, so a design with lint errors
    is still used then, as far as it can be modelled; dealing (``--seed``) needs a clean one.
    """
    opened = open_or_report(path)
    if isinstance(opened, OpenDesign):
        return opened.design
    if opened.result is None:
        return ExprRun(opened.message, opened.exit_code)
    design = None if playable else _model_despite_errors(path, opened.result)
    if design is None:
        report = render(opened.result, "text")
        return ExprRun(report.rstrip("\n") + "\nthe design has errors: fix them to use it here", EXIT_ERRORS)
    return design


def _model_despite_errors(path: pathlib.Path, result: LintResult) -> Design | None:
    if not result.files or not isinstance(result.files[0].source.data, dict):
        return None
    data = result.files[0].source.data
    try:
        if "extends" in data:
            data, _ = flatten(path)
        return build_design(data)
    except (ModelError, VariantError):
        return None


def _deal(design: Design, seed: int) -> State:
    """The engine's initial state for ``seed``."""
    return Game(design).new_initial_state(seed=seed)


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
    state = _deal(design, seed)
    piles = state.piles
    fn = compile_expr(checked, env)
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
    elif site is Site.MATCH:
        deck = standard_deck(design.decks, design.jokers)
        lines.append("cards of the deck it deals, at each depot:")
        for d in range(env.size):
            matched = [card_str(c) for c in deck if fn(piles, state, c, d)]
            shown = " ".join(matched[:13]) + (f" … ({len(matched)} cards)" if len(matched) > 13 else "")
            lines.append(f"  {names[d]}: {shown or 'none'}")
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
        opened = _open(design_path, playable=seed is not None)
        if isinstance(opened, ExprRun):
            return opened
        design = opened
    if seed is not None and design is None:
        return ExprRun("--seed needs --design: a deal needs a design", EXIT_USAGE)
    env = DesignEnv.from_design(design) if design is not None else DesignEnv()
    checked = check(text, site, env)
    lines = [format_issue(text, issue) for issue in checked.issues]
    if not checked.ok:
        return ExprRun("\n".join(lines), EXIT_ERRORS)
    lines.append(f"ok: {site.value} expression of type {checked.type}")
    if seed is not None and design is not None:
        try:
            lines += _evaluate(checked, env, design, seed)
        except RuleError as error:
            lines.append(f"cannot deal: {error}; run `cardz lint` on the design")
            return ExprRun("\n".join(lines), EXIT_ERRORS)
    return ExprRun("\n".join(lines), EXIT_OK)

