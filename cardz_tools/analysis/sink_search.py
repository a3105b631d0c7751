"""The solver's compact search for sink games: a position packed into one integer.

In a sink game (:mod:`.sink_games`) where every move takes the top card of a pile
(or draws from a stock) onto a sink, a position is fully described by how many cards
are left in each pile and each stock, and by the *class* of each sink's top card:
cards that the accept rules cannot tell apart as tops (in Golf and Black Hole, the
cards of one rank) play the same from there on. The order under a sink's top never
matters (:mod:`.position_key`), and which cards a sink holds follows from the rest.
So the search packs those numbers into the bit fields of one ``int``: a move is a
subtraction and a field write, and the transposition table is a set of ints of about
30 bytes, where an engine-state key is some twenty tuples (over a kilobyte). That is
what lets a deal be searched to millions of positions (``bench/bench_solve.py``).

Two sound tests cut positions that cannot be won (they never cut a winnable one):

* **dead card**: a card still to be played that no card able to precede it accepts
  (:mod:`.dead_cards`, sharpened: with one sink, the card played just before a card
  of a pile is the card right above it or a card of another pile, a stock or the top);
* **predecessor matching** (one sink): every card still to be played lands on a
  distinct card (the top now, or a card played later), so there must be a matching of
  the cards to play into those that accept them, counted by class; and at most one card
  (the last) plus one per draw left may have no card to follow it.

Free cells (:attr:`.sink_games.SinkShape.cells`, Worm Hole) are one more field each, the
index of the card they hold; with them only the tests that count cards hold (a card put
in a cell may be played after the cards under it), see :meth:`CompactSearch._dead_with_cells`.

A won deal's search time is heavy-tailed in the order moves are tried, so the search
restarts with doubling limits and new tie-break orders, keeping what earlier runs proved
lost (:meth:`CompactSearch.search`).

The search answers like :func:`.solve.solve_state`; a winning line is replayed
through the engine before it is returned, so a bug here cannot report a false win.
"""

from __future__ import annotations

import random
import time
from collections.abc import Mapping, Sequence
from typing import Any

from ..cards import FACE_UP, Card
from ..engine import Drag, IllegalMoveError, Move, Tap
from ..model import EjectKind
from .sink_games import SinkShape, sink_shape

MAX_POSITIONS = 8_000_000
"""The most positions one compact search holds (an int and a set slot each: about 0.5 GB)."""

FIRST_RUN = 2_000
"""Positions of the search's first run; each restart gets twice as many (see :meth:`CompactSearch.search`).

Black Hole's 40 deals of the results run: 0.62M positions with 2,000, 0.85M with 5,000, 2.1M with 20,000;
Golf (Queen on a King), 60 deals: 1.75M with 2,000, 1.72M with 20,000 (bench/bench_sink.py)."""

CLOCK_EVERY = 4096
"""Positions between two reads of the clock."""

MAX_FLOW_CLASSES = 16
"""The matching test runs when the cards fall into at most this many classes (13 ranks in Golf)."""

CELL_STEP = 1 << 16
"""In a step of :meth:`CompactSearch._expand`, the first cell's number as a source (and its order)."""

COUNT_BITS = 8
"""Bits of one class's count in the matching test's packed counts (a deck has fewer than 256 cards)."""

COUNT_MASK = (1 << COUNT_BITS) - 1


def _bit_fields(widths: Sequence[int]) -> tuple[list[int], list[int]]:
    """(shifts, masks) of consecutive bit fields of the given widths, the first at bit 0."""
    shifts: list[int] = []
    offset = 0
    for width in widths:
        shifts.append(offset)
        offset += width
    return shifts, [(1 << width) - 1 for width in widths]


class CompactSearch:
    """The compact search of one deal (build it with :meth:`of`)."""

    def __init__(self, state: Any, shape: SinkShape) -> None:
        self.state = state
        self.shape = shape
        self.targets: tuple[int, ...] = shape.targets
        self._take_layout(state, shape)
        classes = self._classify_tops(shape)
        self._lay_out_fields(classes)
        self._mark_won(state.game.win_kind)
        # The cards of a pile (a stock) below height h, as a mask: below[i][h] (stock_below[j][h]).
        self.below = [_prefix_masks(cards, shape.bit) for cards in self.pile_cards]
        self.stock_below = [_prefix_masks(cards, shape.bit) for cards in self.stock_cards]
        self._prepare_matching(classes)
        self._tabulate_piles(shape)
        self._tabulate_reachability(shape, classes)

    def _take_layout(self, state: Any, shape: SinkShape) -> None:
        """The piles and stocks that hold cards, their cards (without the face-up bit) and the draws."""
        game = state.game
        ident = [tuple(c & ~FACE_UP for c in pile) for pile in state.piles]
        stock_set = set(shape.stocks)
        self.piles: tuple[int, ...] = tuple(d for d in shape.outside if d not in stock_set and ident[d])
        self.stocks: tuple[int, ...] = tuple(d for d in shape.stocks if ident[d])
        self.pile_cards: list[tuple[Card, ...]] = [ident[d] for d in self.piles]
        self.stock_cards: list[tuple[Card, ...]] = [ident[d] for d in self.stocks]
        self.draw_count = [game.draw_of[d].count for d in self.stocks]
        self.draw_to = [self.targets.index(game.draw_of[d].to) for d in self.stocks]
        self.cells: tuple[int, ...] = shape.cells
        self.cell_value = {card: index + 1 for index, card in enumerate(shape.cards)}
        """A cell's field: 0 when empty, else the index of its card in ``shape.cards`` + 1."""
        self.pending = [d in shape.pending for d in self.piles]

    def _classify_tops(self, shape: SinkShape) -> int:
        """Classes of tops: cards every target accepts the same cards on. Returns how many."""
        bit = shape.bit
        signatures: dict[tuple[int, ...], int] = {}
        self.top_class: dict[Card, int] = {}
        self.class_accepts: list[tuple[int, ...]] = []  # per class, per target: the cards it accepts
        self.class_card: list[Card] = []  # a card of each class
        for card in shape.cards:
            # Per target, the cards that target accepts on this card.
            signature = tuple(sum(bit[c] for c in shape.cards if shape.on_top[t][c] & bit[card]) for t in self.targets)
            if signature not in signatures:
                signatures[signature] = len(signatures)
                self.class_accepts.append(signature)
                self.class_card.append(card)
            self.top_class[card] = signatures[signature]
        return len(signatures)

    def _lay_out_fields(self, classes: int) -> None:
        """The bit fields of a packed position: a height per pile and stock, a top per target, a card per cell.

        Field 0 of a top holds 0 for an empty sink, else the class + 1; a cell's, :attr:`cell_value`.
        """
        widths = [max(1, len(cards).bit_length()) for cards in self.pile_cards]
        widths += [max(1, len(cards).bit_length()) for cards in self.stock_cards]
        widths += [max(1, classes.bit_length())] * len(self.targets)
        widths += [len(self.shape.cards).bit_length()] * len(self.cells)
        shifts, masks = _bit_fields(widths)
        n_piles, n_stocks, n_tops = len(self.piles), len(self.stocks), len(self.targets)
        self.pile_shift = shifts[:n_piles]
        self.stock_shift = shifts[n_piles : n_piles + n_stocks]
        self.top_shift = shifts[n_piles + n_stocks : n_piles + n_stocks + n_tops]
        self.cell_shift = shifts[n_piles + n_stocks + n_tops :]
        self.pile_mask = masks[:n_piles]
        self.stock_mask = masks[n_piles : n_piles + n_stocks]
        self.top_mask = masks[n_piles + n_stocks : n_piles + n_stocks + n_tops]
        self.cell_mask = masks[n_piles + n_stocks + n_tops :]

    def _mark_won(self, win_kind: str) -> None:
        """The bits that are all zero once the game is won: every pending pile empty
        (depotsEmpty), or every pile and stock empty (allCardsIn)."""
        pending_zero = all_zero = 0
        for i, shift in enumerate(self.pile_shift):
            if self.pending[i]:
                pending_zero |= self.pile_mask[i] << shift
            all_zero |= self.pile_mask[i] << shift
        for j, shift in enumerate(self.stock_shift):
            all_zero |= self.stock_mask[j] << shift
        for c, shift in enumerate(self.cell_shift):
            all_zero |= self.cell_mask[c] << shift
        self.win_zero = pending_zero if win_kind == "depotsEmpty" else all_zero

    def _tabulate_piles(self, shape: SinkShape) -> None:
        """Per pile, per position, for the one-sink test: the card's bit, the tops that accept it,
        its class, its need class and the cards that may follow it."""
        bit = shape.bit
        first = self.targets[0]
        self.card_bits = [[bit[c] for c in cards] for cards in self.pile_cards]
        self.accepted_on = [[shape.on_top[first][c] for c in cards] for cards in self.pile_cards]
        self.classes = [[self.top_class[c] for c in cards] for cards in self.pile_cards]
        self.needs = [[self.need_class.get(c, 0) for c in cards] for cards in self.pile_cards]
        self.successor_masks = [[self.class_accepts[self.top_class[c]][0] for c in cards] for cards in self.pile_cards]
        self._tie_break: list[int] = list(range(len(self.piles)))
        self._tabulate_dead_ends()

    def _tabulate_dead_ends(self) -> None:
        """The tables of :meth:`_dead_one_sink`, per pile ``i`` and height ``h`` (the cards ``cards[:h]`` left).

        * ``top_preceders[i][h]``: the cards the top card ``cards[h - 1]`` may be played on;
        * ``foreign_preceders[i][h]``: for each card under the top that the card right above
          it does not accept, the cards of other piles (or stocks) it may be played on;
        * ``foreign_successors[i][h]``: for each card the card right under it (if any) may not
          be played on, the cards of other piles that may be played on it;
        * ``need_counts[i][h]`` and ``supply_counts[i][h]``: the matching test's counts of the
          pile's cards by need class (pending piles only) and by class, a field of
          :data:`COUNT_BITS` bits each.
        """
        self.pending_piles = [i for i in range(len(self.piles)) if self.pending[i]]
        self.top_preceders: list[list[int]] = []
        self.foreign_preceders: list[list[tuple[int, ...]]] = []
        self.foreign_successors: list[list[tuple[int, ...]]] = []
        self.need_counts: list[list[int]] = []
        self.supply_counts: list[list[int]] = []
        for i, cards in enumerate(self.pile_cards):
            own = self.below[i][len(cards)]
            bits, accepted_on, successors = self.card_bits[i], self.accepted_on[i], self.successor_masks[i]
            pending = self.pending[i]
            tops, needs, supplies = [0], [0], [0]
            preceders: list[tuple[int, ...]] = [()]
            following: list[tuple[int, ...]] = [()]
            for h in range(1, len(cards) + 1):
                j = h - 1  # the card that becomes the top at height h
                tops.append(accepted_on[j])
                under_top = preceders[-1]
                if pending and j and not accepted_on[j - 1] & bits[j]:
                    under_top = (*under_top, accepted_on[j - 1] & ~own)
                preceders.append(under_top)
                successor_free = following[-1]
                if pending and not (j and successors[j] & bits[j - 1]):
                    successor_free = (*successor_free, successors[j] & ~own)
                following.append(successor_free)
                needs.append(needs[-1] + (1 << COUNT_BITS * self.need_class.get(cards[j], 0) if pending else 0))
                supplies.append(supplies[-1] + (1 << COUNT_BITS * self.classes[i][j]))
            self.top_preceders.append(tops)
            self.foreign_preceders.append(preceders)
            self.foreign_successors.append(following)
            self.need_counts.append(needs)
            self.supply_counts.append(supplies)
        self.stock_supply_counts: list[list[int]] = []
        for cards in self.stock_cards:
            counts = [0]
            for card in cards:
                counts.append(counts[-1] + (1 << COUNT_BITS * self.top_class[card]))
            self.stock_supply_counts.append(counts)
        cards = self.shape.cards
        self.value_bit = [0, *(self.shape.bit[c] for c in cards)]
        self.value_need = [0, *(1 << COUNT_BITS * self.need_class.get(c, 0) for c in cards)]
        self.value_supply = [0, *(1 << COUNT_BITS * self.top_class[c] for c in cards)]
        """Per cell value (:attr:`cell_value`): its card's bit and its matching counts."""
        self.need_count_shifts = [COUNT_BITS * n for n in range(self.need_classes)]
        self.supply_count_shifts = [COUNT_BITS * k for k in range(len(self.class_card))]

    def _tabulate_reachability(self, shape: SinkShape, classes: int) -> None:
        """For the reachability test: per class, its cards as a mask and the cards the first sink
        takes on it; per stock, per count left, the classes of the cards still in it as a bit set."""
        bit = shape.bit
        self.class_members = [0] * classes
        for card, k in self.top_class.items():
            self.class_members[k] |= bit[card]
        self.class_successors = [accepts[0] for accepts in self.class_accepts]
        self.class_of_bit = [self.top_class[c] for c in shape.cards]
        self.every_class = (1 << classes) - 1
        self.any_successor = 0
        for successors in self.class_successors:
            self.any_successor |= successors
        self.stock_classes: list[list[int]] = []
        for cards in self.stock_cards:
            sets, seen_classes = [0], 0
            for card in cards:
                seen_classes |= 1 << self.top_class[card]
                sets.append(seen_classes)
            self.stock_classes.append(sets)

    @classmethod
    def of(cls, state: Any) -> CompactSearch | None:
        """The search for ``state``, or None when its design or position does not fit the model."""
        game = state.game
        shape = sink_shape(game, cells=True)
        if shape is None or game.loss_when is not None:
            return None
        if shape.cells:
            # Only the one-sink test knows cells (it then reads no order in the piles).
            if len(shape.targets) != 1 or not state.piles[shape.targets[0]]:
                return None
            if any(len(state.piles[c]) > 1 or not all(card & FACE_UP for card in state.piles[c]) for c in shape.cells):
                return None
        for draw in game.draws:
            if draw.redeals != 0 or not draw.face_up or game.eject_kind[draw.depot] is not EjectKind.LOCKED:
                return None
        single = all(game.accept_rules[t].single for t in shape.targets)
        stocks = set(shape.stocks)
        for depot in shape.outside:
            if depot in stocks or not state.piles[depot]:
                continue
            kind = game.eject_kind[depot]
            if kind is EjectKind.LOCKED or kind is EjectKind.WHEN:
                return None
            if kind is EjectKind.FACE_UP and not single:
                return None
            if any(not card & FACE_UP for card in state.piles[depot]):
                return None
        if game.win_kind == "allCardsIn" and set(game.win_depots) != set(shape.targets):
            return None  # a card on a sink outside the win would be remembered nowhere in the key
        if state.cascade:
            return None
        return cls(state, shape)

    # ------------------------------------------------------------ packing

    def pack(self, state: Any) -> int:
        """The packed position of ``state``: the deal the search was built for, some moves on."""
        packed = 0
        for i, depot in enumerate(self.piles):
            packed |= len(state.piles[depot]) << self.pile_shift[i]
        for j, depot in enumerate(self.stocks):
            packed |= len(state.piles[depot]) << self.stock_shift[j]
        for k, target in enumerate(self.targets):
            pile = state.piles[target]
            if pile:
                packed |= (self.top_class[pile[-1] & ~FACE_UP] + 1) << self.top_shift[k]
        for c, cell in enumerate(self.cells):
            if state.piles[cell]:
                packed |= self.cell_value[state.piles[cell][0] & ~FACE_UP] << self.cell_shift[c]
        return packed

    def moves(self, packed: int) -> list[tuple[Move, int]]:
        """The legal moves of a packed position, each with the position it leads to."""
        return [(self._engine_move(step), child) for _, child, step in self._expand(packed)]

    # ------------------------------------------------------------ the dead-end tests

    def _prepare_matching(self, classes: int) -> None:
        """Classes of cards for the matching test, and whether it applies."""
        shape = self.shape
        self.matching = (
            len(self.targets) == 1 and classes <= MAX_FLOW_CLASSES and bool(self.state.piles[self.targets[0]])
        )
        self.need_class: dict[Card, int] = {}
        self.need_classes = 0
        self.feeders: list[list[int]] = []
        self.fed: list[list[int]] = []
        if not self.matching:
            return
        target = self.targets[0]
        bit = shape.bit
        # A card to play is told apart by the tops that accept it; a card that will be a top by its class.
        needs: dict[int, int] = {}
        for card in shape.cards:
            self.need_class[card] = needs.setdefault(shape.on_top[target][card], len(needs))
        if len(needs) > MAX_FLOW_CLASSES:
            self.matching = False
            return
        self.need_classes = len(needs)
        self.feeders = [[] for _ in needs]
        for mask, need in needs.items():
            self.feeders[need] = [k for k, card in enumerate(self.class_card) if mask & bit[card]]
        self.fed = [[n for n, feeding in enumerate(self.feeders) if k in feeding] for k in range(classes)]

    def dead(self, packed: int) -> bool:
        """Whether the position provably cannot be won (see the module doc)."""
        if len(self.targets) == 1 and self.state.piles[self.targets[0]]:
            return self._dead_one_sink(packed)
        return self._dead_many_sinks(packed)

    def _stock_state(self, packed: int) -> tuple[int, int]:
        """(the cards left in the stocks as a mask, the draws left)."""
        in_stocks = draws_left = 0
        for j, shift in enumerate(self.stock_shift):
            left = (packed >> shift) & self.stock_mask[j]
            in_stocks |= self.stock_below[j][left]
            draws_left += -(-left // self.draw_count[j])
        return in_stocks, draws_left

    def _dead_one_sink(self, packed: int) -> bool:
        """:meth:`dead` for one sink that is not empty (Golf, Black Hole): the hot path.

        Every per-card condition is read from tables made once per deal
        (:meth:`_tabulate_dead_ends`): per pile and height, the masks of the cards whose
        condition the pile itself cannot meet, and the class counts of the matching test as
        one packed int (adding two adds every count).
        """
        heights = [(packed >> s) & m for s, m in zip(self.pile_shift, self.pile_mask, strict=True)]
        below = self.below
        in_piles = 0
        for i, h in enumerate(heights):
            in_piles |= below[i][h]
        in_stocks, draws_left = self._stock_state(packed)
        outside = in_piles | in_stocks
        top_class = ((packed >> self.top_shift[0]) & self.top_mask[0]) - 1
        if self.cells:
            return self._dead_with_cells(packed, heights, in_piles, in_stocks, top_class)
        top_bit = self.shape.bit[self.class_card[top_class]]
        without_successor = pending_cards = 0
        allowance = draws_left + 1
        top_preceders, preceders, successors = self.top_preceders, self.foreign_preceders, self.foreign_successors
        for i in self.pending_piles:
            h = heights[i]
            if not h:
                continue
            mine = below[i][h]
            pending_cards |= mine
            # The card played just before a pile's card is the card right above it, a card of
            # another pile or a stock, or (for the pile's top) the sink's top now.
            if not top_preceders[i][h] & ((outside ^ mine) | top_bit):
                return True
            for mask in preceders[i][h]:
                if not mask & outside:
                    return True
            # The card played just after it: the card right under it or one of another pile,
            # unless it is the last card or a draw follows.
            for mask in successors[i][h]:
                if not mask & in_piles:
                    without_successor += 1
            if without_successor > allowance:
                return True
        # Drawn cards restart the chain anywhere: with a stock left the test seldom cuts (Golf), and costs more
        # than it saves there (bench/bench_solve.py), so it runs once the stocks are empty.
        if not in_stocks and self._unreachable(in_piles, pending_cards, self.class_card[top_class], packed):
            return True
        if not self.matching:
            return False
        return self._no_matching(packed, heights, 0, 1 << (COUNT_BITS * top_class))

    def _dead_with_cells(self, packed: int, heights: list[int], in_piles: int, in_stocks: int, top_class: int) -> bool:
        """:meth:`_dead_one_sink` with free cells: only its tests that read no order in the piles.

        A card put in a cell may be played after the cards under it, so the card played just
        before or after a pile's card may be any card still out: the tests of the cards right
        above and under a card do not hold. The reachability test and the matching do (they
        only count cards), with the cells' cards among the cards still to be played.
        """
        cell_cards = 0
        need_counts, supply_counts = 0, 1 << (COUNT_BITS * top_class)
        value_bit, value_need, value_supply = self.value_bit, self.value_need, self.value_supply
        for s, m in zip(self.cell_shift, self.cell_mask, strict=True):
            value = (packed >> s) & m
            cell_cards |= value_bit[value]
            need_counts += value_need[value]
            supply_counts += value_supply[value]
        pending_cards = cell_cards
        for i in self.pending_piles:
            pending_cards |= self.below[i][heights[i]]
        top = self.class_card[top_class]
        if not in_stocks and self._unreachable(in_piles | cell_cards, pending_cards, top, packed):
            return True
        if not self.matching:
            return False
        return self._no_matching(packed, heights, need_counts, supply_counts)

    def _no_matching(self, packed: int, heights: list[int], need_counts: int, supply_counts: int) -> bool:
        """Whether the cards still needed cannot all be matched to cards that could be played on
        them (the matching test), given the packed counts of the cells (or none) so far."""
        need_tables, supply_tables = self.need_counts, self.supply_counts
        for i, h in enumerate(heights):
            supply_counts += supply_tables[i][h]
            need_counts += need_tables[i][h]
        for j, counts in enumerate(self.stock_supply_counts):
            supply_counts += counts[(packed >> self.stock_shift[j]) & self.stock_mask[j]]
        need = [(need_counts >> shift) & COUNT_MASK for shift in self.need_count_shifts]
        supply = [(supply_counts >> shift) & COUNT_MASK for shift in self.supply_count_shifts]
        return not _matching_exists(need, supply, self.feeders, self.fed)

    def _unreachable(self, in_piles: int, pending: int, top: Card, packed: int) -> bool:
        """Whether some card of a pending pile can never be played (one sink: the rank-reachability test).

        Every card played lands on the top then: the top now, a drawn card or a card played
        before. So, forgetting the order in the piles, the classes a top can ever have are
        those reached from the top's and the stock cards' classes through cards still in the
        piles that a reached class accepts (in Black Hole: the ranks joined to the hole's by
        ranks still in the fans). A pending card no reached class accepts is dead.
        """
        classes = 1 << self.top_class[top]
        for j, sets in enumerate(self.stock_classes):
            classes |= sets[(packed >> self.stock_shift[j]) & self.stock_mask[j]]
        if classes == self.every_class:  # a stock holding every class (early in Golf): nothing to follow
            return bool(pending & ~self.any_successor)
        members, successors = self.class_members, self.class_successors
        reached = playable = 0
        while classes:
            low = classes & -classes
            k = low.bit_length() - 1
            reached |= members[k]
            playable |= successors[k]
            classes ^= low
        if not pending & ~playable:
            return False
        class_of_bit = self.class_of_bit
        todo = playable & in_piles & ~reached
        while todo:
            k = class_of_bit[(todo & -todo).bit_length() - 1]
            reached |= members[k]
            playable |= successors[k]
            if not pending & ~playable:
                return False
            todo = playable & in_piles & ~reached
        return True

    def _dead_many_sinks(self, packed: int) -> bool:
        """:meth:`dead` with several sinks or an empty one: the dead-card test of :mod:`.dead_cards`."""
        bit = self.shape.bit
        on_top, on_empty = self.shape.on_top, self.shape.on_empty
        heights = [(packed >> s) & m for s, m in zip(self.pile_shift, self.pile_mask, strict=True)]
        outside, _ = self._stock_state(packed)
        for i, h in enumerate(heights):
            outside |= self.below[i][h]
        tops: list[Card | None] = []
        for k, shift in enumerate(self.top_shift):
            value = (packed >> shift) & self.top_mask[k]
            tops.append(None if value == 0 else self.class_card[value - 1])
        for i, h in enumerate(heights):
            if not self.pending[i]:
                continue
            cards = self.pile_cards[i]
            for j in range(h):
                card = cards[j]
                before = outside & ~self.below[i][j + 1]  # only the cards above it leave the pile first
                for k, target in enumerate(self.targets):
                    top = tops[k]
                    if top is None:
                        if on_empty[target] & bit[card] or on_top[target][card] & before:
                            break
                    elif on_top[target][card] & (before | bit[top]):
                        break
                else:
                    return True
        return False

    # ------------------------------------------------------------ the search

    def search(
        self, budget: int, deadline: float | None, prune: bool = True, restarts: bool = True
    ) -> tuple[str, list[Move], int]:
        """("won", engine moves, nodes) / ("lost", [], nodes) / ("unknown", [], nodes).

        A won deal's search time is heavy-tailed in the order piles of one height are tried
        (a Black Hole deal took 1.4 million positions in one order): so the search runs with
        :data:`FIRST_RUN` positions, then restarts with twice as many and another tie-break
        order, until what is left of the budget is one run. The positions a run searched to
        the end (every child lost or dead) are kept as lost for the runs after it, so a
        restart does not search them again. Every run is a complete search within its limit,
        so a run that ends without reaching it answers for the deal ("lost" included);
        ``nodes`` counts the positions of every run. ``prune=False`` skips the dead-end tests
        (for checking that they are sound); ``restarts=False`` runs one search.
        """
        budget = min(budget, MAX_POSITIONS)
        used, limit, run = 0, FIRST_RUN, 0
        lost: set[int] = set()
        while True:
            left = budget - used
            last = not restarts or limit >= left
            result, line, nodes = self._run(left if last else limit, deadline, prune, run, lost)
            used += nodes
            if result != "unknown" or last or (deadline is not None and time.monotonic() > deadline):
                return result, line, used
            limit *= 2
            run += 1

    def _run(
        self, budget: int, deadline: float | None, prune: bool, run: int, lost: set[int]
    ) -> tuple[str, list[Move], int]:
        """One depth-first search: run 0 breaks ties between piles of one height by pile, later runs at random.

        ``lost`` holds positions proven lost (by earlier runs too); a position joins it when it
        is left with every child lost or dead, none skipped for having been seen unfinished.
        """
        order = list(range(len(self.piles)))
        if run:
            random.Random(run).shuffle(order)
        self._tie_break = order
        root = self.pack(self.state)
        if not root & self.win_zero:
            return "won", [], 1
        seen = {root}
        path: list[tuple[int, int]] = []
        children, complete = self._children(root, seen, lost, budget, deadline)
        stack = [children]
        frames = [root]
        whole = [complete]
        try:
            while stack:
                options = stack[-1]
                if isinstance(options, tuple):  # a won child
                    return "won", self._engine_line([*path, options]), len(seen)
                if not options:
                    stack.pop()
                    node = frames.pop()
                    if whole.pop():
                        lost.add(node)
                    elif whole:
                        whole[-1] = False
                    if path:
                        path.pop()
                    continue
                _, packed, move = options.pop()
                if prune and self.dead(packed):
                    lost.add(packed)
                    continue
                path.append(move)
                children, complete = self._children(packed, seen, lost, budget, deadline)
                stack.append(children)
                frames.append(packed)
                whole.append(complete)
        except _Budget:
            return "unknown", [], len(seen)
        return "lost", [], len(seen)

    def _expand(self, packed: int) -> list[tuple[int, int, tuple[int, int]]]:
        """Every legal move as (height of the source pile, child, step), in the engine's order.

        A step is (pile index, sink index) for a play, (-1 - stock index, sink index) for a draw,
        (pile index, -1 - cell index) for a card put in a cell and (:data:`CELL_STEP` + cell
        index, sink index) for a cell's card played; a cell's card counts as height
        :data:`CELL_STEP` (tried first), a card put in a cell as -1 (tried last).
        """
        expanded: list[tuple[int, int, tuple[int, int]]] = []
        tops = [(packed >> s) & m for s, m in zip(self.top_shift, self.top_mask, strict=True)]
        for i, (s, m) in enumerate(zip(self.pile_shift, self.pile_mask, strict=True)):
            h = (packed >> s) & m
            if not h:
                continue
            self._onto_sinks(self.pile_cards[i][h - 1], packed - (1 << s), tops, h, i, expanded)
        for j, (s, m) in enumerate(zip(self.stock_shift, self.stock_mask, strict=True)):
            left = (packed >> s) & m
            if not left:
                continue
            rest = max(0, left - self.draw_count[j])
            k = self.draw_to[j]
            shift = self.top_shift[k]
            child = packed - ((left - rest) << s)
            child = (child & ~(self.top_mask[k] << shift)) | ((self.top_class[self.stock_cards[j][rest]] + 1) << shift)
            expanded.append((0, child, (-1 - j, k)))
        if self.cells:
            self._expand_cells(packed, tops, expanded)
        return expanded

    def _onto_sinks(
        self, card: Card, lifted: int, tops: list[int], order: int, origin: int,
        expanded: list[tuple[int, int, tuple[int, int]]],
    ) -> None:
        """Add to ``expanded`` the moves of ``card`` onto each sink that takes it: ``lifted`` is the
        packed position with the card already taken from ``origin``, ``order`` the child's sort key."""
        bit, on_top, on_empty = self.shape.bit, self.shape.on_top, self.shape.on_empty
        for k, target in enumerate(self.targets):
            top = tops[k]
            if top:
                if not on_top[target][card] & bit[self.class_card[top - 1]]:
                    continue
            elif not on_empty[target] & bit[card]:
                continue
            shift = self.top_shift[k]
            child = (lifted & ~(self.top_mask[k] << shift)) | ((self.top_class[card] + 1) << shift)
            expanded.append((order, child, (origin, k)))

    def _expand_cells(self, packed: int, tops: list[int], expanded: list[tuple[int, int, tuple[int, int]]]) -> None:
        """Add the moves into and out of cells to ``expanded`` (:meth:`_expand`)."""
        cards = self.shape.cards
        for c, (s, m) in enumerate(zip(self.cell_shift, self.cell_mask, strict=True)):
            value = (packed >> s) & m
            if not value:
                for i, (ps, pm) in enumerate(zip(self.pile_shift, self.pile_mask, strict=True)):
                    h = (packed >> ps) & pm
                    if h:
                        card = self.pile_cards[i][h - 1]
                        expanded.append((-1, packed - (1 << ps) + (self.cell_value[card] << s), (i, -1 - c)))
                continue
            self._onto_sinks(cards[value - 1], packed & ~(m << s), tops, CELL_STEP, CELL_STEP + c, expanded)

    def _children(
        self, packed: int, seen: set[int], lost: set[int], budget: int, deadline: float | None
    ) -> tuple[list[tuple[int, int, tuple[int, int]]] | tuple[int, int], bool]:
        """(the children not seen before, the best last (popped first), or a won child's step alone;
        whether no child was skipped unfinished: seen in this run but not known lost).

        A child is tested for a dead end only when it is popped: most children of a won
        search never are.
        """
        fresh = []
        complete = True
        for entry in self._expand(packed):
            child = entry[1]
            if child in lost:
                continue
            if child in seen:
                complete = False
                continue
            self._admit(child, seen, budget, deadline)
            if not child & self.win_zero:
                return entry[2], complete
            fresh.append(entry)
        # Play from the fullest pile first (piles left tall are what strands cards in Black Hole),
        # draws last; between piles of one height, the run's tie-break (in the first, the later pile first).
        tie = self._tie_break
        fresh.sort(key=lambda entry: (entry[0], tie[entry[2][0]] if 0 <= entry[2][0] < CELL_STEP else -1))
        return fresh, complete

    def _admit(self, child: int, seen: set[int], budget: int, deadline: float | None) -> bool:
        """Record ``child``; False when it was seen before. Raises :class:`_Budget` past the limits."""
        if child in seen:
            return False
        seen.add(child)
        size = len(seen)
        if size > budget:
            raise _Budget
        if deadline is not None and size % CLOCK_EVERY == 0 and time.monotonic() > deadline:
            raise _Budget
        return True

    def _engine_move(self, step: tuple[int, int]) -> Move:
        """The engine's move for a step of :meth:`_expand`."""
        source, k = step
        names = self.state.game.names
        if source >= CELL_STEP:
            return Drag(names[self.cells[source - CELL_STEP]], 1, names[self.targets[k]])
        if source >= 0:
            return Drag(names[self.piles[source]], 1, names[self.targets[k] if k >= 0 else self.cells[-1 - k]])
        return Tap(names[self.stocks[-1 - source]])

    def _engine_line(self, steps: Sequence[tuple[int, int]]) -> list[Move]:
        """The engine moves of a winning line, checked by replaying them (a mismatch raises)."""
        moves = [self._engine_move(step) for step in steps]
        replay = self.state.clone()
        for move in moves:
            replay.apply(move)
        if not replay.outcome().won:
            raise IllegalMoveError("the compact search's line does not win in the engine")
        return moves


def _prefix_masks(cards: Sequence[Card], bit: Mapping[Card, int]) -> list[int]:
    """``masks[h]``: the cards ``cards[:h]`` as a bit mask, for every height ``h``."""
    masks, mask = [0], 0
    for card in cards:
        mask |= bit[card]
        masks.append(mask)
    return masks


class _Budget(Exception):
    """The position budget or the deadline ran out."""


def _matching_exists(need: list[int], supply: list[int], feeders: list[list[int]], fed: list[list[int]]) -> bool:
    """Whether every needed card gets its own supplying card (a b-matching, by class).

    ``need[n]`` cards of need class ``n`` each want one card of a class in ``feeders[n]``;
    ``supply[k]`` cards of class ``k`` can each serve one (``fed[k]``: the need classes
    class ``k`` can serve). Greedy first, then one augmenting path per card left over:
    the classes are few (13 in Golf), so this is cheap.
    """
    classes = len(supply)
    left = supply[:]
    served = [0] * (len(need) * classes)  # served[n * classes + k]: cards of n served by class k
    short: list[int] = []
    for n, wanted in enumerate(need):
        for k in feeders[n]:
            if not wanted:
                break
            have = left[k]
            if have:
                take = have if have < wanted else wanted
                left[k] = have - take
                wanted -= take
                served[n * classes + k] += take
        if wanted:
            short += [n] * wanted
    for start in short:
        # Breadth-first search for a path start -> class -> need class -> ... -> a class with cards left.
        reached_from = [-1] * classes  # supply class -> the need class that reached it
        through = [-2] * len(need)  # need class -> the supply class it was reached through
        through[start] = -1
        frontier = [start]
        found = -1
        while frontier and found < 0:
            following: list[int] = []
            for n in frontier:
                for k in feeders[n]:
                    if reached_from[k] >= 0:
                        continue
                    reached_from[k] = n
                    if left[k]:
                        found = k
                        break
                    for m in fed[k]:
                        if through[m] == -2 and served[m * classes + k]:
                            through[m] = k
                            following.append(m)
                if found >= 0:
                    break
            frontier = following
        if found < 0:
            return False
        left[found] -= 1
        k = found
        while True:
            n = reached_from[k]
            served[n * classes + k] += 1
            previous = through[n]
            if previous < 0:
                break
            served[n * classes + previous] -= 1
            k = previous
    return True


def compact_solve(state: Any, budget: int, deadline: float | None) -> tuple[str, list[Any], int] | None:
    """Solve ``state`` with the compact search, or None when the design does not fit it.

    At most :data:`MAX_POSITIONS` positions are searched, whatever ``budget`` says.
    """
    search = CompactSearch.of(state)
    if search is None:
        return None
    return search.search(budget, deadline)
