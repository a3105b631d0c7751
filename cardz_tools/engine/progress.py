"""Whether play can still end, and the ``noProgress`` loss condition built on it.

Some games let play go round in circles: Klondike with unlimited passes through the
stock, FreeCell or Spider moving the same cards to and fro. Once nothing the player can
do reaches a win or an end any more, a real player gives up. A design says so with
``"lossCondition": {"kind": "noProgress"}`` (docs/format.md): the game is lost in a
position from which no sequence of moves ends it (every position reachable from there
is searched, up to a bound). Proving that takes a search, so the engine does not test it
after every move: the player (or a playout, at its step bound) asks
:meth:`~.state.State.give_up_if_no_progress`. The solver needs nothing more: its "lost"
already means that no won position is reachable.
"""

from __future__ import annotations

from typing import Any

NO_PROGRESS_BUDGET = 5_000
"""Positions searched to prove that nothing ends the game any more."""


def can_end(state: Any, budget: int = NO_PROGRESS_BUDGET) -> bool | None:
    """Whether some sequence of moves from ``state`` ends the game (won or lost).

    True when a search finds an ending, False when it searched every reachable position
    (at most ``budget``) and none ends, None when the budget ran out first.
    """
    seen = {state.key()}
    stack = [state]
    while stack:
        position = stack.pop()
        if position.is_terminal():
            return True
        for move in position.legal_moves():
            child = position.clone()
            child.apply(move)
            size = len(seen)
            seen.add(child.key())  # one hash of the key, not two (a lookup, then an insertion)
            if len(seen) != size:
                if size >= budget:
                    return None
                stack.append(child)
    return False
