"""The compiled plan of a game: the records ``Game`` builds once, and what the rest of the engine reads of it.

``game.py`` builds these; ``state.py``, ``render.py``, ``lister.py``, ``triggers.py`` and
``effects.py`` read them. They all import this module, not ``game.py``, so no module
of the engine imports one above it: :class:`GamePlan` is the ``Game`` as they see it
(``Game`` satisfies it), :class:`EffectState` the ``State`` as an effect sees it.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Sequence
from typing import Any, ClassVar, NamedTuple, Protocol

from ..cards import Card, Suit
from ..model import AcceptRule, Design, EjectKind, EjectRule
from .deal import DealPlan
from .moves import Drag, Move, Tap
from .rules import Compiled

MoveLister = Callable[[Sequence[tuple[Card, ...]], Any], list[Move]]
"""``move_lister(P, S)``: every legal move of a state, generated per game (lister.py)."""
Settle = Callable[[list[tuple[Card, ...]], Any], None]
"""``settle(P, S)``: fire triggers until none holds, starting from the depots in ``S.touched``
(those the move changed); sets ``S.cascade`` on a runaway (generated per game, triggers.py)."""


class EffectState(Protocol):
    """What an effect reads and changes of a state (:class:`~cardz_tools.engine.state.State` is one)."""

    piles: list[tuple[Card, ...]]
    seed: int | None
    reshuffles: int

    @property
    def game(self) -> GamePlan: ...

    def transfer(self, source: int, target: int, count: int, face_up: bool | None = None) -> None: ...

    def set_pile(self, depot: int, pile: tuple[Card, ...]) -> None: ...

    def changed(self, depots: Iterable[int]) -> None: ...


class InlineEffect(NamedTuple):
    """An effect written out for generated code."""

    lines: tuple[str, ...]
    """Python lines doing what the effect's ``run`` does (``S`` the state, ``P`` its piles)."""
    depots: tuple[int, ...]
    """The depots the lines may change (-1 for the owner)."""


class CompiledEffect(Protocol):
    """One compiled effect of a trigger or an action (effects.py)."""

    def run(self, state: EffectState, owner: int) -> None:
        """Change ``state``; ``owner`` is the ``@self`` depot."""

    def inline(self, owner: str) -> InlineEffect | None:
        """The effect written out (``owner``: the local holding the ``@self`` depot), or None
        when generated code must call :meth:`run`."""


class Target(NamedTuple):
    """A depot a source's cards may be dragged to (the static filter allowed the pair)."""

    depot: int
    single: bool
    wild_declares: int
    """The wild rank whose card names a suit here, or -1."""
    move: Drag
    """The interned one-card move without a declaration."""


class DragSource(NamedTuple):
    """A depot cards may be dragged off, with its candidate targets."""

    source: int
    targets: tuple[Target, ...]
    top_only: bool
    """Its eject rule is ``topOnly``."""
    plain: bool
    """No target makes a wild card name a suit (one move per accepting target)."""


@dataclasses.dataclass(frozen=True, slots=True)
class CompiledAction:
    """A named tap, compiled."""

    depot: int
    name: str
    when: Compiled | None
    effects: tuple[CompiledEffect, ...]
    limit: int | None
    slot: int
    """Index of its use counter in :attr:`State.uses`."""
    move: Tap
    stat: str
    draws: ClassVar[bool] = False
    """A draw, not an action (the same attribute on :class:`CompiledDraw`)."""


class CompiledTrigger(NamedTuple):
    """A trigger, compiled (a named tuple for the same reason as :class:`Target`)."""

    depot: int
    when: Compiled
    effects: tuple[CompiledEffect, ...]
    stat: str
    local: bool
    """The rule reads only its own depot: re-check it only after that pile changed."""


@dataclasses.dataclass(frozen=True, slots=True)
class CompiledDraw:
    """A stock's draw, compiled."""

    depot: int
    to: int
    count: int
    redeals: int
    face_up: bool
    move: Tap
    stat: str
    draws: ClassVar[bool] = True
    """A draw, not an action (the same attribute on :class:`CompiledAction`)."""


CompiledTap = CompiledDraw | CompiledAction
"""What a tap on a depot does: draw from a stock, or run a named action."""


class GamePlan(Protocol):
    """The compiled game as the state, the renderer and the code generators read it.

    :class:`~cardz_tools.engine.game.Game` builds every table once; per-depot tables are
    indexed by depot index.
    """

    @property
    def design(self) -> Design: ...
    @property
    def names(self) -> tuple[str, ...]: ...
    @property
    def index(self) -> dict[str, int]: ...
    @property
    def accept_rules(self) -> tuple[AcceptRule, ...]: ...
    @property
    def accept_when(self) -> Sequence[Compiled | None]: ...
    @property
    def accept_stat(self) -> tuple[str, ...]: ...
    @property
    def eject_rules(self) -> tuple[EjectRule, ...]: ...
    @property
    def eject_kind(self) -> tuple[EjectKind, ...]: ...
    @property
    def eject_when(self) -> tuple[Compiled | None, ...]: ...
    @property
    def auto_flip(self) -> tuple[bool, ...]: ...
    @property
    def wild_declares(self) -> tuple[int, ...]: ...
    @property
    def has_declarations(self) -> bool: ...
    @property
    def drag_plan(self) -> tuple[DragSource, ...]: ...
    @property
    def drag_indexes(self) -> dict[int, tuple[int, int, int, int]]: ...
    @property
    def draws(self) -> tuple[CompiledDraw, ...]: ...
    @property
    def actions(self) -> tuple[CompiledAction, ...]: ...
    @property
    def taps(self) -> tuple[CompiledTap, ...]: ...
    @property
    def draw_of(self) -> dict[int, CompiledDraw]: ...
    @property
    def action_of(self) -> dict[tuple[int, str], CompiledAction]: ...
    @property
    def tap_of(self) -> dict[int, CompiledTap]: ...
    @property
    def triggers(self) -> tuple[CompiledTrigger, ...]: ...
    @property
    def triggers_of(self) -> tuple[tuple[CompiledTrigger, ...], ...]: ...
    @property
    def has_trigger(self) -> tuple[bool, ...]: ...
    @property
    def always_checked(self) -> tuple[int, ...]: ...
    @property
    def deal_plan(self) -> DealPlan: ...
    @property
    def move_lister(self) -> MoveLister: ...
    @property
    def settle(self) -> Settle: ...
    @property
    def won(self) -> Compiled: ...
    @property
    def loss_when(self) -> Compiled | None: ...
    @property
    def loss_no_progress(self) -> bool:
        """Whether the loss condition is ``noProgress`` (engine/progress.py)."""
    @property
    def score_rule(self) -> Compiled: ...

    def drag_move(self, source: int, count: int, target: int, declare: Suit | None) -> Drag:
        """The interned :class:`Drag` for these depot indexes."""

    def declarations(self, source: int, count: int, target: int) -> tuple[Drag, ...]:
        """The moves of a wild card onto a declaring depot: one per suit it can name."""
