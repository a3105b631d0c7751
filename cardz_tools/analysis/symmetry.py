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

The deal itself may tell them apart (it only shapes the first position). So may a stock
that deals onto the columns in order, but only while it has cards: a depot that nothing
can ever fill again (it accepts no card, no effect or draw puts one on it) stays empty once
it is, and a trigger or action that only deals from it then does nothing. Its classes once
those depots are empty, :func:`late_classes`, leave such rules out (Spider's columns
after the last deal from the stock); the position key sorts by them when those depots are empty. This module owns
the idea: the solver sorts these piles in its position key, and CZ509 (:mod:`.pointless`)
flags a move that only swaps two of them. Two positions
whose piles differ by a permutation inside each class then play the same from there on,
up to that permutation, so the solver keys them alike. Everything is decided from the
compiled :class:`~cardz_tools.engine.Game`; no game is named.
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Hashable, Iterator
from typing import Any

from ..engine.effects import Compact, Deal, Flip, MoveCards, MoveFromGroup, Redeal
from ..expr import ast as expr_ast
from ..expr import design_sites, parse
from ..expr.sites import Site
from .position_key import KeyFunction, order_blind_sinks

POSITION_READERS = frozenset({"above", "adjacent", "at", "below", "col", "covered", "index", "left", "right", "row"})
"""Functions that read where a depot lies on the board: a design that calls one gets no classes."""


def interchangeable_classes(game: Any, exhausted: frozenset[int] = frozenset()) -> tuple[tuple[int, ...], ...]:
    """The classes (two or more depots each, in depot order) of interchangeable depots of ``game``;
    with ``exhausted`` (depots that are empty and stay empty), the rules that only deal from them
    are left out (they can never move a card again)."""
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
    for reference, in_order in _references(design, exhausted):
        members = set(design.resolve(reference) or ())
        for spec in design.specs:
            group = set(design.resolve(spec.name) or ())
            if in_order or not group <= members:  # a part of an entry, or the entry read in order
                named.update(group & members)
    for draw in game.draws:
        named.update((draw.depot, draw.to))
    for action in game.actions:
        named.add(action.depot)
    triggers = [trigger for trigger in game.triggers if not _deals_only_from(trigger, exhausted)]
    actions = [action for action in game.actions if not _deals_only_from(action, exhausted)]
    effects = [(trigger.depot, effect) for trigger in triggers for effect in trigger.effects]
    effects += [(action.depot, effect) for action in actions for effect in action.effects]
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
    for trigger in triggers:
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


def never_refilled(game: Any) -> frozenset[int]:
    """The depots of ``game`` that no move, effect or draw can ever put a card on: once empty, they stay empty."""
    filled: set[int] = set()
    for rule in (*game.triggers, *game.actions):
        for effect in rule.effects:
            if isinstance(effect, MoveCards | MoveFromGroup):
                filled.add(rule.depot if effect.target < 0 else effect.target)
            elif isinstance(effect, Deal):
                filled.update(effect.targets)
            elif isinstance(effect, Compact | Redeal):
                return frozenset()  # refills a group, and a redeal may put the left-over cards anywhere
            elif not isinstance(effect, Flip):
                return frozenset()  # an effect this module does not know
    for draw in game.draws:
        filled.update((draw.depot, draw.to))  # a redeal turns the waste back onto the stock
    return frozenset(d for d, never in enumerate(game.accept_never) if never and d not in filled)


def late_classes(game: Any) -> tuple[frozenset[int], tuple[tuple[int, ...], ...]]:
    """(the depots ``E``, the classes once every depot of ``E`` is empty): ``E`` are the never refilled
    depots that rules only deal from; the classes are :func:`interchangeable_classes` without those
    rules. ``E`` is empty when there are no such rules."""
    empty_for_good = never_refilled(game)
    rules = [*game.triggers, *game.actions]
    dealers = frozenset(
        rule.depot if effect.source < 0 else effect.source
        for rule in rules
        if _deals_only_from(rule, empty_for_good)
        for effect in rule.effects
    )
    if not dealers:
        return frozenset(), ()
    return dealers, interchangeable_classes(game, dealers)


def _deals_only_from(rule: Any, exhausted: frozenset[int]) -> bool:
    """Whether every effect of ``rule`` (a compiled trigger or action) deals from a depot of ``exhausted``."""
    return bool(exhausted) and all(
        isinstance(effect, Deal) and (rule.depot if effect.source < 0 else effect.source) in exhausted
        for effect in rule.effects
    )


def _design_rule_deals_only_from(design: Any, owners: set[int], rule: Any, exhausted: frozenset[int]) -> bool:
    """:func:`_deals_only_from` for a rule of the design (``owners``: the depots of its entry)."""
    if not exhausted or not rule.effects:
        return False
    for effect in rule.effects:
        if effect.kind != "deal":
            return False
        sources = owners if effect.source is None or effect.source.startswith("@") else design.resolve(effect.source)
        if not sources or not set(sources) <= exhausted:
            return False
    return True


_ORDER_EFFECTS = frozenset({"deal", "redeal", "compact", "move"})


def _references(design: Any, exhausted: frozenset[int] = frozenset()) -> Iterator[tuple[str, bool]]:
    """The depot references of the design outside expressions, with whether an effect walks them in order
    (leaving out the rules that only deal from ``exhausted`` depots)."""
    for spec in design.specs:
        if spec.draw is not None:
            yield spec.draw.to, False
        owners = set(design.resolve(spec.name) or ())
        for rules in (spec.triggers, spec.actions):
            for rule in rules:
                if _design_rule_deals_only_from(design, owners, rule, exhausted):
                    continue
                for effect in rule.effects:
                    for reference in (effect.source, effect.target, effect.group, effect.depot):
                        if reference and not reference.startswith("@"):
                            yield reference, effect.kind in _ORDER_EFFECTS
    if design.win.depots:
        yield design.win.depots, False


SINK_PILES_KEPT = 100_000
"""The most sink piles whose forgetful form :func:`canonical_key_function` keeps (then they are forgotten at once)."""


def canonical_key_function(
    game: Any,
    symmetry: bool = True,
    normalize: Callable[[Any, list[Any]], None] | None = None,
    split: Callable[[Any, list[Any]], Hashable] | None = None,
) -> KeyFunction:
    """``key(state)``: the state's key with order-blind sinks forgotten (:mod:`.position_key`) and,
    with ``symmetry``, the piles of each interchangeable class sorted (the :func:`late_classes` once
    their depots are empty); ``normalize(state, piles)``,
    when given, first rewrites a copy of the piles (:meth:`.stock_moves.StockMoves.normalize`); so does
    ``split(state, piles)`` (instead of ``normalize``), and the key is then the pair (that key, what ``split``
    returned) (:meth:`.stock_moves.StockMoves.split_key`)."""
    sinks = order_blind_sinks(game)
    early = interchangeable_classes(game) if symmetry else ()
    emptied, late = late_classes(game) if symmetry else (frozenset(), ())
    if late == early:
        emptied = frozenset()
    declarations = game.has_declarations
    # A pile's forgetful form is kept by its cards: a move changes one or two piles, and most sink piles
    # come back (the same cards on a sink in another order, or the pile of the position before).
    forgotten: dict[tuple[int, ...], tuple[int, ...]] = {}

    def forget_order(piles: list[Any]) -> None:
        for sink in sinks:
            pile = piles[sink]
            if len(pile) > 1:
                found = forgotten.get(pile)
                if found is None:
                    if len(forgotten) >= SINK_PILES_KEPT:
                        forgotten.clear()
                    found = forgotten[pile] = (pile[-1], *sorted(pile[:-1]))
                piles[sink] = found

    if not declarations and normalize is None and split is None and not emptied:
        return _sorted_classes_key(len(game.names), early, forget_order if sinks else None)

    early_steps, late_steps = _class_steps(early), _class_steps(late)
    if split is not None and not declarations and not sinks and not emptied:
        two = _two_slices_split_key(early_steps, split)
        if two is not None:
            return two

    def key(state: Any) -> Hashable:
        piles = state.piles.copy()
        classes, steps = (late, late_steps) if emptied and not any(piles[d] for d in emptied) else (early, early_steps)
        if normalize is not None:
            normalize(state, piles)
        if split is not None:
            place = split(state, piles)
            return key_of_piles(state, piles, classes, steps), place
        return key_of_piles(state, piles, classes, steps)

    def key_of_piles(
        state: Any, piles: list[Any], classes: tuple[tuple[int, ...], ...], steps: tuple[Step, ...]
    ) -> Hashable:
        if sinks:
            forget_order(piles)
        if declarations:
            declared = state.declared
            entries: list[Any] = [(pile, named) for pile, named in zip(piles, declared, strict=True)]
            for members in classes:
                ordered = sorted(entries[d] for d in members)
                for depot, entry in zip(members, ordered, strict=True):
                    entries[depot] = entry
            return (tuple(entries), tuple(state.redeals), tuple(state.uses), state.reshuffles, state.cascade)
        for start, stop, apart in steps:
            if apart is None:  # a class of neighbouring depots: sorted in place, as a slice
                piles[start:stop] = sorted(piles[start:stop])
            else:
                for depot, pile in zip(apart, sorted([piles[d] for d in apart]), strict=True):
                    piles[depot] = pile
        return (tuple(piles), tuple(state.redeals), tuple(state.uses), state.reshuffles, state.cascade)

    return key


Step = tuple[int, int, tuple[int, ...] | None]
"""How :func:`canonical_key_function` sorts one class (:func:`_class_steps`)."""


def _class_steps(classes: tuple[tuple[int, ...], ...]) -> tuple[Step, ...]:
    """Per class (its members in depot order), (start, stop, None) when its members are the depots
    ``start`` to ``stop - 1``, else (0, 0, members): how :func:`canonical_key_function` sorts it."""
    steps: list[Step] = []
    for members in classes:
        start, stop = members[0], members[-1] + 1
        steps.append((start, stop, None) if members == tuple(range(start, stop)) else (0, 0, members))
    return tuple(steps)


def _two_slices_split_key(steps: tuple[Step, ...], split: Callable[[Any, list[Any]], Hashable]) -> KeyFunction | None:
    """The key of :func:`canonical_key_function` with ``split`` where one set of classes holds in every position,
    nothing else rewrites the piles (no sinks, no named suits) and the classes are the usual two of neighbouring
    depots (foundations, columns): the same pairs in one call, the two sorted as slices. None for other classes,
    which the general key serves."""
    slices = [slice(start, stop) for start, stop, apart in steps if apart is None]
    if len(slices) != 2 or len(steps) != 2:
        return None
    first, second = slices

    def two_slices(state: Any) -> Hashable:
        piles = state.piles.copy()
        place = split(state, piles)
        piles[first] = sorted(piles[first])
        piles[second] = sorted(piles[second])
        return (tuple(piles), tuple(state.redeals), tuple(state.uses), state.reshuffles, state.cascade), place

    return two_slices


def _sorted_classes_key(
    depots: int, classes: tuple[tuple[int, ...], ...], forget_order: Callable[[list[Any]], None] | None
) -> KeyFunction:
    """The key of :func:`canonical_key_function` when one set of classes holds in every position and
    nothing rewrites the piles but ``forget_order``: the piles outside the classes, then each class's
    piles sorted (the same positions are told apart as by the general key, at less cost per call)."""
    in_class = {d for members in classes for d in members}
    alone = tuple(d for d in range(depots) if d not in in_class)
    # A class of neighbouring depots is read as a slice; the loose depots at once (a tuple, one or more).
    getters = [operator.itemgetter(slice(start, stop)) if members is None else operator.itemgetter(*members)
               for start, stop, members in _class_steps(classes)]
    rest: Callable[[list[Any]], tuple[Any, ...]] | None = None
    if len(alone) == 1:
        only = alone[0]

        def rest(piles: list[Any]) -> tuple[Any, ...]:
            return (piles[only],)

    elif alone:
        rest = operator.itemgetter(*alone)

    def key(state: Any) -> Hashable:
        piles = state.piles
        if forget_order is not None:
            piles = piles.copy()
            forget_order(piles)
        parts = [tuple(sorted(get(piles))) for get in getters]
        if rest is not None:
            parts.append(rest(piles))
        return (tuple(parts), tuple(state.redeals), tuple(state.uses), state.reshuffles, state.cascade)

    if len(getters) not in (1, 2, 3):
        return key
    first = getters[0]
    second = getters[1] if len(getters) > 1 else None
    third = getters[2] if len(getters) > 2 else None

    # The usual one to three classes written out (no list of parts).
    def written_out(state: Any) -> Hashable:
        piles = state.piles
        if forget_order is not None:
            piles = piles.copy()
            forget_order(piles)
        if third is not None and second is not None:
            parts: tuple[Any, ...] = (
                tuple(sorted(first(piles))), tuple(sorted(second(piles))), tuple(sorted(third(piles)))
            )
        elif second is not None:
            parts = (tuple(sorted(first(piles))), tuple(sorted(second(piles))))
        else:
            parts = (tuple(sorted(first(piles))),)
        if rest is not None:
            parts = (*parts, rest(piles))
        return (parts, tuple(state.redeals), tuple(state.uses), state.reshuffles, state.cascade)

    return written_out
