"""Splits, runs carried from one card to another, searched only together with a use of the column they leave.

A *split* moves a run ``R`` whose bottom card lies face up on a card ``y`` of its pile ``A`` onto the top of a
non-empty column ``B`` (the *columns*: the one entry whose depots give up face-up runs): Klondike's Five moved from
one black Six to the other. It changes only which of ``y`` and ``B``'s top is covered. The solver searches a split
only as one move together with a *use* right after it: a move that puts cards on ``A``, or takes cards from ``A``
onto ``B`` or onto a depot that is not a column (``y`` to a foundation) (:class:`SplitMoves`).

Why no win is lost (the design's shape, :func:`split_moves`: no triggers or actions, no loss condition, taps
that read and change nothing else, every eject rule ``locked``, ``topOnly`` or ``faceUp``, every accept rule
reading only ``card`` (the dragged run's bottom card), ``top`` and ``empty(depot)``, and the move's source only in
parts whose value depends on the source's entry and on whether the run is the whole pile; an ``allCardsIn`` win;
every depot but the columns, the stocks and the wastes taking single cards). Let ``P1`` be ``P`` after a split
``m`` of ``R`` from ``A`` onto ``B``, and ``L`` a winning line from ``P1``. ``y`` must reach a win depot, which is
no column, so ``L`` has a first use ``u`` of ``m`` or first moves ``y`` with a run onto another column ``C``.
Before that, every move ``v`` of ``L`` is also legal from ``P`` (``R`` still on ``y``), with ``A`` for ``B``
where ``v`` reads ``R``'s cards: a move onto ``R``'s top or of a part of ``R`` reads the same cards (and the same
source parts: ``A`` and ``B`` are of one entry, and neither run is the whole pile); a move of a run holding
``B``'s old top and all of ``R`` is made without ``R`` (its bottom card and target are the same, and it goes to a
column: the others take single cards); every other move reads piles that are the same in both. If some ``v``
moves all of ``R`` off ``B``, doing it from ``A`` instead drops ``m``: a shorter line. A run of ``A`` ending at
``y`` moved onto ``C`` is moved with ``R`` on it, and the split is then made from ``C`` (the same argument again,
later in the line). Otherwise ``m`` (from where ``B``'s old top went) played right before ``u`` reaches the
position ``L`` reaches there. So every shortest winning line can be reordered, from its last split to its first,
into one of no more moves where each split is followed at once by its use, and the first step of that line is a
move the search makes. With the safe moves (which never add a move other than a tap to a winning line) and the tap
cover the induction of :mod:`.tableau_search` is unchanged, on the fewest moves other than taps of a winning line,
then its fewest taps (:mod:`.dominance`, "A stock turned one card at a time").

With :attr:`SplitMoves.home_only` only the uses that take cards from ``A`` out of the columns count: Solvitaire's
Klondike rule. That set is narrower than the argument above allows (a card put on ``y`` is a use it needs), so a
search over it is incomplete (:data:`.tableau_search.HOME_SPLITS_WEIGHTS`).
"""

from __future__ import annotations

import dataclasses
import functools
from typing import Any

from ..cards import FACE_UP, Card, identity, standard_deck
from ..engine.moves import Drag
from ..engine.rules import Site, compile_rule
from ..expr import ast as expr_ast
from ..expr import parse, to_source
from ..model import EjectKind, Expr
from .dominance import (
    _CARD_NAMES,
    _SOURCE_ATOM_NAMES,
    _source_atoms,
    _source_variants,
    build_table,
    card_bits,
)
from .stock_moves import stock_moves

_EJECTS = frozenset({EjectKind.LOCKED, EjectKind.TOP_ONLY, EjectKind.FACE_UP})


@dataclasses.dataclass(frozen=True)
class SplitMoves:
    """Which drags of a design are splits (module doc), and which moves use a split's source."""

    columns: frozenset[int]
    """The depots a split moves between: the one entry whose depots give up face-up runs and take cards."""
    index: dict[str, int]
    """Depot name -> index."""
    table: dict[Card, int] | None
    """:func:`.dominance.build_table` (None: every card may go on every top)."""
    bit: dict[Card, int] = dataclasses.field(default_factory=card_bits)
    """:func:`.dominance.card_bits`, made once."""
    outside_tables: tuple[tuple[int, dict[Card, int] | None], ...] = ()
    """The depots that take cards and are not columns, each with the card table of its kind (the win depots'
    or the others', :func:`.dominance.build_table`): where else a card of the split's source may go."""
    onto: dict[Card, tuple[Card, ...]] | None = None
    """:attr:`table` turned round: the cards that may go on each top (None: every card)."""
    home_only: bool = False
    """Whether only a use that takes cards from the split's source out of the columns counts (:meth:`homeward`): a
    narrowed move set, no longer complete (:data:`.tableau_search.HOME_SPLITS_WEIGHTS`)."""
    held: list[Any] = dataclasses.field(default_factory=lambda: [None, None, 0], compare=False, repr=False)
    """The depots and their piles :meth:`may_take` last read, and the bits of those piles' cards (the splits of
    one position ask about the same stocks and wastes: Ultra Klondike 1.9M cards read for 181k splits)."""

    def homeward(self) -> SplitMoves:
        """These splits with :attr:`home_only` set, and a cache of their own (:attr:`held`)."""
        return dataclasses.replace(self, home_only=True, held=[None, None, 0])

    def split_source(self, state: Any, move: Any) -> str | None:
        """The source of ``move`` when it is a split in ``state`` (module doc), else None."""
        if type(move) is not Drag:
            return None
        source, target = self.index[move.source], self.index[move.target]
        if source not in self.columns or target not in self.columns:
            return None
        piles = state.piles
        pile = piles[source]
        if len(pile) <= move.count or not pile[-move.count - 1] & FACE_UP or not piles[target]:
            return None
        return move.source

    def may_take(self, state: Any, split: Any, depots: tuple[int, ...]) -> bool:
        """Whether a card in ``depots`` (the stocks and wastes) could go on the top ``split`` (one of the moves of
        ``state``) leaves (the card table over-approximates), so that a play from the waste may be a use of it."""
        if self.home_only:
            return False
        if self.table is None:
            return True
        piles = state.piles
        left = piles[self.index[split.source]][-split.count - 1]
        takes = self.table.get(identity(left), -1)
        held = [piles[depot] for depot in depots]
        kept = self.held
        if kept[0] is not depots or kept[1] != held:  # equal piles have equal bits: identity first, then cards
            bit, mask = self.bit, 0
            for pile in held:
                for card in pile:
                    mask |= bit.get(identity(card), 0)
            kept[:] = depots, held, mask
        return bool(kept[2] & takes)

    def runs_by_card(self, state: Any) -> dict[Card, list[tuple[int, int]]]:
        """Each card (its identity) at the bottom of a run the eject rules of ``state`` let go: (depot, length)
        pairs in depot order (worked out once per position for :meth:`use_drags`)."""
        where: dict[Card, list[tuple[int, int]]] = {}
        lengths = state.run_lengths
        for depot, pile in enumerate(state.piles):
            if pile:
                for count in lengths(depot, pile):
                    where.setdefault(pile[-count] & ~FACE_UP, []).append((depot, count))
        return where

    def use_drags(self, state: Any, split: Any, where: dict[Card, list[tuple[int, int]]]) -> list[Any]:
        """The drags of ``state`` after ``split`` (one of its moves) that :meth:`uses` keeps, in the engine's
        order (by source, run length, target), without building that child or listing all its moves (which
        cost most of a split: Gargantua 2.5 of 8.7 s). ``where``: :meth:`runs_by_card` of ``state``."""
        source, target = self.index[split.source], self.index[split.target]
        piles = state.piles
        pile, onto = piles[source], piles[target]
        cut = len(pile) - split.count
        piles[source], piles[target] = pile[:cut], onto + pile[cut:]  # the card left is face up: no flip
        try:
            found = self._candidates(state, source, target, where)
        finally:
            piles[source], piles[target] = pile, onto
        found.sort()
        drag = state.game.drag_move
        return [move for move in (drag(s, count, t, None) for s, count, t in found) if self.uses(split, move)]

    def _candidates(
        self, state: Any, source: int, target: int, where: dict[Card, list[tuple[int, int]]]
    ) -> list[tuple[int, int, int]]:
        """(source, length, target) of the legal drags onto ``source`` and of those from it onto ``target`` or
        :attr:`outside`, on ``state``'s piles (the split's child's in place). Legal as :meth:`State.drag_refusal`
        says: the run lengths are the eject rule's (:meth:`State.run_lengths`; ``where`` holds them for the
        piles the split leaves alone), and an accept rule here (:func:`split_moves`: no follow, no wild card,
        so no named suit) refuses a run where it takes single cards, else by its ``when`` alone. The card
        tables (which over-approximate the rules) skip the cards that cannot go on a target's top."""
        game, piles, bit, down = state.game, state.piles, self.bit, ~FACE_UP
        rules, whens, lengths = game.accept_rules, game.accept_when, state.run_lengths
        found: list[tuple[int, int, int]] = []

        def accepts(depot: int, count: int, to: int) -> bool:
            if rules[to].single and count > 1:
                return False
            when, cards = whens[to], piles[depot][-count:]
            return when is None or bool(when(piles, state, cards[0], cards, depot, to))

        if not self.home_only:  # with it, no drag onto the source or onto the split's target is a use (:meth:`uses`)
            top = piles[source][-1] & down
            cards = self.onto.get(top) if self.onto is not None else None
            for card in where if cards is None else cards:
                for depot, count in where.get(card, ()):
                    if depot != source and depot != target and accepts(depot, count, source):
                        found.append((depot, count, source))
            takes = self.table.get(top, -1) if self.table is not None else -1
            pile = piles[target]
            for count in lengths(target, pile):
                if bit.get(pile[-count] & down, 0) & takes and accepts(target, count, source):
                    found.append((target, count, source))
        pile = piles[source]
        targets = self.outside_tables if self.home_only else ((target, self.table), *self.outside_tables)
        for count in lengths(source, pile):
            card_bit = bit.get(pile[-count] & down, 0)
            for to, table in targets:
                if count > 1 and rules[to].single:
                    continue
                if table is not None:
                    onto = piles[to]
                    if not table.get(onto[-1] & down if onto else -1, -1) & card_bit:
                        continue
                if accepts(source, count, to):
                    found.append((source, count, to))
        return found

    def play_targets(self, split: Any) -> tuple[int, ...]:
        """The depots a play from the waste goes onto when it uses ``split`` (:meth:`uses`; its source is no column):
        the column the split left."""
        return (self.index[split.source],)

    def uses(self, split: Any, move: Any) -> bool:
        """Whether ``move`` uses the source of ``split`` (module doc): it puts cards on it, or takes cards from it
        onto the split's target or onto a depot that is not a column."""
        if type(move) is not Drag:
            return False
        source = split.source
        if self.home_only:
            return move.source == source and self.index[move.target] not in self.columns
        if move.target == source:
            return True
        return move.source == source and (move.target == split.target or self.index[move.target] not in self.columns)


def _atom_reads_only_the_whole_pile(game: Any, target: int, atom: expr_ast.Node) -> str | None:
    """None when ``atom``'s value depends only on the source's entry and on whether the dragged run is the whole
    source pile (checked by evaluating it on one depot of every entry, every pile length and run), else why not."""
    if not expr_ast.names(atom) <= _SOURCE_ATOM_NAMES | set(game.members):
        return "it reads the move's source by a depot's name or more than the dragged cards"
    if any(isinstance(node, expr_ast.Index) for node in expr_ast.walk(atom)):
        return "it reads the move's source by a depot's index"
    rule = compile_rule(Expr(to_source(atom), game.design.depots[target].spec.pointer), Site.ACCEPT, game.design)
    root = game.new_initial_state(seed=0)  # the state argument rules get; these read none of it
    filler = standard_deck()[0] | FACE_UP
    total = len(standard_deck()) * game.design.decks
    piles: list[tuple[Any, ...]] = [()] * len(game.names)
    for source in {id(d.spec): i for i, d in enumerate(game.design.depots)}.values():
        values: dict[bool, bool] = {}
        for length in range(1, total + 1):
            piles[source] = (filler,) * length
            for run in range(1, length + 1):
                value = bool(rule(piles, root, filler, (filler,) * run, source, target))
                if values.setdefault(run == length, value) != value:
                    return "its value reads more than whether the dragged run is the whole pile"
        piles[source] = ()
    return None


@functools.lru_cache(maxsize=16)
def split_moves(game: Any) -> SplitMoves | str:
    """The splits of ``game`` (module doc), or why a split may be needed on its own there (kept for the last few
    games: the evaluation of the source parts takes about a second with two decks)."""
    if game.triggers or game.actions:
        return "it has triggers or actions"
    if game.loss_when is not None:
        return "it has a loss condition"
    if game.draws and isinstance(stock_moves(game), str):
        return "its taps are not separate from the rest (no stock moves)"
    if any(kind not in _EJECTS for kind in game.eject_kind):
        return "an eject rule reads more than which cards are face up"
    checked: dict[tuple[int, str], str | None] = {}  # the depots of one entry share their rule: checked once
    for depot, rule in enumerate(game.accept_rules):
        if rule.never:
            continue
        if rule.follow or rule.wild_rank is not None:
            return f"{game.names[depot]} follows or takes wild cards"
        if rule.when is None:
            continue
        node = parse(rule.when.text)
        for atom in _source_atoms(node):
            entry = (id(game.design.depots[depot].spec), to_source(atom))
            if entry not in checked:
                checked[entry] = _atom_reads_only_the_whole_pile(game, depot, atom)
            why = checked[entry]
            if why is not None:
                return f"the accept rule of {game.names[depot]}: {to_source(atom)}: {why}"
        if not set().union(*map(expr_ast.names, _source_variants(node))) <= _CARD_NAMES:
            return f"the accept rule of {game.names[depot]} reads more than the card, the top and emptiness"
    if game.win_kind != "allCardsIn":
        return "its win is not allCardsIn (a split's source card need never move)"
    stocks = {d for draw in game.draws for d in (draw.depot, draw.to)}
    takers = [d for d in range(len(game.names)) if not game.accept_never[d] and d not in stocks]
    columns = frozenset(d for d in takers if game.eject_kind[d] is EjectKind.FACE_UP and d not in game.win_depots)
    if not columns:
        return "no depot gives up runs of face-up cards"
    if len({id(game.design.depots[d].spec) for d in columns}) > 1:
        return "the depots that give up face-up runs are of more than one entry"
    if any(not game.accept_rules[d].single for d in takers if d not in columns):
        return "a depot other than the columns takes runs"
    table, home, bit = build_table(game), build_table(game, home=True), card_bits()
    outside = tuple(
        (d, home if d in game.win_depots else table)
        for d in range(len(game.names)) if not game.accept_never[d] and d not in columns
    )
    onto = None if table is None else {
        top: tuple(card for card, mask in bit.items() if mask & takes) for top, takes in table.items() if top >= 0
    }
    return SplitMoves(
        columns, {name: i for i, name in enumerate(game.names)}, table, bit, outside_tables=outside, onto=onto
    )
