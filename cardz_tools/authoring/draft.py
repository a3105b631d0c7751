"""The design being built from a rules text (:class:`Draft`) and what every family's builder shares.

A :class:`Draft` records what each sentence became and every decision left open (a TODO);
:mod:`.families` lays out each family's board with it, and :mod:`.skeletons` writes the
description and assembles the design.
"""

from __future__ import annotations

import collections
import dataclasses
import re
from collections.abc import Callable
from typing import Any

from ..todos import todo
from . import lexicon as lx
from .lexicon import Family, Language, compile_pattern
from .play_rules import Aspect, PlayFact
from .reading import Analysis, Mechanism, Quantity

Json = dict[str, Any]

PAIR_WHEN = "adjacent(source, depot) && !empty(depot) && card.rank == top.rank"
CONSOLIDATE_WHEN = "any(cell, empty(it) && (!empty(stock) || any(c in cell, index(c) > index(it) && !empty(c))))"
PLACEHOLDER = "false"
"""The placeholder of an expression that still has to be written (always with a TODO): it accepts nothing,
so a design with one plays a smaller game, never a looser one."""
NEVER = "false"
"""The placeholder of a win condition that still has to be written (always with a TODO)."""

PAIR_REASON: dict[Language, str] = {
    Language.EN: "A card pairs with one of its rank that touches it",
    Language.FR: "Une carte fait la paire avec une carte de même rang qui la touche",
    Language.RU: "Карта составляет пару с картой того же достоинства, которая её касается",
    Language.DE: "Eine Karte bildet ein Paar mit einer angrenzenden Karte gleichen Rangs",
    Language.ES: "Una carta forma pareja con otra del mismo valor que la toca",
    Language.IT: "Una carta fa coppia con un'altra dello stesso valore che la tocca",
}

MAX_BULLETS = 10
MAX_BULLET_CHARS = 400
MAX_REASON = 200
"""The schema's bound on ``reason``."""
MAX_NAME = 80
"""The schema's bound on ``name``."""

SEE_ALSO: dict[Family, str] = {
    Family.KLONDIKE: "How to express Klondike",
    Family.FREECELL: "How to express FreeCell",
    Family.GOLF: "How to express Golf",
    Family.SPIDER: "How to express Spider",
    Family.CANFIELD: "How to express Canfield",
    Family.GAPS: "How to express Montana",
    Family.PYRAMID: "How to express Pyramid",
    Family.CASTLE: "How to express Château de cartes",
}
"""The worked design in docs/format.md that shows a family's rules written out."""
RULE_WORDS = compile_pattern(lx.RULE_WORDS)
SCORE_WORDS = compile_pattern(r"scor\w*|points?|очк\w*|punkte?|wertung|puntos?|puntuaci[oó]n|punti|punteggio")
BLACK_HOLE = compile_pattern(r"black hole|trou noir|schwarze\w* loch|черн\w* дыр\w*|agujero negro|buco nero")
LABEL = re.compile(r"^([^\W\d_][\w'-]*(?: [\w'-]+)?)\s?:\s+(.+)$")


@dataclasses.dataclass
class Draft:
    """A design being built: what each sentence became, and the open decisions."""

    analysis: Analysis
    outcomes: dict[int, list[str]] = dataclasses.field(default_factory=lambda: collections.defaultdict(list))
    todos: list[str] = dataclasses.field(default_factory=list)
    notes: list[str] = dataclasses.field(default_factory=list)
    examples: list[str] = dataclasses.field(default_factory=list)
    """Expressions to start from for the placeholders (shown in the report)."""
    play: tuple[PlayFact, ...] = ()
    """What the text says about play (:mod:`.play_rules`)."""
    scored: bool = False
    """A score sentence of the text became ``scoring``."""

    @property
    def black_hole(self) -> bool:
        """A Golf-family text about Black Hole (its own board: fans and a hole, no stock)."""
        return any(BLACK_HOLE.search(name) for name in self.analysis.family.names)

    def facts(self, aspect: Aspect) -> list[PlayFact]:
        """The text's statements of ``aspect``, in text order."""
        return [fact for fact in self.play if fact.aspect is aspect]

    def agrees(self, aspect: Aspect, became: str) -> bool:
        """Record that each statement of ``aspect`` (which the usual rule already writes) became ``became``."""
        facts = self.facts(aspect)
        for fact in facts:
            self.outcomes[fact.sentence].append(became)
        return bool(facts)

    def stated(self, aspect: Aspect, what: str, usual: int | str, *, key: str, quiet: bool = False) -> int | str:
        """What the text states of ``aspect`` (the first statement; later ones agree or conflict), else "
        "``usual`` with a TODO."""
        facts = self.facts(aspect)
        if not facts:
            if quiet:
                self.notes.append(f"{what}: {usual} (the text does not say; the usual rule)")
            else:
                self.open(
                    f"{what}: the text does not say; the usual {self.family.value} rule ({usual}) was written — "
                    f"confirm."
                )
            return usual
        chosen = facts[0]
        self.outcomes[chosen.sentence].append(f"{key} {chosen.value}")
        for other in facts[1:]:
            agrees = other.value == chosen.value
            self.outcomes[other.sentence].append(
                f"{key} {other.value}" + (" (agrees)" if agrees else " (conflicts; not used)")
            )
            if not agrees:
                self.open(
                    f"{what}: the text says {chosen.value} (sentence {chosen.sentence}) but also {other.value} "
                    f"(sentence {other.sentence}); {chosen.value} was used — check."
                )
        return chosen.value

    @property
    def family(self) -> Family:
        return self.analysis.family.family

    @property
    def language(self) -> Language:
        return self.analysis.language.language

    def open(self, text: str) -> None:
        """Record a decision the author still has to make (a description TODO bullet)."""
        self.todos.append(text)

    def number(
        self,
        quantity: Quantity,
        default: int | str,
        what: str,
        *,
        quiet_default: bool = False,
        valid: Callable[[int | str], bool] = lambda value: True,
    ) -> int | str:
        """The value the text states for ``quantity``, else ``default`` with a TODO (or a note if ``quiet_default``)."""
        values = self.analysis.values(quantity)
        usable = [e for e in values if valid(e.value)]
        for rejected in (e for e in values if not valid(e.value)):
            self.outcomes[rejected.sentence].append(f"{what} = {rejected.value} (rejected: impossible here)")
        if not usable:
            if values:
                self.open(f"{what}: the text's value does not fit this board; {default} was used — decide.")
            elif quiet_default:
                self.notes.append(f"{what} = {default} (the text does not say; format default)")
            else:
                self.open(
                    f"{what}: the text does not say; {default} is the {self.family.value} default — confirm or "
                    f"change it."
                )
            return default
        chosen = usable[0]
        self.outcomes[chosen.sentence].append(f"{what} = {chosen.value}")
        for other in usable[1:]:
            if other.value == chosen.value:
                self.outcomes[other.sentence].append(f"{what} = {other.value} (agrees)")
            else:
                self.outcomes[other.sentence].append(f"{what} = {other.value} (conflicts; not used)")
        conflicts = sorted({str(e.value) for e in usable if e.value != chosen.value})
        if conflicts:
            self.open(
                f"{what}: the text says {chosen.value} (sentence {chosen.sentence}) but also "
                f"{', '.join(conflicts)}; {chosen.value} was used — check."
            )
        return chosen.value

    def placeholder_rule(
        self,
        depot: str,
        key: str,
        what: str,
        example: str | None = None,
        like: str | None = None,
        **extra: Any,
    ) -> Json:
        """A rule object whose ``when`` is the placeholder, with a TODO in its ``reason``.

        The reason (at most :data:`MAX_REASON` characters, as the schema allows) says what the
        expression must express; ``example`` (an expression to start from) goes to the report
        and, with the docs section of the family, to :attr:`examples`. ``like`` names a depot
        whose TODO already explains the same rule (a castle's rows).
        """
        head = f'write when ("{PLACEHOLDER}" is a placeholder): '
        body = f"as for '{like}'." if like else f"{what}."
        if example and not like:
            self.examples.append(f"{key}.when of '{depot}': {example}")
        see = f" See docs/format.md, {SEE_ALSO[self.family]}." if self.family in SEE_ALSO and not like else ""
        room = MAX_REASON - len(todo(head)) - len(see)
        if len(body) > room:
            body = body[: room - 1].rstrip() + "…"
        return {**extra, "when": PLACEHOLDER, "reason": todo(head + body) + see}

    def mechanism(self, mechanism: Mechanism, became: str) -> bool:
        """Whether the text states ``mechanism``; if so record what its sentence became."""
        sentence = self.analysis.mechanisms.get(mechanism)
        if sentence is None:
            return False
        self.outcomes[sentence].append(became)
        return True
