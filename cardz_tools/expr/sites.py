"""Rule sites: where an expression appears in a design, and the names it has there."""

from __future__ import annotations

import dataclasses
import enum
from collections.abc import Mapping

from .types import BOOL, CARD, CARD_OPT, CARDS, DEPOT, INT, Type

__all__ = ["Site", "SiteName"]


@dataclasses.dataclass(frozen=True, slots=True)
class SiteName:
    """A name a site provides, such as ``card`` in accept rules."""

    name: str
    type: Type
    description: str


_CARD = SiteName("card", CARD, "The dragged card (the lowest card of the dragged run).")
_CARDS = SiteName("cards", CARDS, "The dragged run, bottom first (one card unless several are dragged).")
_TOP = SiteName("top", CARD_OPT, "The top card of `depot`; absent when `depot` is empty.")
_SOURCE = SiteName("source", DEPOT, "The pile the cards come from.")
_DEPOT_ACCEPT = SiteName("depot", DEPOT, "The pile the cards would be dropped on.")
_DEPOT_EJECT = SiteName("depot", DEPOT, "The pile the cards would be dragged off.")
_DEPOT_OWNER = SiteName("depot", DEPOT, "The pile that owns the rule (`@self`).")
_DEPOT_DEAL = SiteName("depot", DEPOT, "The pile being dealt to.")
_CARD_DEAL = SiteName("card", CARD, "A card of the deck, tried in deck order.")
_DEPOT_MEMBER = SiteName("depot", DEPOT, "The group member concerned.")
_TOP_MEMBER = SiteName("top", CARD_OPT, "The top card of the member; absent when it is empty.")
_ALL = SiteName("all", INT, "Written alone (`\"all\"`): every card of the `from` pile. Its value is the "
                "number of cards on the board, which no pile exceeds.")


class Site(enum.Enum):
    """Every place in a design that holds an expression; the value is its name in messages."""

    ACCEPT = "accept"
    EJECT = "eject"
    TRIGGER = "trigger"
    ACTION = "action"
    COUNT = "count"
    DEAL = "deal"
    MATCH = "match"
    WHERE = "where"
    KEEP = "keep"
    REDEAL = "redeal-count"
    WIN = "win"
    LOSS = "loss"
    SCORING = "scoring"

    @property
    def names(self) -> Mapping[str, SiteName]:
        """The names in scope here, besides depots, groups, types and constants."""
        return _NAMES[self]

    @property
    def args(self) -> tuple[str, ...]:
        """Site arguments of the compiled callable, after ``P`` and ``S`` (docs/architecture.md)."""
        return _ARGS[self]

    @property
    def result(self) -> Type:
        """The type the whole expression must have: a condition (Bool) or a number (Int)."""
        return INT if self in (Site.COUNT, Site.DEAL, Site.REDEAL, Site.SCORING) else BOOL

    @property
    def where(self) -> str:
        """The keys of a design that hold expressions of this site."""
        return _WHERE[self]


_NAMES: dict[Site, dict[str, SiteName]] = {
    Site.ACCEPT: {n.name: n for n in (_CARD, _CARDS, _TOP, _SOURCE, _DEPOT_ACCEPT)},
    Site.EJECT: {n.name: n for n in (_CARD, _CARDS, _TOP, _DEPOT_EJECT)},
    Site.TRIGGER: {n.name: n for n in (_DEPOT_OWNER, _TOP)},
    Site.ACTION: {n.name: n for n in (_DEPOT_OWNER, _TOP)},
    Site.COUNT: {n.name: n for n in (_DEPOT_OWNER, _TOP, _ALL)},
    Site.DEAL: {n.name: n for n in (_DEPOT_DEAL,)},
    Site.MATCH: {n.name: n for n in (_CARD_DEAL, _DEPOT_DEAL)},
    Site.WHERE: {n.name: n for n in (_DEPOT_MEMBER, _TOP_MEMBER)},
    Site.KEEP: {n.name: n for n in (_DEPOT_MEMBER, _TOP_MEMBER)},
    Site.REDEAL: {n.name: n for n in (_DEPOT_MEMBER, _TOP_MEMBER)},
    Site.WIN: {},
    Site.LOSS: {},
    Site.SCORING: {},
}
_ARGS: dict[Site, tuple[str, ...]] = {
    Site.ACCEPT: ("card", "cards", "source", "depot"),
    Site.EJECT: ("card", "cards", "depot"),
    Site.TRIGGER: ("depot",),
    Site.ACTION: ("depot",),
    Site.COUNT: ("depot",),
    Site.DEAL: ("depot",),
    Site.MATCH: ("card", "depot"),
    Site.WHERE: ("depot",),
    Site.KEEP: ("depot",),
    Site.REDEAL: ("depot", "kept"),
    Site.WIN: (),
    Site.LOSS: (),
    Site.SCORING: (),
}
_WHERE: dict[Site, str] = {
    Site.ACCEPT: "`acceptRule.when`",
    Site.EJECT: "`ejectRule.when`",
    Site.TRIGGER: "`triggers[].when`",
    Site.ACTION: "`actions[].when`",
    Site.COUNT: "effect `count` (a string)",
    Site.DEAL: "deal rule `faceUp`/`faceDown` when a string",
    Site.MATCH: "deal rule `match`",
    Site.WHERE: "`move` effect `where` (from a group)",
    Site.KEEP: "`redeal` effect `keep`",
    Site.REDEAL: "`redeal` effect `count` (a string); may call `kept(d)`",
    Site.WIN: "`winCondition.when`",
    Site.LOSS: "`lossCondition.when`",
    Site.SCORING: "`scoring.value`",
}
