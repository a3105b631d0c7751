"""The Game: a design with every rule compiled once, ready to deal states.

Everything the hot loop of a playout needs is precomputed here: per source the
candidate targets (depots whose accept rule is ``"none"`` and pairs the static filter
rules out are never candidates) with the interned move objects, and from them the
generated move lister and settle pass (``lister.py``, ``triggers.py``), so that
listing legal moves allocates only the list.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Sequence
from typing import ClassVar, NamedTuple

from ..cards import SUITS, Card, Suit
from ..model import Design, EjectKind
from .deal import DealPlan, deck_for
from .effects import CompiledEffect, compile_effects
from .lister import build_move_lister
from .moves import Drag, Tap
from .rules import Compiled, RuleError, Site, compile_rule, is_local, static_filter
from .state import MAX_TRIGGER_FIRINGS, State
from .triggers import build_settle


class Target(NamedTuple):
    """A depot a source's cards may be dragged to (the static filter allowed the pair)."""

    depot: int
    single: bool
    wild_declares: int
    """The wild rank whose card names a suit here, or -1."""
    move: Drag
    """The interned one-card move without a declaration."""


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


class DragSource(NamedTuple):
    """A depot cards may be dragged off, with its candidate targets."""

    source: int
    targets: tuple[Target, ...]
    top_only: bool
    """Its eject rule is ``topOnly``."""
    plain: bool
    """No target makes a wild card name a suit (one move per accepting target)."""


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


class Game:
    """A design with its rules compiled; deals :class:`State` objects.

    :raises RuleError: when a rule does not compile or uses a kind the engine does not know.
    """

    def __init__(self, design: Design) -> None:
        self.design = design
        depots = design.depots
        self.names: tuple[str, ...] = tuple(d.name for d in depots)
        self.index: dict[str, int] = {name: i for i, name in enumerate(self.names)}
        self.members: dict[str, tuple[int, ...]] = design.group_members()
        n = len(depots)

        self.accept_never = tuple(d.spec.accept.never for d in depots)
        self.accept_rules = tuple(d.spec.accept for d in depots)
        self.eject_rules = tuple(d.spec.eject for d in depots)
        self.auto_flip = tuple(d.spec.auto_flip_top for d in depots)
        self.wild_declares = tuple(
            int(d.spec.accept.wild_rank)
            if d.spec.accept.wild_rank is not None and d.spec.accept.wild_declares == "suit"
            else -1
            for d in depots
        )
        self.has_declarations = any(w >= 0 for w in self.wild_declares)

        when_cache: dict[int, Compiled] = {}
        self.accept_when: list[Compiled | None] = []
        """The full accept rule of each depot (for reasons and the static filter; the lister inlines it)."""
        for d in depots:
            accept = d.spec.accept
            when = None
            if accept.when is not None:
                key = id(d.spec)
                if key not in when_cache:
                    when_cache[key] = compile_rule(accept.when, Site.ACCEPT, design)
                when = when_cache[key]
            self.accept_when.append(when)

        eject_cache: dict[int, Compiled] = {}
        eject_when: list[Compiled | None] = []
        for d in depots:
            eject = d.spec.eject
            if eject.kind is EjectKind.WHEN and eject.when is not None:
                if id(d.spec) not in eject_cache:
                    eject_cache[id(d.spec)] = compile_rule(eject.when, Site.EJECT, design)
                eject_when.append(eject_cache[id(d.spec)])
            else:
                eject_when.append(None)
        self.eject_when: tuple[Compiled | None, ...] = tuple(eject_when)
        self.eject_kind: tuple[EjectKind, ...] = tuple(d.spec.eject.kind for d in depots)

        filters = [static_filter(when) if when is not None else None for when in self.accept_when]
        self._drags: dict[tuple[int, int, int, int], Drag] = {}
        self.drag_indexes: dict[int, tuple[int, int, int, int]] = {}
        """``id(move)`` of every interned drag -> (source, target, count, named suit or -1)."""
        plan: list[DragSource] = []
        for source in range(n):
            if self.eject_kind[source] is EjectKind.LOCKED:
                continue
            targets = tuple(
                Target(
                    depot=target,
                    single=self.accept_rules[target].single,
                    wild_declares=self.wild_declares[target],
                    move=self.drag_move(source, 1, target, None),
                )
                for target in range(n)
                if not self.accept_rules[target].never
                and target != source
                and (filters[target] is None or filters[target](source, target))  # type: ignore[misc]
            )
            if targets:
                plan.append(
                    DragSource(
                        source,
                        targets,
                        self.eject_kind[source] is EjectKind.TOP_ONLY,
                        all(t.wild_declares < 0 for t in targets),
                    )
                )
        self.drag_plan: tuple[DragSource, ...] = tuple(plan)

        triggers: list[CompiledTrigger] = []
        actions: list[CompiledAction] = []
        draws: list[CompiledDraw] = []
        taps: list[CompiledDraw | CompiledAction] = []
        trigger_pointers: dict[str, str] = {}
        draw_pointers: dict[str, str] = {}
        action_pointers: dict[str, str] = {}
        for d in depots:
            spec = d.spec
            for i, trigger in enumerate(spec.triggers):
                when = compile_rule(trigger.when, Site.TRIGGER, design)
                stat = f"trigger:{spec.name}#{i}"
                trigger_pointers[stat] = f"{spec.pointer}/triggers/{i}"
                triggers.append(
                    CompiledTrigger(
                        depot=d.index,
                        when=when,
                        effects=compile_effects(trigger.effects, design),
                        stat=stat,
                        local=is_local(when),
                    )
                )
            if spec.draw is not None:
                to = design.resolve(spec.draw.to)
                if not to or len(to) != 1:
                    raise RuleError(f"the draw target '{spec.draw.to}' must name one depot", f"{spec.draw.pointer}/to")
                draw = CompiledDraw(
                    depot=d.index,
                    to=to[0],
                    count=max(spec.draw.count, 1),
                    redeals=spec.draw.redeals,
                    face_up=spec.draw.face_up,
                    move=Tap(d.name, None),
                    stat=f"draw:{spec.name}",
                )
                draws.append(draw)
                taps.append(draw)
                draw_pointers[draw.stat] = spec.draw.pointer
            for action in spec.actions:
                compiled = CompiledAction(
                    depot=d.index,
                    name=action.name,
                    when=compile_rule(action.when, Site.ACTION, design) if action.when else None,
                    effects=compile_effects(action.effects, design),
                    limit=action.limit,
                    slot=len(actions),
                    move=Tap(d.name, action.name),
                    stat=f"action:{spec.name}.{action.name}",
                )
                actions.append(compiled)
                taps.append(compiled)
                action_pointers[compiled.stat] = action.pointer
        self.triggers: tuple[CompiledTrigger, ...] = tuple(triggers)
        by_depot: list[list[CompiledTrigger]] = [[] for _ in range(n)]
        for compiled_trigger in triggers:
            by_depot[compiled_trigger.depot].append(compiled_trigger)
        self.triggers_of: tuple[tuple[CompiledTrigger, ...], ...] = tuple(tuple(t) for t in by_depot)
        """Per depot, its triggers in file order."""
        self.has_trigger: tuple[bool, ...] = tuple(bool(t) for t in self.triggers_of)
        """Per depot, whether it has a trigger (settling looks only at touched depots that do)."""
        self.always_checked: tuple[int, ...] = tuple(sorted({t.depot for t in triggers if not t.local}))
        """Depots with a trigger that is not local: checked in every settle pass."""
        self.settle, self.settle_source = build_settle(self, design, MAX_TRIGGER_FIRINGS)
        """``settle(P, S)``: the passes of settling triggers, generated (see triggers.py)."""
        self.actions: tuple[CompiledAction, ...] = tuple(actions)
        self.draws: tuple[CompiledDraw, ...] = tuple(draws)
        self.taps: tuple[CompiledDraw | CompiledAction, ...] = tuple(taps)
        self.draw_of: dict[int, CompiledDraw] = {draw.depot: draw for draw in draws}
        self.action_of: dict[tuple[int, str], CompiledAction] = {(a.depot, a.name): a for a in actions}
        self.tap_of: dict[int, CompiledDraw | CompiledAction] = {id(tap.move): tap for tap in taps}
        """``id(move)`` of every interned tap -> what it does."""
        tap_rank = {tap.move: rank for rank, tap in enumerate(taps)}
        self._tap_rank = tap_rank
        self.accept_stat = tuple(f"accept:{d.spec.name}" for d in depots)
        self.rule_pointers: dict[str, str] = {
            f"accept:{spec.name}": f"{spec.pointer}/acceptRule" for spec in design.specs if not spec.accept.never
        }
        """Every rule that can fire: its stats key (``trigger:cell#0``) -> its JSON pointer in the design."""
        for pointers in (trigger_pointers, draw_pointers, action_pointers):
            self.rule_pointers.update(pointers)

        self.move_lister, self.move_lister_source = build_move_lister(self, design)
        """``move_lister(P, S)``: every legal move in order, generated from ``drag_plan`` and ``taps`` (see lister.py)."""
        self.deal_plan = DealPlan.compile(design)
        self._compile_conditions()

    def _compile_conditions(self) -> None:
        design = self.design
        win = design.win
        self.win_depots: tuple[int, ...] = ()
        self.win_when: Compiled | None = None
        if win.kind in ("allCardsIn", "depotsEmpty"):
            members = design.resolve(win.depots or "")
            if members is None:
                raise RuleError(f"'{win.depots}' names no depot, group or type", f"{win.pointer}/depots")
            self.win_depots = members
        elif win.kind == "when" and win.when is not None:
            self.win_when = compile_rule(win.when, Site.WIN, design)
        else:
            raise RuleError(f"the engine does not know the win condition {win.kind!r}", f"{win.pointer}/kind")
        self.win_kind = win.kind
        self.won: Compiled = _win_test(win.kind, self.win_depots, self.win_when)
        """``won(P, S)``: whether the win condition holds."""
        loss = design.loss
        self.loss_when: Compiled | None = None
        if loss.kind == "when" and loss.when is not None:
            self.loss_when = compile_rule(loss.when, Site.LOSS, design)
        elif loss.kind not in ("noLegalMoves", "never", "noProgress"):
            raise RuleError(f"the engine does not know the loss condition {loss.kind!r}", f"{loss.pointer}/kind")
        self.loss_no_progress = loss.kind == "noProgress"
        """Whether the player gives up where no sequence of moves ends the game (engine/progress.py)."""
        self.score_rule: Compiled = compile_rule(design.scoring.value, Site.SCORING, design)

    def move_order(self, move: Drag | Tap) -> int:
        """Sort key that keeps drags in place and taps in depot order (draw, then actions)."""
        return self._tap_rank.get(move, -1)  # type: ignore[arg-type]

    def rule_labels(self) -> list[str]:
        """The stats key of every rule that can fire (for "rule never fired" findings)."""
        return list(self.rule_pointers)

    def drag_move(self, source: int, count: int, target: int, declare: Suit | None) -> Drag:
        """The interned :class:`Drag` for these depot indexes."""
        key = (source, count, target, -1 if declare is None else int(declare))
        move = self._drags.get(key)
        if move is None:
            move = self._drags[key] = Drag(self.names[source], count, self.names[target], declare)
            self.drag_indexes[id(move)] = (source, target, count, -1 if declare is None else int(declare))
        return move

    def declarations(self, source: int, count: int, target: int) -> tuple[Drag, ...]:
        """The moves of a wild card onto a declaring depot: one per suit it can name."""
        return tuple(self.drag_move(source, count, target, suit) for suit in SUITS)

    def new_initial_state(self, seed: int | None = None, deck: Sequence[Card] | None = None) -> State:
        """Deal a new game from ``deck`` (checked against the design) or the shuffle of ``seed``.

        With neither, a random seed is drawn (and kept in :attr:`State.seed`).

        :raises DeckError: for a deck that is not the design's, or cards left without a Stock.
        """
        if deck is None and seed is None:
            seed = random.SystemRandom().getrandbits(63)
        order = deck_for(self.design, seed, deck)
        return State.deal(self, order, seed if deck is None else None)

    def __repr__(self) -> str:
        return f"Game({self.design.name!r}, {len(self.names)} depots)"



def _win_test(kind: str, depots: tuple[int, ...], when: Compiled | None) -> Compiled:
    """The win condition as one call: ``won(P, S)``."""
    if kind == "allCardsIn":
        if len(depots) == 1:
            (only,) = depots

            def all_in_one(P: Sequence[tuple[Card, ...]], S: State) -> bool:
                return len(P[only]) >= S.cards_in_play

            return all_in_one

        def all_in(P: Sequence[tuple[Card, ...]], S: State) -> bool:
            held = 0
            for depot in depots:
                held += len(P[depot])
            return held >= S.cards_in_play

        return all_in
    if kind == "depotsEmpty":

        def emptied(P: Sequence[tuple[Card, ...]], S: State) -> bool:
            for depot in depots:
                if P[depot]:
                    return False
            return True

        return emptied
    assert when is not None
    return when
