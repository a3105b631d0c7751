"""games/pyramid.cardz and games/spider-one-suit.cardz: their rules on arranged deals."""

from __future__ import annotations

import pytest

from cardz_tools.cards import FACE_UP, Rank, Suit, make_card, parse_card, standard_deck
from cardz_tools.engine import Drag, Game, Tap
from tests.engine_support import load_design


def arranged(head: str, full: list[int]) -> list[int]:
    """The cards of ``head`` first (``-``: the next card not named), then the rest of ``full`` in order."""
    named = [None if t == "-" else parse_card(t) for t in head.split()]
    rest = list(full)
    for card in named:
        if card is not None:
            rest.remove(card)
    filler = iter(rest)
    return [next(filler) if c is None else c for c in named] + list(filler)


def pile(game: Game, state: object, name: str) -> tuple[int, ...]:
    return state.piles[game.index[name]]  # type: ignore[attr-defined]


# ------------------------------------------------------------------ Pyramid


@pytest.fixture(scope="module")
def pyramid() -> Game:
    return Game(load_design("pyramid"))


def test_pyramid_free_cards_making_13_pair_off_and_a_king_goes_alone(pyramid: Game) -> None:
    # pyr[21..27] is the free bottom row; the 29th card is the stock's top.
    deck = arranged(" ".join(["-"] * 21) + " 6C 7D KH AC 2S 3S 4S QS", standard_deck())
    state = pyramid.new_initial_state(deck=deck)
    assert state.why_illegal(Drag("pyr[20]", 1, "pyr[21]", None)) is not None  # covered by the bottom row
    assert state.why_illegal(Drag("pyr[25]", 1, "pyr[26]", None)) is not None  # 2 + 3 is not 13
    state.apply(Drag("pyr[21]", 1, "pyr[22]", None))
    assert pile(pyramid, state, "pyr[21]") == () and pile(pyramid, state, "pyr[22]") == ()
    assert pile(pyramid, state, "discard") == (parse_card("7D") | FACE_UP, parse_card("6C") | FACE_UP)
    assert state.why_illegal(Drag("pyr[24]", 1, "discard", None)) is not None  # only a King goes alone
    state.apply(Drag("pyr[23]", 1, "discard", None))
    state.apply(Tap("stock", None))
    state.apply(Drag("waste", 1, "pyr[24]", None))  # Q♠ from the waste with A♣
    assert pile(pyramid, state, "pyr[24]") == () and len(pile(pyramid, state, "discard")) == 5


def test_pyramid_a_card_is_free_once_both_cards_on_it_are_gone(pyramid: Game) -> None:
    deck = arranged(" ".join(["-"] * 15) + " 5H - - - - - 6C 7D - - - - 8C", standard_deck())
    state = pyramid.new_initial_state(deck=deck)
    assert state.why_illegal(Drag("pyr[15]", 1, "pyr[27]", None)) is not None  # 5♥ lies under pyr[21] and pyr[22]
    state.apply(Drag("pyr[21]", 1, "pyr[22]", None))  # 6♣ + 7♦
    assert state.why_illegal(Drag("pyr[15]", 1, "pyr[27]", None)) is None  # 5♥ + 8♣


# ------------------------------------------------------------------ Spider (one suit)


@pytest.fixture(scope="module")
def spider() -> Game:
    return Game(load_design("spider-one-suit"))


def spade(rank: int, up: bool = True) -> int:
    return make_card(Rank(rank), Suit.SPADES, up)


def test_spider_deck_is_104_spades_and_the_deal_tap_needs_every_column_filled(spider: Game) -> None:
    state = spider.new_initial_state(seed=4)
    assert state.cards_in_play == 104
    assert all((c >> 4) & 7 == int(Suit.SPADES) for p in state.piles for c in p)
    assert [len(pile(spider, state, f"tab[{i}]")) for i in range(10)] == [6] * 4 + [5] * 6
    before = [pile(spider, state, f"tab[{i}]") for i in range(10)]
    stock = pile(spider, state, "stock")
    state.apply(Tap("stock", "deal"))
    assert [pile(spider, state, f"tab[{i}]") for i in range(10)] == [
        before[i] + (stock[-1 - i] | FACE_UP,) for i in range(10)
    ]
    state.set_pile(spider.index["tab[3]"], ())
    assert state.why_illegal(Tap("stock", "deal")) is not None


def test_spider_only_a_run_down_moves_and_a_king_to_ace_run_leaves(spider: Game) -> None:
    state = spider.new_initial_state(deck=standard_deck(8, 0, (Suit.SPADES,)))
    state.set_pile(spider.index["tab[0]"], (spade(4, False),) + tuple(spade(r) for r in range(13, 1, -1)))
    state.set_pile(spider.index["tab[1]"], (spade(9), spade(1)))
    state.set_pile(spider.index["tab[2]"], (spade(9), spade(7)))
    assert state.why_illegal(Drag("tab[2]", 2, "tab[4]", None)) is not None  # 9 then 7: not a run
    state.apply(Drag("tab[1]", 1, "tab[0]", None))
    assert pile(spider, state, "tab[0]") == (spade(4),)  # the run left; the card under it turned up
    assert pile(spider, state, "done") == tuple(spade(r) for r in range(13, 0, -1))
