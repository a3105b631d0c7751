"""Moves a player can make: drag cards between depots, or tap a depot.

Moves name depots by their :attr:`~cardz_tools.model.Depot.name` (``cell[3]``),
so that a move reads the same in a test, a golden file and the terminal player.
Moves are small frozen values; the engine interns the ones it generates, so a
list of legal moves allocates nothing but the list itself.
"""

from __future__ import annotations

import dataclasses

from ..cards import Suit


class IllegalMoveError(ValueError):
    """Raised by :meth:`State.apply` for a move the rules refuse; the message is the reason."""


@dataclasses.dataclass(frozen=True, slots=True)
class Drag:
    """Drag the top ``count`` cards of ``source`` onto ``target``.

    ``declare`` is the suit a wild card names as it lands (``None`` when the
    target's accept rule does not ask for one).
    """

    source: str
    count: int
    target: str
    declare: Suit | None = None

    def __str__(self) -> str:
        cards = "" if self.count == 1 else f" ({self.count} cards)"
        naming = f" (naming {self.declare.title})" if self.declare is not None else ""
        return f"{self.source} → {self.target}{cards}{naming}"


@dataclasses.dataclass(frozen=True, slots=True)
class Tap:
    """Tap ``depot``: its named ``action``, or its draw when ``action`` is None."""

    depot: str
    action: str | None = None

    def __str__(self) -> str:
        return f"tap {self.depot}" if self.action is None else f"tap {self.depot}: {self.action}"


Move = Drag | Tap
"""Any move."""
