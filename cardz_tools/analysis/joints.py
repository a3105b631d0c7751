"""Which cards move together: the pair table of the eject rules, for the search's move ordering.

Spider builds down in any suit but moves only runs in one suit: a Five of hearts on a Six of
spades is legal to build and yet stuck there. The ordering score of :mod:`.tableau_search`
counts the cards lying on a card no rule builds them on; :func:`joint_table` lets it count
too the cards their pile would not let go of together with the card below. It is read off
the compiled eject rules by evaluating each on every two-card run (a rule that reads more than
the run sees a two-card pile). It only orders the search, so it needs no proof: a design whose
rules cannot be evaluated so simply gets no table.
"""

from __future__ import annotations

from typing import Any

from ..cards import FACE_UP, identity, standard_deck
from ..model import EjectKind
from .dominance import card_bits


def joint_table(game: Any, depots: tuple[int, ...]) -> dict[int, int] | None:
    """``table[below]``: the mask (bits of :func:`.dominance.card_bits`) of the cards that every
    ``when`` eject rule of ``depots`` lets go together with ``below`` under them; None when no
    such rule restricts a pair (or one cannot be evaluated)."""
    cards = tuple(identity(c) for c in standard_deck())
    bit = card_bits()
    everything = (1 << len(cards)) - 1
    table = {card: everything for card in cards}
    root = game.new_initial_state(seed=0)
    piles: list[tuple[int, ...]] = [()] * len(game.names)
    seen: set[int] = set()
    restricted = False
    for depot in depots:
        when = game.eject_when[depot]
        if game.eject_kind[depot] is not EjectKind.WHEN or when is None or id(when) in seen:
            continue
        seen.add(id(when))
        for below in cards:
            allowed = 0
            for card in cards:
                if card == below:
                    continue
                run = (below | FACE_UP, card | FACE_UP)
                piles[depot] = run
                try:
                    if when(piles, root, run[0], run, depot):
                        allowed |= bit[card]
                except Exception:  # a rule that cannot read a two-card pile: no table  # noqa: BLE001
                    return None
            if allowed != everything:
                restricted = True
            table[below] &= allowed
        piles[depot] = ()
    return table if restricted else None
