"""The plain interpreted rules: listing moves and settling triggers as ordinary loops, no generated code.

``Game(design, generated=False)`` plays with these instead of the generated move lister
(``lister.py``) and settle pass (``triggers.py``). They do what ``docs/format.md`` says
in the most direct way: every depot a possible target (no static filter), every rule
called whole, every trigger of every depot tested in every pass. The generated code
must agree with them move for move; the golden playthroughs and the playout tests run
in both modes.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..cards import RANK_OF, Card
from ..model import EjectKind
from .moves import Move
from .plan import GamePlan, MoveLister, Settle
from .state import State


def move_lister(game: GamePlan) -> MoveLister:
    """``lister(P, S)``: the legal moves in the documented order, each checked by the state's own rules.

    Drags by source, run length, target and named suit, then taps by depot (a depot's draw
    before its actions).
    """
    size = len(game.names)

    def list_moves(piles: Sequence[tuple[Card, ...]], state: State) -> list[Move]:
        moves: list[Move] = []
        for source in range(size):
            pile = piles[source]
            if not pile or game.eject_kind[source] is EjectKind.LOCKED:
                continue
            for count in state.run_lengths(source, pile):
                cards = pile[-count:]
                card = cards[0]
                for target in range(size):
                    if target == source or game.accept_rules[target].never:
                        continue
                    if state.accept_refusal(source, target, card, cards) is not None:
                        continue
                    if game.wild_declares[target] == RANK_OF[card]:
                        moves.extend(game.declarations(source, count, target))
                    else:
                        moves.append(game.drag_move(source, count, target, None))
        moves.extend(tap.move for tap in game.taps if state.tap_refusal(tap) is None)
        return moves

    return list_moves


def settler(game: GamePlan, limit: int) -> Settle:
    """``settle(P, S)``: passes over every trigger in depot order (file order within a depot),
    firing each whose rule holds, until a pass fires none.

    More than ``limit`` firings, or a pass that fires yet leaves the piles and named suits as
    they were, is a cascade that does not settle: ``S.cascade`` is set and settling stops.
    """

    def settle(piles: list[tuple[Card, ...]], state: State) -> None:
        fired = 0
        while True:
            piles_before, declared_before = list(piles), list(state.declared)
            fired_before = fired
            for trigger in game.triggers:
                if not trigger.when(piles, state, trigger.depot):
                    continue
                for effect in trigger.effects:
                    effect.run(state, trigger.depot)
                fired += 1
                if state.stats is not None:
                    state.stats[trigger.stat] += 1
                if fired > limit:
                    state.cascade = True
                    return
            if fired == fired_before:
                state.touched = set()
                return
            if piles == piles_before and state.declared == declared_before:
                state.cascade = True
                return

    return settle
