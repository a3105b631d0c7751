"""The solver's compact search for pair games: cards leave a layout in pairs once uncovered.

Pyramid and its variants have this shape, recognised here from the compiled
:class:`~cardz_tools.engine.Game` alone (no game, family or depot is named):

* the win is ``depotsEmpty`` of a *layout*: depots holding one face-up card each, whose
  eject rule reads nothing but ``covered(depot)`` and lets a card go exactly when it is
  not covered; the covering relation is read off that compiled rule, one probe per pair;
* a layout depot's accept rule reads only the dragged ``card``, the ``top``,
  ``empty(depot)`` and ``covered(depot)``, takes one card, nothing when empty or covered,
  and so is a table of the pairs (card, top) that *pair off*; its one trigger moves both
  cards to a locked sink as soon as the depot holds two (``count(depot) == 2``);
* every other depot that takes cards is a locked sink whose rule reads only the card
  (Pyramid's Kings, discarded alone); there is one stock, drawing face up onto a waste
  nothing is dragged onto, with a bounded number of redeals, and no actions.

A position is then one integer: which layout cards are left, which stock cards were
paired off, how far into the stock this pass has drawn, and the redeals left (the waste
is the drawn cards still there, in draw order; a redeal turns it back in the same order).

Sound cuts (they never cut a winnable position; checked against the search without them):

* **blockage**: a layout card that cannot leave alone needs a partner that is still out
  and neither covers it nor lies under it (a card under it is freed only once it is
  gone, one over it must go first); with none, the position is lost;
* **a safe move**: a free layout card that leaves alone and pairs with nothing is played
  at once, as the only child: removing it only uncovers cards.

Winning lines are replayed through the engine before they are returned; "lost" is
answered only from a complete search.
"""

from __future__ import annotations

import dataclasses
import time
import weakref
from collections.abc import Sequence
from typing import Any

from ..cards import FACE_UP, Card, identity, standard_deck
from ..engine import Drag, IllegalMoveError, Move, Tap
from ..engine.effects import ALL, MoveCards
from ..expr import ast as expr_ast
from ..expr import parse
from ..model import EjectKind
from .sink_games import _ALLOWED

MAX_POSITIONS = 8_000_000
"""The most positions one search holds (an int and a set slot each)."""

CLOCK_EVERY = 4096
"""Positions between two reads of the clock."""

def _reads_only(text: str, allowed: set[str]) -> bool:
    """Whether the rule text names nothing outside ``allowed``."""
    return expr_ast.names(parse(text)) <= allowed


_LAYOUT_ACCEPT = {*_ALLOWED, "empty", "covered", "depot"}
_EJECT = {"covered", "depot"}
_TRIGGER = {"count", "depot"}
_SINK_ACCEPT = _ALLOWED - {"top"}


@dataclasses.dataclass(frozen=True)
class PairShape:
    """What a pair game's rules allow, read off the compiled design."""

    layout: tuple[int, ...]
    """The depots that must be emptied, in depot order."""
    covers: tuple[tuple[int, ...], ...]
    """``covers[i]``: the layout indexes whose cards, while there, keep layout card ``i`` covered."""
    pairs: frozenset[tuple[Card, Card]]
    """(dragged card, top) pairs a free layout top accepts (identities)."""
    alone: tuple[tuple[int, frozenset[Card]], ...]
    """Per sink that takes single cards: (depot, the cards it takes)."""
    stock: int
    waste: int
    draw_count: int


def _probe_piles(game: Any) -> list[tuple[Card, ...]]:
    """Every pile empty, to set the cards of a probe in."""
    empty: tuple[Card, ...] = ()
    return [empty] * len(game.names)


_SHAPES: weakref.WeakKeyDictionary[Any, PairShape | None] = weakref.WeakKeyDictionary()


def pair_shape(game: Any) -> PairShape | None:
    """The shape of ``game``, or None when the design is not a pair game (see the module doc).

    Probed once per game (the solver asks for every deal).
    """
    if game not in _SHAPES:
        _SHAPES[game] = _probe_shape(game)
    return _SHAPES[game]


def _probe_shape(game: Any) -> PairShape | None:
    """:func:`pair_shape`, uncached."""
    design = game.design
    if design.decks != 1 or design.jokers or game.actions or game.loss_when is not None:
        return None
    if game.win_kind != "depotsEmpty" or len(game.draws) != 1:
        return None
    draw = game.draws[0]
    if draw.redeals < 0 or not draw.face_up or game.eject_kind[draw.depot] is not EjectKind.LOCKED:
        return None
    stock, waste = draw.depot, draw.to
    layout = tuple(sorted(game.win_depots))
    members = set(layout)
    if stock in members or waste in members or not game.accept_never[stock] or not game.accept_never[waste]:
        return None
    if game.eject_kind[waste] is EjectKind.WHEN or game.has_trigger[stock] or game.has_trigger[waste]:
        return None
    root = game.new_initial_state(deck=standard_deck())
    cards = tuple(identity(c) for c in standard_deck())
    probe = cards[0] | FACE_UP

    # The covering relation, one probe per pair: the eject rule of a lone card with one other card out.
    covers: list[tuple[int, ...]] = []
    for d in layout:
        eject = game.eject_when[d]
        rule = game.eject_rules[d]
        if game.eject_kind[d] is not EjectKind.WHEN or eject is None or rule.when is None:
            return None
        if not _reads_only(rule.when.text, _EJECT):
            return None
        piles = _probe_piles(game)
        piles[d] = (probe,)
        if not eject(piles, root, probe, (probe,), d):
            return None  # a card that may never leave
        over = []
        for e in range(len(game.names)):
            if e == d:
                continue
            piles[e] = (probe,)
            if not eject(piles, root, probe, (probe,), d):
                if e not in members:
                    return None  # covered by a depot outside the layout
                over.append(layout.index(e))
            piles[e] = ()
        covers.append(tuple(over))

    # The pairs: one accept table, the same for every layout depot, nothing taken when empty or covered.
    pairs: set[tuple[Card, Card]] | None = None
    sinks: dict[int, frozenset[Card]] = {}
    for target, never in enumerate(game.accept_never):
        if never or target in members:
            continue
        accept = game.accept_rules[target]
        when = game.accept_when[target]
        if (
            target in (stock, waste)
            or game.eject_kind[target] is not EjectKind.LOCKED
            or game.has_trigger[target]
            or not accept.single
            or accept.follow
            or accept.wild_rank is not None
            or (accept.when is not None and not _reads_only(accept.when.text, _SINK_ACCEPT))
        ):
            return None
        piles = _probe_piles(game)
        sinks[target] = frozenset(
            c for c in cards if when is None or when(piles, root, c | FACE_UP, (c | FACE_UP,), waste, target)
        )
    for i, d in enumerate(layout):
        accept = game.accept_rules[d]
        when = game.accept_when[d]
        if accept.never or when is None or accept.when is None or not accept.single or accept.follow:
            return None
        if accept.wild_rank is not None or not _reads_only(accept.when.text, _LAYOUT_ACCEPT):
            return None
        if not _pairs_off(game, d, sinks):
            return None
        piles = _probe_piles(game)
        if any(when(piles, root, c | FACE_UP, (c | FACE_UP,), waste, d) for c in cards):
            return None  # an empty layout depot takes a card
        table: set[tuple[Card, Card]] = set()
        for top in cards:
            piles[d] = (top | FACE_UP,)
            for card in cards:
                if card != top and when(piles, root, card | FACE_UP, (card | FACE_UP,), waste, d):
                    table.add((card, top))
        if covers[i]:
            piles[layout[covers[i][0]]] = (probe,)
            for top in cards:
                piles[d] = (top | FACE_UP,)
                if any(when(piles, root, c | FACE_UP, (c | FACE_UP,), waste, d) for c in cards if c != top):
                    return None  # a covered card takes a partner
        if pairs is None:
            pairs = table
        elif pairs != table:
            return None
    if pairs is None:
        return None
    alone = tuple(sorted(sinks.items()))
    return PairShape(layout, tuple(covers), frozenset(pairs), alone, stock, waste, draw.count)


def _pairs_off(game: Any, depot: int, sinks: dict[int, frozenset[Card]]) -> bool:
    """Whether ``depot``'s triggers are one that moves its cards to a locked sink once it holds two."""
    triggers = game.triggers_of[depot]
    if len(triggers) != 1:
        return False
    (trigger,) = triggers
    text = game.design.depots[depot].spec.triggers[0].when.text
    if not _reads_only(text, _TRIGGER) or len(trigger.effects) != 1:
        return False
    effect = trigger.effects[0]
    if not isinstance(effect, MoveCards) or effect.source != -1 or effect.count_rule is not None:
        return False
    if effect.count != ALL and effect.count < 2:
        return False
    target = effect.target
    if target < 0 or target == depot or game.eject_kind[target] is not EjectKind.LOCKED or game.has_trigger[target]:
        return False
    if not game.accept_never[target] and target not in sinks:
        return False
    piles = _probe_piles(game)
    root = game.new_initial_state(deck=standard_deck())
    fires = []
    for count in range(4):
        piles[depot] = tuple(c | FACE_UP for c in standard_deck()[:count])
        fires.append(bool(trigger.when(piles, root, depot)))
    return fires[2] and not fires[0] and not fires[1]


class PairSearch:
    """The compact search of one deal of a pair game (build it with :meth:`of`)."""

    def __init__(self, state: Any, shape: PairShape) -> None:
        self.state = state
        self.shape = shape
        game = state.game
        names = game.names
        n = len(shape.layout)
        self.n = n
        # A layout card already gone is never seen again: it is None here, and its bit is 0.
        piles = state.piles
        self.layout_cards: list[Card | None] = [identity(piles[d][0]) if piles[d] else None for d in shape.layout]
        # The cards still out of the stock in draw order: the waste bottom up, then the stock top down.
        waste, stock = state.piles[shape.waste], state.piles[shape.stock]
        self.sequence = [identity(c) for c in waste] + [identity(c) for c in reversed(stock)]
        m = len(self.sequence)
        self.m = m
        self.draw_count = shape.draw_count
        # Bit fields: layout cards left (n bits), stock cards paired off (m bits), drawn this pass, redeals left.
        self.removed_shift = n
        self.drawn_shift = n + m
        self.drawn_mask = (1 << max(1, m.bit_length())) - 1
        self.redeal_shift = self.drawn_shift + max(1, m.bit_length())
        self.layout_all = (1 << n) - 1
        self.cover_mask = [sum(1 << j for j in over) for over in shape.covers]
        pairs = shape.pairs
        lay, seq = self.layout_cards, self.sequence
        # Per layout card: the layout cards it may be dropped on, the stock cards that may be dropped on it.
        self.onto_layout = [[j for j in range(n) if j != i and (lay[i], lay[j]) in pairs] for i in range(n)]
        self.alone_layout = [[s for s, taken in shape.alone if lay[i] in taken] for i in range(n)]
        self.alone_stock = [[s for s, taken in shape.alone if seq[k] in taken] for k in range(m)]
        self.stock_onto = [[i for i in range(n) if (seq[k], lay[i]) in pairs] for k in range(m)]
        # For the cuts: the cards under and over each layout card (transitively), and its partners.
        over = [self.cover_mask[i] for i in range(n)]
        changed = True
        while changed:
            changed = False
            for i in range(n):
                wider = over[i]
                for j in range(n):
                    if over[i] >> j & 1:
                        wider |= over[j]
                if wider != over[i]:
                    over[i], changed = wider, True
        under = [sum(1 << j for j in range(n) if over[j] >> i & 1) for i in range(n)]
        self.partner_layout = [
            sum(1 << j for j in range(n) if j != i and ((lay[i], lay[j]) in pairs or (lay[j], lay[i]) in pairs))
            & ~over[i]
            & ~under[i]
            for i in range(n)
        ]
        self.partner_stock = [
            sum(1 << k for k in range(m) if (seq[k], lay[i]) in pairs) for i in range(n)
        ]
        self.safe_alone = [
            bool(self.alone_layout[i]) and not self.partner_layout[i] and not self.partner_stock[i]
            and not any((lay[i], c) in pairs or (c, lay[i]) in pairs for c in _every_card())
            for i in range(n)
        ]
        self.names = names

    @classmethod
    def of(cls, state: Any) -> PairSearch | None:
        """The search for ``state``, or None when its design or position does not fit the model."""
        game = state.game
        shape = pair_shape(game)
        if shape is None or state.cascade:
            return None
        piles = state.piles
        if any(len(piles[d]) > 1 or (piles[d] and not piles[d][0] & FACE_UP) for d in shape.layout):
            return None
        return cls(state, shape)

    # ------------------------------------------------------------ packing

    def pack(self, state: Any) -> int:
        """The packed position of ``state``: the deal the search was built for, some moves on."""
        shape = self.shape
        piles = state.piles
        packed = sum(1 << i for i, d in enumerate(shape.layout) if piles[d])
        out = {identity(c) for c in piles[shape.waste]} | {identity(c) for c in piles[shape.stock]}
        for k, card in enumerate(self.sequence):
            if card not in out:
                packed |= 1 << (self.removed_shift + k)
        waste = piles[shape.waste]
        after = self.sequence.index(identity(waste[-1])) + 1 if waste else 0
        packed |= after << self.drawn_shift
        packed |= state.redeals[shape.stock] << self.redeal_shift
        return packed

    def _expand(self, packed: int) -> list[tuple[int, Any]]:
        """Every legal move as (child, step), the engine's moves all present (pairs both ways).

        A step is ("pair", i, j) for layout card i onto j, ("waste", k, i) for the waste's
        card k onto layout card i, ("alone", i, sink) and ("wastealone", k, sink), or ("tap",).
        """
        n = self.n
        layout = packed & self.layout_all
        if not layout:
            return []  # won: the game is over
        free = [i for i in range(n) if layout >> i & 1 and not layout & self.cover_mask[i]]
        steps: list[tuple[int, Any]] = []
        for i in free:
            if self.safe_alone[i]:
                return [(packed & ~(1 << i), ("alone", i, self.alone_layout[i][0]))]
        free_set = 0
        for i in free:
            free_set |= 1 << i
        for i in free:
            for j in self.onto_layout[i]:
                if free_set >> j & 1:
                    steps.append((packed & ~(1 << i) & ~(1 << j), ("pair", i, j)))
            for sink in self.alone_layout[i]:
                steps.append((packed & ~(1 << i), ("alone", i, sink)))
        after = (packed >> self.drawn_shift) & self.drawn_mask
        top = after - 1
        removed = packed >> self.removed_shift
        if top >= 0:
            below = top - 1
            while below >= 0 and removed >> below & 1:
                below -= 1
            taken = (packed | (1 << (self.removed_shift + top))) - ((top - below) << self.drawn_shift)
            for i in self.stock_onto[top]:
                if free_set >> i & 1:
                    steps.append((taken & ~(1 << i), ("waste", top, i)))
            for sink in self.alone_stock[top]:
                steps.append((taken, ("wastealone", top, sink)))
        # Draw: the next cards still in the stock (those paired off are gone from it), else turn the waste over.
        k, taken_count = after, 0
        while k < self.m and taken_count < self.draw_count:
            if not removed >> k & 1:
                taken_count += 1
            k += 1
        if taken_count:
            while removed >> (k - 1) & 1:
                k -= 1
            steps.append((packed + ((k - after) << self.drawn_shift), ("tap",)))
        elif packed >> self.redeal_shift and top >= 0:
            steps.append((packed - (after << self.drawn_shift) - (1 << self.redeal_shift), ("tap",)))
        return steps

    def moves(self, packed: int) -> list[tuple[Move, int]]:
        """The legal moves of a packed position with the positions they lead to (the safe move alone
        when there is one: see :meth:`all_moves` for every move)."""
        return [(self._engine_move(step), child) for child, step in self._expand(packed)]

    def all_moves(self, packed: int) -> list[tuple[Move, int]]:
        """Every legal move of a packed position, the safe move not singled out."""
        saved = self.safe_alone
        self.safe_alone = [False] * self.n
        try:
            return self.moves(packed)
        finally:
            self.safe_alone = saved

    def _engine_move(self, step: Any) -> Move:
        names, shape = self.names, self.shape
        kind = step[0]
        if kind == "pair":
            return Drag(names[shape.layout[step[1]]], 1, names[shape.layout[step[2]]])
        if kind == "waste":
            return Drag(names[shape.waste], 1, names[shape.layout[step[2]]])
        if kind == "alone":
            return Drag(names[shape.layout[step[1]]], 1, names[step[2]])
        if kind == "wastealone":
            return Drag(names[shape.waste], 1, names[step[2]])
        return Tap(names[shape.stock])

    # ------------------------------------------------------------ the cut

    def dead(self, packed: int) -> bool:
        """Whether the position provably cannot be won: a layout card with no way out (the module doc)."""
        layout = packed & self.layout_all
        stock_out = ~(packed >> self.removed_shift) & ((1 << self.m) - 1)
        rest = layout
        while rest:
            low = rest & -rest
            i = low.bit_length() - 1
            rest ^= low
            if self.alone_layout[i]:
                continue
            if not (self.partner_layout[i] & layout or self.partner_stock[i] & stock_out):
                return True
        return False

    # ------------------------------------------------------------ the search

    def search(self, budget: int, deadline: float | None, prune: bool = True) -> tuple[str, list[Move], int]:
        """("won", engine moves, nodes) / ("lost", [], nodes) / ("unknown", [], nodes).

        ``prune=False`` drops the cut and the safe move (for checking that they are sound).
        """
        budget = min(budget, MAX_POSITIONS)
        saved = self.safe_alone
        if not prune:
            self.safe_alone = [False] * self.n
        try:
            return self._search(budget, deadline, prune)
        finally:
            self.safe_alone = saved

    def _search(self, budget: int, deadline: float | None, prune: bool) -> tuple[str, list[Move], int]:
        root = self.pack(self.state)
        if not root & self.layout_all:
            return "won", [], 1
        seen = {root}
        path: list[Any] = []
        stack: list[Any] = [self._children(root, seen, budget, deadline)]
        try:
            while stack:
                options = stack[-1]
                if isinstance(options, tuple):
                    return "won", self._engine_line([*path, options]), len(seen)
                if not options:
                    stack.pop()
                    if path:
                        path.pop()
                    continue
                packed, step = options.pop()
                if prune and self.dead(packed):
                    continue
                path.append(step)
                stack.append(self._children(packed, seen, budget, deadline))
        except _Budget:
            return "unknown", [], len(seen)
        return "lost", [], len(seen)

    def _children(self, packed: int, seen: set[int], budget: int, deadline: float | None) -> Any:
        """The children not seen before, the best last (popped first); a won child's step alone."""
        fresh = []
        for child, step in self._expand(packed):
            if child in seen:
                continue
            seen.add(child)
            size = len(seen)
            if size > budget or (deadline is not None and size % CLOCK_EVERY == 0 and time.monotonic() > deadline):
                raise _Budget
            if not child & self.layout_all:
                return step
            fresh.append((child, step))
        # Layout pairs first, then the waste's, then the stock (popped last): taps only when nothing else helps.
        fresh.sort(key=lambda entry: _ORDER[entry[1][0]])
        return fresh

    def _engine_line(self, steps: Sequence[Any]) -> list[Move]:
        """The engine moves of a winning line, checked by replaying them (a mismatch raises)."""
        moves = [self._engine_move(step) for step in steps]
        replay = self.state.clone()
        for move in moves:
            replay.apply(move)
        if not replay.outcome().won:
            raise IllegalMoveError("the pair search's line does not win in the engine")
        return moves


_ORDER = {"tap": 0, "wastealone": 1, "waste": 2, "alone": 3, "pair": 4}


def _every_card() -> tuple[Card, ...]:
    return tuple(identity(c) for c in standard_deck())


class _Budget(Exception):
    """The position budget or the deadline ran out."""


def pair_solve(state: Any, budget: int, deadline: float | None) -> tuple[str, list[Any], int] | None:
    """Solve ``state`` with the pair search, or None when the design does not fit it."""
    search = PairSearch.of(state)
    if search is None:
        return None
    return search.search(budget, deadline)
