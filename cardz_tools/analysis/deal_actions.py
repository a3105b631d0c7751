"""Actions that only deal a stock out onto the columns, as far as the safe moves need them.

East Haven's stock has one action: deal a card onto every column. Its cards land on whatever
the columns hold, so a card ``c`` sent safely to a sink (:mod:`.dominance`) might in the line
that delays it have carried a dealt card ``X``. The dominance's relabelled line ``L'`` (``c`` home
first) then has ``X`` on the card below ``c`` instead. That is harmless when the dealt cards and
the deal itself never see the difference:

- every action only deals (no count rule), face up, from its own depot, a stock that takes no cards,
  gives none (``locked``), is no draw's depot and is dealt from by no other action; its rule reads
  only that stock (:func:`dealt_depots`). The deal then puts the same cards onto the same depots in
  both lines, whatever lies on them, and it is legal in ``L'`` whenever it is in ``L``;
- on a depot dealt onto, a card moves together with the card under it only if some accept rule
  could have built it there (:func:`moving_pairs`, checked by the dominance against its card
  table). A card dealt onto ``c`` is no card that could be built on ``c`` (those are all in the
  sinks, and so not in the stock), so no run ever holds both: in ``L`` a run that holds a card of
  ``K`` (the cards kept home) holds only cards of ``K`` above it, and dropping them drops the top
  of the run, as without deals. So ``c`` moves in ``L`` only once the dealt cards above it are gone,
  and every other move of ``L`` reads the same tops in ``L'``.
"""

from __future__ import annotations

from typing import Any

from ..cards import COLOR_NAMES, FACE_UP, RANK_NAMES_WITH_JOKER, SUIT_NAMES, Card, identity, standard_deck
from ..engine.effects import Deal
from ..engine.rules import Site, compile_rule
from ..expr import ast as expr_ast
from ..expr import parse, to_source
from ..model import EjectKind, Expr

_CONSTANTS = frozenset(RANK_NAMES_WITH_JOKER) | frozenset(SUIT_NAMES) | frozenset(COLOR_NAMES) | {"true", "false"}
_STOCK_NAMES = frozenset({"empty", "count", "depot"}) | _CONSTANTS
"""What an action's rule may read besides its own stock's name."""
_PAIR_PREDICATES = frozenset({"descending", "ascending", "alternating", "sameSuit", "chain"})
"""Run tests that hold of a run only when they hold of each two cards next to each other in it."""
_PAIR_NAMES = frozenset({"cards", "it", "prev", "rank", "suit", "color", "value"}) | _PAIR_PREDICATES | _CONSTANTS


def dealt_depots(game: Any) -> frozenset[int] | str:
    """The depots ``game``'s actions deal onto, or why its actions are not all deals of the one shape the
    safe moves allow (module doc). ``game`` must have actions and no triggers (the caller's test)."""
    written = [action for depot in game.design.depots for action in depot.spec.actions]
    stocks: set[int] = set()
    targets: set[int] = set()
    draw_depots = {d for draw in game.draws for d in (draw.depot, draw.to)}
    for action, spec in zip(game.actions, written, strict=True):
        stock = action.depot
        name = game.names[stock]
        for effect in action.effects:
            source = stock if not isinstance(effect, Deal) or effect.source < 0 else effect.source
            if not isinstance(effect, Deal) or source != stock or effect.count_rule is not None or not effect.face_up:
                return "an action does more than deal cards face up from its own depot"
            targets.update(t for t in effect.targets if t != stock)
        if stock in stocks:
            return f"more than one action deals from {name}"
        stocks.add(stock)
        if not game.accept_never[stock] or game.eject_kind[stock] is not EjectKind.LOCKED or stock in draw_depots:
            return f"{name} deals, and it takes or gives cards another way"
        if spec.when is not None and not expr_ast.names(parse(spec.when.text)) <= _STOCK_NAMES | {name}:
            return f"the action of {name} reads more than {name}"
    if targets & stocks:
        return "an action deals onto a depot an action deals from"
    if targets & set(game.win_depots):
        return "an action deals onto a win depot"
    return frozenset(targets)


def moving_pairs(game: Any, depot: int) -> dict[Card, set[Card]] | None:
    """``pairs[below]``: the cards that may lie on ``below`` in ``depot`` and move together with it (an
    over-approximation: the run tests of its eject rule, each holding of every two cards next to each
    other, evaluated on two-card runs); None when the rule does not say (any two cards may)."""
    kind = game.eject_kind[depot]
    cards = tuple(identity(c) for c in standard_deck())
    if kind in (EjectKind.TOP_ONLY, EjectKind.LOCKED):
        return {below: set() for below in cards}  # no two cards ever move together
    when = game.eject_rules[depot].when
    if kind is not EjectKind.WHEN or when is None:
        return None
    parts = [
        part for part in expr_ast.conjuncts(parse(when.text))
        if isinstance(part, expr_ast.Call) and part.func in _PAIR_PREDICATES and expr_ast.names(part) <= _PAIR_NAMES
        and isinstance(part.args[0], expr_ast.Name) and part.args[0].name == "cards"
        and (part.func == "chain" or len(part.args) == 1)
    ]
    if not parts:
        return None
    text = " && ".join(f"({to_source(part)})" for part in parts)
    rule = compile_rule(Expr(text, game.design.depots[depot].spec.pointer), Site.EJECT, game.design)
    root = game.new_initial_state(seed=0)  # the state argument rules get; a pair test reads none of it
    piles: list[tuple[int, ...]] = [()] * len(game.names)
    pairs: dict[Card, set[Card]] = {}
    for below in cards:
        pairs[below] = set()
        for card in cards:
            run = (below | FACE_UP, card | FACE_UP)
            piles[depot] = run
            if card != below and rule(piles, root, run[0], run, depot):
                pairs[below].add(card)
    return pairs
