"""Moves as typed text: ``cell[3] cell[8]``, ``waste vane hearts``, ``tap stock``, ``stock: consolidate``.

The terminal player and the golden playthroughs both write moves this way.
"""

from __future__ import annotations

import re

from ..cards import SUIT_NAMES, Suit
from .moves import Drag, Move, Tap

_SUIT_WORDS: dict[str, Suit] = {name.lower(): suit for name, suit in SUIT_NAMES.items()}
_SUIT_WORDS.update({"c": Suit.CLUBS, "d": Suit.DIAMONDS, "h": Suit.HEARTS, "s": Suit.SPADES})
_SUIT_WORDS.update({"♣": Suit.CLUBS, "♦": Suit.DIAMONDS, "♥": Suit.HEARTS, "♠": Suit.SPADES})


class MoveSyntaxError(ValueError):
    """Text that is not a move."""


def parse_move(text: str, depot_names: set[str] | frozenset[str] | tuple[str, ...]) -> Move:
    """Read a move typed as ``FROM TO [COUNT] [SUIT]`` or ``tap DEPOT [ACTION]``.

    ``→``, ``->`` and ``:`` may separate the parts. Whether the move is legal is
    not checked here (see :meth:`State.why_illegal`).

    :raises MoveSyntaxError: when the words do not make a move.
    """
    words = [w for w in re.split(r"[\s,:]+|→|->", text.strip()) if w]
    if not words:
        raise MoveSyntaxError("type a move such as 'cell[3] cell[8]' or 'tap stock'")
    names = set(depot_names)
    if words[0].lower() == "tap":
        words = words[1:]
        if not words:
            raise MoveSyntaxError("tap which depot?")
    if len(words) <= 2 and words[0] in names and (len(words) == 1 or words[1] not in names):
        return Tap(words[0], words[1] if len(words) == 2 else None)
    if len(words) < 2:
        raise MoveSyntaxError(f"{words[0]!r} is not a depot")
    source, target, rest = words[0], words[1], words[2:]
    for name in (source, target):
        if name not in names:
            raise MoveSyntaxError(f"there is no depot named {name!r}")
    count, declare = 1, None
    for word in rest:
        if word.isdigit():
            count = int(word)
        elif word.lower() in _SUIT_WORDS:
            declare = _SUIT_WORDS[word.lower()]
        elif word.lower() == "naming":
            continue
        else:
            raise MoveSyntaxError(f"{word!r} is neither a card count nor a suit")
    return Drag(source, count, target, declare)
