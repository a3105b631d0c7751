"""The design model: a .cardz file as typed, immutable Python objects.

:func:`build_design` turns parsed JSON that passed the schema into a :class:`Design`.
It expands ``repeat`` (or a ``perRow`` list) into one :class:`Depot` per pile with its board
position (``align``, ``colStep``, ``rowStep``) and its place in the group's grid,
resolves defaults, and keeps the JSON pointer of every rule so that later stages
(expression checking, the engine's error messages) can point back into the file.

Defaults live here and only here; ``docs/format.md`` documents the same values.
"""

from __future__ import annotations

import dataclasses
import enum
import functools
from collections.abc import Mapping, Sequence
from typing import Any

from .cards import RANK_NAMES_WITH_JOKER, RANKS, SUIT_NAMES, SUITS, Rank, Suit

# Bounds shared with the schema (cardz_tools/data/cardz.schema.json); the model
# re-checks them so that a design built without the schema still cannot blow up.
MAX_DEPOTS = 1000
"""A design may lay out at most this many depots (after ``repeat``)."""
MAX_DECKS = 8
MAX_JOKERS = 16
MAX_STEP = 100
"""``colStep`` and ``rowStep`` are above 0 and at most this."""
MAX_ACTION_LIMIT = 1000
"""An action's ``limit`` is 1 .. this."""


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


class Align(enum.Enum):
    """Where the rows of a group that are shorter than its longest row sit."""

    LEFT = "left"
    CENTER = "center"
    RIGHT = "right"


class EffectKind(enum.Enum):
    """What an effect does; the value is the ``kind`` written in the file."""

    MOVE = "move"
    COMPACT = "compact"
    FLIP = "flip"
    DEAL = "deal"
    REDEAL = "redeal"


EFFECT_KEYS: Mapping[EffectKind, frozenset[str]] = {
    EffectKind.MOVE: frozenset({"from", "to", "count", "faceUp", "where"}),
    EffectKind.COMPACT: frozenset({"group", "from"}),
    EffectKind.FLIP: frozenset({"depot"}),
    EffectKind.DEAL: frozenset({"from", "to", "count", "faceUp"}),
    EffectKind.REDEAL: frozenset({"group", "keep", "count", "faceUp"}),
}
"""The keys each effect kind reads besides ``kind`` (docs/format.md, Effects)."""

DEAL_RULE_KEYS: Mapping[str, frozenset[str]] = {
    "dealGroup": frozenset({"to", "faceDown", "faceUp", "roundRobin", "match"}),
    "remove": frozenset({"ranks", "to"}),
}
"""The keys each deal rule kind reads besides ``kind`` (docs/format.md, The deal)."""


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
    allow: tuple[str, ...] = ()
    """Findings this rule asks not to be told about (``"pointless-move"``: CZ509 for moves onto it)."""


@dataclasses.dataclass(frozen=True, slots=True)
class EjectRule:
    """Which cards may be dragged off a depot."""

    kind: EjectKind = EjectKind.TOP_ONLY
    when: Expr | None = None
    reason: str | None = None
    pointer: str = ""


@dataclasses.dataclass(frozen=True, slots=True)
class Effect:
    """One step of a trigger or an action (``move``, ``compact``, ``flip``, ``deal``, ``redeal``).

    Which fields a kind reads is :data:`EFFECT_KEYS`. ``count`` is the effect's
    ``count`` as an expression (``"all"`` included); for ``redeal`` it is an
    expression of the redeal-count site, which may call ``kept(d)``.
    """

    kind: str
    source: str | None = None
    """``from``: a depot, or for ``move`` a group whose members give cards in turn."""
    target: str | None = None
    """``to``."""
    group: str | None = None
    count: Expr | None = None
    face_up: bool | None = None
    """``faceUp`` as written; None when absent (``move`` then keeps facing, ``deal``/``redeal`` deal face up)."""
    where: Expr | None = None
    """``move`` from a group: the members to take from (a condition over the member ``depot``)."""
    keep: Expr | None = None
    """``redeal``: the members that keep their cards (a condition over ``depot``; absent means none)."""
    depot: str | None = None
    """``flip``: the depot whose top card turns up."""
    raw: Mapping[str, Any] = dataclasses.field(default_factory=dict)
    pointer: str = ""

    @property
    def effect_kind(self) -> EffectKind | None:
        """:attr:`kind` as an enum; None for a kind the format does not define."""
        try:
            return EffectKind(self.kind)
        except ValueError:
            return None


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
    """A depot entry as written: one pile, or a group of ``repeat`` piles.

    ``row_lengths`` is the group's grid in reading order, one length per row, always
    covering exactly ``repeat`` members; ``written_rows`` is a ``perRow`` list as
    written (None for a number), which a linter compares with ``repeat``.
    """

    name: str
    type: DepotType
    col: float
    row: float
    repeat: int
    row_lengths: tuple[int, ...]
    fan: Fan
    accept: AcceptRule
    eject: EjectRule
    auto_flip_top: bool
    draw: Draw | None
    actions: tuple[Action, ...]
    triggers: tuple[Trigger, ...]
    pointer: str
    align: Align = Align.LEFT
    col_step: float = 1.0
    row_step: float = 1.0
    written_rows: tuple[int, ...] | None = None

    @property
    def is_group(self) -> bool:
        """Whether this entry lays out a group (``repeat`` > 1 or a ``perRow`` list); members are ``name[i]``."""
        return self.repeat > 1 or self.written_rows is not None

    @property
    def per_row(self) -> int:
        """The longest row's length (for a number ``perRow``: that number, or ``repeat`` for one row)."""
        return max(self.row_lengths)

    def grid(self, member: int) -> tuple[int, int]:
        """The (grid column, grid row) of ``member``, both from 0."""
        for row, length in enumerate(self.row_lengths):
            if member < length:
                return member, row
            member -= length
        raise IndexError("member out of range")

    def place(self, member: int) -> tuple[float, float]:
        """The board (col, row) of ``member`` (docs/format.md, Board layout)."""
        grid_col, grid_row = self.grid(member)
        shortfall = (self.per_row - self.row_lengths[grid_row]) * self.col_step
        offset = {Align.LEFT: 0.0, Align.CENTER: shortfall / 2, Align.RIGHT: shortfall}[self.align]
        return self.col + offset + grid_col * self.col_step, self.row + grid_row * self.row_step


@dataclasses.dataclass(frozen=True, slots=True)
class Depot:
    """One pile on the board. ``index`` is its place in :attr:`Design.depots`.

    ``col``/``row`` are its board position; ``grid_col``/``grid_row`` its place in
    its group's grid (what ``col(d)``/``row(d)`` give in expressions).
    """

    index: int
    spec: DepotSpec
    member: int
    col: float
    row: float
    grid_col: int = 0
    grid_row: int = 0

    @property
    def name(self) -> str:
        """``stock`` for a single depot, ``cell[3]`` for the fourth member of a group."""
        return f"{self.spec.name}[{self.member}]" if self.spec.is_group else self.spec.name

    @property
    def type(self) -> DepotType:
        return self.spec.type


@dataclasses.dataclass(frozen=True, slots=True)
class DealRule:
    """One step of the deal. Counts are ints or expressions over ``depot``.

    ``to`` is where a ``dealGroup`` deals, or where a ``remove`` puts the removed
    cards (None: they leave play).
    """

    kind: str
    to: str | None
    face_up: Expr | None
    face_down: Expr | None
    round_robin: bool
    ranks: tuple[Rank, ...] = ()
    match: Expr | None = None
    """``dealGroup``: deal only the cards for which it holds (site match: ``card``, ``depot``)."""
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
    suits: tuple[Suit, ...]
    """The suits of each deck, in deck order (Clubs, Diamonds, Hearts, Spades)."""
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
        return len(RANKS) * len(self.suits) * self.decks + self.jokers

    def group_members(self) -> dict[str, tuple[int, ...]]:
        """Entry names and depot types, with the depot indexes each stands for.

        An entry's ``name`` (a single depot or a group) wins over a depot type of the
        same name (CZ310 warns about such a name); ``Tableau`` stands for every
        Tableau depot. Members (``tab[2]``) are not listed: :meth:`resolve` knows them.
        """
        groups: dict[str, tuple[int, ...]] = {}
        for depot_type in DepotType:
            members = tuple(d.index for d in self.depots if d.type is depot_type)
            groups[depot_type.value] = members
        for spec in self.specs:
            groups[spec.name] = tuple(d.index for d in self.depots if d.spec is spec)
        return groups

    @functools.cached_property
    def _references(self) -> Mapping[str, tuple[int, ...]]:
        references: dict[str, tuple[int, ...]] = {depot.name: (depot.index,) for depot in self.depots}
        references.update(self.group_members())
        return references

    def resolve(self, reference: str) -> tuple[int, ...] | None:
        """The depot indexes a reference names, or None if it names nothing.

        A reference is a depot name, a group name (every member), one member
        (``"tab[2]"``) or a depot type (every depot of that type).
        """
        return self._references.get(reference)

    def depot_named(self, name: str) -> Depot | None:
        """The depot whose :attr:`Depot.name` is ``name`` (``"stock"``, ``"tab[2]"``)."""
        indexes = self._references.get(name)
        if indexes is None or len(indexes) != 1 or self.depots[indexes[0]].name != name:
            return None
        return self.depots[indexes[0]]


# ---------------------------------------------------------------- building


def _rank(name: object, pointer: str) -> Rank:
    if not isinstance(name, str) or name not in RANK_NAMES_WITH_JOKER:
        raise ModelError(f"{name!r} is not a rank name", pointer)
    return RANK_NAMES_WITH_JOKER[name]


def _suits(value: object) -> tuple[Suit, ...]:
    if value is None:
        return SUITS
    if not isinstance(value, list) or not 1 <= len(value) <= len(SUITS) or len(set(map(str, value))) != len(value):
        raise ModelError("suits lists 1 to 4 different suit names", "/suits")
    unknown = [name for name in value if name not in SUIT_NAMES]
    if unknown:
        raise ModelError(f"{unknown[0]!r} is not a suit name", "/suits")
    wanted = {SUIT_NAMES[name] for name in value}
    return tuple(suit for suit in SUITS if suit in wanted)


def _layout(raw: Mapping[str, Any], pointer: str) -> tuple[int, tuple[int, ...], tuple[int, ...] | None]:
    """``repeat``, the row lengths covering exactly ``repeat`` members, and a ``perRow`` list as written.

    A ``repeat`` that differs from the list's sum is modelled anyway (linters report
    it): extra members continue in rows as long as the last one; missing ones shorten
    the grid.
    """
    per_row = raw.get("perRow")
    written = tuple(int(n) for n in per_row) if isinstance(per_row, list) else None
    if written is not None and (not written or min(written) < 1):
        raise ModelError("perRow lists row lengths of at least 1", f"{pointer}/perRow")
    if "repeat" not in raw and written is not None and sum(written) > MAX_DEPOTS:
        raise ModelError(f"the perRow list lays out {sum(written)} depots; at most {MAX_DEPOTS} are allowed",
                         f"{pointer}/perRow")
    repeat = int(raw.get("repeat", sum(written) if written is not None else 1))
    if repeat < 1 or repeat > MAX_DEPOTS:
        raise ModelError(f"repeat must be between 1 and {MAX_DEPOTS}", f"{pointer}/repeat")
    if written is None:
        width = max(int(per_row if per_row is not None else repeat), 1)
        pattern: tuple[int, ...] = (width,)
    else:
        pattern = written
    lengths: list[int] = []
    left = repeat
    while left > 0:
        length = min(pattern[min(len(lengths), len(pattern) - 1)], left)
        lengths.append(length)
        left -= length
    return repeat, tuple(lengths), written


def _step(raw: Mapping[str, Any], key: str, pointer: str) -> float:
    value = float(raw.get(key, 1))
    if not 0 < value <= MAX_STEP:
        raise ModelError(f"{key} must be above 0 and at most {MAX_STEP}", f"{pointer}/{key}")
    return value


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
        allow=tuple(str(name) for name in value.get("allow", ())),
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
                where=_expr(raw.get("where"), f"{here}/where"),
                keep=_expr(raw.get("keep"), f"{here}/keep"),
                depot=raw.get("depot"),
                raw=raw,
                pointer=here,
            )
        )
    return tuple(effects)


def _spec(raw: Mapping[str, Any], pointer: str) -> DepotSpec:
    depot_type = DepotType(raw["type"])
    repeat, row_lengths, written_rows = _layout(raw, pointer)
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
            limit=_limit(a.get("limit"), f"{pointer}/actions/{i}/limit"),
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
        row_lengths=row_lengths,
        fan=Fan(raw.get("fanDirection", default_fan.value)),
        accept=_accept(raw.get("acceptRule"), f"{pointer}/acceptRule"),
        eject=_eject(raw.get("ejectRule"), f"{pointer}/ejectRule"),
        auto_flip_top=bool(raw.get("autoFlipTop", False)),
        draw=draw,
        actions=actions,
        triggers=triggers,
        pointer=pointer,
        align=Align(raw.get("align", Align.LEFT.value)),
        col_step=_step(raw, "colStep", pointer),
        row_step=_step(raw, "rowStep", pointer),
        written_rows=written_rows,
    )


def _limit(value: object, pointer: str) -> int | None:
    if value is None:
        return None
    if not isinstance(value, int) or not 1 <= value <= MAX_ACTION_LIMIT:
        raise ModelError(f"an action's limit is 1..{MAX_ACTION_LIMIT}", pointer)
    return value


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


def build_design(data: object) -> Design:
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
                col, row = spec.place(member)
                grid_col, grid_row = spec.grid(member)
                depots.append(Depot(index=len(depots), spec=spec, member=member, col=col, row=row,
                                    grid_col=grid_col, grid_row=grid_row))
        deal_rules = tuple(
            DealRule(
                kind=str(raw.get("kind")),
                to=raw.get("to"),
                face_up=_count(raw.get("faceUp"), f"/dealRules/{i}/faceUp"),
                face_down=_count(raw.get("faceDown"), f"/dealRules/{i}/faceDown"),
                round_robin=bool(raw.get("roundRobin", False)),
                ranks=tuple(_rank(r, f"/dealRules/{i}/ranks") for r in raw.get("ranks", [])),
                match=_expr(raw.get("match"), f"/dealRules/{i}/match"),
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
            suits=_suits(data.get("suits")),
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
