"""Eject rules that let go of every face-up run there is: ``chain(cards, ...)`` columns that only ever hold chains.

Northwest Territory's columns move "a run down in alternate colours" (``chain(cards, it.color != prev.color &&
it.rank == prev.rank - 1)``) and build down in alternate colours. Their face-up cards are always such a run, so
the rule lets go of exactly what ``faceUp`` would: pieces written for ``faceUp`` columns (:mod:`.split_moves`)
apply there. :func:`face_up_runs` finds the depots where that holds from the compiled rules; the first position
is checked on its own (:func:`holds_at`), since the deal may lay out any cards face up.

Why (the invariant ``I``: in each such column the face-up cards lie above every face-down one, and each two
neighbours of them pass the eject rule as a run of two). The eject rule is a conjunction of run tests of
``cards`` that read each two neighbours of the run only (:func:`.engine.lister.suffix_closed`) and nothing of the
board, and it lets every single card go: then under ``I`` every face-up run at the top passes, and the engine
(which drags face-up cards only) lets go of the same runs as ``faceUp``. ``I`` holds after every move: a drag off
a column leaves part of its face-up run, and ``autoFlipTop`` turns a top only when no face-up card is left under
it; a drag onto a column brings a run that passed the rule (from a depot of the same entry) or a single card
(every other depot that gives cards up gives only its top: ``locked`` or ``topOnly``), and its bottom card goes
on the top only where the accept rule allows it, which is checked, by evaluating the rule's card-and-top part
(:func:`.dominance.card_and_top_part`, which allows at least what the rule allows) on every two cards (twins
too), to imply that the two pass the eject rule. No trigger, action or draw may touch the columns (no effect
rearranges them behind the rules' back).
"""

from __future__ import annotations

import functools
from typing import Any

from ..cards import FACE_UP, identity, standard_deck
from ..engine.lister import suffix_closed
from ..engine.rules import Site, compile_rule
from ..expr import parse
from ..model import EjectKind, Expr
from .dominance import _CARD_NAMES, _RUN_PREDICATES, _names, card_and_top_part

_RUN_NAMES = (_CARD_NAMES - {"top", "depot", "empty", "card"}) | _RUN_PREDICATES | {"cards", "it", "prev"}
"""What an eject rule may read to be judged here: the run's cards and constants, nothing of the board."""


@functools.lru_cache(maxsize=16)
def face_up_runs(game: Any) -> frozenset[int] | str:
    """The depots whose ``when`` eject rule lets go of exactly the face-up runs on every position reached from a
    first position where :func:`holds_at` (module doc), or why there are none (a reason for ``--verbose``)."""
    if game.triggers or game.actions:
        return "it has triggers or actions"
    if game.design.jokers:
        return "it plays with jokers"  # the checks below go over the cards of a standard deck
    depots = [d for d, kind in enumerate(game.eject_kind) if kind is EjectKind.WHEN]
    if not depots:
        return "no eject rule is a run test"
    entries = {id(game.design.depots[d].spec) for d in depots}
    if len(entries) > 1:
        return "the run tests are of more than one entry"
    drawn = {d for draw in game.draws for d in (draw.depot, draw.to)}
    if drawn & set(depots):
        return "a draw puts cards on the depots of the run test"
    others = [d for d in range(len(game.names)) if d not in depots]
    if any(game.eject_kind[d] not in (EjectKind.LOCKED, EjectKind.TOP_ONLY) for d in others):
        return "another depot gives up runs"
    when = game.eject_rules[depots[0]].when
    tree = parse(when.text)
    if not suffix_closed(tree) or not _names(tree) <= _RUN_NAMES:
        return "the eject rule reads more than the neighbours of the run"
    cards = tuple(identity(c) | FACE_UP for c in standard_deck())
    column = depots[0]
    root = game.new_initial_state(seed=0)  # the state argument rules get; these read none of it
    piles: list[tuple[int, ...]] = [()] * len(game.names)
    passes = game.eject_when[column]
    if not all(passes(piles, root, card, (card,), column) for card in cards):
        return "the eject rule refuses a single card"
    try:
        part = card_and_top_part(game.accept_rules[column])
    except ValueError:
        part = None
    if part is None:
        return "the accept rule has no part that reads only the card and the top"
    accepts = compile_rule(Expr(part, game.design.depots[column].spec.pointer), Site.ACCEPT, game.design)
    for top in cards:
        piles[column] = (top,)
        for card in cards:
            if accepts(piles, root, card, (card,), column, column) and not passes(
                piles, root, top, (top, card), column
            ):
                return "the accept rule builds a card on one the eject rule would not let go with it"
    return frozenset(depots)


def holds_at(game: Any, depots: frozenset[int], state: Any) -> bool:
    """Whether ``state`` satisfies the invariant of the module doc on ``depots`` (:func:`face_up_runs`)."""
    for depot in depots:
        pile = state.piles[depot]
        up = 0
        while up < len(pile) and pile[-1 - up] & FACE_UP:
            up += 1
        if any(card & FACE_UP for card in pile[: len(pile) - up]):
            return False
        if up > 1 and state.run_lengths(depot, pile)[-1:] != [up]:
            return False
    return True
