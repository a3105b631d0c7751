"""Moves out of an idle depot, searched only together with the next move that touches their target.

An *idle* depot takes no cards (its accept rule is ``never``) and is no win depot: King Albert's
reserve, whose seven cards each lie alone and may be played but never covered. Moving ``c``, the
only card of an idle depot ``S``, onto a depot ``T`` that is no win depot changes nothing any other
move can read but the piles of ``S`` and ``T``, when the design is *local*: no triggers, actions or
draws, an ``allCardsIn`` win, and every accept and eject rule reads only the move's cards, the
target's pile and the source's (``card``, ``top``, ``depot``, ``source``, ``cards``, ``count``,
``empty`` and the like; a rule naming another depot or a group outside ``source in G`` reads more).

So the search plays such a move ``m`` only as the first of a pair ``(m, m')``, ``m'`` a move of the
position after ``m`` whose source or target is ``T`` (:meth:`DeferredMoves.target`); every other move
is searched as it is. Why a won position keeps a winning line that way: take a shortest winning line
``L`` starting with ``m``. ``c`` must end in a win depot, and ``T`` is none, so a later move involves
``T``; let ``m_k`` be the first. No move in between involves ``S`` (it is empty and takes nothing) or
``T``, and each reads only its own source, target and cards, so ``m_2 ... m_{k-1}`` are legal with
``c`` still in ``S`` and reach the same piles but for ``S`` and ``T``; then ``m``, whose legality reads
the same piles of ``S`` and ``T`` as at the start, and ``m_k``: the line ``m_2 ... m_{k-1} m m_k ...``
has the same length and reaches the same positions from ``m_k`` on (no intermediate position is won:
the win depots hold the same cards as in ``L``). If ``k`` is 2 it starts with a searched pair.
Otherwise it starts with ``m_2``, searched as it is, or with another such move, which is moved on the
same way (each time the run of such moves at the front of the line shrinks, or it ends in a pair
whose second move involves the first one's target). A depth-first search with a transposition table
then finds a win from every won position it stores: of the stored won positions, one whose shortest
winning line is shortest has a searched child (or pair) with a shorter one.
"""

from __future__ import annotations

import dataclasses
import re
from typing import Any

from ..expr import ast as expr_ast
from ..expr import parse
from ..model import EjectKind
from .dominance import _CONSTANTS, _replaced, _source_atoms

_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")

LOCAL_NAMES = frozenset({
    "card", "top", "depot", "source", "cards", "count", "empty", "exists", "rank", "suit", "color", "value",
    "chain", "it", "prev", "descending", "ascending", "alternating", "sameSuit", "in",
}) | _CONSTANTS
"""The names a rule of a local design may use (module doc): the move's cards, the target's pile and the
source's; a group or depot may be named only in the parts that read the move's ``source``."""


def _names(text: str) -> set[str]:
    return set(_IDENTIFIER.findall(text))


def _local(text: str, game: Any) -> bool:
    """Whether the rule ``text`` reads only the move's cards, its target's pile and its source's."""
    node = parse(text)
    groups = set(game.members) | set(game.names)
    atoms = _source_atoms(node)
    for atom in atoms:  # ``source in Foundation``, ``source == waste``, or a part reading no other depot
        names = _names(expr_ast.to_source(atom))
        if not (names <= LOCAL_NAMES or names <= {"source", "in"} | groups):
            return False
    rest = _replaced(node, {id(atom): True for atom in atoms})  # what the rule reads outside its source parts
    return _names(expr_ast.to_source(rest)) <= LOCAL_NAMES


@dataclasses.dataclass(frozen=True)
class DeferredMoves:
    """The idle depots of a local design (module doc) and the names of its depots."""

    idle: frozenset[int]
    sinks: frozenset[int]
    index: dict[str, int]

    def target(self, piles: Any, move: Any) -> str | None:
        """The target of the drag ``move`` when it is searched only in a pair (module doc), else None."""
        source = self.index[move.source]
        if source not in self.idle or len(piles[source]) != 1 or self.index[move.target] in self.sinks:
            return None
        return str(move.target)


def deferred_moves(game: Any) -> DeferredMoves | str:
    """The deferred moves of ``game``, or why its design is not of the shape they need (module doc)."""
    if game.triggers or game.actions:
        return "it has triggers or actions"
    if game.draws:
        return "it draws"
    if game.win_kind != "allCardsIn":
        return "its win is not allCardsIn"
    sinks = frozenset(game.win_depots)
    idle = frozenset(d for d in range(len(game.names)) if game.accept_rules[d].never and d not in sinks)
    if not idle:
        return "no depot is idle (takes no cards)"
    for depot in range(len(game.names)):
        accept = game.accept_rules[depot]
        if accept.follow or accept.wild_rank is not None:
            return f"the accept rule of {game.names[depot]} reads more than the move"
        if accept.when is not None and not _local(accept.when.text, game):
            return f"the accept rule of {game.names[depot]} reads other depots"
        eject = game.eject_rules[depot]
        if game.eject_kind[depot] is EjectKind.WHEN and eject.when is not None and not _local(eject.when.text, game):
            return f"the eject rule of {game.names[depot]} reads other depots"
    return DeferredMoves(idle, sinks, {name: i for i, name in enumerate(game.names)})
