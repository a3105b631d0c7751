"""games/montana.cardz and games/chateau-de-cartes.cardz: their rules on arranged deals, and play."""

from __future__ import annotations

import io

import pytest
from rich.console import Console

from cardz_tools.cards import FACE_UP, JOKER, Rank, Suit, make_card, parse_card, shuffle, standard_deck
from cardz_tools.engine import Drag, Game, Tap
from cardz_tools.engine.effects import reshuffle_seed
from cardz_tools.loading import open_design
from cardz_tools.play import run_play
from tests.engine_support import GAMES, load_design


def cards(text: str) -> list[int]:
    return [parse_card(t) for t in text.split()]


def arranged(head: list[int | None], full: list[int]) -> list[int]:
    """``head`` with each None replaced by the next card of ``full`` not named in ``head``."""
    rest = list(full)
    for card in head:
        if card is not None:
            rest.remove(card)
    filler = iter(rest)
    return [next(filler) if c is None else c for c in head] + list(filler)


# ------------------------------------------------------------------ Montana


@pytest.fixture(scope="module")
def montana() -> Game:
    return Game(load_design("montana"))


def montana_rows(*rows: str) -> list[int]:
    """A deck laid out row by row; a row shorter than 13 is filled with the cards not named."""
    head: list[int | None] = []
    for row in rows:
        named = cards(row)
        head += named + [None] * (13 - len(named))
    return arranged(head, standard_deck())


def cell(game: Game, state: object, i: int) -> tuple[int, ...]:
    return state.piles[game.index[f"cell[{i}]"]]  # type: ignore[attr-defined]


def test_montana_deal_removes_the_aces_to_their_pile_in_reading_order(montana: Game) -> None:
    deck = montana_rows("2C 3C AH", "AC", "5D AS", "AD")
    state = montana.new_initial_state(deck=deck)
    assert state.piles[montana.index["aces"]] == tuple(c | FACE_UP for c in cards("AH AC AS AD"))
    gaps = [i for i in range(52) if not cell(montana, state, i)]
    assert gaps == [2, 13, 27, 39]
    assert state.score() == 2


def test_montana_gaps_take_the_next_card_of_the_suit_or_a_two_and_a_gap_after_a_king_is_dead(montana: Game) -> None:
    deck = montana_rows("5D AH 2S 6D", "3C KH AC 4C", "AS 9S 2D", "AD 7H")
    state = montana.new_initial_state(deck=deck)
    moves = state.legal_moves()
    assert Drag("cell[3]", 1, "cell[1]", None) in moves  # 6♦ after 5♦
    assert state.why_illegal(Drag("cell[15]", 1, "cell[1]", None)) is not None  # 4♣ does not follow 5♦
    assert not [m for m in moves if isinstance(m, Drag) and m.target == "cell[15]"]  # after K♥: dead
    assert Drag("cell[2]", 1, "cell[26]", None) in moves and Drag("cell[28]", 1, "cell[39]", None) in moves
    assert Tap("aces", "redeal") not in moves  # gaps can still be filled


def test_montana_redeal_keeps_each_rows_ordered_part_and_leaves_one_gap_after_it(montana: Game) -> None:
    # Every Two at the left edge and every gap after a King: stuck, so the redeal is offered.
    deck = montana_rows("2C 3C 4C 5C KD AC", "2D 3D KH AD", "2H KS AH", "2S KC AS")
    state = montana.new_initial_state(deck=deck)
    assert state.legal_moves() == [Tap("aces", "redeal")]
    kept = {0, 1, 2, 3, 13, 14, 26, 39}
    gathered = [c for i in range(52) if i not in kept for c in cell(montana, state, i)]
    before = {i: cell(montana, state, i) for i in kept}
    state.apply(Tap("aces", "redeal"))
    order = iter(shuffle(gathered, reshuffle_seed(None, 1)))
    for i in range(52):
        if i in kept:
            assert cell(montana, state, i) == before[i]
        elif i in (4, 15, 27, 40):  # one gap after each ordered part
            assert cell(montana, state, i) == ()
        else:
            assert cell(montana, state, i) == (next(order) | FACE_UP,)
    assert state.score() == 8
    assert "redeal used 1/2" in str(state)


def test_gaps_without_redeal_is_lost_where_montana_would_redeal(montana: Game) -> None:
    gaps = Game(open_design(GAMES / "gaps-no-redeal.cardz").design)
    deck = montana_rows("2C 3C 4C 5C KD AC", "2D 3D KH AD", "2H KS AH", "2S KC AS")
    assert montana.new_initial_state(deck=deck).legal_moves() == [Tap("aces", "redeal")]
    stuck = gaps.new_initial_state(deck=deck)
    assert stuck.legal_moves() == [] and stuck.outcome().lost
    # Otherwise it plays as Montana: the same deal offers the same gap fills.
    deal = shuffle(standard_deck(), 5)
    assert gaps.new_initial_state(deck=deal).legal_moves() == montana.new_initial_state(deck=deal).legal_moves()


def test_montana_rows_in_order_win_with_48(montana: Game) -> None:
    rows = [" ".join(f"{r}{s}" for r in "23456789TJQKA") for s in "HSCD"]
    state = montana.new_initial_state(deck=montana_rows(*rows))
    outcome = state.outcome()
    assert outcome.won and outcome.score == 48


def test_montana_plays_in_the_terminal() -> None:
    out = io.StringIO()
    code = run_play(
        GAMES / "montana.cardz", 1, None, io.StringIO("1\n1\nu\nq\n"), Console(file=out, width=200, color_system=None)
    )
    text = out.getvalue()
    boards = [line for line in text.splitlines() if line.startswith("move ")]
    assert code == 0 and "Not allowed" not in text
    assert [b.split(" · ")[0] for b in boards] == ["move 0", "move 1", "move 2", "move 1"]
    assert all("redeal used 0/2" in b for b in boards)


# ------------------------------------------------------------------ Château de cartes


@pytest.fixture(scope="module")
def chateau() -> Game:
    return Game(load_design("chateau-de-cartes"))


def chateau_deck(head: str) -> list[int]:
    """Deal order: the five open cards, then the stock from the top."""
    named: list[int | None] = [JOKER if t == "JK" else parse_card(t) for t in head.split()]
    return arranged(named, standard_deck(2, 2))


def pile(game: Game, state: object, name: str) -> tuple[int, ...]:
    return state.piles[game.index[name]]  # type: ignore[attr-defined]


def test_chateau_triangles_pair_rank_or_suit_on_the_ground_and_a_joker_blows_the_top_storey(chateau: Game) -> None:
    state = chateau.new_initial_state(deck=chateau_deck("5H 6H 7C 7D 9S 8H JK 2C"))
    state.apply(Drag("hand[0]", 1, "tri[15]", None))
    assert pile(chateau, state, "hand[0]") == (parse_card("8H") | FACE_UP,)  # refilled from the stock
    assert state.why_illegal(Drag("hand[2]", 1, "tri[15]", None)) is not None  # 7♣ neither rank nor suit
    assert state.why_illegal(Drag("hand[2]", 1, "tri[0]", None)) is not None  # no floor to stand on
    state.apply(Drag("hand[1]", 1, "tri[15]", None))  # 6♥ completes it; the joker arrives
    assert pile(chateau, state, "tri[15]") == ()
    assert pile(chateau, state, "discard") == tuple(c | FACE_UP for c in cards("5H 6H")) + (JOKER | FACE_UP,)
    assert pile(chateau, state, "hand[1]") == (parse_card("2C") | FACE_UP,)


def test_chateau_a_floor_carries_the_weaker_triangle_and_an_ace_floor_anything(chateau: Game) -> None:
    state = chateau.new_initial_state(deck=chateau_deck("KH JH 5C 4C QS 5D 5S AC"))
    for source, target in [(0, 15), (1, 15), (2, 16), (3, 16)]:
        state.apply(Drag(f"hand[{source}]", 1, f"tri[{target}]", None))
    # hand now: 5D 5S AC + two more; the triangles under floor[10] are worth 20 and 9.
    assert [pile(chateau, state, f"hand[{i}]")[0] & ~FACE_UP for i in range(3)] == cards("5D 5S AC")
    assert state.why_illegal(Drag("hand[0]", 1, "tri[10]", None)) is not None  # no floor yet
    state.apply(Drag("hand[4]", 1, "floor[10]", None))
    state.apply(Drag("hand[0]", 1, "tri[10]", None))  # 5 <= 9
    assert state.why_illegal(Drag("hand[1]", 1, "tri[10]", None)) is not None  # 5 + 5 > 9
    state = chateau.new_initial_state(deck=chateau_deck("KH JH 5C 4C AC 5D 5S"))
    for source, target in [(0, 15), (1, 15), (2, 16), (3, 16), (4, 10)]:
        target_name = "floor[10]" if target == 10 else f"tri[{target}]"
        state.apply(Drag(f"hand[{source}]", 1, target_name, None))
    state.apply(Drag("hand[0]", 1, "tri[10]", None))
    assert state.why_illegal(Drag("hand[1]", 1, "tri[10]", None)) is None  # an Ace floor carries anything


def test_chateau_replace_loses_the_open_cards_and_draws_five(chateau: Game) -> None:
    deck = chateau_deck("")
    state = chateau.new_initial_state(deck=deck)
    state.apply(Tap("stock", "replace"))
    assert pile(chateau, state, "discard") == tuple(c | FACE_UP for c in deck[:5])
    assert [pile(chateau, state, f"hand[{i}]") for i in range(5)] == [(deck[5 + i] | FACE_UP,) for i in range(5)]
    assert len(pile(chateau, state, "stock")) == 106 - 10


def test_chateau_a_complete_house_scores_its_triangles_and_two_per_unused_card(chateau: Game) -> None:
    state = chateau.new_initial_state(deck=chateau_deck(""))
    king, ace = make_card(Rank.KING, Suit.CLUBS, True), make_card(Rank.ACE, Suit.HEARTS, True)
    for i in range(21):
        state.set_pile(chateau.index[f"tri[{i}]"], (king, ace))
    for i in range(15):
        state.set_pile(chateau.index[f"floor[{i}]"], (king,))
    unused = len(pile(chateau, state, "stock")) + 5
    assert state.is_won()
    assert state.score() == 21 * (10 + 11) + 2 * unused


def test_chateau_plays_in_the_terminal() -> None:
    out = io.StringIO()
    code = run_play(
        GAMES / "chateau-de-cartes.cardz",
        3,
        None,
        io.StringIO("1\n1\nq\n"),
        Console(file=out, width=200, color_system=None),
    )
    text = out.getvalue()
    boards = [line for line in text.splitlines() if line.startswith("move ")]
    assert code == 0 and "Not allowed" not in text
    assert [b.split(" · ")[0] for b in boards] == ["move 0", "move 1", "move 2"]
