"""What a game page says about a design besides its rules: slug, tagline, decks, board, difficulty.

Everything here is a pure function of the design and the analysis reports, so a
publication is the same bytes for the same input.
"""

from __future__ import annotations

import dataclasses
import enum
import re
import unicodedata
from collections.abc import Sequence

from ..analysis.check import PlaySummary
from ..analysis.stats import bounded_interval, wilson_interval
from ..model import DepotType, Design

# ---------------------------------------------------------------- names

_NOT_SLUG = re.compile(r"[^a-z0-9]+")
_LETTERS = str.maketrans(
    {
        "Œ": "OE",
        "œ": "oe",
        "Æ": "AE",
        "æ": "ae",
        "ß": "ss",
        "Ø": "O",
        "ø": "o",
        "Ł": "L",
        "ł": "l",
        "Đ": "D",
        "đ": "d",
        "Þ": "Th",
        "þ": "th",
    }
)
"""Latin letters that Unicode does not decompose into an ASCII letter and a mark."""


def slugify(name: str) -> str:
    """The file name stem of a game: lowercase ASCII letters and digits joined by hyphens.

    Accents are dropped (``é`` -> ``e``, ``œ`` -> ``oe``); anything else separates words.
    An empty result means the name has nothing to make a file name from.

    >>> slugify("Weathervane (six hidden)")
    'weathervane-six-hidden'
    >>> slugify("Reine Élise")
    'reine-elise'
    """
    ascii_name = unicodedata.normalize("NFKD", name.translate(_LETTERS)).encode("ascii", "ignore").decode("ascii")
    return _NOT_SLUG.sub("-", ascii_name.lower()).strip("-")


_GOAL = re.compile(r"^\s*\*\*Goal:\*\*\s*(.+?)\s*$", re.MULTILINE)
_BOLD_MARKS = re.compile(r"\*\*(?=\S)(.+?)(?<=\S)\*\*")


def tagline(design: Design) -> str:
    """The design's ``tagline``, or the Goal line of its description (``**Goal:** ...``), or ``""``."""
    given = design.raw.get("tagline")
    if isinstance(given, str) and given.strip():
        return given.strip()
    goal = _GOAL.search(design.description)
    if goal is None:
        return ""
    text = _BOLD_MARKS.sub(r"\1", goal.group(1))
    return text[:1].upper() + text[1:]


_NUMBER_WORDS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")


def _count_words(count: int, noun: str) -> str:
    word = _NUMBER_WORDS[count] if count < len(_NUMBER_WORDS) else str(count)
    return f"{word} {noun}{'' if count == 1 else 's'}"


def decks_phrase(design: Design) -> str:
    """``One deck``, ``Two decks``, ``One deck and two jokers``."""
    text = _count_words(design.decks, "deck")
    if design.jokers:
        text += " and " + _count_words(design.jokers, "joker")
    return text[:1].upper() + text[1:]


_TYPE_PLURALS = {
    DepotType.STOCK: "stocks",
    DepotType.WASTE: "wastes",
    DepotType.FOUNDATION: "foundations",
    DepotType.TABLEAU: "tableaus",
    DepotType.CELL: "cells",
    DepotType.RESERVE: "reserves",
}


def board_summary(design: Design) -> str:
    """Piles counted by type, in the order each type first appears: ``25 tableaus, 1 stock, 1 foundation``."""
    counts: dict[DepotType, int] = {}
    for depot in design.depots:
        counts[depot.type] = counts.get(depot.type, 0) + 1
    return ", ".join(
        f"{n} {depot_type.value.lower() if n == 1 else _TYPE_PLURALS[depot_type]}" for depot_type, n in counts.items()
    )


# ---------------------------------------------------------------- difficulty


class Difficulty(enum.Enum):
    """The plain word for how hard a game is; see :func:`difficulty` for the thresholds."""

    EASY = "easy"
    MEDIUM = "medium"
    HARD = "hard"
    VERY_HARD = "very hard"
    UNDECIDED = "undecided"


MIN_DECIDED = 3
"""Fewest deals the solver must decide (won or lost) before the page names a difficulty."""
MIN_DECIDED_SHARE = 0.5
"""...and the least share of the sampled deals they must be."""
DIFFICULTY_THRESHOLDS: tuple[tuple[float, Difficulty], ...] = (
    (0.75, Difficulty.EASY),
    (0.40, Difficulty.MEDIUM),
    (0.15, Difficulty.HARD),
    (0.0, Difficulty.VERY_HARD),
)
"""Share of sampled deals the solver won (undecided ones counted as lost) from which each word applies,
highest first."""

ROUND = 4
"""Decimal places of every rate written to ``catalog.json``."""


@dataclasses.dataclass(frozen=True, slots=True)
class Analysis:
    """The numbers a page and the catalog show: random play and the solver, rounded."""

    playouts: int
    wins: int
    win_rate: float
    win_rate_interval: tuple[float, float]
    deals: int
    won: int
    lost: int
    unknown: int
    winnability: float | None
    winnability_interval: tuple[float, float]
    difficulty: Difficulty

    @property
    def decided(self) -> int:
        """Deals the solver won or proved lost."""
        return self.won + self.lost


def difficulty(won: int, lost: int, unknown: int) -> Difficulty:
    """The word for a solver's verdicts.

    ``undecided`` when fewer than :data:`MIN_DECIDED` deals, or fewer than half the
    deals, were decided; otherwise the first of :data:`DIFFICULTY_THRESHOLDS` that the
    share of sampled deals the solver won reaches. Undecided deals count as lost
    there (they are mostly the hard ones), so the word never flatters a game.

    >>> difficulty(9, 1, 0).value, difficulty(2, 3, 0).value, difficulty(1, 9, 0).value
    ('easy', 'medium', 'very hard')
    >>> difficulty(2, 0, 8).value, difficulty(3, 0, 3).value
    ('undecided', 'medium')
    """
    decided = won + lost
    deals = decided + unknown
    if decided < MIN_DECIDED or decided < MIN_DECIDED_SHARE * deals:
        return Difficulty.UNDECIDED
    rate = won / deals
    return next(word for floor, word in DIFFICULTY_THRESHOLDS if rate >= floor)


def _rounded(pair: Sequence[float]) -> tuple[float, float]:
    return (round(pair[0], ROUND), round(pair[1], ROUND))


def analysis_of(played: PlaySummary) -> Analysis:
    """The rounded numbers of a play analysis (zeros for a part that was skipped)."""
    playouts, wins = played.playouts, played.wins
    won, lost, unknown = played.won, played.lost, played.unknown
    winnability = won / (won + lost) if won + lost else None
    return Analysis(
        playouts=playouts,
        wins=wins,
        win_rate=round(wins / playouts, ROUND) if playouts else 0.0,
        win_rate_interval=_rounded(wilson_interval(wins, playouts)),
        deals=won + lost + unknown,
        won=won,
        lost=lost,
        unknown=unknown,
        winnability=None if winnability is None else round(winnability, ROUND),
        winnability_interval=_rounded(bounded_interval(won, lost, unknown)),
        difficulty=difficulty(won, lost, unknown),
    )
