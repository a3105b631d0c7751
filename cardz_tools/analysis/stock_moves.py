"""The stock as one move: "draw k times, then play the waste's top card" is a single move.

A draw-three stock searched one tap at a time puts every tap on the search path, and
the positions between taps are all different. When the stock and its waste are
*separate* from the rest of the game, every winning line can be rearranged so that taps
come only right before a card is played from the waste: a tap changes nothing but the
stock and the waste, and no other move reads or changes them. Then the moves of a
position are its moves other than that tap, plus, for every number ``k`` of taps that
brings a new waste to view (this pass or the next ones, until the stock and waste come
back to a state already seen), each play from the waste after ``k`` taps.

The stock ``s`` and waste ``w`` of a draw are separate when (decided from the compiled
:class:`~cardz_tools.engine.Game`):

* no rule of the design other than the scoring names ``s`` or ``w``, or a group or type
  holding one of them (so no rule reads them), except an accept rule's test of the move's
  source against one of them (``source == waste``: which depot a move comes from, which no tap
  changes; a play from the waste is a play from the waste in the rearranged line too);
* neither accepts dragged cards, ``s`` is locked, neither owns a trigger or an action,
  no effect moves cards from or to them, and no other draw touches them;
* the win does not count them, and there is no loss condition (a line rearranged never
  passes through a position the original did not, except for the stock and waste).

The same separateness lets the position key forget where a stock is in its passes
(:meth:`StockMoves.normalize`): when taps alone lead from a stock and waste back to
themselves (a stock that redeals without limit), every state on that cycle of taps
reaches every other by taps that change nothing else, so positions that differ only by
where the stock is on the cycle are one position. A state off its cycle (draw three, after
a card was played from the waste: taps lead to the cycle but never back) keeps its own key.

A state off its cycle still *covers* the states its taps lead to (:class:`TapCover`): a position
whose stock and waste some stored position reaches by taps alone, everything else the same, is
not searched again. Taps change nothing but the stock and waste (the separateness above), so the
covering position has every line of the covered one, each preceded by those taps; a complete
search that skips covered positions still searches a position of every line (the search's module
doc has the induction). With one such draw, the rest of the position tells which cards the stock
and waste hold, and their order (taps keep it; a play from the waste takes one out), so the
cycle they come to is the same for every position with that rest: a state on its cycle is
covered by any other stored state of that rest. A state off its cycle is covered only by one
that taps lead to it (draw three: three, six, ... cards fewer on the waste, this pass), never
by one on the cycle, which taps lead only round the cycle.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Hashable, Iterable, Iterator
from typing import Any

from ..cards import FACE_UP, Card
from ..expr import ast as expr_ast
from ..expr import design_sites, parse
from ..expr.sites import Site
from ..model import EjectKind
from .dominance import bottom_cards, card_bits, probe_table
from .position_key import KeyFunction
from .symmetry import POSITION_READERS, canonical_key_function, interchangeable_classes, late_classes

_SOURCE_TESTS = ("==", "!=", "in")


def _is_source_test(node: expr_ast.Node) -> bool:
    """Whether ``node`` is an accept rule's test of which depot its move comes from (``source == waste``,
    ``source in Waste``, ``tab[2] != source``): it reads no card, so a tap never changes its value, and it does not
    stop a stock from being separate (:func:`stock_moves`)."""
    if not isinstance(node, expr_ast.Binary) or node.op not in _SOURCE_TESTS:
        return False
    sides = [(node.left, node.right)]
    if node.op != "in":
        sides.append((node.right, node.left))
    return any(source == expr_ast.Name("source") and _names_a_depot(other) for source, other in sides)


def _names_a_depot(node: expr_ast.Node) -> bool:
    """Whether ``node`` is a depot, group or type by name, or a group's member by a constant index."""
    if isinstance(node, expr_ast.Index):
        return isinstance(node.value, expr_ast.Name) and isinstance(node.index, expr_ast.IntLit)
    return isinstance(node, expr_ast.Name) and node.name != "source"


Piles = tuple[tuple[Card, ...], tuple[Card, ...]]
MAX_TAPS = 4096
"""The most taps one stock move looks ahead; a search that reaches it can no longer prove a loss."""
_FACE_DOWN = ~FACE_UP
TapState = tuple[int, tuple[Card, ...], tuple[Card, ...], int]
"""(taps from the position, stock, waste, redeals left) after some taps (:meth:`StockMoves._tap_chain`)."""
_CUT: TapState = (-1, (), (), 0)
"""Ends a tap chain that reached :data:`MAX_TAPS`."""
TARGETS_KEPT = 64
"""The most sets of bottom cards whose waste targets :meth:`StockMoves._probed_plays` keeps (then it forgets them)."""
CHAINS_KEPT = 5_000
"""The most tap chains :meth:`StockMoves._tap_chain` keeps (then it forgets them all)."""


def _taps_from(draw: Any, flips: bool, stock: Any, waste: Any, redeals: int) -> Iterator[TapState]:
    """The states taps of ``draw`` lead to from (``stock``, ``waste``, ``redeals``), in order, as (taps,
    stock, waste, redeals), until a tap is refused or a state comes back; :data:`_CUT` last when
    :data:`MAX_TAPS` is reached first. Only the stock and waste are followed (no triggers)."""
    seen: set[Hashable] = {(stock, waste, redeals)}
    taps = 0
    while True:
        if taps >= MAX_TAPS:
            yield _CUT
            return
        if not stock and (redeals == 0 or not waste):
            return  # the tap is refused (State.tap_refusal)
        if not stock and redeals > 0:
            redeals -= 1
        stock, waste = tap(stock, waste, draw.count, draw.face_up, flips)
        taps += 1
        if (stock, waste, redeals) in seen:
            return
        seen.add((stock, waste, redeals))
        yield taps, stock, waste, redeals


@dataclasses.dataclass(frozen=True)
class StockMoves:
    """The separate draws of a game: for each, its tap and the stock and waste it changes."""

    draws: tuple[Any, ...]
    cycles: dict[tuple[Any, ...], tuple[Any, Any]] = dataclasses.field(default_factory=dict, compare=False)
    """Per (draw's stock, stock pile, waste pile): the piles that stand for its tap cycle (cache)."""
    chains: dict[tuple[Any, ...], tuple[TapState, ...]] = dataclasses.field(default_factory=dict, compare=False)
    """Per (draw's stock, stock pile, waste pile, redeals): :meth:`_tap_chain` (cache)."""
    targets: dict[tuple[Any, ...], list[tuple[int, Any]]] = dataclasses.field(default_factory=dict, compare=False)
    """Per (game, waste, bottom cards): the waste's targets with the card table of each (:meth:`_probed_plays`)."""
    leasts: set[tuple[Any, ...]] = dataclasses.field(default_factory=set, compare=False)
    """The (draw's stock, stock pile, waste pile) that stand for a cycle of taps (:meth:`normalize`)."""

    def taps(self) -> frozenset[Any]:
        """The tap moves this replaces."""
        return frozenset(draw.move for draw in self.draws)

    def unbuilt_plays(self, state: Any) -> Iterator[tuple[tuple[Any, ...], Any, Any, bool]]:
        """:meth:`plays` as ``(moves, base, move, complete)``: the child is ``base`` after the drag ``move``,
        to be copied and played before the next item (``base`` is a scratch position the taps change), or
        ``base`` itself when ``move`` is None (:mod:`.child_keys` keys such a child without building it)."""
        for draw in self.draws:
            if _probes(state) and (not state.game.triggers or taps_fire_nothing(state.game, draw.depot, draw.to)):
                yield from self._unbuilt_probed_plays(state, draw)
            else:
                for moves, child, complete in self._plays_of(state, draw):
                    yield moves, child, None, complete

    def plays(self, state: Any, onto: tuple[int, ...] | None = None) -> Iterator[tuple[tuple[Any, ...], Any, bool]]:
        """``(moves, child, complete)`` for every "k taps, then a play from the waste" of ``state`` (with ``onto``,
        only those onto these depots: a split's uses, :mod:`.split_moves`).

        ``complete`` is False when the look-ahead stopped at :data:`MAX_TAPS` before the
        stock came back to a state it had had.
        """
        for draw in self.draws:
            yield from self._plays_of(state, draw, onto)

    def _plays_of(
        self, state: Any, draw: Any, onto: tuple[int, ...] | None = None
    ) -> Iterator[tuple[tuple[Any, ...], Any, bool]]:
        """:meth:`plays` of one draw."""
        if not _probes(state):
            yield from self._listed_plays(state, draw, onto)
        elif not state.game.triggers or taps_fire_nothing(state.game, draw.depot, draw.to):
            yield from self._probed_plays(state, draw, onto)
        else:
            # A trigger fires after a tap only if its rule reads what a tap changes: then the
            # probe stops and the engine lists the plays (so the probe is all taken or none).
            try:
                probed = list(self._probed_plays(state, draw, onto))
            except _TapFired:
                yield from self._listed_plays(state, draw, onto)
            else:
                yield from probed

    def _listed_plays(
        self, state: Any, draw: Any, onto: tuple[int, ...] | None = None
    ) -> Iterator[tuple[tuple[Any, ...], Any, bool]]:
        """:meth:`plays` of one draw through the engine: tap, list every move, keep the waste's (onto ``onto``)."""
        indexes = state.game.drag_indexes
        current = state
        seen: set[Hashable] = {self._stock_key(current, draw)}
        taps: list[Any] = []
        while len(taps) < MAX_TAPS:
            if current.is_terminal() or draw.move not in current.legal_moves():
                break
            current = current.clone()
            current.apply(draw.move)
            taps.append(draw.move)
            stock_key = self._stock_key(current, draw)
            if stock_key in seen:
                break
            seen.add(stock_key)
            if current.is_terminal():
                continue
            for move in current.legal_moves():
                entry = indexes.get(id(move))
                if entry is not None and entry[0] == draw.to and (onto is None or entry[1] in onto):
                    child = current.clone()
                    child.apply(move)
                    yield (*taps, move), child, True
        else:
            yield (), state, False

    def _probed_plays(
        self, state: Any, draw: Any, onto: tuple[int, ...] | None = None
    ) -> Iterator[tuple[tuple[Any, ...], Any, bool]]:
        """:meth:`_unbuilt_probed_plays` with each child built."""
        for moves, base, move, complete in self._unbuilt_probed_plays(state, draw, onto):
            if move is not None:
                base = base.clone()
                base.apply(move, checked=True)
            yield moves, base, complete

    def _unbuilt_probed_plays(
        self, state: Any, draw: Any, onto: tuple[int, ...] | None = None
    ) -> Iterator[tuple[tuple[Any, ...], Any, Any, bool]]:
        """:meth:`plays` of one draw (onto ``onto``), unbuilt as in :meth:`unbuilt_plays`, without listing every move
        after each tap (in a design without named suits, :func:`_probes`): the taps are followed on the stock and waste
        alone, as the engine plays them (:func:`tap`), and only the drags off the waste are
        asked of the engine (:meth:`State.drag_refusal`), to the targets whose top card the card
        table lets take it (:func:`.dominance.probe_table`; an over-approximation, so no legal play is missed).
        The plays, and their order, are those of :meth:`_listed_plays` (the tests compare them).
        In a design with triggers the engine settles them after each tap, as it does after a tap it
        plays; when one fires, :class:`_TapFired` is raised (the taps alone no longer tell the board)."""
        game = state.game
        settles = bool(game.triggers) and not taps_fire_nothing(game, draw.depot, draw.to)
        bottoms = bottom_cards(state)
        # each target with the table of its cards (None: ask the engine about every card)
        targets = self.targets.get((game, draw.to, bottoms))
        if targets is None:
            other, home = probe_table(game, False, bottoms), probe_table(game, True, bottoms)
            targets = [(t, home if t in game.win_depots else other) for t in _waste_targets(game, draw.to)]
            if len(self.targets) >= TARGETS_KEPT:
                self.targets.clear()
            self.targets[(game, draw.to, bottoms)] = targets
        bit = _BITS
        depot, waste_depot = draw.depot, draw.to
        flips = bool(game.auto_flip[depot])
        stock, waste, redeals = state.piles[depot], state.piles[waste_depot], state.redeals[depot]
        # A copy of the position the taps are played on (made once a card may go somewhere, unless settling).
        scratch = state.clone() if settles else None
        if scratch is not None:
            shown: Iterable[TapState] = self._settled_taps(state, draw, scratch)
        else:
            shown = self._tap_chain(draw, flips, stock, waste, redeals)
        # Taps change only the stock and the waste, which take no dragged cards: each target's top, and so the
        # cards its table lets it take, stay the same over the taps (``asks``: a target the engine is asked
        # about every card; ``takes``: what any target takes; ``taking``: the rows of the targets that take
        # some card, for a card with a bit, which no other target's table lets on).
        rows: list[tuple[int, int | None]] = []
        takes, asks = 0, False
        for target, table in targets:
            if onto is not None and target not in onto:
                continue
            if table is None:
                rows.append((target, None))
                asks = True
            else:
                pile = state.piles[target]
                taken = table.get(pile[-1] & ~FACE_UP if pile else -1, -1)
                rows.append((target, taken))
                takes |= taken
        taking = [row for row in rows if row[1] != 0]
        if scratch is not None:
            scratch.set_pile(depot, stock)  # the named suits and touched depots set once (the same each tap)
            scratch.set_pile(waste_depot, waste)
        top_only = game.eject_kind[waste_depot] is EjectKind.TOP_ONLY  # State.run_lengths without the call
        for taps, stock, waste, redeals in shown:
            if taps < 0:  # MAX_TAPS reached before the stock came back to a state it had had
                yield (), state, None, False
                return
            if top_only:  # most waste cards go nowhere: tested before the scratch position is set
                if not waste or not waste[-1] & FACE_UP:
                    continue
                wanted = bit.get(waste[-1] & ~FACE_UP)
                if wanted is not None and not asks and not takes & wanted:
                    continue
            if scratch is None:
                scratch = state.clone()
                scratch.set_pile(depot, stock)  # the named suits and touched depots set once (the same each tap)
                scratch.set_pile(waste_depot, waste)
            piles = scratch.piles
            piles[depot] = stock
            piles[waste_depot] = waste
            scratch.redeals[depot] = redeals
            scratch.move_count = state.move_count + taps
            if top_only:
                counts: Iterable[int] = (1,) if waste and waste[-1] & FACE_UP else ()
            else:
                counts = scratch.run_lengths(waste_depot, waste)
            for count in counts:
                card = waste[-count] & ~FACE_UP
                wanted = bit.get(card)
                if wanted is not None and not asks and not takes & wanted:
                    continue  # no target's table lets it take the card
                for target, row in rows if wanted is None else taking:
                    if wanted is not None and row is not None and not row & wanted:
                        continue
                    if top_only:
                        # The waste's face-up top card alone, onto a target that takes cards and names no suit (no
                        # declarations here): State.drag_refusal comes down to the target's accept rule.
                        top = waste[-1]
                        if scratch.accept_refusal(waste_depot, target, top, (top,)) is not None:
                            continue
                        move = game.drag_move(waste_depot, 1, target, None)
                    else:
                        move = game.drag_move(waste_depot, count, target, None)
                        if scratch.drag_refusal(move) is not None:
                            continue
                    yield (*(draw.move,) * taps, move), scratch, move, True

    def _tap_chain(self, draw: Any, flips: bool, stock: Any, waste: Any, redeals: int) -> tuple[TapState, ...]:
        """The states taps of ``draw`` lead to from (``stock``, ``waste``, ``redeals``), in a design
        without triggers (nothing but the stock and waste changes): (taps, stock, waste, redeals) of
        each whose waste shows a face-up card, ended by :data:`_CUT` when :data:`MAX_TAPS` is reached
        first (kept: positions of one search share their stock)."""
        entry = (draw.depot, stock, waste, redeals)
        found = self.chains.get(entry)
        if found is not None:
            return found
        shown = [reached for reached in _taps_from(draw, flips, stock, waste, redeals)
                 if reached[0] < 0 or (reached[2] and reached[2][-1] & FACE_UP)]
        if len(self.chains) >= CHAINS_KEPT:
            self.chains.clear()
        found = self.chains[entry] = tuple(shown)
        return found

    @staticmethod
    def _settled_taps(state: Any, draw: Any, scratch: Any) -> Iterator[TapState]:
        """:meth:`_tap_chain` in a design with triggers, on ``scratch`` (a copy of ``state``): the
        engine settles the triggers after each tap, as after a tap it plays, and :class:`_TapFired`
        is raised when one fires (the taps alone no longer tell the board)."""
        game, piles = state.game, scratch.piles
        depot, waste_depot = draw.depot, draw.to
        flips = bool(game.auto_flip[depot])
        start = (state.piles[depot], state.piles[waste_depot], state.redeals[depot])
        for taps, stock, waste, redeals in _taps_from(draw, flips, *start):
            if taps < 0:
                yield _CUT
                return
            scratch.set_pile(depot, stock)
            scratch.set_pile(waste_depot, waste)
            scratch.redeals[depot] = redeals
            before = piles[:]
            game.settle(piles, scratch)
            if scratch.cascade or piles != before or scratch.reshuffles != state.reshuffles:
                raise _TapFired
            if waste and waste[-1] & FACE_UP:
                yield taps, stock, waste, redeals

    def normalize(self, state: Any, piles: list[Any]) -> None:
        """Replace, in ``piles`` (a copy of ``state``'s), the stock and waste of each draw that
        redeals without limit by the least (stock, waste) on their cycle of taps, when they lie
        on one (module doc)."""
        for draw in self.draws:
            if draw.redeals >= 0:
                continue  # a limited stock counts its passes: taps never lead back
            entry = (draw.depot, piles[draw.depot], piles[draw.to])
            found = self.cycles.get(entry)
            if found is None:
                found = self._cycle_of(state.game, draw, entry[1], entry[2])
            piles[draw.depot], piles[draw.to] = found

    def _cycle_of(self, game: Any, draw: Any, stock: Any, waste: Any) -> tuple[Any, Any]:
        """Follow the taps from (``stock``, ``waste``) and remember what it and the states on its
        cycle stand for."""
        order: list[tuple[Any, Any]] = [(stock, waste)]
        where = {order[0]: 0}
        flips = bool(game.auto_flip[draw.depot])
        while len(order) <= MAX_TAPS and (stock or waste):
            stock, waste = tap(stock, waste, draw.count, draw.face_up, flips)
            now = (stock, waste)
            if now in where:
                cycle = order[where[now]:]
                least = min(cycle)
                for pair in cycle:
                    self.cycles[(draw.depot, *pair)] = least
                self.leasts.add((draw.depot, *least))
                if where[now] == 0:
                    return least
                break
            if (draw.depot, *now) in self.cycles:
                # A state known before: its cycle is known, so the start, unknown, lies on no cycle it reaches.
                break
            where[now] = len(order)
            order.append(now)
        self.cycles[(draw.depot, *order[0])] = order[0]
        return order[0]

    def split_key(self, game: Any, symmetry: bool) -> KeyFunction | None:
        """The position key of :func:`.symmetry.canonical_key_function` with :meth:`normalize`, as a pair
        (the rest of the position, the stock and waste): the same positions are told apart. None unless
        exactly one draw redeals without limit, draws more than one card and has its piles in no class of
        interchangeable depots (then :class:`TapCover` applies: module doc)."""
        unlimited = [draw for draw in self.draws if draw.redeals < 0]
        if len(unlimited) != 1 or unlimited[0].count < 2:
            return None  # drawing one card, every state of a stock is on its cycle: nothing is covered
        draw = unlimited[0]
        classes = interchangeable_classes(game) + late_classes(game)[1]
        if any(d in members for members in classes for d in (draw.depot, draw.to)):
            return None
        depot, waste, cycles = draw.depot, draw.to, self.cycles
        # The last stock and waste and what they stand for: a move off the stock and waste leaves the child the
        # parent's two tuples, so most keys find them here without hashing them (an identity is never reused
        # while the tuples are held here).
        last: list[Any] = [None, None, None]

        def blank(state: Any, piles: list[Any]) -> Hashable:  # normalize() of the one unlimited draw, blanked
            stock_pile, waste_pile = piles[depot], piles[waste]
            if stock_pile is last[0] and waste_pile is last[1]:
                found = last[2]
            else:
                found = cycles.get((depot, stock_pile, waste_pile))
                if found is None:
                    found = self._cycle_of(state.game, draw, stock_pile, waste_pile)
                last[:] = stock_pile, waste_pile, found
            piles[depot] = piles[waste] = ()
            return found

        return canonical_key_function(game, symmetry, split=blank)

    def reaches(self, game: Any, start: tuple[Any, Any], end: tuple[Any, Any]) -> bool:
        """Whether taps of the one unlimited draw (:meth:`split_key`) lead from the stock and waste
        ``start`` to ``end`` (both as :meth:`normalize` leaves them, of positions with the same rest),
        ``start`` being off its cycle or ``end`` other than ``start`` (module doc)."""
        draw = next(draw for draw in self.draws if draw.redeals < 0)
        if (draw.depot, *end) in self.leasts:
            return start != end  # every state of that rest comes to the one cycle end stands for
        stock, waste = start
        if (draw.depot, *start) in self.leasts or len(end[1]) <= len(waste) or not stock:
            return False  # taps lead a cycle's state only round it, and off it only to a longer waste
        flips = bool(game.auto_flip[draw.depot])
        while stock and len(waste) < len(end[1]):
            stock, waste = tap(stock, waste, draw.count, draw.face_up, flips)
        return (stock, waste) == end

    @staticmethod
    def _stock_key(state: Any, draw: Any) -> Hashable:
        return state.piles[draw.depot], state.piles[draw.to], state.redeals[draw.depot]


class TapCover:
    """The stock and waste of the positions a search has stored, by the rest of the position: which
    positions taps from a stored one reach (module doc; keys of :meth:`StockMoves.split_key`)."""

    def __init__(self, stock: StockMoves, game: Any) -> None:
        self.stock = stock
        self.game = game
        self.places: dict[Hashable, list[tuple[Any, Any]]] = {}

    def clear(self) -> None:
        """Forget every stored position (a search starting afresh)."""
        self.places = {}

    def add(self, key: Any) -> None:
        """Remember a stored position's key."""
        rest, place = key
        found = self.places.get(rest)
        if found is None:
            self.places[rest] = [place]
        else:
            found.append(place)

    def covers_else_add(self, key: Any) -> Hashable | None:
        """The key of a stored position whose taps lead to the position of ``key`` (:meth:`covers`), else None
        once ``key`` is added (:meth:`add`): one look-up of the rest (a key is hashed at each)."""
        rest, place = key
        found = self.places.get(rest)
        if found is None:
            self.places[rest] = [place]
            return None
        reaches, game = self.stock.reaches, self.game
        for start in found:
            if reaches(game, start, place):
                return rest, start
        found.append(place)
        return None

    def covers(self, key: Any) -> bool:
        """Whether taps from a stored position lead to the position of ``key`` (not itself stored)."""
        found = self.places.get(key[0])
        if found is None:
            return False
        end, reaches, game = key[1], self.stock.reaches, self.game
        return any(reaches(game, start, end) for start in found)


class CoveredLosses(set[Hashable]):
    """The positions a portfolio has proved lost (:mod:`.loss_proofs`), keyed as :meth:`StockMoves.split_key` keys
    them, which also holds every position the taps of one of them lead to (:class:`TapCover`): each line of such a
    position is a line of the lost one after the taps, so it is lost too."""

    def __init__(self, stock: StockMoves, game: Any) -> None:
        super().__init__()
        self.cover = TapCover(stock, game)

    def add(self, key: Hashable) -> None:
        """Prove the position of ``key`` lost."""
        super().add(key)
        self.cover.add(key)

    def __contains__(self, key: object) -> bool:
        return super().__contains__(key) or self.cover.covers(key)


_BITS = card_bits()


class _TapFired(Exception):
    """A trigger fired after a tap followed without the engine (:meth:`StockMoves._probed_plays`)."""


def _probes(state: Any) -> bool:
    """Whether :meth:`StockMoves.plays` may follow the taps without the engine: no drag names a
    suit, and no statistics are counted (triggers are settled after each tap)."""
    game = state.game
    return not game.has_declarations and state.stats is None


@functools.lru_cache(maxsize=16)
def taps_fire_nothing(game: Any, stock: int, waste: int) -> bool:
    """Whether no trigger of ``game`` can fire after a tap of the draw from ``stock`` to ``waste`` in a settled
    position: no trigger belongs to either, and no trigger's rule names either, a group or type holding one of
    them, or a board-position function (:data:`.symmetry.POSITION_READERS`, which could lead to any depot). The
    functions of the expression language read only the depots passed to them, and none reads the redeals or the
    move count, so those rules read nothing a tap changes: each is false after the tap as it was before (the
    engine settles every position until no trigger holds). Then :meth:`StockMoves.plays` follows the taps
    without settling (and keeps the chains) where it would settle after each tap and find nothing fired."""
    pair = {stock, waste}
    names = {game.names[d] for d in pair}
    names |= {group for group, members in game.members.items() if pair & set(members)}
    for trigger, rule in _trigger_rules(game):
        if trigger.depot in pair:
            return False
        identifiers = expr_ast.names(parse(rule), members=True)
        if identifiers & (names | POSITION_READERS):
            return False
    return True


def _trigger_rules(game: Any) -> list[tuple[Any, str]]:
    """(the compiled trigger, its rule's text) of every trigger of ``game``, in the engine's order."""
    found: list[tuple[Any, str]] = []
    for depot in game.design.depots:
        compiled = game.triggers_of[depot.index]
        found.extend(zip(compiled, (trigger.when.text for trigger in depot.spec.triggers), strict=True))
    return found


@functools.lru_cache(maxsize=16)
def _waste_targets(game: Any, waste: int) -> tuple[int, ...]:
    """The depots that may ever take a card from ``waste``, in depot order (the lister's)."""
    return tuple(d for d in range(len(game.names)) if d != waste and not game.accept_never[d])


def stock_moves(game: Any) -> StockMoves | str:
    """The separate draws of ``game`` (module doc), or why there are none."""
    if not game.draws:
        return "it has no stock that draws"
    if game.loss_when is not None:
        return "it has a loss condition"
    design = game.design
    mentioned: set[str] = set()
    for site, text, _ in design_sites(design):
        if site is not Site.SCORING:
            skip = _is_source_test if site is Site.ACCEPT else None
            mentioned.update(expr_ast.names(parse(text), members=True, skip=skip))
    effects = [effect for trigger in game.triggers for effect in trigger.effects]
    effects += [effect for action in game.actions for effect in action.effects]
    touched: set[int] = set()
    for effect in effects:
        for name in ("source", "target"):
            value = getattr(effect, name, None)
            if isinstance(value, int):
                touched.add(value)
        for name in ("members", "targets"):
            touched.update(getattr(effect, name, None) or ())
    owners = {t.depot for t in game.triggers} | {a.depot for a in game.actions}
    separate = []
    reasons = []
    for draw in game.draws:
        pair = (draw.depot, draw.to)
        names = {game.names[d] for d in pair}
        names |= {group for group, members in game.members.items() if set(members) & set(pair)}
        others = [d for d in game.draws if d is not draw and set(pair) & {d.depot, d.to}]
        if names & mentioned:
            reasons.append(f"a rule reads {game.names[draw.depot]} or {game.names[draw.to]}")
        elif any(not game.accept_never[d] for d in pair) or game.eject_kind[draw.depot] is not EjectKind.LOCKED:
            reasons.append(f"{game.names[draw.depot]} or {game.names[draw.to]} takes or gives cards")
        elif set(pair) & (touched | owners | set(game.win_depots)) or others:
            reasons.append(f"an effect, a trigger, another draw or the win touches {game.names[draw.depot]}")
        else:
            separate.append(draw)
    if not separate:
        return "; ".join(reasons)
    return StockMoves(tuple(separate))


def tap(stock: tuple[Card, ...], waste: tuple[Card, ...], count: int, face_up: bool | None, flips: bool) -> Piles:
    """(stock, waste) after one tap of a draw that redeals without limit, as the engine plays it
    (:meth:`State.apply`): ``count`` cards one by one onto the waste, or the waste turned over
    when the stock is empty (checked against the engine in the tests)."""
    if not stock:
        return tuple([c & _FACE_DOWN for c in reversed(waste)]), ()
    # The cards one by one, as one slice: each card after the first was the stock's top when the one before
    # left, so with ``flips`` it lies face up (unless ``face_up`` turns them all).
    drawn = min(count, len(stock))
    taken, stock = stock[: -drawn - 1 : -1], stock[:-drawn]
    if face_up is True:
        taken = tuple([c | FACE_UP for c in taken])
    elif face_up is False:
        taken = tuple([c & _FACE_DOWN for c in taken])
    elif flips and drawn > 1:
        taken = (taken[0], *[c | FACE_UP for c in taken[1:]])
    if stock and flips and not stock[-1] & FACE_UP:
        stock = (*stock[:-1], stock[-1] | FACE_UP)
    return stock, waste + taken
