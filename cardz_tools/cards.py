"""Cards, ranks, suits and decks: the domain values every other module shares.

A card is a small ``int`` (as a square is in python-chess), so that piles are
plain tuples of ints that hash, compare and copy at C speed:

======  ==========================================================
bits    meaning
======  ==========================================================
0-3     rank: 1 (Ace) .. 13 (King); 0 for a joker
4-6     suit: 0 Clubs, 1 Diamonds, 2 Hearts, 3 Spades, 4 joker
7       face up (set) or face down (clear)
======  ==========================================================

:data:`NO_CARD` stands for "no card" (the top of an empty pile). Its rank and
suit match no real card, so a rule such as ``card.rank == top.rank`` is simply
false on an empty pile instead of failing.

The shuffle is specified here, not borrowed from :mod:`random`, so that
``--seed N`` gives the same deal on every machine and Python version.
"""

from __future__ import annotations

import enum
import re
from collections.abc import Iterable, Sequence

Card = int
"""A card encoded as described in the module docstring."""


class Rank(enum.IntEnum):
    """Card ranks; the value is the rank's number (Ace low)."""

    JOKER = 0
    ACE = 1
    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13

    @property
    def title(self) -> str:
        """The name a design file uses, such as ``"Eight"``."""
        return self.name.capitalize()


class Suit(enum.IntEnum):
    """The four suits, plus the pseudo-suit of jokers."""

    CLUBS = 0
    DIAMONDS = 1
    HEARTS = 2
    SPADES = 3
    JOKER = 4

    @property
    def title(self) -> str:
        """The name a design file uses, such as ``"Hearts"``."""
        return self.name.capitalize()

    @property
    def color(self) -> Color:
        """Red for diamonds and hearts, black for clubs and spades."""
        if self in (Suit.DIAMONDS, Suit.HEARTS):
            return Color.RED
        if self is Suit.JOKER:
            return Color.NONE
        return Color.BLACK


class Color(enum.IntEnum):
    """Card colours; jokers have none."""

    BLACK = 0
    RED = 1
    NONE = 2

    @property
    def title(self) -> str:
        """The name a design file uses, such as ``"Red"``."""
        return self.name.capitalize()


RANKS: tuple[Rank, ...] = tuple(r for r in Rank if r is not Rank.JOKER)
"""The thirteen ranks of a standard deck, Ace first."""
SUITS: tuple[Suit, ...] = (Suit.CLUBS, Suit.DIAMONDS, Suit.HEARTS, Suit.SPADES)
"""The four real suits, in deck order."""

FACE_UP = 0x80
"""The bit that marks a card face up."""
_RANK_MASK = 0x0F
_SUIT_SHIFT = 4
_SUIT_MASK = 0x07

NO_CARD: Card = 0x7F
"""The card-shaped absence: rank 15 and suit 7 match no card."""

RANK_NAMES: dict[str, Rank] = {r.title: r for r in RANKS}
"""Rank names as written in designs and expressions (``"Ace"`` .. ``"King"``)."""
RANK_NAMES_WITH_JOKER: dict[str, Rank] = {**RANK_NAMES, Rank.JOKER.title: Rank.JOKER}
"""The rank names plus ``"Joker"`` (rank 0), as ``wildRank``, ``ranks`` and expressions accept them."""
SUIT_NAMES: dict[str, Suit] = {s.title: s for s in SUITS}
"""Suit names as written in designs and expressions."""
COLOR_NAMES: dict[str, Color] = {"Red": Color.RED, "Black": Color.BLACK}
"""Colour names as written in expressions."""


def make_card(rank: Rank | int, suit: Suit | int, face_up: bool = False) -> Card:
    """Encode a card. Jokers are ``make_card(Rank.JOKER, Suit.JOKER)``."""
    return (int(rank) & _RANK_MASK) | ((int(suit) & _SUIT_MASK) << _SUIT_SHIFT) | (FACE_UP if face_up else 0)


JOKER: Card = make_card(Rank.JOKER, Suit.JOKER)
"""A joker, face down."""


def card_rank(card: Card) -> int:
    """The rank number of ``card`` (0 for a joker, 15 for :data:`NO_CARD`)."""
    return card & _RANK_MASK


def card_suit(card: Card) -> int:
    """The suit number of ``card`` (4 for a joker, 7 for :data:`NO_CARD`)."""
    return (card >> _SUIT_SHIFT) & _SUIT_MASK


def is_face_up(card: Card) -> bool:
    """Whether ``card`` lies face up."""
    return bool(card & FACE_UP)


def face_up(card: Card) -> Card:
    """``card`` turned face up."""
    return card | FACE_UP


def face_down(card: Card) -> Card:
    """``card`` turned face down."""
    return card & ~FACE_UP


def identity(card: Card) -> Card:
    """``card`` without its face-up bit: which card it is, not how it lies."""
    return card & ~FACE_UP


# Lookup tables indexed by the card int: compiled rule expressions read these
# instead of doing bit arithmetic, which is the fastest option in CPython.
RANK_OF: tuple[int, ...] = tuple(c & _RANK_MASK for c in range(256))
SUIT_OF: tuple[int, ...] = tuple((c >> _SUIT_SHIFT) & _SUIT_MASK for c in range(256))
COLOR_OF: tuple[int, ...] = tuple(
    int(Suit(s).color) if s <= 4 else 3 for s in SUIT_OF
)
FACE_UP_OF: tuple[bool, ...] = tuple(bool(c & FACE_UP) for c in range(256))

_RANK_TEXT = {1: "A", 11: "J", 12: "Q", 13: "K"}
_SUIT_TEXT = "CDHS"
_CARD_RE = re.compile(r"^(?:(A|[2-9]|10|T|J|Q|K)([CDHS])|(JK|JOKER|XX))$", re.IGNORECASE)


class CardSyntaxError(ValueError):
    """Raised by :func:`parse_card` for text that names no card."""


def card_str(card: Card) -> str:
    """Short text for a card: ``AS``, ``10H``, ``QC``, ``JK``; ``--`` for :data:`NO_CARD`."""
    card = identity(card)
    if card == NO_CARD:
        return "--"
    rank, suit = card_rank(card), card_suit(card)
    if suit == Suit.JOKER:
        return "JK"
    return _RANK_TEXT.get(rank, str(rank)) + _SUIT_TEXT[suit]


SUIT_SYMBOLS: dict[Suit, str] = {
    Suit.CLUBS: "♣", Suit.DIAMONDS: "♦", Suit.HEARTS: "♥", Suit.SPADES: "♠", Suit.JOKER: "★"
}
"""The symbol of each suit, as boards show it."""


def card_symbol_str(card: Card) -> str:
    """A card with its suit symbol: ``8♣``, ``10♥``, ``JK``; ``--`` for :data:`NO_CARD` (face ignored)."""
    card = identity(card)
    if card == NO_CARD:
        return "--"
    rank, suit = card_rank(card), card_suit(card)
    if suit == Suit.JOKER:
        return "JK"
    return _RANK_TEXT.get(rank, str(rank)) + SUIT_SYMBOLS[Suit(suit)]


def parse_card(text: str) -> Card:
    """Parse ``AS``, ``10H``, ``TH``, ``qc`` or ``JK`` into a face-down card.

    :raises CardSyntaxError: when the text is not a card.
    """
    match = _CARD_RE.match(text.strip())
    if not match:
        raise CardSyntaxError(f"{text!r} is not a card (write cards like AS, 10H, QC or JK)")
    if match.group(3):
        return JOKER
    rank_text, suit_text = match.group(1).upper(), match.group(2).upper()
    rank = {"A": 1, "T": 10, "J": 11, "Q": 12, "K": 13}.get(rank_text) or int(rank_text)
    return make_card(rank, _SUIT_TEXT.index(suit_text))


def parse_deck(text: str) -> list[Card]:
    """Parse a deck order: cards separated by spaces, commas or newlines; ``#`` starts a comment.

    :raises CardSyntaxError: on the first token that is not a card, or past
        :data:`MAX_DECK_CARDS` cards (no design's deck is larger).
    """
    cards: list[Card] = []
    for line in text.splitlines():
        for token in re.split(r"[\s,]+", line.split("#", 1)[0]):
            if token:
                if len(cards) == MAX_DECK_CARDS:
                    raise CardSyntaxError(f"a deck order holds at most {MAX_DECK_CARDS} cards; this one has more")
                cards.append(parse_card(token))
    return cards


MAX_DECK_CARDS = 8 * 52 + 16
"""The most cards a deck order may list: the largest deck a design can have (8 decks, 16 jokers)."""


def standard_deck(decks: int = 1, jokers: int = 0, suits: Iterable[Suit | int] = SUITS) -> list[Card]:
    """The unshuffled deck: per deck the ``suits`` (all four by default), each Ace..King; jokers last.

    The suits always come in the order Clubs, Diamonds, Hearts, Spades, whatever
    order ``suits`` lists them in, so a design's ``suits`` order never changes a deal.
    """
    wanted = {int(suit) for suit in suits}
    in_order = [suit for suit in SUITS if suit in wanted]
    cards = [make_card(rank, suit) for _ in range(decks) for suit in in_order for rank in RANKS]
    cards.extend([JOKER] * jokers)
    return cards


_MASK64 = (1 << 64) - 1


class SplitMix64:
    """The SplitMix64 generator (Steele, Lea and Flood, 2014): tiny, fast and fully specified."""

    __slots__ = ("state",)

    def __init__(self, seed: int) -> None:
        self.state = seed & _MASK64

    def next(self) -> int:
        """The next 64-bit output."""
        self.state = (self.state + 0x9E3779B97F4A7C15) & _MASK64
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
        return z ^ (z >> 31)

    def below(self, bound: int) -> int:
        """A number in ``range(bound)``, by rejection so that every value is equally likely."""
        limit = _MASK64 - (_MASK64 + 1) % bound
        state = self.state
        while True:
            # :meth:`next`, inlined: random play draws once a move, and the call was a twelfth of its time
            state = (state + 0x9E3779B97F4A7C15) & _MASK64
            z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
            value = z ^ (z >> 31)
            if value <= limit:
                self.state = state
                return value % bound


def _below_limits(largest: int) -> tuple[int, ...]:
    """``SplitMix64.below``'s rejection limit for each bound up to ``largest`` (index 0 unused)."""
    return (0, *(_MASK64 - (_MASK64 + 1) % bound for bound in range(1, largest + 1)))


_BELOW_LIMITS = _below_limits(MAX_DECK_CARDS)
"""The limits for every bound a deck's shuffle draws with."""


def shuffle(cards: Sequence[Card], seed: int) -> list[Card]:
    """Shuffle with Fisher-Yates driven by :class:`SplitMix64` seeded with ``seed``.

    For ``i`` from ``len - 1`` down to 1, swap position ``i`` with ``below(i + 1)``.
    The same seed gives the same order on every machine and Python version.
    """
    out = list(cards)
    # SplitMix64.below inlined, with the rejection limits looked up: a playout of Golf deals once and makes about
    # 25 moves, and a deal's 51 calls cost a quarter of the shuffle. tests/test_engine_rules.py pins it to below.
    state = seed & _MASK64
    limits = _BELOW_LIMITS if len(out) <= MAX_DECK_CARDS else _below_limits(len(out))
    for i in range(len(out) - 1, 0, -1):
        bound = i + 1
        limit = limits[bound]
        while True:
            state = (state + 0x9E3779B97F4A7C15) & _MASK64
            z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
            value = z ^ (z >> 31)
            if value <= limit:
                break
        j = value % bound
        out[i], out[j] = out[j], out[i]
    return out


def same_cards(a: Iterable[Card], b: Iterable[Card]) -> bool:
    """Whether two card lists hold the same cards, ignoring order and facing."""
    return sorted(identity(c) for c in a) == sorted(identity(c) for c in b)
