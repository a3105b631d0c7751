"""Symmetry in the position key: interchangeable depots are sorted before a position is looked up.

Two depots are *interchangeable* when swapping their piles can never change what the
rest of the game does: they were written as one depot entry with ``repeat`` (so they
share the accept and eject rules, the triggers and ``autoFlipTop``), and nothing tells
them apart after the deal:

* no rule of the design names one of them alone (``found[0]``, or a depot name), and the
  win condition names all of their entry or none of it,
* no rule reads a board position (``col``, ``row``, ``index``, ``left``, ``right``,
  ``above``, ``below``, ``adjacent``, ``at``, ``covered``): then no class is formed at all,
* no draw, action or stock belongs to them (their redeal and use counters are per depot),
* no effect names one of them alone, and no effect that walks a group in order (``deal``,
  a ``move`` from a group, ``compact``, ``redeal``) touches them: a ``deal`` onto the
  columns gives the first card to the first column, so columns are then not interchangeable;
* their triggers move cards only between the depot itself and order-blind sinks: triggers
  fire in depot order, so two members firing in one pass must not compete for a pile
  (Canfield's columns, refilled from the reserve, are therefore kept apart).

The deal itself may tell them apart (it only shapes the first position). This module owns
the idea: the solver sorts these piles in its position key, and CZ509 (:mod:`.pointless`)
flags a move that only swaps two of them. Two positions
whose piles differ by a permutation inside each class then play the same from there on,
up to that permutation, so the solver keys them alike. Everything is decided from the
compiled :class:`~cardz_tools.engine.Game`; no game is named.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterator
from typing import Any

from ..engine.effects import MoveCards
from ..expr import ast as expr_ast
from ..expr import design_sites, parse
from ..expr.sites import Site
from .position_key import KeyFunction, order_blind_sinks

POSITION_READERS = frozenset({"above", "adjacent", "at", "below", "col", "covered", "index", "left", "right", "row"})
"""Functions that read where a depot lies on the board: a design that calls one gets no classes."""


def interchangeable_classes(game: Any) -> tuple[tuple[int, ...], ...]:
    """The classes (two or more depots each, in depot order) of interchangeable depots of ``game``."""
    design = game.design
    named: set[int] = set()
    for site, text, _ in design_sites(design):
        if site in (Site.DEAL, Site.MATCH):
            continue  # the deal happens once, before any move
        try:
            tree = parse(text)
        except Exception:  # a text that does not parse compiles to nothing: be safe and keep nothing
            return ()
        for node in expr_ast.walk(tree):
            if isinstance(node, expr_ast.Call) and node.func in POSITION_READERS:
                return ()
            if isinstance(node, expr_ast.Index):
                group = game.members.get(node.value.name) if isinstance(node.value, expr_ast.Name) else None
                if group is None:
                    return ()
                if isinstance(node.index, expr_ast.IntLit) and 0 <= node.index.value < len(group):
                    named.add(group[node.index.value])
                else:
                    named.update(group)
            elif isinstance(node, expr_ast.Name) and node.name in game.index and node.name not in game.members:
                named.add(game.index[node.name])
    for reference, in_order in _references(design):
        members = set(design.resolve(reference) or ())
        for spec in design.specs:
            group = set(design.resolve(spec.name) or ())
            if in_order or not group <= members:  # a part of an entry, or the entry read in order
                named.update(group & members)
    for draw in game.draws:
        named.update((draw.depot, draw.to))
    for action in game.actions:
        named.add(action.depot)
    effects = [(trigger.depot, effect) for trigger in game.triggers for effect in trigger.effects]
    effects += [(action.depot, effect) for action in game.actions for effect in action.effects]
    for _, effect in effects:
        if isinstance(effect, MoveCards):
            named.update(d for d in (effect.source, effect.target) if d >= 0)
        else:  # an effect that walks a group in order, or one this module does not know
            touched = [getattr(effect, name, None) for name in ("source", "target", "members", "targets")]
            for value in touched:
                if isinstance(value, int) and value >= 0:
                    named.add(value)
                elif isinstance(value, tuple):
                    named.update(value)
            if not any(value is not None for value in touched):
                return ()
    # Triggers fire in depot order: two members firing in one pass must not compete for a pile,
    # so a member's triggers may only move cards between it and order-blind sinks.
    sinks = set(order_blind_sinks(game))
    for trigger in game.triggers:
        for effect in trigger.effects:
            ends = (effect.source, effect.target) if isinstance(effect, MoveCards) else (-2, -2)
            if -1 not in ends or not all(end == -1 or end in sinks for end in ends):
                named.add(trigger.depot)
    by_spec: dict[int, list[int]] = {}
    for depot in design.depots:
        if depot.index not in named:
            by_spec.setdefault(id(depot.spec), []).append(depot.index)
    return tuple(tuple(members) for members in by_spec.values() if len(members) >= 2)


def depot_classes(game: Any) -> tuple[int, ...]:
    """Per depot index, its class: the lowest index of the depots it is interchangeable with
    (itself when it is interchangeable with none); the per-depot view of :func:`interchangeable_classes`."""
    classes = list(range(len(game.names)))
    for members in interchangeable_classes(game):
        for depot in members:
            classes[depot] = members[0]
    return tuple(classes)


_ORDER_EFFECTS = frozenset({"deal", "redeal", "compact", "move"})


def _references(design: Any) -> Iterator[tuple[str, bool]]:
    """The depot references of the design outside expressions, with whether an effect walks them in order."""
    for spec in design.specs:
        if spec.draw is not None:
            yield spec.draw.to, False
        for rules in (spec.triggers, spec.actions):
            for rule in rules:
                for effect in rule.effects:
                    for reference in (effect.source, effect.target, effect.group, effect.depot):
                        if reference and not reference.startswith("@"):
                            yield reference, effect.kind in _ORDER_EFFECTS
    if design.win.depots:
        yield design.win.depots, False


def canonical_key_function(
    game: Any, symmetry: bool = True, normalize: Callable[[Any, list[Any]], None] | None = None
) -> KeyFunction:
    """``key(state)``: the state's key with order-blind sinks forgotten (:mod:`.position_key`) and,
    with ``symmetry``, the piles of each interchangeable class sorted; ``normalize(state, piles)``,
    when given, first rewrites a copy of the piles (:meth:`.stock_moves.StockMoves.normalize`)."""
    sinks = order_blind_sinks(game)
    classes = interchangeable_classes(game) if symmetry else ()
    declarations = game.has_declarations

    def key(state: Any) -> Hashable:
        piles = list(state.piles)
        if normalize is not None:
            normalize(state, piles)
        for sink in sinks:
            pile = piles[sink]
            if len(pile) > 1:
                piles[sink] = (pile[-1], *sorted(pile[:-1]))
        declared = state.declared
        if declarations:
            entries: list[Any] = [(pile, named) for pile, named in zip(piles, declared, strict=True)]
            for members in classes:
                ordered = sorted(entries[d] for d in members)
                for depot, entry in zip(members, ordered, strict=True):
                    entries[depot] = entry
            return (tuple(entries), tuple(state.redeals), tuple(state.uses), state.reshuffles, state.cascade)
        for members in classes:
            ordered = sorted(piles[d] for d in members)
            for depot, pile in zip(members, ordered, strict=True):
                piles[depot] = pile
        return (tuple(piles), tuple(state.redeals), tuple(state.uses), state.reshuffles, state.cascade)

    return key
