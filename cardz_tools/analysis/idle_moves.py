"""Moves out of an idle depot, searched only where the next move could use their target.

An *idle* depot takes no card on an empty pile (:func:`.dominance.depot_takes`; its accept rule may be ``never``)
and is no win depot: King Albert's reserve and Flower Garden's bouquet, whose cards each lie alone and may be played
but never covered, and Alina's and Baker's Dozen's columns, which build on a card but stay empty once emptied. Only
its last card is read: once that card has gone, the depot is empty for good.
The design must be *local*: no triggers or actions, an ``allCardsIn`` win and no loss expression (a
``noProgress`` loss, which ends only positions with no way to a win, is allowed), every accept and eject
rule reads only the move's cards, the target's pile and the source's (``card``, ``top``, ``depot``,
``source``, ``cards``, ``count``, ``empty`` and the like; a rule naming another depot or a group outside
``source in G`` reads more), and each draw goes from a stock that takes no cards onto a waste that takes
none (Duchess, Chameleon): a tap then reads and changes only those two, which are never idle depots (the
waste gets cards) and never a move's target. Accept rules may take runs (Duchess' columns).

An *idle move* ``m`` moves ``c``, the only card of an idle depot ``S``, onto a depot ``T`` that is no win
depot. The search plays it only when, in the position ``q`` after it, (a) some move puts a card onto ``T``, or
(b) some move carries ``c`` from ``T`` to a depot ``X`` it could not reach from ``S`` before ``m``, or carries
``c`` on with cards that lay under it in ``T`` (:meth:`IdleMoves.keeps`). Why a won position keeps a winning
line that way: take a shortest winning line ``L``. If it starts with an idle move ``m``, ``c`` must end in a
win depot and ``T`` is none, so a later move involves ``T``; let ``m_k`` be the first. No move in between
involves ``S`` (it is empty, and takes nothing while empty) or ``T``, and each reads only its own piles and cards,
so they are legal with ``c`` still in ``S``; then ``m``, whose legality reads the same piles of ``S`` and ``T`` as
before (a tap reads only its stock and waste), and ``m_k``: the line with ``m`` moved to just before ``m_k``
has the same length and the same positions from ``m_k`` on (an earlier won position would make a shorter
line). Then ``m_k`` puts a card onto ``T`` (a), or it moves ``c`` (``T``'s top) from ``T`` to some ``X``: with
cards under it (b), or alone, and had ``c`` been able to go from ``S`` to ``X`` straight, that one move would
replace the two and shorten the line, so (b). Where the search plays "taps, then a waste card" as one move
(:mod:`.stock_moves`), the lines are of such moves, and one of them that puts its waste card onto ``T`` is a
use (a) too. An idle move so moved stays just before its ``m_k`` while the moves before it are moved past it
(no idle move that is moved involves its ``T``: its own ``m_k`` would be that one), so after as many moves as
the line has idle moves, the line starts with a move that is not idle or with one the search plays. A
depth-first search with a transposition table then finds a win from every won position it stores: of the
stored won positions, one whose shortest winning line is shortest has a searched child with a shorter one. The
test reads only the position, so a "lost" of the search is a proof.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from ..engine.moves import Drag
from ..expr import ast as expr_ast
from ..expr import parse
from ..model import EjectKind
from .dominance import _CONSTANTS, _replaced, _source_atoms, depot_takes

LOCAL_NAMES = frozenset({
    "card", "top", "depot", "source", "cards", "count", "empty", "exists", "rank", "suit", "color", "value",
    "chain", "it", "prev", "descending", "ascending", "alternating", "sameSuit",
}) | _CONSTANTS
"""The names a rule of a local design may use (module doc): the move's cards, the target's pile and the
source's; a group or depot may be named only in the parts that read the move's ``source``."""


def _local(text: str, game: Any) -> bool:
    """Whether the rule ``text`` reads only the move's cards, its target's pile and its source's."""
    node = parse(text)
    groups = set(game.members) | set(game.names)
    atoms = _source_atoms(node)
    for atom in atoms:  # ``source in Foundation``, ``source == waste``, or a part reading no other depot
        names = expr_ast.names(atom)
        if not (names <= LOCAL_NAMES or names <= {"source"} | groups):
            return False
    rest = _replaced(node, {id(atom): True for atom in atoms})  # what the rule reads outside its source parts
    return expr_ast.names(rest) <= LOCAL_NAMES


@dataclasses.dataclass(frozen=True)
class IdleMoves:
    """The idle depots of a local design (module doc), by name, and its win depots."""

    idle: frozenset[str]
    sinks: frozenset[str]
    index: dict[str, int]
    eager: bool = False
    """Whether :meth:`keeps` leaves out the stock's plays (a waste card onto the target after taps): a narrower
    search, no longer complete (its "lost" proves nothing), for the portfolio's eager restarts
    (``tableau_search.EAGER_IDLE``)."""

    def idle_move(self, piles: Any, move: Any) -> bool:
        """Whether ``move`` (of the position of ``piles``) is an idle move (module doc)."""
        return (
            type(move) is Drag and move.source in self.idle and move.target not in self.sinks
            and len(piles[self.index[move.source]]) == 1
        )

    def keeps(self, moves: list[Any], move: Any, child: Any, stock: Any = None) -> bool:
        """Whether the idle move ``move``, one of ``moves`` (its position's), which led to ``child``, is searched:
        a move of ``child`` puts a card onto its target, carries the card on with cards under it, or alone to a
        depot it could not reach from its source, or (where ``stock``, the search's
        :class:`.stock_moves.StockMoves`, plays "taps, then a waste card" as one move) such a play puts the
        waste card onto its target (module doc)."""
        target = move.target
        for after in child.playable_moves():  # read only
            if type(after) is not Drag:
                continue
            if after.target == target:
                return True
            if after.source == target and (
                after.count > 1 or Drag(move.source, 1, after.target, after.declare) not in moves
            ):
                return True
        if stock is not None and not self.eager:
            for _moves, _base, play, complete in stock.unbuilt_plays(child):
                if not complete or (play is not None and play.target == target):
                    return True
        return False


def idle_moves(game: Any) -> IdleMoves | str:
    """The idle moves of ``game``, or why its design is not of the shape they need (module doc)."""
    if game.triggers or game.actions:
        return "it has triggers or actions"
    drawn: set[int] = set()
    for draw in game.draws:
        if not (game.accept_rules[draw.depot].never and game.accept_rules[draw.to].never):
            return "it draws onto a waste that takes cards, or from a stock that does"
        drawn |= {draw.depot, draw.to}
    if game.win_kind != "allCardsIn":
        return "its win is not allCardsIn"
    if game.loss_when is not None:
        return "it has a loss condition"
    sinks = frozenset(game.win_depots)
    takes = depot_takes(game)
    idle = frozenset(d for d in range(len(game.names)) if d not in sinks and d not in drawn and not takes[d][0])
    if not idle:
        return "no depot is idle (takes no card while empty)"
    for depot in range(len(game.names)):
        accept = game.accept_rules[depot]
        if accept.follow or accept.wild_rank is not None:
            return f"the accept rule of {game.names[depot]} reads more than the move"
        if accept.when is not None and not _local(accept.when.text, game):
            return f"the accept rule of {game.names[depot]} reads other depots"
        eject = game.eject_rules[depot]
        if game.eject_kind[depot] is EjectKind.WHEN and eject.when is not None and not _local(eject.when.text, game):
            return f"the eject rule of {game.names[depot]} reads other depots"
    names = game.names
    return IdleMoves(
        frozenset(names[d] for d in idle), frozenset(names[d] for d in sinks), {name: i for i, name in enumerate(names)}
    )
