"""Dead-card pruning for the solver: a card that can never be played makes a position lost.

It applies to designs of one shape, recognised from the compiled game alone (no game
is named): every depot that accepts dragged cards is an order-blind *sink*
(:mod:`.position_key`), every draw turns cards onto such a sink, there are no
triggers or actions, one deck, and each sink's accept rule reads nothing but the
dragged ``card``, the sink's ``top`` and ``empty(depot)`` (Golf, Black Hole and
their variants have this shape).

In such a design a card can leave the piles it lies in only by being dragged onto a
sink (or drawn, from a stock). When it is dragged, the sink's top is the sink's
top now or a card that is outside every sink now: cards in sinks never come out. So
a card that must still be played (win ``allCardsIn`` the sinks: every card outside
them but in a stock; win ``depotsEmpty``: every card in those depots) for which no
such card, nor an empty sink, accepts it, can never be played, and the position
cannot be won. The accept rule is evaluated once per (card, top) pair when the
game is first seen; a position is then checked with a few bit operations per card.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from ..cards import COLOR_NAMES, FACE_UP, RANK_NAMES, SUIT_NAMES, identity, standard_deck
from ..model import EjectKind
from .position_key import order_blind_sinks

DeadCheck = Callable[[Any], bool]
"""``dead(state) -> bool``: True when the position provably cannot be won."""

_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_ALLOWED = {"card", "top", "rank", "suit", "color", "value", *RANK_NAMES, *SUIT_NAMES, *COLOR_NAMES}
_EMPTY_DEPOT = re.compile(r"empty\s*\(\s*depot\s*\)")


def _reads_only_card_and_top(text: str) -> bool:
    """Whether an accept rule reads nothing but ``card``, ``top`` and ``empty(depot)``."""
    rest = _EMPTY_DEPOT.sub("true", text)
    return all(name in _ALLOWED or name in ("true", "false") for name in _IDENTIFIER.findall(rest))


def dead_card_check(game: Any) -> DeadCheck | None:
    """The check for ``game``, or None when the design does not have the shape it needs."""
    design = game.design
    if design.decks != 1 or design.jokers or game.triggers or game.actions:
        return None
    sinks = set(order_blind_sinks(game))
    targets = [d for d, never in enumerate(game.accept_never) if not never]
    if not targets or any(t not in sinks for t in targets) or any(draw.to not in sinks for draw in game.draws):
        return None
    for target in targets:
        rule = game.accept_rules[target]
        if rule.follow or rule.wild_rank is not None:
            return None
        if rule.when is not None and not _reads_only_card_and_top(rule.when.text):
            return None
    win = game.win_kind
    if win == "allCardsIn" and not set(game.win_depots) <= set(targets):
        return None
    if win not in ("allCardsIn", "depotsEmpty") or any(draw.depot in game.win_depots for draw in game.draws):
        return None

    cards = [identity(c) for c in standard_deck()]
    bit = {card: 1 << i for i, card in enumerate(cards)}
    stocks = {draw.depot for draw in game.draws}
    root = game.new_initial_state(deck=standard_deck())  # the state argument rules get; these read none of it
    piles: list[tuple[int, ...]] = [()] * len(game.names)
    on_top: dict[int, dict[int, int]] = {}
    on_empty: dict[int, int] = {}
    for target in targets:
        when = game.accept_when[target]
        masks: dict[int, int] = {}
        for card in cards:
            mask = 0
            for top in cards:
                if top == card:
                    continue
                piles[target] = (top | FACE_UP,)
                if when is None or when(piles, root, card | FACE_UP, (card | FACE_UP,), target, target):
                    mask |= bit[top]
            masks[card] = mask
        piles[target] = ()
        on_top[target] = masks
        on_empty[target] = sum(
            bit[c] for c in cards if when is None or when(piles, root, c | FACE_UP, (c | FACE_UP,), target, target)
        )
    outside_depots = [d for d in range(len(game.names)) if d not in sinks]
    if win == "depotsEmpty":
        pending_depots = list(game.win_depots)
    else:
        pending_depots = [d for d in outside_depots if d not in stocks]

    top_only = {d for d in pending_depots if game.eject_kind[d] is EjectKind.TOP_ONLY}

    def dead(state: Any) -> bool:
        piles = state.piles
        outside = 0
        for depot in outside_depots:
            for card in piles[depot]:
                outside |= bit[card & ~FACE_UP]
        for depot in pending_depots:
            below = 0
            ordered = depot in top_only
            for card in piles[depot]:
                card = card & ~FACE_UP
                # Only the top card leaves a topOnly pile: the cards under this one are still
                # there when it is played, so none of them can be the sink's top then.
                available = outside & ~below
                if ordered:
                    below |= bit[card]
                alive = False
                for target in targets:
                    pile = piles[target]
                    if not pile:
                        alive = bool(on_empty[target] & bit[card]) or bool(on_top[target][card] & available)
                    else:
                        alive = bool(on_top[target][card] & (available | bit[pile[-1] & ~FACE_UP]))
                    if alive:
                        break
                if not alive:
                    return True
        return False

    return dead

