"""Position keys for search that forget what no rule can see: the order inside a sink.

A *sink* is a depot whose cards never leave it (its eject rule is ``locked``, no
effect takes cards from it, no draw turns it over). Below its top card, the order
of a sink's cards can matter only to a rule that reads that order: ``bottom``,
``descending``, ``ascending``, ``alternating``, ``chain`` or ``topCards`` of a
pile. When no rule of the design does, two positions that differ only in the order
of the cards under the tops of sinks play exactly the same from there on, so the
solver may treat them as one (Golf, Black Hole: the pile's history is irrelevant,
only its top card and which cards are still out count). A depot's own rule that reads
the order of ``depot`` (Spider's trigger, ``chain(topCards(depot, 13), ...)``) reads only
the depots of its own entry; any other order reader, or one in a deal, win, loss or
scoring expression, may read any pile, and then no depot is a sink here.

The key keeps each sink's top card and the cards under it as a sorted tuple (a
multiset, face bits included).
Everything is decided from the compiled :class:`~cardz_tools.engine.Game`, with
no knowledge of any particular game.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Any

from ..engine.effects import Compact, Deal, Flip, MoveCards, MoveFromGroup
from ..expr import ast as expr_ast
from ..expr import design_sites, parse
from ..expr.sites import Site
from ..model import EjectKind

_ORDER_READERS = frozenset({"bottom", "descending", "ascending", "alternating", "chain", "topCards"})
"""The functions that can read the order of a pile's cards (on the dragged ``cards`` they read only the run)."""


def _order_reader(node: expr_ast.Node) -> bool:
    """Whether ``node`` is a call that can read the order of a pile other than the dragged run."""
    if not isinstance(node, expr_ast.Call) or node.func not in _ORDER_READERS:
        return False
    return not (node.args and node.args[0] == expr_ast.Name("cards"))


def _reads_its_own_depot(reader: expr_ast.Call) -> bool:
    """Whether the order reader ``reader`` reads the rule's own ``depot``, directly or through another reader."""
    first = reader.args[0] if reader.args else None
    if isinstance(first, expr_ast.Call) and _order_reader(first):
        first = first.args[0] if first.args else None
    return first == expr_ast.Name("depot")


KeyFunction = Callable[[Any], Hashable]


def order_blind_sinks(game: Any) -> tuple[int, ...]:
    """The depots whose card order below the top no rule of ``game`` can observe (see the module doc)."""
    read = _order_read_depots(game)
    if read is None:
        return ()
    emptied: set[int] = set()
    effects = [effect for trigger in game.triggers for effect in trigger.effects]
    effects += [effect for action in game.actions for effect in action.effects]
    for effect in effects:
        if isinstance(effect, MoveCards):
            if effect.source < 0:
                owners = [t.depot for t in game.triggers if effect in t.effects]
                owners += [a.depot for a in game.actions if effect in a.effects]
                emptied.update(owners)
            else:
                emptied.add(effect.source)
        elif isinstance(effect, MoveFromGroup):
            emptied.update(effect.members)
        elif isinstance(effect, Compact):
            emptied.update(effect.members)
            if effect.source is not None:
                emptied.add(effect.source)
        elif isinstance(effect, Deal):
            if effect.source < 0:
                emptied.update(a.depot for a in (*game.triggers, *game.actions) if effect in a.effects)
            else:
                emptied.add(effect.source)
        elif not isinstance(effect, Flip):
            return ()  # an effect this module does not know: assume it may read or move anything
    for draw in game.draws:
        emptied.add(draw.depot)
        if draw.redeals != 0:
            emptied.add(draw.to)
    return tuple(
        depot
        for depot in range(len(game.names))
        if game.eject_kind[depot] is EjectKind.LOCKED and depot not in emptied and depot not in read
    )


_RULE_SITES = frozenset({Site.ACCEPT, Site.EJECT, Site.ACTION, Site.TRIGGER})
"""Where ``depot`` is the rule's own depot (an effect's ``where`` or ``keep`` is not counted as one)."""


def _order_read_depots(game: Any) -> set[int] | None:
    """The depots whose card order some rule of ``game`` may read, or None when that may be any."""
    design = game.design
    own: dict[str, list[int]] = {}
    for spec in design.specs:
        rules = [spec.accept.when, spec.eject.when if spec.eject.kind is EjectKind.WHEN else None]
        rules += [rule.when for rule in (*spec.actions, *spec.triggers)]
        depots = list(design.resolve(spec.name) or ())
        for rule in rules:
            if rule is not None:
                own.setdefault(rule.text, []).extend(depots)
    read: set[int] = set()
    for site, text, _ in design_sites(design):
        tree = parse(text)
        readers = [node for node in expr_ast.walk(tree) if isinstance(node, expr_ast.Call) and _order_reader(node)]
        if not readers:
            continue
        owners = own.get(text) if site in _RULE_SITES else None
        if owners is None or not all(map(_reads_its_own_depot, readers)):  # every reader must be of its own depot
            return None
        read.update(owners)
    return read


def key_function(game: Any) -> KeyFunction:
    """``key(state)``: :meth:`State.key` with the order inside order-blind sinks forgotten."""
    sinks = order_blind_sinks(game)
    if not sinks:
        return lambda state: state.key()

    def forgetful(state: Any) -> Hashable:
        piles = list(state.piles)
        for sink in sinks:
            pile = piles[sink]
            if len(pile) > 1:
                piles[sink] = (pile[-1], *sorted(pile[:-1]))
        return (tuple(piles), tuple(state.declared), tuple(state.redeals), tuple(state.uses), state.cascade)

    return forgetful
