"""The design model: a .cardz file as typed, immutable Python objects.

:func:`build_design` turns parsed JSON that passed the schema into a :class:`Design`.
It expands ``repeat`` into one :class:`Depot` per pile with its board position,
resolves defaults, and keeps the JSON pointer of every rule so that later stages
(expression checking, the engine's error messages) can point back into the file.

Defaults live here and only here; ``docs/format.md`` documents the same values.
"""

from __future__ import annotations

import dataclasses
import enum
from collections.abc import Mapping, Sequence
from typing import Any

from .cards import RANK_NAMES, Rank

MAX_DEPOTS = 1000
"""A design may lay out at most this many depots (after ``repeat``)."""
MAX_DECKS = 8
MAX_JOKERS = 16


class ModelError(ValueError):
    """Raised when a design cannot be modelled (only for input the schema would reject)."""

    def __init__(self, message: str, pointer: str = "") -> None:
        super().__init__(message)
        self.pointer = pointer


class DepotType(enum.Enum):
    """What a depot is for. Types are also group names in expressions (``Tableau``)."""

    STOCK = "Stock"
    WASTE = "Waste"
    FOUNDATION = "Foundation"
    TABLEAU = "Tableau"
    CELL = "Cell"
    RESERVE = "Reserve"


class Fan(enum.Enum):
    """How a pile is drawn: stacked, or fanned so that the cards under the top show."""

    NONE = "None"
    DOWN = "Down"
    UP = "Up"
    RIGHT = "Right"
    LEFT = "Left"


class EjectKind(enum.Enum):
    """Which cards may be dragged off a depot."""

    LOCKED = "locked"
    TOP_ONLY = "topOnly"
    FACE_UP = "faceUp"
    WHEN = "when"


class Better(enum.Enum):
    """Whether a higher or a lower score is better."""

    HIGH = "High"
    LOW = "Low"


SELF = "@self"
"""In an effect, the depot that owns the trigger or action."""


@dataclasses.dataclass(frozen=True, slots=True)
class Expr:
    """A rule expression as written, with the JSON pointer of the string that holds it."""

    text: str
    pointer: str


def _expr(value: object, pointer: str) -> Expr | None:
    if value is None:
        return None
    return Expr(str(value), pointer)


@dataclasses.dataclass(frozen=True, slots=True)
class AcceptRule:
    """When a depot accepts dragged cards. ``never`` is the ``"none"`` form."""

    never: bool = True
    single: bool = False
    when: Expr | None = None
    reason: str | None = None
    follow: bool = False
    wild_rank: Rank | None = None
    wild_declares: str = "none"
    pointer: str = ""


@dataclasses.dataclass(frozen=True, slots=True)
class EjectRule:
    """Which cards may be dragged off a depot."""

    kind: EjectKind = EjectKind.TOP_ONLY
    when: Expr | None = None
    reason: str | None = None
    pointer: str = ""


@dataclasses.dataclass(frozen=True, slots=True)
class Effect:
    """One step of a trigger or an action (``move``, ``compact``, ``flip``, ...)."""

    kind: str
    source: str | None = None
    target: str | None = None
    group: str | None = None
    count: Expr | None = None
    face_up: bool | None = None
    raw: Mapping[str, Any] = dataclasses.field(default_factory=dict)
    pointer: str = ""


@dataclasses.dataclass(frozen=True, slots=True)
class Trigger:
    """Effects that run by themselves whenever ``when`` holds after a move."""

    when: Expr
    effects: tuple[Effect, ...]
    pointer: str = ""


@dataclasses.dataclass(frozen=True, slots=True)
class Action:
    """A named tap on a depot: allowed when ``when`` holds and uses remain."""

    name: str
    when: Expr | None
    effects: tuple[Effect, ...]
    limit: int | None = None
    pointer: str = ""


@dataclasses.dataclass(frozen=True, slots=True)
class Draw:
    """Tapping a stock turns ``count`` cards onto ``to``; ``redeals`` passes more (-1: unlimited)."""

    to: str
    count: int = 1
    redeals: int = 0
    face_up: bool = True
    pointer: str = ""


@dataclasses.dataclass(frozen=True, slots=True)
class DepotSpec:
    """A depot entry as written: one pile, or a group of ``repeat`` piles."""

    name: str
    type: DepotType
    col: float
    row: float
    repeat: int
    per_row: int
    fan: Fan
    accept: AcceptRule
    eject: EjectRule
    auto_flip_top: bool
    draw: Draw | None
    actions: tuple[Action, ...]
    triggers: tuple[Trigger, ...]
    pointer: str

    @property
    def is_group(self) -> bool:
        """Whether this entry lays out several piles (it has ``repeat``)."""
        return self.repeat > 1


@dataclasses.dataclass(frozen=True, slots=True)
class Depot:
    """One pile on the board. ``index`` is its place in :attr:`Design.depots`."""

    index: int
    spec: DepotSpec
    member: int
    col: float
    row: float

    @property
    def name(self) -> str:
        """``stock`` for a single depot, ``cell[3]`` for the fourth member of a group."""
        return f"{self.spec.name}[{self.member}]" if self.spec.is_group else self.spec.name

    @property
    def type(self) -> DepotType:
        return self.spec.type

    @property
    def grid_col(self) -> int:
        """Column inside its group's grid, from 0."""
        return self.member % self.spec.per_row

    @property
    def grid_row(self) -> int:
        """Row inside its group's grid, from 0."""
        return self.member // self.spec.per_row


@dataclasses.dataclass(frozen=True, slots=True)
class DealRule:
    """One step of the deal. Counts are ints or expressions over ``depot``."""

    kind: str
    to: str | None
    face_up: Expr | None
    face_down: Expr | None
    round_robin: bool
    ranks: tuple[Rank, ...] = ()
    raw: Mapping[str, Any] = dataclasses.field(default_factory=dict)
    pointer: str = ""


@dataclasses.dataclass(frozen=True, slots=True)
class Condition:
    """A win or loss condition."""

    kind: str
    depots: str | None = None
    when: Expr | None = None
    pointer: str = ""


@dataclasses.dataclass(frozen=True, slots=True)
class Scoring:
    """How a game is scored."""

    value: Expr
    better: Better = Better.HIGH
    keep: str = "Over"
    pointer: str = ""


@dataclasses.dataclass(frozen=True)
class Design:
    """A whole game design, with ``repeat`` expanded and every default filled in."""

    name: str
    family: str
    aliases: tuple[str, ...]
    description: str
    decks: int
    jokers: int
    specs: tuple[DepotSpec, ...]
    depots: tuple[Depot, ...]
    deal_rules: tuple[DealRule, ...]
    win: Condition
    loss: Condition
    scoring: Scoring
    depot_only: bool
    planner: bool
    tools: str
    raw: Mapping[str, Any]

    @property
    def deck_size(self) -> int:
        """How many cards the game is played with."""
        return 52 * self.decks + self.jokers

    def group_members(self) -> dict[str, tuple[int, ...]]:
        """Every name a reference may use, with the depot indexes it stands for.

        Depot names and group names (a ``repeat`` entry's ``name``) come first;
        depot types (``Tableau``) stand for every depot of that type.
        """
        groups: dict[str, tuple[int, ...]] = {}
        for depot_type in DepotType:
            members = tuple(d.index for d in self.depots if d.type is depot_type)
            groups[depot_type.value] = members
        for spec in self.specs:
            groups[spec.name] = tuple(d.index for d in self.depots if d.spec is spec)
        return groups

    def resolve(self, reference: str) -> tuple[int, ...] | None:
        """The depot indexes a reference names (depot, group or type), or None if it names nothing."""
        return self.group_members().get(reference)

    def depot_named(self, name: str) -> Depot | None:
        """The depot whose :attr:`Depot.name` is ``name``."""
        for depot in self.depots:
            if depot.name == name:
                return depot
        return None


# ---------------------------------------------------------------- building


def _rank(name: object, pointer: str) -> Rank:
    if not isinstance(name, str) or name not in RANK_NAMES:
        raise ModelError(f"{name!r} is not a rank name", pointer)
    return RANK_NAMES[name]


def _accept(value: object, pointer: str) -> AcceptRule:
    if value is None or value == "none":
        return AcceptRule(never=True, pointer=pointer)
    if value == "any":
        return AcceptRule(never=False, pointer=pointer)
    if not isinstance(value, Mapping):
        raise ModelError("an accept rule is \"none\", \"any\" or an object", pointer)
    wild = value.get("wildRank")
    return AcceptRule(
        never=False,
        single=bool(value.get("single", False)),
        when=_expr(value.get("when"), f"{pointer}/when"),
        reason=value.get("reason"),
        follow=bool(value.get("follow", False)),
        wild_rank=_rank(wild, f"{pointer}/wildRank") if wild is not None else None,
        wild_declares=str(value.get("wildDeclares", "none")),
        pointer=pointer,
    )


def _eject(value: object, pointer: str) -> EjectRule:
    if value is None:
        return EjectRule(pointer=pointer)
    if isinstance(value, str):
        try:
            return EjectRule(kind=EjectKind(value), pointer=pointer)
        except ValueError:
            raise ModelError(f"unknown eject rule {value!r}", pointer) from None
    if isinstance(value, Mapping):
        return EjectRule(
            kind=EjectKind.WHEN,
            when=_expr(value.get("when", "true"), f"{pointer}/when"),
            reason=value.get("reason"),
            pointer=pointer,
        )
    raise ModelError("an eject rule is a string or an object", pointer)


def _effects(values: Sequence[Mapping[str, Any]], pointer: str) -> tuple[Effect, ...]:
    effects = []
    for i, raw in enumerate(values):
        here = f"{pointer}/{i}"
        count = raw.get("count")
        effects.append(
            Effect(
                kind=str(raw.get("kind")),
                source=raw.get("from"),
                target=raw.get("to"),
                group=raw.get("group"),
                count=_expr(count, f"{here}/count") if count is not None else None,
                face_up=raw.get("faceUp"),
                raw=raw,
                pointer=here,
            )
        )
    return tuple(effects)


def _spec(raw: Mapping[str, Any], pointer: str) -> DepotSpec:
    depot_type = DepotType(raw["type"])
    repeat = int(raw.get("repeat", 1))
    if repeat < 1 or repeat > MAX_DEPOTS:
        raise ModelError(f"repeat must be between 1 and {MAX_DEPOTS}", f"{pointer}/repeat")
    default_fan = Fan.DOWN if depot_type is DepotType.TABLEAU else Fan.NONE
    draw_raw = raw.get("draw")
    draw = None
    if draw_raw is not None:
        redeals = draw_raw.get("redeals", 0)
        draw = Draw(
            to=str(draw_raw["to"]),
            count=int(draw_raw.get("count", 1)),
            redeals=-1 if redeals == "unlimited" else int(redeals),
            face_up=bool(draw_raw.get("faceUp", True)),
            pointer=f"{pointer}/draw",
        )
    actions = tuple(
        Action(
            name=str(a["name"]),
            when=_expr(a.get("when"), f"{pointer}/actions/{i}/when"),
            effects=_effects(a.get("do", []), f"{pointer}/actions/{i}/do"),
            limit=a.get("limit"),
            pointer=f"{pointer}/actions/{i}",
        )
        for i, a in enumerate(raw.get("actions", []))
    )
    triggers = tuple(
        Trigger(
            when=Expr(str(t.get("when", "true")), f"{pointer}/triggers/{i}/when"),
            effects=_effects(t.get("do", []), f"{pointer}/triggers/{i}/do"),
            pointer=f"{pointer}/triggers/{i}",
        )
        for i, t in enumerate(raw.get("triggers", []))
    )
    return DepotSpec(
        name=str(raw["name"]),
        type=depot_type,
        col=float(raw.get("col", 0)),
        row=float(raw.get("row", 0)),
        repeat=repeat,
        per_row=int(raw.get("perRow", repeat)) or 1,
        fan=Fan(raw.get("fanDirection", default_fan.value)),
        accept=_accept(raw.get("acceptRule"), f"{pointer}/acceptRule"),
        eject=_eject(raw.get("ejectRule"), f"{pointer}/ejectRule"),
        auto_flip_top=bool(raw.get("autoFlipTop", False)),
        draw=draw,
        actions=actions,
        triggers=triggers,
        pointer=pointer,
    )


def _count(value: object, pointer: str) -> Expr | None:
    return None if value is None else Expr(str(value), pointer)


def _condition(raw: Mapping[str, Any] | None, pointer: str, default_kind: str) -> Condition:
    if raw is None:
        return Condition(kind=default_kind, pointer=pointer)
    return Condition(
        kind=str(raw.get("kind", default_kind)),
        depots=raw.get("depots"),
        when=_expr(raw.get("when"), f"{pointer}/when"),
        pointer=pointer,
    )


def build_design(data: Mapping[str, Any]) -> Design:
    """Model a design that passed the schema.

    :raises ModelError: for input the schema rejects (a bad type name, say);
        callers validate first and only model valid designs.
    """
    if not isinstance(data, Mapping):
        raise ModelError("a design is a JSON object")
    try:
        specs = tuple(_spec(raw, f"/depots/{i}") for i, raw in enumerate(data.get("depots", [])))
        total = sum(spec.repeat for spec in specs)
        if total > MAX_DEPOTS:
            raise ModelError(f"the design lays out {total} depots; at most {MAX_DEPOTS} are allowed", "/depots")
        depots: list[Depot] = []
        for spec in specs:
            for member in range(spec.repeat):
                col = spec.col + member % spec.per_row
                row = spec.row + member // spec.per_row
                depots.append(Depot(index=len(depots), spec=spec, member=member, col=col, row=row))
        deal_rules = tuple(
            DealRule(
                kind=str(raw.get("kind")),
                to=raw.get("to"),
                face_up=_count(raw.get("faceUp"), f"/dealRules/{i}/faceUp"),
                face_down=_count(raw.get("faceDown"), f"/dealRules/{i}/faceDown"),
                round_robin=bool(raw.get("roundRobin", False)),
                ranks=tuple(_rank(r, f"/dealRules/{i}/ranks") for r in raw.get("ranks", [])),
                raw=raw,
                pointer=f"/dealRules/{i}",
            )
            for i, raw in enumerate(data.get("dealRules", []))
        )
        scoring_raw = data.get("scoring") or {}
        scoring = Scoring(
            value=Expr(str(scoring_raw.get("value", "0")), "/scoring/value"),
            better=Better(scoring_raw.get("better", "High")),
            keep=str(scoring_raw.get("keep", "Over")),
            pointer="/scoring",
        )
        decks = int(data.get("decks", 1))
        jokers = int(data.get("jokers", 0))
        if not 1 <= decks <= MAX_DECKS or not 0 <= jokers <= MAX_JOKERS:
            raise ModelError(f"decks must be 1..{MAX_DECKS} and jokers 0..{MAX_JOKERS}", "/decks")
        return Design(
            name=str(data.get("name", "")),
            family=str(data.get("family", "Other")),
            aliases=tuple(data.get("aliases", ())),
            description=str(data.get("description", "")),
            decks=decks,
            jokers=jokers,
            specs=specs,
            depots=tuple(depots),
            deal_rules=deal_rules,
            win=_condition(data.get("winCondition"), "/winCondition", "allCardsIn"),
            loss=_condition(data.get("lossCondition"), "/lossCondition", "noLegalMoves"),
            scoring=scoring,
            depot_only=bool(data.get("depotOnly", False)),
            planner=bool(data.get("planner", False)),
            tools=str(data.get("tools", "All")),
            raw=data,
        )
    except ModelError:
        raise
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise ModelError(f"the design cannot be modelled: {exc}") from exc
