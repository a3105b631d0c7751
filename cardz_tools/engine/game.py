"""The Game: a design with every rule compiled once, ready to deal states.

Everything the hot loop of a playout needs is precomputed here: per source the
candidate targets (depots whose accept rule is ``"none"`` and pairs the static filter
rules out are never candidates) with the interned move objects, and from them the
generated move lister and settle pass (``lister.py``, ``triggers.py``), so that
listing legal moves allocates only the list.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from ..cards import SUITS, Card, Suit
from ..model import Design, EjectKind
from . import interpreted
from .deal import DealPlan, deck_for
from .effects import compile_effects
from .lister import build_move_lister
from .moves import Drag, Tap
from .plan import (
    CompiledAction,
    CompiledDraw,
    CompiledTap,
    CompiledTrigger,
    DragSource,
    MoveLister,
    Settle,
    Target,
)
from .rules import Compiled, RuleError, Site, compile_rule, is_local, static_filter
from .state import MAX_TRIGGER_FIRINGS, State
from .triggers import build_settle


class Game:
    """A design with its rules compiled; deals :class:`State` objects.

    :raises RuleError: when a rule does not compile or uses a kind the engine does not know.
    """

    def __init__(self, design: Design, generated: bool = True) -> None:
        """Compile ``design`` in five phases: accept and eject rules, the drag plan, taps and
        triggers, the rule pointers, and the code the hot loop runs.

        With ``generated`` False the game lists moves and settles triggers with the plain
        interpreted rules (:mod:`.interpreted`) instead of generated code: slower, and there to
        check the generated code against (the two play every game move for move alike).
        """
        self.design = design
        self.generated = generated
        self.names: tuple[str, ...] = tuple(d.name for d in design.depots)
        self.index: dict[str, int] = {name: i for i, name in enumerate(self.names)}
        self.members: dict[str, tuple[int, ...]] = design.group_members()
        self._compile_accept_and_eject()
        self._plan_drags()
        self._compile_taps_and_triggers()
        self._collect_rule_pointers()
        self.deal_plan = DealPlan.compile(design)
        self._compile_conditions()
        self._generate_code()

    def _compile_accept_and_eject(self) -> None:
        """Per depot: its accept and eject rules, compiled once per depot spec (members share one)."""
        design = self.design
        depots = design.depots
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
        accept_of: dict[int, Compiled | None] = {}  # by id() of the spec: a group's members share theirs
        eject_of: dict[int, Compiled | None] = {}
        accept_when: list[Compiled | None] = []
        eject_when: list[Compiled | None] = []
        for d in depots:
            spec = d.spec
            if id(spec) not in accept_of:
                accept = spec.accept.when
                accept_of[id(spec)] = compile_rule(accept, Site.ACCEPT, design) if accept is not None else None
                eject = spec.eject.when if spec.eject.kind is EjectKind.WHEN else None
                eject_of[id(spec)] = compile_rule(eject, Site.EJECT, design) if eject is not None else None
            accept_when.append(accept_of[id(spec)])
            eject_when.append(eject_of[id(spec)])
        self.accept_when: tuple[Compiled | None, ...] = tuple(accept_when)
        """The full accept rule of each depot (for reasons and the static filter; the lister inlines it)."""
        self.eject_when: tuple[Compiled | None, ...] = tuple(eject_when)
        self.eject_kind: tuple[EjectKind, ...] = tuple(d.spec.eject.kind for d in depots)

    def _plan_drags(self) -> None:
        """Per source that can give cards, the targets the static filter allows, with interned moves."""
        n = len(self.names)
        filters = [static_filter(when) if when is not None else None for when in self.accept_when]
        self._drags: dict[tuple[int, int, int, int], Drag] = {}
        self.drag_indexes: dict[int, tuple[int, int, int, int]] = {}
        """``id(move)`` of every interned drag -> (source, target, count, named suit or -1)."""
        plan: list[DragSource] = []
        for source in range(n):
            if self.eject_kind[source] is EjectKind.LOCKED:
                continue
            targets = []
            for target in range(n):
                allows = filters[target]
                if self.accept_rules[target].never or target == source:
                    continue
                if allows is None or allows(source, target):
                    move = self.drag_move(source, 1, target, None)
                    targets.append(Target(target, self.accept_rules[target].single, self.wild_declares[target], move))
            if targets:
                top_only = self.eject_kind[source] is EjectKind.TOP_ONLY
                plan.append(DragSource(source, tuple(targets), top_only, all(t.wild_declares < 0 for t in targets)))
        self.drag_plan: tuple[DragSource, ...] = tuple(plan)

    def _compile_taps_and_triggers(self) -> None:
        """Every trigger, draw and action compiled; the taps in their listing order (by depot, draw first)."""
        design = self.design
        triggers: list[CompiledTrigger] = []
        actions: list[CompiledAction] = []
        draws: list[CompiledDraw] = []
        taps: list[CompiledTap] = []
        for d in design.depots:
            spec = d.spec
            for i, trigger in enumerate(spec.triggers):
                when = compile_rule(trigger.when, Site.TRIGGER, design)
                effects = compile_effects(trigger.effects, design)
                triggers.append(CompiledTrigger(d.index, when, effects, f"trigger:{spec.name}#{i}", is_local(when)))
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
        self.triggers: tuple[CompiledTrigger, ...] = tuple(triggers)
        by_depot: list[list[CompiledTrigger]] = [[] for _ in self.names]
        for compiled_trigger in triggers:
            by_depot[compiled_trigger.depot].append(compiled_trigger)
        self.triggers_of: tuple[tuple[CompiledTrigger, ...], ...] = tuple(tuple(t) for t in by_depot)
        """Per depot, its triggers in file order."""
        self.has_trigger: tuple[bool, ...] = tuple(bool(t) for t in self.triggers_of)
        """Per depot, whether it has a trigger (settling looks only at touched depots that do)."""
        self.always_checked: tuple[int, ...] = tuple(sorted({t.depot for t in triggers if not t.local}))
        """Depots with a trigger that is not local: checked in every settle pass."""
        self.actions: tuple[CompiledAction, ...] = tuple(actions)
        self.draws: tuple[CompiledDraw, ...] = tuple(draws)
        self.taps: tuple[CompiledTap, ...] = tuple(taps)
        self.draw_of: dict[int, CompiledDraw] = {draw.depot: draw for draw in draws}
        self.action_of: dict[tuple[int, str], CompiledAction] = {(a.depot, a.name): a for a in actions}
        self.tap_of: dict[int, CompiledTap] = {id(tap.move): tap for tap in taps}
        """``id(move)`` of every interned tap -> what it does."""
        self.accept_stat = tuple(f"accept:{d.spec.name}" for d in design.depots)

    def _collect_rule_pointers(self) -> None:
        """Every rule that can fire: its stats key -> its JSON pointer in the design."""
        specs = [d.spec for d in self.design.depots]
        self.rule_pointers: dict[str, str] = {
            f"accept:{spec.name}": f"{spec.pointer}/acceptRule" for spec in self.design.specs if not spec.accept.never
        }
        """Every rule that can fire: its stats key (``trigger:cell#0``) -> its JSON pointer in the design."""
        for spec in specs:
            for i in range(len(spec.triggers)):
                self.rule_pointers[f"trigger:{spec.name}#{i}"] = f"{spec.pointer}/triggers/{i}"
        for spec in specs:
            if spec.draw is not None:
                self.rule_pointers[f"draw:{spec.name}"] = spec.draw.pointer
        for spec in specs:
            for action in spec.actions:
                self.rule_pointers[f"action:{spec.name}.{action.name}"] = action.pointer

    def _generate_code(self) -> None:
        """The move lister and the settle pass: generated Python, or the plain interpreted rules."""
        self.move_lister: MoveLister
        """``move_lister(P, S)``: every legal move in order, from ``drag_plan`` and ``taps``."""
        self.settle: Settle
        """``settle(P, S)``: the passes of settling triggers."""
        if self.generated:
            self.move_lister, self.move_lister_source = build_move_lister(self, self.design)
            self.settle, self.settle_source = build_settle(self, self.design, MAX_TRIGGER_FIRINGS)
        else:
            self.move_lister = interpreted.move_lister(self)
            self.settle = interpreted.settler(self, MAX_TRIGGER_FIRINGS)
            self.move_lister_source = self.settle_source = ""

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
