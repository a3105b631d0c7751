"""Semantic checks across a design (CZ3xx): names, references, the deal, the board.

These run on a :class:`~cardz_tools.model.Design`, so only on files that passed
the schema. Each finding points back into the file through the JSON pointers
the model keeps.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator

from . import diagnostics as dx
from .cards import Rank
from .diagnostics import Diagnostic, Span
from .model import (
    DEAL_RULE_KEYS,
    EFFECT_KEYS,
    SELF,
    DealRule,
    Depot,
    DepotSpec,
    DepotType,
    Design,
    Effect,
    EffectKind,
    Expr,
)
from .source import SourceFile

_LITERAL_COUNT = re.compile(r"\s*[0-9]+\s*")

_ONE_DEPOT: dict[EffectKind, tuple[str, ...]] = {
    EffectKind.MOVE: ("to",),
    EffectKind.COMPACT: ("from",),
    EffectKind.FLIP: ("depot",),
    EffectKind.DEAL: ("from",),
}
"""The effect keys that must name a single depot (docs/format.md, Effects)."""
_TYPE_NAMES = frozenset(t.value for t in DepotType)


def run_checks(design: Design, source: SourceFile) -> list[Diagnostic]:
    """Every semantic diagnostic for a modelled design."""
    return _Checks(design, source).run()


def literal_count(count: Expr | None) -> int | None:
    """The number a deal count stands for when it is a literal (``5`` or ``"5"``); 0 when absent.

    None when the count is an expression whose value depends on the depot.
    """
    if count is None:
        return 0
    if _LITERAL_COUNT.fullmatch(count.text):
        return int(count.text)
    return None


def _fmt(value: float) -> str:
    return f"{value:g}"


class _Checks:
    """One pass of the semantic checks over one design."""

    def __init__(self, design: Design, source: SourceFile) -> None:
        self.design = design
        self.source = source
        self.found: list[Diagnostic] = []
        self.groups = design.group_members()
        self.members: dict[int, list[Depot]] = {id(spec): [] for spec in design.specs}
        for depot in design.depots:
            self.members[id(depot.spec)].append(depot)
        self.by_name = {depot.name: depot.index for depot in design.depots}
        self.references = set(self.groups) | set(self.by_name)

    def run(self) -> list[Diagnostic]:
        self._duplicate_names()
        self._type_names()
        self._references()
        self._row_lengths()
        self._single_depots()
        self._kind_keys()
        self._deal_size()
        self._overlaps()
        self._unreachable()
        return self.found

    # -------------------------------------------------------- reporting

    def _where(self, pointer: str, part: str = "value") -> Span:
        """The span of a member, or just its head when the value runs over several lines."""
        span = self.source.span(pointer, "key" if part == "key" else "value")
        return span if span.line == span.end_line else self.source.head_span(pointer)

    def _report(self, code: str, message: str, pointer: str, hint: str | None = None, part: str = "value") -> None:
        self.found.append(
            dx.make(code, message, self.source.filename, span=self._where(pointer, part), pointer=pointer, hint=hint)
        )

    def _position(self, pointer: str) -> str:
        span = self._where(pointer)
        return f"line {span.line}, column {span.column}"

    # -------------------------------------------------------- CZ301

    def _duplicate_names(self) -> None:
        first: dict[str, DepotSpec] = {}
        for spec in self.design.specs:
            names = {spec.name} | {d.name for d in self.members[id(spec)]}
            clashes = sorted(name for name in names if name in first and first[name] is not spec)
            for name in names:
                first.setdefault(name, spec)
            if clashes:
                other = first[clashes[0]]
                self._report(
                    "CZ301",
                    f"two depots are named '{clashes[0]}'",
                    f"{spec.pointer}/name",
                    hint=f"the other is at {self._position(other.pointer + '/name')}; give each depot its own name",
                )

    # -------------------------------------------------------- CZ310

    def _type_names(self) -> None:
        for spec in self.design.specs:
            if spec.name in _TYPE_NAMES:
                self._report(
                    "CZ310",
                    f"the depot '{spec.name}' is named like the depot type {spec.name}",
                    f"{spec.pointer}/name",
                    hint=f"'{spec.name}' in a reference or an expression means every {spec.name} depot; "
                    f"rename it, for example to '{spec.name.lower()}'",
                )

    # -------------------------------------------------------- CZ308

    def _row_lengths(self) -> None:
        for spec in self.design.specs:
            rows = spec.written_rows
            if rows is None or sum(rows) == spec.repeat:
                continue
            self._report(
                "CZ308",
                f"the perRow list lays out {sum(rows)} depots, but repeat says {spec.repeat}",
                f"{spec.pointer}/repeat",
                hint="leave repeat out (it is the sum of the list) or make the two agree",
            )

    # -------------------------------------------------------- CZ309

    def _single_depots(self) -> None:
        for spec in self.design.specs:
            if spec.draw is not None:
                self._one_depot(spec.draw.to, f"{spec.draw.pointer}/to", "a draw's 'to'")
            for effect in _effects_of(spec):
                kind = effect.effect_kind
                for key in _ONE_DEPOT.get(kind, ()) if kind is not None else ():
                    value = effect.raw.get(key)
                    if isinstance(value, str) and value != SELF:
                        self._one_depot(value, f"{effect.pointer}/{key}", f"a '{effect.kind}' effect's '{key}'",
                                        kind is EffectKind.MOVE)

    def _one_depot(self, reference: str, pointer: str, what: str, suggest_deal: bool = False) -> None:
        members = self._resolve(reference)
        if len(members) <= 1:
            return
        names = [self.design.depots[i].name for i in members]
        self._report(
            "CZ309",
            f"{what} must name one depot; '{reference}' names {len(members)} ({', '.join(names[:3])}"
            f"{', ...' if len(names) > 3 else ''})",
            pointer,
            hint=f"name one member, such as '{names[0]}'"
            + ("; to give each member a card, use a 'deal' effect" if suggest_deal else ""),
        )

    # -------------------------------------------------------- CZ307

    def _kind_keys(self) -> None:
        for spec in self.design.specs:
            for effect in _effects_of(spec):
                kind = effect.effect_kind
                if kind is not None:
                    self._unused_keys(effect.raw, EFFECT_KEYS[kind], effect.pointer, f"a '{kind.value}' effect")
        for rule in self.design.deal_rules:
            keys = DEAL_RULE_KEYS.get(rule.kind)
            if keys is not None:
                self._unused_keys(rule.raw, keys, rule.pointer, f"a '{rule.kind}' deal rule")

    def _unused_keys(self, raw: object, keys: frozenset[str], pointer: str, what: str) -> None:
        if not isinstance(raw, dict):
            return
        for key in raw:
            if key == "kind" or key in keys:
                continue
            self._report(
                "CZ307",
                f"{what} does not read '{key}'; it is ignored",
                f"{pointer}/{key}",
                hint=f"{what} reads {', '.join(sorted(keys))}",
                part="key",
            )

    # -------------------------------------------------------- CZ302

    def _references(self) -> None:
        for rule in self.design.deal_rules:
            if rule.to is not None:
                self._reference(rule.to, f"{rule.pointer}/to", "the deal rule")
        for spec in self.design.specs:
            if spec.draw is not None:
                self._reference(spec.draw.to, f"{spec.draw.pointer}/to", "the draw")
            for effect in _effects_of(spec):
                for key, value in _effect_references(effect):
                    if value != SELF:
                        self._reference(value, f"{effect.pointer}/{key}", f"the '{effect.kind}' effect")
        for condition, label in ((self.design.win, "the win condition"), (self.design.loss, "the loss condition")):
            if condition.depots is not None:
                self._reference(condition.depots, f"{condition.pointer}/depots", label)

    def _reference(self, name: object, pointer: str, owner: str) -> None:
        if not isinstance(name, str) or name in self.references:
            return
        hint = "'@self' means the owning depot only inside a trigger's or an action's effects" if name == SELF else None
        hint = hint or dx.did_you_mean(name, sorted(self.references)) or (
            f"{owner} names a depot, a group or a depot type such as {', '.join(t.value for t in DepotType)}"
        )
        self._report("CZ302", f"{owner} refers to '{name}', which is no depot, group or depot type", pointer, hint=hint)

    # -------------------------------------------------------- CZ303, CZ306

    def _deal_size(self) -> None:
        deck = self.design.deck_size
        dealt = 0
        exact = True
        for rule in self.design.deal_rules:
            if rule.kind == "remove" and dealt == 0:
                # Removed before anything is dealt: those cards are no longer the deal's to place.
                deck -= self._removed_cards(rule)
                continue
            per_depot, known = self._dealt_per_depot(rule)
            exact = exact and known
            before = dealt
            dealt += per_depot * len(self._resolve(rule.to))
            if before <= deck < dealt:
                self._report(
                    "CZ303",
                    f"the deal needs at least {dealt} cards by this rule, but the deck holds {deck}",
                    rule.pointer,
                    hint=f"the deck is {self.design.decks} × 52 cards + {self.design.jokers} jokers: "
                    "deal fewer cards or add a deck",
                )
        has_stock = any(depot.type is DepotType.STOCK for depot in self.design.depots)
        if exact and dealt < deck and not has_stock:
            pointer = "/dealRules" if self.source.has("/dealRules") else "/depots"
            self._report(
                "CZ306",
                f"the deal places {dealt} of the {deck} cards, and there is no Stock for the other {deck - dealt}",
                pointer,
                hint="add a depot of type Stock, or deal every card",
                part="key",
            )

    def _removed_cards(self, rule: DealRule) -> int:
        """Cards of the whole deck that a ``remove`` rule takes (jokers for the Joker rank)."""
        ranks = set(rule.ranks)
        per_deck = len(self.design.suits) * self.design.decks
        return sum(self.design.jokers if rank is Rank.JOKER else per_deck for rank in ranks)

    @staticmethod
    def _dealt_per_depot(rule: DealRule) -> tuple[int, bool]:
        """Cards a deal rule gives each depot (literal counts only) and whether that is exact."""
        if rule.kind != "dealGroup":
            return 0, True
        counts = [literal_count(rule.face_up), literal_count(rule.face_down)]
        return sum(c for c in counts if c is not None), None not in counts

    # -------------------------------------------------------- CZ304

    def _overlaps(self) -> None:
        taken: dict[tuple[float, float], Depot] = {}
        reported: set[tuple[int, int]] = set()
        for depot in self.design.depots:
            other = taken.setdefault((depot.col, depot.row), depot)
            if other is depot:
                continue
            pair = (id(other.spec), id(depot.spec))
            if pair in reported:
                continue
            reported.add(pair)
            pointer = depot.spec.pointer
            anchor = next(
                (f"{pointer}/{key}" for key in ("col", "row") if self.source.has(f"{pointer}/{key}")), f"{pointer}/name"
            )
            self._report(
                "CZ304",
                f"'{depot.name}' is placed on the same cell (col {_fmt(depot.col)}, row {_fmt(depot.row)}) "
                f"as '{other.name}'",
                anchor,
                hint="move one of them with col/row (fractions such as 5.5 are allowed)",
            )

    # -------------------------------------------------------- CZ305

    def _unreachable(self) -> None:
        touched = self._touched()
        names = [spec.name for spec in self.design.specs]
        for spec in self.design.specs:
            if names.count(spec.name) > 1:
                continue  # references to a duplicated name are ambiguous; CZ301 says so
            members = self.members[id(spec)]
            idle = [d for d in members if d.index not in touched]
            if not idle:
                continue
            what = (
                f"the depot '{spec.name}'"
                if len(idle) == len(members)
                else "the group members " + ", ".join(d.name for d in idle)
            )
            self._report(
                "CZ305",
                f"{what} can never hold a card: no deal, accept rule, draw or effect puts one in or takes one out",
                f"{spec.pointer}/name",
                hint="deal to it, give it an acceptRule, name it in an effect, or remove it",
            )

    def _touched(self) -> set[int]:
        """Indexes of the depots that some deal, rule, draw or effect moves cards into or out of."""
        design = self.design
        touched: set[int] = set()
        dealt = 0
        exact = True
        for rule in design.deal_rules:
            if rule.kind == "remove":
                touched.update(self._resolve(rule.to))  # removed cards go there
                continue
            per_depot, known = self._dealt_per_depot(rule)
            targets = self._resolve(rule.to)
            if per_depot or not known or rule.kind == "remove":
                touched.update(targets)
            dealt += per_depot * len(targets)
            exact = exact and known
        stocks = [d.index for d in design.depots if d.type is DepotType.STOCK]
        if stocks and (not exact or dealt < design.deck_size):
            touched.add(stocks[0])
        for spec in design.specs:
            own = [d.index for d in self.members[id(spec)]]
            if not spec.accept.never or spec.actions:
                touched.update(own)  # a depot with actions is a button even if it never holds a card
            if spec.draw is not None:
                touched.update(own)
                touched.update(self._resolve(spec.draw.to))
            for effect in _effects_of(spec):
                for _key, value in _effect_references(effect):
                    touched.update(own if value == SELF else self._resolve(value))
        return touched

    def _resolve(self, reference: str | None) -> tuple[int, ...]:
        """The depot indexes a reference names (group, type or single depot); none if unknown."""
        if reference is None:
            return ()
        if reference in self.groups:
            return self.groups[reference]
        index = self.by_name.get(reference)
        return () if index is None else (index,)


def _effects_of(spec: DepotSpec) -> Iterator[Effect]:
    for action in spec.actions:
        yield from action.effects
    for trigger in spec.triggers:
        yield from trigger.effects


def _effect_references(effect: Effect) -> Iterable[tuple[str, str]]:
    """The (JSON key, depot reference) pairs of an effect: ``from``, ``to``, ``group``, ``depot``."""
    pairs = (
        ("from", effect.source),
        ("to", effect.target),
        ("group", effect.group),
        ("depot", effect.raw.get("depot")),
    )
    return [(key, value) for key, value in pairs if isinstance(value, str)]
