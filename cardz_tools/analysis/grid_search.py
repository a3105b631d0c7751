"""The solver's compact search for grid games: cards move one at a time into the gaps of a grid.

Gaps (Montana without its redeal) and its variants have this shape, recognised here from the
compiled :class:`~cardz_tools.engine.Game` alone (no game, family or depot is named):

* one deck, no jokers, no stock, no actions, no triggers, no loss condition but having no
  move; the *grid* is a group of depots with one spec filling a rectangle of at least two rows
  (``col``/``row`` in the group), each holding at most one face-up card; every other depot is
  locked and takes nothing, so its cards never move;
* a grid cell lets its one card go (``topOnly``) and takes a single card; its accept rule reads
  only the card, ``empty``/``top`` of the cell and of ``left(depot)``, the cell's ``col``/``row``
  and ``col(source)``. It is then a table, probed once per game on every cell, left neighbour,
  card and source column: which cards a gap takes after which left neighbour, from which columns.
  A filled cell must take nothing (probed), so cells never hold two cards.

A position is the grid's cells packed in a ``bytes`` (a card's identity, 0 for a gap); the win is
the engine's own test on the position, evaluated at every position. Sound reductions:

* **symmetry**: when the table does not change under swapping two rows, or two suits, and the win
  reads neither rows, indexes, suits nor colours, positions that differ by such a swap are one
  (the key sorts the rows and renames the suits in order of first appearance);
* a transposition table on that key; moves that extend a row's run from the left edge first.

Winning lines are replayed through the engine before they are returned; "lost" is answered only
when every position was searched.
"""

from __future__ import annotations

import dataclasses
import time
import weakref
from collections.abc import Sequence
from typing import Any

from ..cards import COLOR_NAMES, FACE_UP, RANK_NAMES, SUIT_NAMES, Card, identity, standard_deck
from ..engine import Drag, IllegalMoveError, Move, State
from ..expr import ast
from ..expr.parser import parse
from ..model import EjectKind

MAX_POSITIONS = 6_000_000
"""The most positions one search holds (a key of one byte per cell each)."""

CLOCK_EVERY = 4096
"""Positions between two reads of the clock."""

_ACCEPT_NAMES = {
    "empty", "depot", "col", "row", "card", "source", "left", "top", "rank", "suit", "value", "color",
    "true", "false", *RANK_NAMES, *SUIT_NAMES, *COLOR_NAMES,
}
_WIN_ASYMMETRIC = {"row", "index", "color", *SUIT_NAMES, *COLOR_NAMES}
"""Names with which a win rule could tell rows or suits apart."""


def _names(node: ast.Node) -> set[str]:
    """Every name, called function and field a rule's tree uses."""
    found: set[str] = set()
    for part in ast.walk(node):
        if isinstance(part, ast.Name):
            found.add(part.name)
        elif isinstance(part, ast.Call):
            found.add(part.func)
        elif isinstance(part, ast.Field):
            found.add(part.name)
    return found


def _is_depot(node: ast.Node) -> bool:
    return isinstance(node, ast.Name) and node.name == "depot"


def _is_left_of_depot(node: ast.Node) -> bool:
    return isinstance(node, ast.Call) and node.func == "left" and len(node.args) == 1 and _is_depot(node.args[0])


def _accept_reads_the_model(text: str) -> bool:
    """Whether an accept rule reads only what the table probes (the module doc)."""
    tree = parse(text)
    if not _names(tree) <= _ACCEPT_NAMES:
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
    return _source_only_in_col(tree)


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
    """Whether rows may be swapped (the key sorts them)."""
    suits_alike: bool
    """Whether suits may be renamed (the key renames them in order of first appearance)."""


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
    if design.decks != 1 or design.jokers or game.draws or game.actions or game.triggers:
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
    first = cells[0]
    accept = game.accept_rules[first]
    if accept.never or accept.when is None or not accept.single or accept.follow or accept.wild_rank is not None:
        return None
    if game.eject_kind[first] is not EjectKind.TOP_ONLY or game.accept_when[first] is None:
        return None
    if not _accept_reads_the_model(accept.when.text):
        return None
    fills = _fill_table(game, cells, columns)
    if fills is None:
        return None
    win_open = not (_names(parse(design.win.when.text)) & _WIN_ASYMMETRIC)
    rows_alike = win_open and _rows_alike(fills, len(cells) // columns, columns)
    suits_alike = win_open and _suits_alike(fills)
    return GridShape(cells, columns, fills, rows_alike, suits_alike)


def _fill_table(
    game: Any, cells: tuple[int, ...], columns: int
) -> tuple[tuple[tuple[tuple[int, int], ...], ...], ...] | None:
    """:attr:`GridShape.fills`, probed through the compiled accept rule; None if a filled cell takes a card."""
    rows = len(cells) // columns
    deck = [c | FACE_UP for c in standard_deck()]
    piles: list[tuple[Card, ...]] = [()] * len(game.names)
    root = State(game, list(piles))
    table = []
    for place, target in enumerate(cells):
        row, col = divmod(place, columns)
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


class GridSearch:
    """The compact search of one deal of a grid game (build it with :meth:`of`)."""

    def __init__(self, state: Any, shape: GridShape) -> None:
        self.state = state
        self.shape = shape
        self.names = state.game.names
        columns = shape.columns
        self.left = [i - 1 if i % columns else -1 for i in range(len(shape.cells))]
        self.column = [i % columns for i in range(len(shape.cells))]
        self.placeable = [[frozenset(card for card, _ in by_left) for by_left in cell] for cell in shape.fills]
        """``placeable[cell][left]``: the cards a gap at ``cell`` takes after ``left``, from any column."""
        codes = sorted(identity(state.piles[d][0]) for d in shape.cells if state.piles[d])
        self.markers = {code >> 4: bytes([code]) for code in reversed(codes)}
        """Each suit's lowest card in the grid (cards never leave it): where it lies orders the suits."""
        self.suits = tuple(sorted(self.markers))
        self.renames: dict[tuple[int, ...], bytes] = {}
        """Suit renamings of :meth:`key`, by the order in which the suits first appear."""

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

    def pack(self, piles: Sequence[tuple[Card, ...]]) -> bytearray:
        """The grid's cells of ``piles``: a card's identity each, 0 for a gap."""
        return bytearray(identity(piles[d][0]) if piles[d] else 0 for d in self.shape.cells)

    def key(self, cells: bytearray) -> bytes:
        """The transposition key: rows sorted and suits renamed when the rules allow (module doc)."""
        shape = self.shape
        if shape.rows_alike:
            columns = shape.columns
            cells = bytearray(b"".join(sorted(bytes(cells[i : i + columns]) for i in range(0, len(cells), columns))))
        if shape.suits_alike:
            # Any renaming maps a position to one of its own class, so any rule of choosing one is sound.
            found = cells.find
            order = tuple(sorted(self.suits, key=lambda suit: found(self.markers[suit])))
            rename = self.renames.get(order)
            if rename is None:
                rename = self.renames[order] = bytes(
                    (code & 0x0F) | (order.index(code >> 4) << 4) if code and (code >> 4) in order else code
                    for code in range(256)
                )
            return bytes(cells.translate(rename))
        return bytes(cells)

    def steps(self, cells: bytearray, where: list[int]) -> list[tuple[int, int]]:
        """Every legal move as (cell moved from, gap), the most promising last (popped first)."""
        fills, left, column = self.shape.fills, self.left, self.column
        runs = self._runs(cells)
        found: list[tuple[int, tuple[int, int]]] = []
        for gap, code in enumerate(cells):
            if code:
                continue
            neighbour = left[gap]
            for card, mask in fills[gap][cells[neighbour] if neighbour >= 0 else 0]:
                source = where[card]
                if source >= 0 and source != gap and mask >> column[source] & 1:
                    score = 2 * runs[gap] - runs[source]
                    found.append((score, (source, gap)))
        found.sort()
        return [step for _, step in found]

    def _runs(self, cells: bytearray) -> list[int]:
        """1 for a cell in (or just after) an unbroken run of placeable cards from its row's left edge."""
        placeable, columns = self.placeable, self.shape.columns
        runs = [0] * len(cells)
        for start in range(0, len(cells), columns):
            previous = 0
            for i in range(start, start + columns):
                code = cells[i]
                runs[i] = 1
                if not code or code not in placeable[i][previous]:
                    break
                previous = code
        return runs

    def search(self, budget: int, deadline: float | None) -> tuple[str, list[Move], int]:
        """("won", engine moves, nodes) / ("lost", [], nodes) / ("unknown", [], nodes)."""
        budget = min(budget, MAX_POSITIONS)
        game = self.state.game
        won = game.won
        state = self.state
        piles = list(state.piles)
        cells = self.pack(piles)
        where = [-1] * 128
        for i, code in enumerate(cells):
            if code:
                where[code] = i
        if won(piles, state):
            return "won", [], 1
        seen = {self.key(cells)}
        path: list[tuple[int, int]] = []
        stack = [self.steps(cells, where)]
        while stack:
            options = stack[-1]
            if not options:
                stack.pop()
                if path:
                    source, gap = path.pop()
                    self._move(cells, where, piles, gap, source)
                continue
            source, gap = options.pop()
            self._move(cells, where, piles, source, gap)
            if won(piles, state):
                return "won", self._engine_line([*path, (source, gap)]), len(seen) + 1
            key = self.key(cells)
            if key in seen:
                self._move(cells, where, piles, gap, source)
                continue
            seen.add(key)
            size = len(seen)
            if size > budget or (deadline is not None and size % CLOCK_EVERY == 0 and time.monotonic() > deadline):
                return "unknown", [], size
            path.append((source, gap))
            stack.append(self.steps(cells, where))
        return "lost", [], len(seen)

    def _move(self, cells: bytearray, where: list[int], piles: list[tuple[Card, ...]], source: int, gap: int) -> None:
        """Move the card of cell ``source`` into the gap ``gap`` (in place)."""
        code = cells[source]
        cells[gap], cells[source] = code, 0
        where[code] = gap
        grid = self.shape.cells
        piles[grid[gap]], piles[grid[source]] = piles[grid[source]], ()

    def engine_move(self, step: tuple[int, int]) -> Move:
        """The engine's move for ``step``."""
        grid = self.shape.cells
        return Drag(self.names[grid[step[0]]], 1, self.names[grid[step[1]]])

    def _engine_line(self, steps: Sequence[tuple[int, int]]) -> list[Move]:
        """The engine moves of a winning line, checked by replaying them (a mismatch raises)."""
        replay = self.state.clone()
        moves = []
        for step in steps:
            move = self.engine_move(step)
            replay.apply(move)
            moves.append(move)
        if not replay.outcome().won:
            raise IllegalMoveError("the grid search's line does not win in the engine")
        return moves


def grid_solve(state: Any, budget: int, deadline: float | None) -> tuple[str, list[Any], int] | None:
    """Solve ``state`` with the grid search, or None when the design does not fit it."""
    search = GridSearch.of(state)
    if search is None:
        return None
    return search.search(budget, deadline)
