"""The solver's compact search for row games: whole piles collapse onto piles to their left.

Accordion and its variants have this shape, recognised here from the compiled
:class:`~cardz_tools.engine.Game` alone (no game, family or depot is named):

* every depot is a member of one group, the *row*, but those that are locked and take nothing
  (the cards a short row leaves out, in Late Binding: no rule may read them); one deck, no
  jokers, no stock that draws, no actions, no loss condition but having no move;
* a pile moves whole: the eject rule reads only ``count(cards)`` and ``count(depot)`` and,
  probed on every pile size, lets exactly the whole pile go;
* the accept rule is a conjunction whose parts each read either only where the pile comes
  from and goes to (``index(source)``, ``index(depot)``: probed on every pair of row
  positions) or only the two top cards (``top(cards)``, ``top``, ``empty(depot)``:
  probed on every pair of cards), and takes nothing on an empty pile;
* the row closes up after every move: the triggers and the win read no card and no pile
  size, and probed through the engine on every shape a game can reach (the first ``k``
  places filled, with at most one gap), the triggers close the gap and nothing else,
  and the win holds exactly when one pile is left.

Then nothing any rule reads depends on the cards under a pile's top: a position is the
row's top cards in order, one byte each, and a move is a slice. The search is a
depth-first search over those keys, leftmost moves first; a winning line is replayed
through the engine before it is returned, and "lost" is answered only when every
position was searched.
"""

from __future__ import annotations

import dataclasses
import time
import weakref
from collections.abc import Sequence
from typing import Any

from ..cards import COLOR_NAMES, FACE_UP, RANK_NAMES, SUIT_NAMES, Card, identity, standard_deck
from ..engine import Drag, IllegalMoveError, Move, State
from ..engine.effects import Compact
from ..engine.rules import Site, compile_rule
from ..expr import ast
from ..expr.parser import parse
from ..model import EjectKind, Expr

MAX_POSITIONS = 8_000_000
"""The most positions one search holds (a key of one byte per pile each)."""

CLOCK_EVERY = 4096
"""Positions between two reads of the clock."""

_CONSTANTS = {"true", "false"}
_PLACE = {"index", "source", "depot"}
_CARD_FIELDS = {"rank", "suit", "color", "value"}
_TOPS = {"top", "cards", "exists", "empty", "depot", *_CARD_FIELDS, *RANK_NAMES, *SUIT_NAMES, *COLOR_NAMES}
_EJECT = {"count", "cards", "depot"}
_SHAPE_ONLY = {"index", "depot", "any", "all", "exists", "empty", "count", "it"}
"""What triggers and the win may read: which places are filled, never a card or a pile's size."""


def _identifiers(node: ast.Node) -> set[str]:
    """Every name, called function and field a rule's tree uses."""
    names: set[str] = set()
    for part in ast.walk(node):
        if isinstance(part, ast.Name):
            names.add(part.name)
        elif isinstance(part, ast.Call):
            names.add(part.func)
        elif isinstance(part, ast.Field):
            names.add(part.name)
    return names - _CONSTANTS


def _reads_only_the_shape(text: str, groups: set[str]) -> bool:
    """Whether a trigger or win rule reads only which places of the row are filled."""
    tree = parse(text)
    binders = {part.var for part in ast.walk(tree) if isinstance(part, ast.Call) and part.var}
    for part in ast.walk(tree):
        if isinstance(part, ast.Call) and part.func == "count" and len(part.args) != 2:
            return False  # count(depot): a pile's size
    return _identifiers(tree) <= _SHAPE_ONLY | binders | groups


def _conjuncts(node: ast.Node) -> list[ast.Node]:
    """The parts of a top-level ``&&`` chain."""
    if isinstance(node, ast.Binary) and node.op == "&&":
        return _conjuncts(node.left) + _conjuncts(node.right)
    return [node]


@dataclasses.dataclass(frozen=True)
class RowShape:
    """What a row game's rules allow, read off the compiled design."""

    row: tuple[int, ...]
    """The row's depots, in the order of ``index()``."""
    reaches: tuple[tuple[int, ...], ...]
    """``reaches[s]``: the places a pile at place ``s`` may move onto (when the tops match)."""
    matches: frozenset[tuple[Card, Card]]
    """(top of the moved pile, top of the pile it lands on) pairs the rule allows."""


_SHAPES: weakref.WeakKeyDictionary[Any, RowShape | None] = weakref.WeakKeyDictionary()


def row_shape(game: Any) -> RowShape | None:
    """The shape of ``game``, or None when the design is not a row game (see the module doc).

    Probed once per game (the solver asks for every deal).
    """
    if game not in _SHAPES:
        _SHAPES[game] = _probe_shape(game)
    return _SHAPES[game]


def _probe_shape(game: Any) -> RowShape | None:
    """:func:`row_shape`, uncached."""
    design = game.design
    if design.decks != 1 or design.jokers or game.draws or game.actions or game.loss_when is not None:
        return None
    inert = {d for d in range(len(game.names)) if game.accept_never[d] and game.eject_kind[d] is EjectKind.LOCKED}
    if any(design.depots[d].spec.triggers for d in inert):
        return None
    n = len(game.names) - len(inert)
    groups = {
        name for name, members in game.members.items() if len(members) == n and n > 1 and not inert & set(members)
    }
    if not groups or len({tuple(game.members[name]) for name in groups}) != 1:
        return None
    row = tuple(game.members[next(iter(groups))])
    specs = {id(game.design.depots[d].spec) for d in row}
    if len(specs) != 1:
        return None
    first = row[0]
    accept, eject = game.accept_rules[first], game.eject_rules[first]
    if accept.never or accept.when is None or accept.single or accept.follow or accept.wild_rank is not None:
        return None
    if game.eject_kind[first] is not EjectKind.WHEN or eject.when is None:
        return None
    if not _identifiers(parse(eject.when.text)) <= _EJECT or not _whole_piles(game, first):
        return None
    found = _accept_table(game, row, accept.when)
    if found is None:
        return None
    reaches, matches = found
    if game.win_when is None or design.win.when is None or not _reads_only_the_shape(design.win.when.text, groups):
        return None
    for trigger in design.depots[first].spec.triggers:
        if not _reads_only_the_shape(trigger.when.text, groups):
            return None
    if any(not isinstance(effect, Compact) or effect.members != row for t in game.triggers for effect in t.effects):
        return None
    if not _closes_up(game, row):
        return None
    return RowShape(row, reaches, matches)


def _whole_piles(game: Any, depot: int) -> bool:
    """Whether the eject rule lets exactly a whole pile go, for every pile size."""
    when = game.eject_when[depot]
    root = State(game, [()] * len(game.names))
    deck = [c | FACE_UP for c in standard_deck()]
    piles: list[tuple[Card, ...]] = [()] * len(game.names)
    for size in range(1, len(deck) + 1):
        piles[depot] = tuple(deck[:size])
        for count in range(1, size + 1):
            run = piles[depot][-count:]
            if bool(when(piles, root, run[0], run, depot)) != (count == size):
                return False
    return True


def _accept_table(
    game: Any, row: tuple[int, ...], when_expr: Expr
) -> tuple[tuple[tuple[int, ...], ...], frozenset[tuple[Card, Card]]] | None:
    """(the places each place reaches, the matching tops), probed part by part; None if a part reads more."""
    places: list[Any] = []
    tops: list[Any] = []
    for part in _conjuncts(parse(when_expr.text)):
        names = _identifiers(part)
        compiled = compile_rule(Expr(ast.to_source(part), when_expr.pointer), Site.ACCEPT, game.design)
        if names <= _PLACE:
            places.append(compiled)
        elif names <= _TOPS:
            tops.append(compiled)
        else:
            return None
    root = State(game, [()] * len(game.names))
    deck = [c | FACE_UP for c in standard_deck()]
    piles: list[tuple[Card, ...]] = [(deck[0],)] * len(game.names)
    reaches = tuple(
        tuple(
            d
            for d, target in enumerate(row)
            if d != s and all(rule(piles, root, deck[0], (deck[0],), source, target) for rule in places)
        )
        for s, source in enumerate(row)
    )
    source, target = row[-1], row[0]
    piles = [()] * len(game.names)
    for card in deck:
        if all(rule(piles, root, card, (card,), source, target) for rule in tops):
            return None  # an empty pile takes cards
    matches = set()
    for top in deck:
        piles[target] = (top,)
        for card in deck:
            if card != top and all(rule(piles, root, card, (card,), source, target) for rule in tops):
                matches.add((identity(card), identity(top)))
    return reaches, frozenset(matches)


def _closes_up(game: Any, row: tuple[int, ...]) -> bool:
    """Whether, on every shape a game reaches, the engine closes the row's one gap and wins at one pile.

    The triggers and the win read no card nor a pile's size (checked before), and only close up the row,
    so two cards a place (a refill from a pile would split it) stand for any pile.
    """
    n = len(row)
    deck = [c | FACE_UP for c in standard_deck()]

    def pile(place: int) -> tuple[Card, ...]:
        return deck[place % len(deck)], deck[(place + 13) % len(deck)]

    for filled in range(1, n + 1):
        for gap in [*range(filled), None]:
            places = [i for i in range(filled) if i != gap]
            if not places:
                continue
            piles: list[tuple[Card, ...]] = [()] * len(game.names)
            for i in places:
                piles[row[i]] = pile(i)
            state = State(game, piles)
            game.settle(state.piles, state)
            closed = [state.piles[row[i]] for i in range(len(places))]
            if state.cascade or closed != [pile(i) for i in places]:
                return False
            if any(state.piles[row[i]] for i in range(len(places), n)):
                return False
            if bool(game.won(state.piles, state)) != (len(places) == 1):
                return False
    return True


class RowSearch:
    """The compact search of one deal of a row game (build it with :meth:`of`)."""

    def __init__(self, state: Any, shape: RowShape) -> None:
        self.state = state
        self.shape = shape
        self.names = state.game.names
        self.matches = [[(card, top) in shape.matches for top in range(256)] for card in range(256)]
        """``matches[moved top][target top]``, indexed by card identity."""

    @classmethod
    def of(cls, state: Any) -> RowSearch | None:
        """The search for ``state``, or None when its design or position does not fit the model."""
        shape = row_shape(state.game)
        if shape is None or state.cascade or state.is_terminal():
            return None
        piles = [state.piles[d] for d in shape.row]
        filled = sum(1 for pile in piles if pile)
        if any(piles[i] for i in range(filled, len(piles))) or not all(piles[:filled]):
            return None  # not closed up
        if any(not card & FACE_UP for pile in piles for card in pile):
            return None
        return cls(state, shape)

    def pack(self, state: Any) -> bytes:
        """The key of ``state``: the row's top cards in order."""
        return bytes(identity(state.piles[d][-1]) for d in self.shape.row if state.piles[d])

    def steps(self, tops: bytes) -> list[tuple[int, int]]:
        """Every legal move of a position as (place moved, place it lands on), the leftmost last."""
        found: list[tuple[int, int]] = []
        reaches, matches = self.shape.reaches, self.matches
        size = len(tops)
        if size <= 1:
            return found
        for s in range(size - 1, -1, -1):
            moved = matches[tops[s]]
            for d in reversed(reaches[s]):  # popped first: the farthest place (three to the left in Accordion)
                if d < size and moved[tops[d]]:
                    found.append((s, d))
        return found

    @staticmethod
    def child(tops: bytes, step: tuple[int, int]) -> bytes:
        """The position after ``step``: the moved pile's top lands on place ``d``, the row closes up."""
        s, d = step
        if d < s:
            return tops[:d] + tops[s : s + 1] + tops[d + 1 : s] + tops[s + 1 :]
        return tops[:s] + tops[s + 1 : d] + tops[s : s + 1] + tops[d + 1 :]

    def engine_move(self, state: Any, step: tuple[int, int]) -> Move:
        """The engine's move for ``step`` in ``state`` (the whole pile)."""
        source, target = self.shape.row[step[0]], self.shape.row[step[1]]
        return Drag(self.names[source], len(state.piles[source]), self.names[target])

    def search(self, budget: int, deadline: float | None) -> tuple[str, list[Move], int]:
        """("won", engine moves, nodes) / ("lost", [], nodes) / ("unknown", [], nodes)."""
        budget = min(budget, MAX_POSITIONS)
        root = self.pack(self.state)
        if len(root) == 1:
            return "won", [], 1
        seen = {root}
        path: list[tuple[int, int]] = []
        stack = [(root, self.steps(root))]
        child_of = self.child
        while stack:
            tops, options = stack[-1]
            if not options:
                stack.pop()
                if path:
                    path.pop()
                continue
            step = options.pop()
            child = child_of(tops, step)
            if len(child) == 1:
                return "won", self._engine_line([*path, step]), len(seen) + 1
            if child in seen:
                continue
            seen.add(child)
            size = len(seen)
            if size > budget or (deadline is not None and size % CLOCK_EVERY == 0 and time.monotonic() > deadline):
                return "unknown", [], size
            path.append(step)
            stack.append((child, self.steps(child)))
        return "lost", [], len(seen)

    def _engine_line(self, steps: Sequence[tuple[int, int]]) -> list[Move]:
        """The engine moves of a winning line, checked by replaying them (a mismatch raises)."""
        replay = self.state.clone()
        moves = []
        for step in steps:
            move = self.engine_move(replay, step)
            replay.apply(move)
            moves.append(move)
        if not replay.outcome().won:
            raise IllegalMoveError("the row search's line does not win in the engine")
        return moves


def row_solve(state: Any, budget: int, deadline: float | None) -> tuple[str, list[Any], int] | None:
    """Solve ``state`` with the row search, or None when the design does not fit it."""
    search = RowSearch.of(state)
    if search is None:
        return None
    return search.search(budget, deadline)
