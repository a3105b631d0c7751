"""The engine: plays any design deterministically from a seed or a given deck order.

>>> from cardz_tools.engine import Game            # doctest: +SKIP
>>> state = Game(design).new_initial_state(seed=7)  # doctest: +SKIP
>>> state.apply(state.legal_moves()[0])             # doctest: +SKIP
"""

from .deal import DeckError, deck_for
from .game import Game
from .moves import Drag, IllegalMoveError, Move, Tap
from .rules import RuleError, Site
from .state import Outcome, State, Termination

__all__ = [
    "DeckError",
    "Drag",
    "Game",
    "IllegalMoveError",
    "Move",
    "Outcome",
    "RuleError",
    "Site",
    "State",
    "Tap",
    "Termination",
    "deck_for",
]
