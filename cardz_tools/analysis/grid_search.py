"""The solver's compact search for grid games: cards move one at a time into the gaps of a grid.

Gaps, Montana and their variants have this shape, recognised here from the compiled
:class:`~cardz_tools.engine.Game` alone (no game, family or depot is named):

* one deck, no jokers, no stock, no triggers, no loss condition but having no move; the *grid*
  is a group of depots with one spec filling a rectangle of at least two rows (``col``/``row``
  in the group), each holding at most one face-up card; every other depot is locked and takes
  nothing, so its cards never move;
* a grid cell lets its one card go (``topOnly``) and takes a single card; its accept rule reads
  only the card, ``empty``/``top`` of the cell and of ``left(depot)``, the cell's ``col``/``row``
  and ``col(source)``. It is then a table, probed once per game on every cell, left neighbour,
  card and source column: which cards a gap takes after which left neighbour, from which columns.
  A filled cell must take nothing (probed), so cells never hold two cards;
* actions (a redeal) are allowed when each has a use limit: they are played by the engine itself
  on the search's position (:class:`~cardz_tools.engine.State` ``apply``), so a shuffle comes out
  exactly as the engine deals it from the deal's seed (the solver is thoughtful: it knows every
  card, the reshuffles' too). Their bookkeeping (uses, reshuffles) is part of the key.

A position is the grid's cells packed in a ``bytes`` (a card's identity, 0 for a gap); the win is
the engine's own test on the position. Sound reductions, each with its proof in the doc of the
function that applies it:

* **symmetry** (:meth:`GridSearch.key`): when the table does not change under swapping two rows,
  or two suits, and the win reads neither rows, indexes, suits nor colours, positions that differ
  by such a swap are one (the key sorts the rows and renames the suits in order of first
  appearance); only once no action is left, since a reshuffle deals in reading order; and only while
  it merges any position (:class:`Seen`: on trial for :data:`SYMMETRY_TRIAL` positions);
* **fixed cards** (:meth:`GridSearch.fixed`): a card that no gap it could ever enter is open to
  (the table's predecessors of the card) never moves again;
* **the next card of a run** (:meth:`GridSearch.forced`): a gap after a fixed card that only one
  card can ever fill, that card able to go nowhere else, is filled at once when doing so gives up
  nothing (the card leaves no gap that only it could open), as one forced chain;
* **dead gaps** (:meth:`GridSearch.forced`): a gap after a fixed card that no card can ever fill,
  where the win needs a card, proves the position lost.

A quick pass first runs the search with a *streamliner*: the next card of a run is always played
at once, even where that may give something up. A win it finds is a win (replayed through the
engine like every line); only the complete search, which has no streamliner, answers "lost".
"""

from __future__ import annotations

import dataclasses
import heapq
import itertools
import time
import weakref
from collections.abc import Generator, Sequence
from typing import Any

from ..cards import COLOR_NAMES, FACE_UP, RANK_NAMES, SUIT_NAMES, Card, identity, standard_deck
from ..engine import Drag, IllegalMoveError, Move, State
from ..expr import ast
from ..expr.parser import parse
from ..model import EjectKind

MAX_POSITIONS = 6_000_000
"""The most positions one search holds (a key of one byte per cell each)."""

RECENT_POSITIONS = 1 << 16
"""The most unkeyed positions :class:`Seen` remembers (then it forgets them all)."""

SYMMETRY_TRIAL = 20_000
"""Positions a search keys up to symmetry on trial (:class:`Seen`): if the symmetric key merged none of them
with another, the search keys positions as they lie from then on."""

CLOCK_EVERY = 4096
"""Positions between two reads of the clock."""

COMPLETE_TURNS = 3
"""Turns of the complete search for each turn of the quick pass (proofs of loss need the most positions)..."""

QUICK_EARLY = 160_000
"""... until the quick pass has searched this many positions; then :data:`LATE_COMPLETE_TURNS` each: the
quick pass wins most of its deals within about 130,000 positions, and the deals still open after that are
mostly proofs of loss, which only the complete search gives."""

LATE_COMPLETE_TURNS = 24
"""Every deal decided after :data:`QUICK_EARLY` that was measured is decided by the complete search alone (Gaps
seed 0 deals 6 and 7 lost, the basic variant's deal 1 lost and deal 5 won in 1.62M positions, seed 101 deal 1
lost), and a position of the quick pass costs about twice one of the complete search: one turn in 25 (12 until
session 6)."""

NEVER = 0xFF
"""In :attr:`GridShape.pred_code`: the card never enters a gap from that column."""

_ACCEPT_NAMES = {
    "empty", "depot", "col", "row", "card", "source", "left", "top", "rank", "suit", "value", "color",
    "true", "false", *RANK_NAMES, *SUIT_NAMES, *COLOR_NAMES,
}
_WIN_ASYMMETRIC = {"row", "index", "color", *SUIT_NAMES, *COLOR_NAMES}
"""Names with which a win rule could tell rows or suits apart."""


class LeftTheModel(Exception):
    """An action's outcome is not a grid position the search models (the search answers "unknown")."""


def _is_depot(node: ast.Node) -> bool:
    return isinstance(node, ast.Name) and node.name == "depot"


def _is_left_of_depot(node: ast.Node) -> bool:
    return isinstance(node, ast.Call) and node.func == "left" and len(node.args) == 1 and _is_depot(node.args[0])


def _accept_reads_the_model(text: str) -> bool:
    """Whether an accept rule reads only what the table probes (the module doc)."""
    tree = parse(text)
    if not ast.names(tree) <= _ACCEPT_NAMES:
        return False
    for part in ast.walk(tree):
        if not isinstance(part, ast.Call):
            continue
        args = part.args
        if part.func == "left" and not (len(args) == 1 and _is_depot(args[0])):
            return False
        on_a_cell = len(args) == 1 and (_is_depot(args[0]) or _is_left_of_depot(args[0]))
        if part.func in ("top", "empty") and not on_a_cell:
            return False
        if part.func == "row" and not (len(args) == 1 and _is_depot(args[0])):
            return False
    return _source_only_in_col(tree) and _depot_only_in_calls(tree)


_DEPOT_READERS = frozenset({"top", "empty", "col", "row", "left"})


def _depot_only_in_calls(node: ast.Node) -> bool:
    """Whether ``depot`` appears only as the argument of ``top``/``empty``/``col``/``row``/``left``.

    The rule then tells cells apart by their column and row alone (and the piles it reads).
    """
    if isinstance(node, ast.Call) and node.func in _DEPOT_READERS and len(node.args) == 1 and _is_depot(node.args[0]):
        return True
    if _is_depot(node):
        return False
    for name in getattr(node, "fields", ()):
        value = getattr(node, name)
        children = value if isinstance(value, tuple) else (value,)
        for child in children:
            if isinstance(child, ast.Node) and not _depot_only_in_calls(child):
                return False
    return True


def _source_only_in_col(node: ast.Node) -> bool:
    """Whether ``source`` appears only as ``col(source)``."""
    if isinstance(node, ast.Call) and node.func == "col" and len(node.args) == 1:
        arg = node.args[0]
        if isinstance(arg, ast.Name) and arg.name == "source":
            return True
    if isinstance(node, ast.Name) and node.name == "source":
        return False
    for name in getattr(node, "fields", ()):
        value = getattr(node, name)
        children = value if isinstance(value, tuple) else (value,)
        for child in children:
            if isinstance(child, ast.Node) and not _source_only_in_col(child):
                return False
    return True


def _col_of_var_equals(node: ast.Node, var: str) -> int | None:
    """N when ``node`` is ``col(var) == N`` (either way round), else None."""
    if not (isinstance(node, ast.Binary) and node.op == "=="):
        return None
    for side, other in ((node.left, node.right), (node.right, node.left)):
        if (
            isinstance(side, ast.Call) and side.func == "col" and len(side.args) == 1
            and isinstance(side.args[0], ast.Name) and side.args[0].name == var and isinstance(other, ast.IntLit)
        ):
            return other.value
    return None


def _filled_to_win(text: str, group: str) -> int | None:
    """The column a won grid may leave empty when the win rule proves every other cell filled, else None.

    Read off the tree, so it is a proof: the rule is a conjunction with a part
    ``all(c in GROUP, col(c) == N || (... && !empty(c) && ...))`` (N is returned) or
    ``all(c in GROUP, ... && !empty(c) && ...)`` (-1: every cell is filled).
    """
    for part in ast.conjuncts(parse(text)):
        if not (isinstance(part, ast.Call) and part.func == "all" and part.var and len(part.args) == 2):
            continue
        over, body = part.args
        if not (isinstance(over, ast.Name) and over.name == group):
            continue
        var = part.var
        spared = -1
        if isinstance(body, ast.Binary) and body.op == "||":
            column = _col_of_var_equals(body.left, var)
            if column is None:
                continue
            spared, body = column, body.right
        for conjunct in ast.conjuncts(body):
            if (
                isinstance(conjunct, ast.Unary) and conjunct.op == "!"
                and isinstance(conjunct.operand, ast.Call) and conjunct.operand.func == "empty"
                and len(conjunct.operand.args) == 1
                and isinstance(conjunct.operand.args[0], ast.Name) and conjunct.operand.args[0].name == var
            ):
                return spared
    return None


@dataclasses.dataclass(frozen=True)
class GridShape:
    """What a grid game's rules allow, read off the compiled design."""

    cells: tuple[int, ...]
    """The grid's depots, row by row from the top, left to right."""
    columns: int
    """Cells a row."""
    fills: tuple[tuple[tuple[tuple[int, int], ...], ...], ...]
    """``fills[cell][left]``: (card, mask of source columns) a gap at ``cell`` takes when its left
    neighbour holds ``left`` (a card's identity; 0 for an empty or absent neighbour)."""
    rows_alike: bool
    """Whether rows may be swapped (the key sorts them, once no action is left)."""
    suits_alike: bool
    """Whether suits may be renamed (the key renames them in order of first appearance, once no action is left)."""
    opens_after_gap: tuple[bool, ...] = ()
    """Per cell: whether a gap there takes a card while the cell to its left is empty."""
    must_fill: tuple[bool, ...] = ()
    """Per cell: whether every won position has a card there (proved from the win rule's tree)."""
    actions: tuple[Any, ...] = ()
    """The design's actions (each with a use limit), played through the engine."""


_SHAPES: weakref.WeakKeyDictionary[Any, GridShape | None] = weakref.WeakKeyDictionary()


def grid_shape(game: Any) -> GridShape | None:
    """The shape of ``game``, or None when the design is not a grid game (see the module doc).

    Probed once per game (the solver asks for every deal).
    """
    if game not in _SHAPES:
        _SHAPES[game] = _probe_shape(game)
    return _SHAPES[game]


def _grid_of(game: Any) -> tuple[tuple[int, ...], int] | None:
    """(the grid's cells row by row, cells a row) of the one group that fills a rectangle, or None."""
    design = game.design
    for name, members in game.members.items():
        if len(members) < 4 or len({id(design.depots[d].spec) for d in members}) != 1:
            continue
        if design.depots[members[0]].spec.name != name:
            continue
        places = {(design.depots[d].grid_row, design.depots[d].grid_col): d for d in members}
        rows = 1 + max(r for r, _ in places)
        columns = 1 + max(c for _, c in places)
        if len(places) != len(members) or rows * columns != len(members) or rows < 2 or columns < 2:
            continue
        return tuple(places[(r, c)] for r in range(rows) for c in range(columns)), columns
    return None


def _probe_shape(game: Any) -> GridShape | None:
    """:func:`grid_shape`, uncached."""
    design = game.design
    if design.decks != 1 or design.jokers or game.draws or game.triggers:
        return None
    if any(action.limit is None for action in game.actions):
        return None
    if game.loss_when is not None or game.win_kind != "when" or design.win.when is None:
        return None
    found = _grid_of(game)
    if found is None:
        return None
    cells, columns = found
    in_grid = set(cells)
    for d in range(len(game.names)):
        if d not in in_grid and (not game.accept_never[d] or game.eject_kind[d] is not EjectKind.LOCKED):
            return None
    if any(action.depot in in_grid for action in game.actions):
        return None
    first = cells[0]
    accept = game.accept_rules[first]
    if accept.never or accept.when is None or not accept.single or accept.follow or accept.wild_rank is not None:
        return None
    if game.eject_kind[first] is not EjectKind.TOP_ONLY or game.accept_when[first] is None:
        return None
    if not _accept_reads_the_model(accept.when.text):
        return None
    fills = _fill_table(game, cells, columns, "row" in ast.names(parse(accept.when.text)))
    if fills is None:
        return None
    win_open = not (ast.names(parse(design.win.when.text)) & _WIN_ASYMMETRIC)
    rows_alike = win_open and _rows_alike(fills, len(cells) // columns, columns)
    suits_alike = win_open and _suits_alike(fills)
    opens_after_gap = tuple(bool(fills[i][0]) and i % columns > 0 for i in range(len(cells)))
    spared = _filled_to_win(design.win.when.text, design.depots[first].spec.name)
    must_fill = tuple(spared is not None and i % columns != spared for i in range(len(cells)))
    return GridShape(
        cells, columns, fills, rows_alike, suits_alike, opens_after_gap, must_fill,
        tuple(game.actions),
    )


def _predecessors(
    fills: Sequence[Sequence[tuple[tuple[int, int], ...]]], columns: int, present: frozenset[int]
) -> tuple[tuple[bytes, ...], bytes]:
    """:attr:`GridSearch.pred_code` and :attr:`GridSearch.only_after` from the table, for the cards ``present``.

    A card's predecessors from a column are the left neighbours after which some gap takes it
    from that column (0 standing for "no card": a first column, or an empty cell); only cards
    ``present`` in the grid count, since the cards of the locked depots never come into it.
    """
    preds: list[list[set[int]]] = [[set() for _ in range(128)] for _ in range(columns)]
    for by_left in fills:
        for left, entries in enumerate(by_left):
            if left and left not in present:
                continue
            for card, mask in entries:
                for column in range(columns):
                    if mask >> column & 1:
                        preds[column][card].add(left)
    codes = []
    for column in range(columns):
        code = bytearray(128)
        for card in range(128):
            found = preds[column][card]
            if not found:
                code[card] = NEVER
            elif len(found) == 1 and 0 not in found:
                code[card] = next(iter(found))
        codes.append(bytes(code))
    only = bytearray(128)
    for card in range(128):
        every = set().union(*(preds[column][card] for column in range(columns)))
        if len(every) == 1 and 0 not in every:
            only[card] = next(iter(every))
    return tuple(codes), bytes(only)


def _first_column_locks(shape: GridShape, present: frozenset[int]) -> tuple[tuple[int, ...] | None, ...] | None:
    """:attr:`GridSearch.lock_dest`: per card, the first-column cells a gap takes it into from the first column,
    when that is the only way it ever moves from there (it follows no card); None for a card that may follow
    a card. None for the whole table when some gap after an empty cell takes a card (a first-column cell is then
    not the only place a card enters with nothing on its left)."""
    if any(shape.opens_after_gap):
        return None
    fills = shape.fills
    dest: list[set[int]] = [set() for _ in range(128)]
    follows = [False] * 128
    for cell, by_left in enumerate(fills):
        for left, entries in enumerate(by_left):
            if left and left not in present:
                continue
            for card, mask in entries:
                if mask & 1:
                    if left:
                        follows[card] = True
                    else:
                        dest[card].add(cell)
    return tuple(None if follows[card] else tuple(sorted(dest[card])) for card in range(128))


def _first_column_pool(shape: GridShape, present: frozenset[int]) -> frozenset[int]:
    """:attr:`GridSearch.pool`: the cards that trade first-column cells freely, or none when the table does not allow
    the pooled reduction (:meth:`GridSearch.pool_steps`).

    It needs: every first-column cell takes the same cards (at least two present), each from the first column; none
    of them ever follows a card; no gap after an empty cell takes a card; and every win fills the first column.
    """
    fills = shape.fills
    first = range(0, len(fills), shape.columns)
    if not all(shape.must_fill[cell] for cell in first):
        return frozenset()
    if any(shape.opens_after_gap):
        return frozenset()
    taken = [{card for card, _ in fills[cell][0] if card in present} for cell in first]
    pool = taken[0]
    if len(pool) < 2 or any(cards != pool for cards in taken):
        return frozenset()
    if any(not mask & 1 for cell in first for card, mask in fills[cell][0] if card in pool):
        return frozenset()
    follow = (
        card for by_left in fills for left, entries in enumerate(by_left) if left in present for card, _ in entries
    )
    if not pool.isdisjoint(follow):
        return frozenset()
    return frozenset(pool)


def _fill_table(
    game: Any, cells: tuple[int, ...], columns: int, reads_row: bool = True
) -> tuple[tuple[tuple[tuple[int, int], ...], ...], ...] | None:
    """:attr:`GridShape.fills`, probed through the compiled accept rule; None if a filled cell takes a card.

    A rule that does not read ``row`` tells cells apart by their column alone
    (:func:`_depot_only_in_calls`), so only the first row is probed then.
    """
    rows = len(cells) // columns
    deck = [c | FACE_UP for c in standard_deck()]
    piles: list[tuple[Card, ...]] = [()] * len(game.names)
    root = State(game, list(piles))
    table: list[tuple[tuple[tuple[int, int], ...], ...]] = []
    for place, target in enumerate(cells):
        row, col = divmod(place, columns)
        if row and not reads_row:
            table.append(table[col])
            continue
        when = game.accept_when[target]
        left = cells[place - 1] if col else -1
        other_row = (row + 1) % rows
        sources = [cells[other_row * columns + c] for c in range(columns)]  # one cell of each column
        by_left: list[tuple[tuple[int, int], ...]] = [()] * 128
        for left_card in [None, *deck]:
            if left < 0 and left_card is not None:
                break
            if left >= 0:
                piles[left] = () if left_card is None else (left_card,)
            entries = []
            for card in deck:
                if card == left_card:
                    continue
                mask = 0
                for c, source in enumerate(sources):
                    piles[source] = (card,)
                    if when(piles, root, card, (card,), source, target):
                        mask |= 1 << c
                    piles[source] = ()
                if mask:
                    entries.append((identity(card), mask))
            by_left[0 if left_card is None else identity(left_card)] = tuple(entries)
        # A filled cell takes nothing (cells hold one card at most).
        filler = deck[0]
        piles[target] = (filler,)
        for left_card in [None, *deck] if left >= 0 else [None]:
            if left >= 0:
                piles[left] = () if left_card is None or left_card == filler else (left_card,)
            for card in deck:
                if card in (filler, left_card):
                    continue
                piles[sources[1]] = (card,)
                if when(piles, root, card, (card,), sources[1], target):
                    return None
                piles[sources[1]] = ()
        piles[target] = ()
        if left >= 0:
            piles[left] = ()
        table.append(tuple(by_left))
    return tuple(table)


def _rows_alike(fills: Sequence[Sequence[Any]], rows: int, columns: int) -> bool:
    """Whether every row's table equals the first row's, column by column."""
    return all(fills[r * columns + c] == fills[c] for r in range(1, rows) for c in range(columns))


def _suit_swap(a: int, b: int) -> list[int]:
    """The identity map of cards with suits ``a`` and ``b`` swapped (0 stays 0)."""
    swap = list(range(128))
    for card in standard_deck():
        code = identity(card)
        suit = code >> 4
        if suit in (a, b):
            swap[code] = (code & 0x0F) | ((b if suit == a else a) << 4)
    return swap


def _suits_alike(fills: Sequence[Sequence[tuple[tuple[int, int], ...]]]) -> bool:
    """Whether the table is unchanged by each swap of two neighbouring suits (they generate every renaming)."""
    for a in range(3):
        swap = _suit_swap(a, a + 1)
        for by_left in fills:
            for left in range(128):
                mapped = sorted((swap[card], mask) for card, mask in by_left[left])
                if mapped != sorted(by_left[swap[left]]):
                    return False
    return True


_NOWHERE = [-1] * 128
"""``where`` of no card in the grid."""


def _gaps(cells: bytearray) -> list[int]:
    """The empty cells, in order."""
    found = []
    gap = cells.find(0)
    while gap >= 0:
        found.append(gap)
        gap = cells.find(0, gap + 1)
    return found


SearchRun = Generator[int, None, "tuple[str, list[Move], int]"]
"""A search that yields its positions so far now and then and returns its answer."""

REDEAL = (-1, -1)
"""The step of :meth:`GridSearch.search` that plays an action (through the engine)."""


@dataclasses.dataclass
class _Era:
    """The engine's bookkeeping between two actions: what the key adds to the cells."""

    mark: int
    """The key's first byte."""
    uses: tuple[int, ...]
    reshuffles: int
    final: bool
    """No action can be played any more (then symmetry and the dominances apply)."""
    prefix: bytes = b""
    """The key's first byte, as bytes."""

    def __post_init__(self) -> None:
        self.prefix = bytes([self.mark])


class Seen:
    """The positions one search has stored, keyed up to symmetry (:meth:`GridSearch.key`) while that merges any.

    The symmetric key costs a third of a search's time, and merges two positions only when both are
    reachable from one deal: in a full Gaps grid that takes moving nearly every card (no merge in 1.3 million
    positions of a proof of loss). So it is on trial for :data:`SYMMETRY_TRIAL` positions: if it merged
    none of them with another, the positions are keyed as they lie from then on. Every key stored maps only
    to positions equal up to symmetry, so a lookup that misses a merge only searches a position again: the
    verdicts stay those of the search (a test keeps the trial tiny on small grids).
    """

    def __init__(self, search: GridSearch) -> None:
        self.search = search
        self.keys: set[bytes] = set()
        self.recent: set[bytes] = set()
        """Positions as they lie whose symmetric key is stored: most repeats meet a position exactly (two
        moves played in either order), and this test is cheaper than the key. Never forgotten during the trial,
        so a symmetric key found stored whose position is not here was a merge."""
        self.symmetric = search.shape.rows_alike or search.shape.suits_alike
        self.on_trial = self.symmetric
        self.merges = 0
        """Positions found stored only up to symmetry (counted while on trial)."""
        self.doubled = 0
        """Positions stored twice (as they lie and by their symmetric key) when the trial ended."""

    def __len__(self) -> int:
        return len(self.keys) - self.doubled

    def add_new(self, cells: bytearray) -> bool:
        """Store the position ``cells`` (of the search's era); False when it, or one equal up to symmetry, was."""
        era = self.search.era
        if self.search.pooling and era.final:
            cells = self.search.pooled(cells)
        raw = era.prefix + cells
        if not (self.symmetric and era.final):
            if raw in self.keys:
                return False
            self.keys.add(raw)
            return True
        recent = self.recent
        if raw in recent:
            return False
        key = self.search.key(cells)
        if key in self.keys:
            self.merges += 1
            return False
        self.keys.add(key)
        if len(recent) >= RECENT_POSITIONS:
            recent.clear()
        recent.add(raw)
        if self.on_trial and len(recent) >= SYMMETRY_TRIAL:
            self._end_trial()
        return True

    def _end_trial(self) -> None:
        """Keep the symmetric key if it merged a position; else key positions as they lie from now on.

        The positions stored so far are then stored as they lie too (all are in :attr:`recent`), so that
        none of them is searched again.
        """
        self.on_trial = False
        if self.merges:
            return
        self.symmetric = False
        before = len(self.keys)
        self.keys |= self.recent
        self.doubled = len(self.keys) - before
        self.recent = set()


assert SYMMETRY_TRIAL < RECENT_POSITIONS  # the trial's positions are all remembered as they lie


class GridSearch:
    """The compact search of one deal of a grid game (build it with :meth:`of`)."""

    def __init__(self, state: Any, shape: GridShape) -> None:
        self.state = state
        self.shape = shape
        self.names = state.game.names
        columns = shape.columns
        size = len(shape.cells)
        self.last = columns - 1
        self.left = [i - 1 if i % columns else -1 for i in range(size)]
        self.column = [i % columns for i in range(size)]
        self.placeable = [[frozenset(card for card, _ in by_left) for by_left in cell] for cell in shape.fills]
        """``placeable[cell][left]``: the cards a gap at ``cell`` takes after ``left``, from any column."""
        self.mask_of = [[dict(by_left) for by_left in cell] for cell in shape.fills]
        """``mask_of[cell][left][card]``: the columns a gap at ``cell`` takes ``card`` from after ``left``."""
        codes = sorted(identity(state.piles[d][0]) for d in shape.cells if state.piles[d])
        self.markers = {code >> 4: bytes([code]) for code in reversed(codes)}
        """Each suit's lowest card in the grid (cards never leave it): where it lies orders the suits."""
        self.suits = tuple(sorted(self.markers))
        self.marker_items = tuple(sorted(self.markers.items()))
        self.rows = tuple((start, start + columns) for start in range(0, size, columns))
        """Each row's slice of the cells."""
        self.renames: dict[tuple[int, ...], bytes] = {}
        """Suit renamings of :meth:`key`, by the order in which the suits first appear."""
        self.eras: list[_Era] = []
        self.era_of: dict[tuple[tuple[int, ...], int], _Era] = {}
        self.era = self._era_for(tuple(state.uses), state.reshuffles)
        self.probe = state.clone()
        """An engine state whose piles the search keeps equal to its position (actions are tested on it)."""
        present = frozenset(self._grid_cards())
        self.pred_code, self.only_after = _predecessors(shape.fills, columns, present)
        """``pred_code[column][card]``: :data:`NEVER` when the card enters no gap from that column, the one
        card it may follow when there is exactly one (and never a gap after an empty cell), else 0;
        ``only_after[card]``: the one card it may ever follow, from any column, else 0."""
        self.lock_dest = _first_column_locks(shape, present)
        """Per card, the first-column cells it may enter from the first column, when it follows no card there
        (:meth:`locked`); None for a card that may follow one. None when no first-column lock applies."""
        self.locks = self.lock_dest is not None and any(
            self.pred_code[0][card] != NEVER and self.lock_dest[card] for card in present
        )
        """Whether some card of the first column moves only between first-column cells (:meth:`locked` then
        finds which of them never move again; else a first-column card is fixed only when it never moves)."""
        self.first_column = tuple(range(0, size, columns))
        pool = _first_column_pool(shape, present)
        self.pool = bytes(card in pool for card in range(128))
        """Per card: whether it is one of the cards that trade first-column cells freely (:meth:`pool_steps`)."""
        self.pooling = False
        """Whether the search merges positions that differ only in how the pool's cards lie in the first column
        (the complete search, once no action is left: :meth:`pool_steps`)."""
        self.looser = False
        """Whether the quick pass's streamliner keeps only a first-column card with a follower beside it
        (:meth:`locked`; :func:`grid_solve` runs it once the first quick pass has searched all it allows, where
        first-column cards trade places: :attr:`pool`)."""
        self.newest_first = False
        """Whether :meth:`best_first` takes the newest of equally promising positions first (else the oldest): the
        looser pass does (Gaps seed 0 deal 17 won in 1,847,189 positions of its own, 4,139,919 oldest first; deal
        12 in 9,389 against 56,217), the first does not (its newest first won 4 of the 11 deals it wins within 1M
        positions sooner, and deal 4 not at all)."""
        self.exhausted = False
        """Whether :meth:`best_first` searched every position its streamliner allows (without a win)."""
        self.hopeful = False
        """Whether the search is a streamlined quick pass (then every first-column card that moves only between
        first-column cells stays where it is: :meth:`locked`)."""
        self.fixed_anywhere = any(code[card] == NEVER for code in self.pred_code[1:] for card in present)
        """Whether a card may be fixed outside a run from a row's left edge (else :meth:`fixed` stops early)."""
        self.can_win = any(shape.must_fill)
        """Whether the win rule proves cells filled (then the win is tested only when every gap is spared)."""
        self.plain = False
        """Whether :meth:`search` plays no forced move (set by its argument)."""
        self.missing = 0
        """How many cells every win fills are gaps now (the win is not tested while some are)."""
        self.forced_tables = (
            self.left, self.column, self.last, shape.must_fill, shape.opens_after_gap, self.only_after,
            self.placeable, self.mask_of,
        )
        """What :meth:`forced` reads, in one attribute (it runs once or more a position)."""

    def _grid_cards(self) -> list[int]:
        """The identities of the cards in the grid at the start."""
        return [identity(self.state.piles[d][0]) for d in self.shape.cells if self.state.piles[d]]

    @classmethod
    def of(cls, state: Any) -> GridSearch | None:
        """The search for ``state``, or None when its design or position does not fit the model."""
        shape = grid_shape(state.game)
        if shape is None or state.cascade or state.is_terminal():
            return None
        for d in shape.cells:
            pile = state.piles[d]
            if len(pile) > 1 or any(not card & FACE_UP for card in pile):
                return None
        return cls(state, shape)

    def _era_for(self, uses: tuple[int, ...], reshuffles: int) -> _Era:
        era = self.era_of.get((uses, reshuffles))
        if era is None:
            if len(self.eras) >= 255:
                raise LeftTheModel("too many action outcomes for the key")
            actions = self.shape.actions
            final = all(uses[a.slot] >= a.limit for a in actions)
            era = _Era(len(self.eras), uses, reshuffles, final)
            self.eras.append(era)
            self.era_of[(uses, reshuffles)] = era
        return era

    def pack(self, piles: Sequence[tuple[Card, ...]]) -> bytearray:
        """The grid's cells of ``piles``: a card's identity each, 0 for a gap."""
        return bytearray(identity(piles[d][0]) if piles[d] else 0 for d in self.shape.cells)

    def key(self, cells: bytearray) -> bytes:
        """The transposition key: rows sorted and suits renamed when the rules allow (module doc).

        Before the last action, the era (the actions' bookkeeping) leads the key and nothing is
        merged: a reshuffle gathers the cards in reading order, so swapped rows deal differently.
        """
        shape = self.shape
        era = self.era
        if not era.final:
            return era.prefix + cells
        if shape.rows_alike:
            rows = [cells[start:end] for start, end in self.rows]
            rows.sort()
            cells = bytearray().join(rows)
        if shape.suits_alike:
            # Any renaming maps a position to one of its own class, so any rule of choosing one is sound.
            found = cells.find
            order = tuple(suit for _, suit in sorted([(found(marker), suit) for suit, marker in self.marker_items]))
            rename = self.renames.get(order)
            if rename is None:
                rename = self.renames[order] = bytes(
                    (code & 0x0F) | (order.index(code >> 4) << 4) if code and (code >> 4) in order else code
                    for code in range(256)
                )
            cells = cells.translate(rename)
        return era.prefix + cells

    def locked(self, cells: bytearray) -> set[int]:
        """The first-column cells whose cards never move again though a gap there would take them.

        Such a card follows no card (:attr:`lock_dest`): it moves only into a first-column gap that takes it.
        The cells returned are the largest set ``L`` of filled first-column cells whose every card may enter
        only cells of ``L`` (besides its own). No cell of ``L`` ever becomes a gap: the first to do so would
        have to lose its card into a gap of ``L``, which had become a gap before it. (Gaps: any Two may move
        into a leftmost gap; once every leftmost cell holds a Two, none of them moves again.)

        In a quick pass (:attr:`hopeful`) every such card counts as locked, and :meth:`steps` does not move it: a
        streamliner (its wins are wins; it never answers "lost"). Of three streamliners measured at 400,000
        positions on Gaps seed 0 (every such card stays; only one with its follower on its right; none) each
        won 8 or 9 of 20 deals; this one is the simplest and wins the most at the fewest positions.
        """
        lock_dest = self.lock_dest
        if not self.locks or lock_dest is None:
            return set()
        if self.hopeful:  # the streamliner: such a card stays (a Two at the left edge stays there)
            if self.looser:  # only with a card that may follow it beside it (a Two with its Three)
                placeable = self.placeable
                return {
                    i for i in self.first_column
                    if cells[i] and lock_dest[cells[i]] is not None and cells[i + 1] in placeable[i + 1][cells[i]]
                }
            return {i for i in self.first_column if cells[i] and lock_dest[cells[i]] is not None}
        found: dict[int, tuple[int, ...]] = {}
        for i in self.first_column:
            code = cells[i]
            dest = lock_dest[code] if code else None
            if dest is not None:
                found[i] = dest
        changed = True
        while changed:
            changed = False
            for i, dest in list(found.items()):
                if any(g != i and g not in found for g in dest):
                    del found[i]
                    changed = True
        return set(found)

    def pooled(self, cells: bytearray) -> bytearray:
        """``cells`` with the pool's cards of the first column sorted into the first-column cells that hold a pool
        card or a gap, gaps last, when one of them is a gap (else ``cells`` itself): one position of each class of
        :meth:`pool_steps`."""
        first, pool = self.first_column, self.pool
        if all(cells[i] for i in first):
            return cells
        spots = [i for i in first if not cells[i] or pool[cells[i]]]
        cards = sorted(cards for cards in (cells[i] for i in spots) if cards)
        if len(cards) == len(spots) or [cells[i] for i in spots] == cards + [0] * (len(spots) - len(cards)):
            return cells
        merged = bytearray(cells)
        for place, spot in enumerate(spots):
            merged[spot] = cards[place] if place < len(cards) else 0
        return merged

    def pool_steps(
        self, cells: bytearray, where: list[int], steps: list[tuple[int, int]], fixed: list[bool]
    ) -> list[Any]:
        """The moves of :meth:`steps` for a search that merges positions by :meth:`pooled`: a move of each class.

        The *spots* are the first-column cells holding a pool card (:attr:`pool`) or a gap. While one is a gap,
        positions that differ only in how the pool's cards lie in the spots are one class: each reaches the others
        by moving pool cards between spots (any spot takes any pool card from the first column) and nothing
        else, so they are won or lost together. The key (:meth:`pooled`) stores one position of a class, so the
        moves tried from it must be those of every position of the class (up to one class each):

        * a pool card moving between spots stays in the class: not tried;
        * a card entering a spot from elsewhere: one gap is enough while two are gaps; into the last gap, the
          pool's cards may then lie in any order: each order is tried (arranged by moves between spots first);
        * the card after a pool card in a second-column gap: after each pool card of the spots (moved next to
          the gap first);
        * every other move reads no spot (no gap after an empty cell takes a card) and is the same from every
          position of the class.

        Sound: a winning line from any position of the class is, up to moves inside classes, a line of these
        moves; forced moves and dead gaps are proved of the position itself. A step of several moves is a
        tuple of moves (the search plays them in turn).
        """
        first, pool, column = self.first_column, self.pool, self.column
        spots = [i for i in first if not cells[i] or pool[cells[i]]]
        holes = [i for i in spots if not cells[i]]
        if not holes:
            return steps
        kept: list[Any] = []
        arranged: list[Any] = []
        for source, gap in steps:
            if column[gap]:
                kept.append((source, gap))
            elif column[source] == 0:
                continue  # between two spots
            elif len(holes) > 1:
                if gap == holes[0]:
                    kept.append((source, gap))
            else:
                kept.append((source, gap))
                present = [cells[i] for i in spots if cells[i]]
                for order in itertools.permutations([*present, cells[source]]):
                    target = dict(zip(spots, order, strict=True))
                    landing = spots[order.index(cells[source])]
                    if landing == gap and all(cells[i] == target[i] for i in spots if i != gap):
                        continue  # the move itself
                    target[landing] = 0
                    arranged.append((*self._arrangement(cells, spots, target), (source, landing)))
        fills = self.shape.fills
        for spot in spots:
            gap = spot + 1
            if cells[gap] or column[gap] != 1:
                continue
            for card in (cells[i] for i in spots if cells[i] and i != spot):
                for follower, mask in fills[gap][card]:
                    source = where[follower]
                    if source >= 0 and mask >> column[source] & 1 and not fixed[source]:
                        move_in = ((spot, holes[0]),) if cells[spot] else ()
                        arranged.append((*move_in, (where[card], spot), (source, gap)))
        return arranged + kept

    @staticmethod
    def _arrangement(cells: bytearray, spots: Sequence[int], target: dict[int, int]) -> list[tuple[int, int]]:
        """Moves between ``spots`` (one of them a gap) that lay their cards as ``target`` says (0: the gap)."""
        at = {spot: cells[spot] for spot in spots}
        moves: list[tuple[int, int]] = []
        while True:
            hole = next(spot for spot in spots if not at[spot])
            wanted = target[hole]
            if not wanted:
                wanted = next((at[spot] for spot in spots if at[spot] != target[spot]), 0)
                if not wanted:
                    return moves
            source = next(spot for spot in spots if at[spot] == wanted)
            moves.append((source, hole))
            at[hole], at[source] = wanted, 0

    def fixed(self, cells: bytearray) -> list[bool]:
        """Per cell: whether its card can never move again.

        A card moves only into a gap after one of its predecessors (:attr:`pred_code`
        of its column). It is fixed when it has none there, or when its only one is the card on
        its left and that card is fixed: the one gap after that card is then the card's own cell;
        a first-column card is fixed too when it is :meth:`locked`.
        """
        pred_code, columns = self.pred_code, self.shape.columns
        fixed = [False] * len(cells)
        anywhere = self.fixed_anywhere
        locked = self.locked(cells) if self.locks else ()
        for start in range(0, len(cells), columns):
            previous = False
            for i in range(start, start + columns):
                code = cells[i]
                if code:
                    pred = pred_code[i - start][code]
                    previous = pred == NEVER or (previous and pred == cells[i - 1]) or i in locked
                else:
                    previous = False
                if previous:
                    fixed[i] = True
                elif not anywhere:
                    break  # no card is fixed but after a fixed card or in the first column
        return fixed

    def _fixed_after(self, cells: bytearray, parent: list[bool], filled: int) -> list[bool]:
        """:meth:`fixed` of ``cells``, reached by a move into the gap ``filled`` from a position whose
        :meth:`fixed` is ``parent`` (which it may return, unchanged: it is never written to).

        Where no card is fixed but in a run from a row's left edge (:attr:`fixed_anywhere` false), a move
        changes the run of only the row it fills, and only when it fills the cell right after the run
        (the card moved was not fixed, so it left no run); the run then grows over the cards already in
        place after it.
        """
        if self.fixed_anywhere:
            return self.fixed(cells)
        before = self.left[filled]
        if self.locks and (before < 0 or (self.looser and self.hopeful and self.left[before] < 0)):
            # A first-column card may lock others'; in the looser pass a card moving beside one may lock it.
            return self.fixed(cells)
        if before >= 0 and not parent[before]:
            return parent
        fixed = parent.copy()
        pred_code = self.pred_code
        start = filled - self.column[filled]
        end = start + self.shape.columns
        i = filled
        while i < end:
            code = cells[i]
            if not code:
                break
            pred = pred_code[i - start][code]
            if not (pred == NEVER or (i > start and pred == cells[i - 1])):
                break
            fixed[i] = True
            i += 1
        return fixed

    def forced(
        self, cells: bytearray, where: list[int], fixed: list[bool], streamline: bool, gaps: list[int] | None = None
    ) -> tuple[int, int] | None | bool:
        """A move as good as any other here, or False when the position is proven lost, or None.

        For a gap ``g`` after a fixed card ``c`` where every win needs a card (:attr:`GridShape.must_fill`):
        the cards that may ever fill it are fixed (those ``g`` takes after ``c``).

        * If none can arrive (no card, or its one card is fixed elsewhere or may not leave its
          column for ``g``), ``g`` stays a gap and the position is lost.
        * If exactly one card ``x`` can, ``x`` may follow no other card (:attr:`only_after`),
          and moving ``x`` from its cell ``s`` gives nothing up, the move is forced. Proof: any
          winning line from here must move ``x`` into ``g``, its only destination, at some step ``t``.
          Playing it first, every earlier step stays legal (only a card right of ``s`` or of ``g``
          could read ``x`` or the gap on its left, and the conditions below rule those out), and
          after step ``t`` the two lines are in the same position. The conditions: no gap after an
          empty cell takes a card at ``g``'s right, and every card that could follow ``x`` at ``s``'s
          right already lies there or is fixed (so none enters that cell before ``t``).

        With ``streamline`` (the quick pass, which never proves a loss) the second condition is
        dropped: the next card of a run is always played at once.
        """
        left, column, last, must_fill, opens_after_gap, only_after, placeable, mask_of = self.forced_tables
        for gap in _gaps(cells) if gaps is None else gaps:
            if not must_fill[gap]:
                continue
            before = left[gap]
            if before < 0 or not fixed[before]:
                continue
            anchor = cells[before]
            candidates = placeable[gap][anchor]
            if not candidates:
                return False
            if len(candidates) != 1:
                continue
            (card,) = candidates
            source = where[card]
            if source < 0:
                return False  # off the grid, in a depot that never lets a card go
            if only_after[card] != anchor:
                continue
            if fixed[source] or not mask_of[gap][anchor][card] >> column[source] & 1:
                return False
            if column[gap] != last and opens_after_gap[gap + 1]:
                continue
            if not streamline and column[source] != last:
                right = source + 1
                if any(
                    cells[right] != follower and where[follower] >= 0 and not fixed[where[follower]]
                    for follower in placeable[right][card]
                ):
                    continue
            return source, gap
        return None

    def steps(
        self, cells: bytearray, where: list[int], fixed: list[bool] | None = None, gaps: list[int] | None = None
    ) -> list[tuple[int, int]]:
        """Every legal move as (cell moved from, gap), the most promising last (popped first).

        Promising: a move that extends a run of fixed cards, then one that frees the cell after
        a run, and last one whose new gap can take no card. A fixed card has no legal move, but in a
        quick pass (:attr:`hopeful`), whose locked cards stay by choice.
        """
        fills, left, column = self.shape.fills, self.left, self.column
        placeable = self.placeable
        if fixed is None:
            fixed = self.fixed(cells)
        found: list[tuple[int, tuple[int, int]]] = []
        for gap in _gaps(cells) if gaps is None else gaps:
            neighbour = left[gap]
            anchor = cells[neighbour] if neighbour >= 0 else 0
            extends = 4 if neighbour < 0 or fixed[neighbour] else 0
            for card, mask in fills[gap][anchor]:
                source = where[card]
                if source >= 0 and source != gap and mask >> column[source] & 1 and not fixed[source]:
                    before = left[source]
                    score = extends
                    if before < 0 or fixed[before]:
                        score += 2
                    elif not placeable[source][cells[before]]:
                        score -= 1
                    found.append((score, (source, gap)))
        found.sort()
        return [step for _, step in found]

    def search(
        self, budget: int, deadline: float | None, streamline: bool = False, plain: bool = False
    ) -> tuple[str, list[Move], int]:
        """("won", engine moves, nodes) / ("lost", [], nodes) / ("unknown", [], nodes).

        With ``streamline`` (:meth:`forced`) it never answers "lost" (then "unknown"); ``plain``
        plays no forced move and proves no loss early (the reference the tests compare with).
        """
        return _finish(self.depth_first(budget, deadline, streamline, plain))

    def depth_first(
        self, budget: int, deadline: float | None, streamline: bool = False, plain: bool = False
    ) -> SearchRun:
        """:meth:`search` as a generator: it yields its positions so far every :data:`CLOCK_EVERY`
        positions (so searches can take turns) and returns the answer of :meth:`search`."""
        self.plain = plain
        self.hopeful = streamline
        self.pooling = any(self.pool) and not (plain or streamline)
        budget = min(budget, MAX_POSITIONS)
        state = self.state
        self.era = self._era_for(tuple(state.uses), state.reshuffles)
        probe = self.probe = state.clone()
        piles = probe.piles
        cells = self.pack(piles)
        where = _NOWHERE.copy()
        for i, code in enumerate(cells):
            if code:
                where[code] = i
        self._count_missing(cells)
        line: list[Any] = []
        applied, outcome, known = self._settle(cells, where, piles, streamline)
        if outcome == "won":
            return "won", self._engine_line(applied), 1
        seen = self.seen = Seen(self)
        seen.add_new(cells)
        if outcome == "dead":
            return ("unknown" if streamline else "lost"), [], 1
        line.extend(applied)
        stack: list[tuple[list[Any], list[Any], tuple[list[bool], list[int]] | None]] = [
            (self._options(cells, where, piles, known), applied, known)
        ]
        exhausted = "unknown" if streamline else "lost"
        must_fill = self.shape.must_fill
        add_new, keys = seen.add_new, seen.keys
        pooling = self.pooling
        while stack:
            options, applied, parent_known = stack[-1]
            if not options:
                stack.pop()
                self._undo(cells, where, piles, applied)
                del line[len(line) - len(applied):]
                continue
            step = options.pop()
            if step == REDEAL:
                here: list[Any] = [self._play(cells, where, piles, step)]
                if not add_new(cells):
                    self._undo(cells, where, piles, here)
                    continue
                parent_known = None  # an action may change any cell
            elif type(step[0]) is tuple:  # moves of pool_steps
                here = [self._play(cells, where, piles, move) for move in step]
                if not add_new(cells):
                    self._undo(cells, where, piles, here)
                    continue
                parent_known = None
            else:  # the hot path: _move inlined, and taken back at once when the position was seen
                source, gap = step
                code = cells[source]
                cells[gap] = code
                cells[source] = 0
                where[code] = gap
                self.missing += must_fill[source] - must_fill[gap]
                if seen.symmetric or pooling:
                    new = add_new(cells)
                else:  # Seen.add_new without a call
                    raw = self.era.prefix + cells
                    new = raw not in keys
                    if new:
                        keys.add(raw)
                if not new:
                    # seen before, so not won (the search would have ended)
                    cells[source] = code
                    cells[gap] = 0
                    where[code] = source
                    self.missing += must_fill[gap] - must_fill[source]
                    continue
                here = [step]
            chain, outcome, known = self._settle(cells, where, piles, streamline, parent_known, step)
            here += chain
            if outcome == "won":
                return "won", self._engine_line([*line, *here]), len(seen)
            if chain and not add_new(cells):
                self._undo(cells, where, piles, here)
                continue
            if outcome == "dead":
                self._undo(cells, where, piles, here)
                continue
            size = len(seen)
            if size % CLOCK_EVERY == 0:
                if deadline is not None and time.monotonic() > deadline:
                    return "unknown", [], size
                yield size
            if size > budget:
                return "unknown", [], size
            line.extend(here)
            stack.append((self._options(cells, where, piles, known), here, known))
        return exhausted, [], len(seen)

    def best_first(self, budget: int, deadline: float | None) -> SearchRun:
        """The streamlined search, best position first, as a generator like :meth:`depth_first`
        returning ("won", moves, nodes) or ("unknown", [], nodes).

        Best: the most fixed cards, then the fewest gaps no card can fill (:meth:`_promise`). It is
        a quick pass only (it never answers "lost"), and only once no action is left.
        """
        budget = min(budget, MAX_POSITIONS)
        state = self.state
        self.era = self._era_for(tuple(state.uses), state.reshuffles)
        if not self.era.final:
            return "unknown", [], 0
        self.plain = self.pooling = False
        self.hopeful = True
        probe = self.probe = state.clone()
        piles = probe.piles
        cells = self.pack(piles)
        where = _NOWHERE.copy()
        self._place(cells, where, piles)
        applied, outcome, _ = self._settle(cells, where, piles, True)
        if outcome == "won":
            return "won", self._engine_line(applied), 1
        if outcome == "dead":
            return "unknown", [], 1
        seen = self.seen = Seen(self)
        seen.add_new(cells)
        add_new, keys, prefix = seen.add_new, seen.keys, self.era.prefix
        must_fill = self.shape.must_fill
        parents: list[tuple[int, list[Any]]] = [(-1, applied)]
        positions: list[bytes | None] = [bytes(cells)]
        # One int a frontier entry (cheaper to compare than a tuple): the promise, then the index, which breaks
        # ties (the newest or the oldest first); the position is positions[index].
        order = -1 if self.newest_first else 1
        shift = 1 << 32
        frontier = [-self._promise(cells, None) * shift + (0 if order > 0 else shift - 1)]
        heappop, heappush = heapq.heappop, heapq.heappush
        while frontier:
            index = heappop(frontier) % shift
            if order < 0:
                index = shift - 1 - index
            position = positions[index]
            positions[index] = None
            assert position is not None
            cells[:] = position
            fixed_here = self.fixed(cells)
            here_known = (fixed_here, self._place(cells, where, piles))
            fixed_count = sum(fixed_here)
            for step in self.steps(cells, where, *here_known):
                # _play and Seen.add_new inlined (a step of a quick pass is one move)
                source, gap = step
                code = cells[source]
                cells[gap] = code
                cells[source] = 0
                where[code] = gap
                self.missing += must_fill[source] - must_fill[gap]
                if seen.symmetric:
                    new = add_new(cells)
                else:
                    raw = prefix + cells
                    new = raw not in keys
                    if new:
                        keys.add(raw)
                if not new:
                    # seen before, so not won
                    cells[source] = code
                    cells[gap] = 0
                    where[code] = source
                    self.missing += must_fill[gap] - must_fill[source]
                    continue
                here: list[Any] = [step]
                chain, outcome, known = self._settle(cells, where, piles, True, here_known, step)
                here += chain
                if outcome == "won":
                    return "won", self._engine_line(self._line_to(parents, index) + here), len(seen)
                if outcome is None and (not chain or add_new(cells)):
                    parents.append((index, here))
                    positions.append(bytes(cells))
                    if known is None:
                        promise = self._promise(cells, None)
                    else:
                        fixed, gaps = known
                        promise = self._promise(cells, fixed, gaps, fixed_count if fixed is fixed_here else None)
                    child = len(parents) - 1
                    heappush(frontier, -promise * shift + (child if order > 0 else shift - 1 - child))
                    size = len(seen)
                    if size % CLOCK_EVERY == 0:
                        if deadline is not None and time.monotonic() > deadline:
                            return "unknown", [], size
                        yield size
                    if size > budget:
                        return "unknown", [], size
                self._undo(cells, where, piles, here)
        self.exhausted = True
        return "unknown", [], len(seen)

    def _promise(
        self, cells: bytearray, fixed: list[bool] | None, gaps: list[int] | None = None, count: int | None = None
    ) -> int:
        """How close ``cells`` looks to a win: 4 a fixed card, -1 a gap after a card no card may follow (``count``:
        the fixed cards, when known)."""
        left, placeable = self.left, self.placeable
        dead = 0
        for gap in _gaps(cells) if gaps is None else gaps:
            before = left[gap]
            if before >= 0 and not placeable[gap][cells[before]]:
                dead += 1
        if count is None:
            count = sum(self.fixed(cells) if fixed is None else fixed)
        return 4 * count - dead

    @staticmethod
    def _line_to(parents: Sequence[tuple[int, list[Any]]], index: int) -> list[Any]:
        """The steps from the root to node ``index`` of :meth:`best_first`."""
        steps: list[Any] = []
        while index >= 0:
            parent, applied = parents[index]
            steps[:0] = applied
            index = parent
        return steps

    def _place(self, cells: bytearray, where: list[int], piles: list[tuple[Card, ...]]) -> list[int]:
        """Make ``where`` and :attr:`missing` those of ``cells`` (the grid's ``piles`` wait for :meth:`_sync`);
        the gaps, in order."""
        where[:] = _NOWHERE
        must_fill = self.shape.must_fill
        gaps = []
        missing = 0
        for i, code in enumerate(cells):
            if code:
                where[code] = i
            else:
                gaps.append(i)
                missing += must_fill[i]
        self.missing = missing
        return gaps

    def _sync(self, cells: bytearray, piles: list[tuple[Card, ...]]) -> None:
        """Make the grid's ``piles`` those of ``cells`` (moves change only the cells: the engine reads the piles)."""
        grid = self.shape.cells
        for i, code in enumerate(cells):
            piles[grid[i]] = (code | FACE_UP,) if code else ()

    def _won(self, cells: bytearray, piles: list[tuple[Card, ...]]) -> bool:
        """The engine's win test, skipped while a gap lies where every win has a card (:attr:`missing`)."""
        if self.can_win and self.missing:
            return False
        self._sync(cells, piles)
        return bool(self.state.game.won(piles, self.probe))

    def _count_missing(self, cells: bytearray) -> None:
        """Set :attr:`missing` for ``cells`` (:meth:`_move` keeps it up to date)."""
        must_fill = self.shape.must_fill
        self.missing = sum(1 for gap in _gaps(cells) if must_fill[gap])

    def _settle(
        self, cells: bytearray, where: list[int], piles: list[tuple[Card, ...]], streamline: bool,
        parent: tuple[list[bool], list[int]] | None = None, step: tuple[int, int] = REDEAL,
    ) -> tuple[list[Any], str | None, tuple[list[bool], list[int]] | None]:
        """Play the forced moves of :meth:`forced` (none before the last action).

        ``parent``: :meth:`fixed` and the gaps of the position before the move ``step`` that led here
        (then only the filled gap's row is looked at again, :meth:`_fixed_after`, and the gaps are the
        parent's with the one filled replaced by the one left). Returns the steps, "won"/"dead"/None, and
        :meth:`fixed` and the gaps of the position reached when computed.
        """
        applied: list[Any] = []
        if not self.era.final or not self.can_win or self.plain:
            return applied, ("won" if self._won(cells, piles) else None), None
        while True:
            if not self.missing and self._won(cells, piles):  # (:meth:`_won` itself, without a call mostly)
                return applied, "won", None
            if parent is None:
                fixed, gaps = self.fixed(cells), _gaps(cells)
            else:
                source, filled = step
                fixed = self._fixed_after(cells, parent[0], filled)
                gaps = [source if gap == filled else gap for gap in parent[1]]
                gaps.sort()
            forced = self.forced(cells, where, fixed, streamline, gaps)
            if forced is None:
                return applied, None, (fixed, gaps)
            if forced is False:
                return applied, "dead", None
            assert isinstance(forced, tuple)
            self._move(cells, where, piles, *forced)  # (:meth:`_play` of a move)
            applied.append(forced)
            parent, step = (fixed, gaps), forced

    def _options(
        self, cells: bytearray, where: list[int], piles: list[tuple[Card, ...]],
        known: tuple[list[bool], list[int]] | None = None,
    ) -> list[tuple[int, int]]:
        """The moves to try here, the first tried last; an action is tried after every move.

        ``known``: :meth:`fixed` and the gaps here, when :meth:`_settle` found them.
        """
        options: list[Any] = self.steps(cells, where) if known is None else self.steps(cells, where, *known)
        if self.pooling and self.era.final:
            options = self.pool_steps(cells, where, options, self.fixed(cells) if known is None else known[0])
        if not self.era.final and self._action_open(cells, piles):
            options.insert(0, REDEAL)
        return options

    def _action_open(self, cells: bytearray, piles: list[tuple[Card, ...]]) -> bool:
        self._sync(cells, piles)
        probe = self.probe
        probe.uses = list(self.era.uses)
        probe._legal = None
        probe._status = None
        return any(probe.tap_refusal(action) is None for action in self.shape.actions)

    def _play(self, cells: bytearray, where: list[int], piles: list[tuple[Card, ...]], step: tuple[int, int]) -> Any:
        """Play ``step``; what :meth:`_undo` needs to take it back (the step, or the action's snapshot)."""
        if step != REDEAL:
            self._move(cells, where, piles, *step)
            return step
        self._sync(cells, piles)
        before = (bytes(cells), list(piles), self.era)
        engine = self.probe.clone()
        engine.piles = list(piles)
        engine.uses = list(self.era.uses)
        engine.reshuffles = self.era.reshuffles
        engine._legal = None
        engine._status = None
        action = next(a for a in self.shape.actions if engine.tap_refusal(a) is None)
        engine.apply(action.move)
        grid = set(self.shape.cells)
        for d, pile in enumerate(engine.piles):
            if d in grid:
                if len(pile) > 1 or any(not card & FACE_UP for card in pile):
                    raise LeftTheModel("an action left a cell with two cards or a face-down card")
            elif pile != piles[d]:
                raise LeftTheModel("an action moved a card off the grid")
        piles[:] = engine.piles
        cells[:] = self.pack(piles)
        for i in range(len(where)):
            where[i] = -1
        for i, code in enumerate(cells):
            if code:
                where[code] = i
        self.era = self._era_for(tuple(engine.uses), engine.reshuffles)
        self._count_missing(cells)
        return ("action", action.move, before)

    def _undo(self, cells: bytearray, where: list[int], piles: list[tuple[Card, ...]], applied: list[Any]) -> None:
        """Take back ``applied`` (steps and action snapshots), last first."""
        for record in reversed(applied):
            if len(record) == 2:
                source, gap = record
                self._move(cells, where, piles, gap, source)
                continue
            grid_before, piles_before, era = record[2]
            cells[:] = grid_before
            piles[:] = piles_before
            for i in range(len(where)):
                where[i] = -1
            for i, code in enumerate(cells):
                if code:
                    where[code] = i
            self.era = era
            self._count_missing(cells)

    def _move(self, cells: bytearray, where: list[int], piles: list[tuple[Card, ...]], source: int, gap: int) -> None:
        """Move the card of cell ``source`` into the gap ``gap`` (in place; ``piles`` wait for :meth:`_sync`)."""
        code = cells[source]
        cells[gap], cells[source] = code, 0
        where[code] = gap
        must_fill = self.shape.must_fill
        self.missing += must_fill[source] - must_fill[gap]

    def engine_move(self, step: tuple[int, int]) -> Move:
        """The engine's move for ``step``."""
        grid = self.shape.cells
        return Drag(self.names[grid[step[0]]], 1, self.names[grid[step[1]]])

    def _engine_line(self, steps: Sequence[Any]) -> list[Move]:
        """The engine moves of a winning line, checked by replaying them (a mismatch raises)."""
        replay = self.state.clone()
        moves = []
        for step in steps:
            move = step[1] if len(step) == 3 else self.engine_move(step)
            replay.apply(move)
            moves.append(move)
        if not replay.outcome().won:
            raise IllegalMoveError("the grid search's line does not win in the engine")
        return moves


def _finish(run: SearchRun) -> tuple[str, list[Move], int]:
    """Run a search generator (:meth:`GridSearch.depth_first`) to its end: its answer."""
    while True:
        try:
            next(run)
        except StopIteration as done:
            answer: tuple[str, list[Move], int] = done.value
            return answer


def grid_solve(state: Any, budget: int, deadline: float | None) -> tuple[str, list[Any], int] | None:
    """Solve ``state`` with the grid search, or None when the design does not fit it.

    Two searches take turns within one budget of positions: the streamlined best-first quick
    pass (:meth:`GridSearch.best_first`), :data:`CLOCK_EVERY` positions a turn, and the complete
    depth-first search, :data:`COMPLETE_TURNS` times as many (:data:`LATE_COMPLETE_TURNS` once the
    quick pass has had :data:`QUICK_EARLY`, but where first-column cards trade places, :attr:`GridSearch.pool`:
    there proofs of loss are long, and the quick pass wins Gaps seed 0 deals 13, 14 and 18 at 279k to 361k
    positions of its own). A win of either is the answer; only the complete one says "lost". A quick pass that
    searched all its streamliner allows gives its turns, where first-column cards trade places, to a second one
    whose streamliner keeps only a first-column card with a follower beside it (:attr:`GridSearch.looser`), newest
    of equally promising positions first (:attr:`GridSearch.newest_first`: Gaps seed 0 deal 12 is won so at 9,389
    positions of its own, 56,217 oldest first; the first exhausts at 37k).
    """
    complete = GridSearch.of(state)
    if complete is None:
        return None
    quick = GridSearch(state, complete.shape)
    pooled = any(complete.pool)
    runs = {"quick": quick.best_first(budget, deadline), "complete": complete.depth_first(budget, deadline)}
    nodes = dict.fromkeys(runs, 0)
    try:
        while runs:
            for name, run in list(runs.items()):
                try:
                    turns = COMPLETE_TURNS if nodes["quick"] < QUICK_EARLY or pooled else LATE_COMPLETE_TURNS
                    for _ in range(turns if name == "complete" else 1):
                        nodes[name] = next(run)
                except StopIteration as done:
                    answer: tuple[str, list[Move], int] = done.value
                    result, line, nodes[name] = answer
                    if result != "unknown":
                        return result, line, sum(nodes.values())
                    del runs[name]
                    if name == "complete":
                        runs.clear()
                    elif name == "quick" and quick.exhausted and pooled:
                        looser = GridSearch(state, complete.shape)
                        looser.looser = looser.newest_first = True
                        runs["looser"] = looser.best_first(budget, deadline)
                        nodes["looser"] = 0
                if sum(nodes.values()) > budget or (deadline is not None and time.monotonic() > deadline):
                    return "unknown", [], sum(nodes.values())
        return "unknown", [], sum(nodes.values())
    except LeftTheModel:
        return "unknown", [], sum(nodes.values())
