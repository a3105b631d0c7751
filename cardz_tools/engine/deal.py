"""The deal: the deck order for a seed or a given deck, and the deal rules that lay it out.

``--seed N`` deals ``cards.shuffle(cards.standard_deck(decks, jokers, suits), N)``: the
shuffle is specified in :mod:`cardz_tools.cards`, so a seed gives the same deal on
every machine. A given deck must be a permutation of the design's deck.
"""

from __future__ import annotations

import collections
import dataclasses
import functools
from collections.abc import Sequence
from typing import SupportsInt

from ..cards import FACE_UP, Card, Suit, card_str, identity, shuffle, standard_deck
from ..model import DepotType, Design
from .rules import Compiled, RuleError, Site, compile_rule, constant_of


class DeckError(ValueError):
    """A given deck is not a permutation of the design's deck, or the deal cannot place its cards."""


def deck_for(design: Design, seed: int | None = None, deck: Sequence[Card] | None = None) -> list[Card]:
    """The deck order to deal: ``deck`` checked against the design, or the shuffle for ``seed``.

    :raises DeckError: when ``deck`` holds other cards than the design's deck,
        naming the missing and the extra cards.
    """
    expected = _standard_deck(design.decks, design.jokers, design.suits)
    if deck is None:
        if seed is None:
            raise ValueError("give a seed or a deck")
        return shuffle(expected, seed)
    given = [identity(c) for c in deck]
    have, want = collections.Counter(given), collections.Counter(expected)
    missing, extra = want - have, have - want
    if missing or extra:
        parts = [f"the deck must hold the {len(expected)} cards of the design, each once; it holds {len(given)}"]
        if missing:
            parts.append("missing: " + _listed(sorted(missing.elements())))
        if extra:
            parts.append("extra: " + _listed(sorted(extra.elements())))
        raise DeckError("; ".join(parts))
    return given


LISTED_CARDS = 60
"""A message names at most this many cards, then says how many more there are."""


def _listed(cards: Sequence[Card]) -> str:
    shown = " ".join(card_str(c) for c in cards[:LISTED_CARDS])
    return shown + (f" ... and {len(cards) - LISTED_CARDS} more" if len(cards) > LISTED_CARDS else "")


def _clamp(count: SupportsInt, most: int) -> int:
    """A deal count (an Int expression's value) as a number of cards: at least 0 and at most ``most``."""
    return max(0, min(int(count), most))


@functools.lru_cache(maxsize=8)
def _standard_deck(decks: int, jokers: int, suits: tuple[Suit, ...]) -> tuple[Card, ...]:
    return tuple(standard_deck(decks, jokers, suits))


@dataclasses.dataclass(frozen=True, slots=True)
class DealStep:
    """One compiled deal rule."""

    kind: str
    targets: tuple[int, ...] = ()
    face_down: Compiled | None = None
    face_up: Compiled | None = None
    round_robin: bool = False
    ranks: frozenset[int] = frozenset()
    match: Compiled | None = None
    """``match(P, S, card, depot)``: deal only cards for which it holds (None: every card)."""
    to: int | None = None
    """``remove``: the depot the removed cards go to (None: out of play)."""
    order: tuple[tuple[int, bool], ...] | None = None
    """``(depot, face down)`` per card, worked out once when both counts are literals."""

    def card_order(
        self, views: Sequence[tuple[Card, ...]], state: object, remaining: int
    ) -> list[tuple[int, bool]] | tuple[tuple[int, bool], ...]:
        """Where each card of this step goes, and whether it lies face down.

        A count is written as an expression and can be any size: no depot can take more
        than the ``remaining`` cards, so counts are clamped there (never a billion-step loop).
        """
        if self.order is not None:
            return self.order
        plans = []
        for depot in self.targets:
            down = _clamp(self.face_down(views, state, depot), remaining) if self.face_down else 0
            up = _clamp(self.face_up(views, state, depot), remaining - down) if self.face_up else 0
            plans.append((depot, down, up))
        if self.round_robin:
            rounds = max((down + up for _, down, up in plans), default=0)
            return [(depot, r < down) for r in range(rounds) for depot, down, up in plans if r < down + up]
        return [(depot, r < down) for depot, down, up in plans for r in range(down + up)]


@dataclasses.dataclass(frozen=True, slots=True)
class DealPlan:
    """The compiled deal rules of a design, and where the undealt cards go."""

    steps: tuple[DealStep, ...]
    stock: int | None
    depot_count: int

    @classmethod
    def compile(cls, design: Design) -> DealPlan:
        """Compile the design's deal rules.

        :raises RuleError: for an unknown kind or a reference that names nothing.
        """
        steps = []
        for rule in design.deal_rules:
            if rule.kind == "dealGroup":
                targets = design.resolve(rule.to or "")
                if targets is None:
                    raise RuleError(f"'{rule.to}' names no depot, group or type", f"{rule.pointer}/to")
                step = DealStep(
                    kind=rule.kind,
                    targets=targets,
                    face_down=compile_rule(rule.face_down, Site.DEAL, design) if rule.face_down else None,
                    face_up=compile_rule(rule.face_up, Site.DEAL, design) if rule.face_up else None,
                    round_robin=rule.round_robin,
                    match=compile_rule(rule.match, Site.MATCH, design) if rule.match else None,
                )
                counts = (rule.face_down, rule.face_up)
                if all(count is None or constant_of(count.text) is not None for count in counts):
                    step = dataclasses.replace(step, order=tuple(step.card_order((), None, design.deck_size)))
                steps.append(step)
            elif rule.kind == "remove":
                to = None
                if rule.to is not None:
                    named = design.resolve(rule.to)
                    if not named or len(named) != 1:
                        raise RuleError(f"'{rule.to}' must name one depot", f"{rule.pointer}/to")
                    to = named[0]
                steps.append(DealStep(kind=rule.kind, ranks=frozenset(int(r) for r in rule.ranks), to=to))
            elif rule.kind == "toBottom":
                targets = design.resolve(rule.to or "")
                if targets is None:
                    raise RuleError(f"'{rule.to}' names no depot, group or type", f"{rule.pointer}/to")
                steps.append(DealStep(kind=rule.kind, targets=targets, ranks=frozenset(int(r) for r in rule.ranks)))
            else:
                raise RuleError(f"the engine does not know the deal rule kind {rule.kind!r}", f"{rule.pointer}/kind")
        stock = next((d.index for d in design.depots if d.type is DepotType.STOCK), None)
        return cls(tuple(steps), stock, len(design.depots))

    def deal(self, deck: Sequence[Card], state: object) -> list[tuple[Card, ...]]:
        """Lay out ``deck`` (front first); undealt cards go to the first Stock, next card on top.

        ``state`` is passed to count expressions as ``S``. A deal that asks for
        more cards than are left deals what there is (lint reports CZ303); with
        ``match`` a depot gets the first matching cards left, fewer if there are
        none. ``remove`` takes the ranks from the piles (depot order, each bottom
        to top) and then from the undealt cards (deck order), and puts them face
        up on its ``to`` in that order, or out of play. ``toBottom`` moves each
        ``to`` pile's cards of its ranks under the pile's other cards.

        :raises DeckError: when cards are left over and the design has no Stock.
        """
        piles: list[list[Card]] = [[] for _ in range(self.depot_count)]
        views: list[tuple[Card, ...]] = [()] * self.depot_count
        undealt = list(deck)
        """The cards not dealt yet, in deck order (a ``match`` rule deals from the middle)."""
        position = 0

        def sync() -> None:
            for i, pile in enumerate(piles):
                views[i] = tuple(pile)

        for step in self.steps:
            if step.kind == "remove":
                # Found in depot order, each pile bottom to top, then the undealt cards in deck order.
                removed = []
                for depot, pile in enumerate(piles):
                    if depot != step.to:
                        removed += [c for c in pile if c & 0x0F in step.ranks]
                        pile[:] = [c for c in pile if c & 0x0F not in step.ranks]
                removed += [c for c in undealt[position:] if c & 0x0F in step.ranks]
                undealt[position:] = [c for c in undealt[position:] if c & 0x0F not in step.ranks]
                if step.to is not None:
                    piles[step.to].extend(c | FACE_UP for c in removed)
                continue
            if step.kind == "toBottom":
                # Each pile's cards of these ranks go under the others; both keep their order and facing.
                for depot in step.targets:
                    pile = piles[depot]
                    sunk = [c for c in pile if c & 0x0F in step.ranks]
                    pile[:] = sunk + [c for c in pile if c & 0x0F not in step.ranks]
                continue
            if step.order is None or step.match is not None:
                sync()
            for depot, hidden in step.card_order(views, state, len(undealt) - position):
                if step.match is None:
                    if position >= len(undealt):
                        break
                    card = undealt[position]
                    position += 1
                else:
                    found = next(
                        (i for i in range(position, len(undealt)) if step.match(views, state, undealt[i], depot)), None
                    )
                    if found is None:
                        continue
                    card = undealt.pop(found)
                    undealt.insert(position, card)
                    position += 1
                piles[depot].append(card if hidden else card | FACE_UP)
        left = undealt[position:]
        if left:
            if self.stock is None:
                raise DeckError(f"{len(left)} cards are left after the deal but the design has no Stock to hold them")
            piles[self.stock].extend(reversed(left))
        return [tuple(p) for p in piles]
