"""The expression extensions: chain, topCards, bottom, covered, at, pow, kept, Joker and the new sites."""

from __future__ import annotations

from typing import Any

import pytest

from cardz_tools.cards import JOKER, Suit, face_up, make_card
from cardz_tools.expr import DesignEnv, Site, check, check_design, compile_rule
from cardz_tools.expr.types import BOOL, CARDS, DEPOT_OPT, INT
from cardz_tools.model import build_design

DESIGN = build_design({
    "name": "Extensions",
    "depots": [
        {"name": "pyr", "type": "Tableau", "col": 1, "row": 0, "perRow": [1, 2, 3], "align": "center",
         "rowStep": 0.5},                                                        # 0..5
        {"name": "stock", "type": "Stock", "col": 0, "row": 4},                   # 6
        {"name": "found", "type": "Foundation", "col": 5, "row": 0, "repeat": 4},  # 7..10
        {"name": "tab", "type": "Tableau", "col": 0, "row": 2, "repeat": 3},     # 11..13
    ],
    "winCondition": {"kind": "allCardsIn", "depots": "Foundation"},
})
ENV = DesignEnv.from_design(DESIGN)
SIZE = len(DESIGN.depots)


def card(rank: int, suit: int = Suit.SPADES) -> int:
    return face_up(make_card(rank, suit))


def piles(**given: list[int]) -> list[list[int]]:
    """Empty piles except those given by depot index (``d3=[...]``)."""
    P: list[list[int]] = [[] for _ in range(SIZE)]
    for key, cards in given.items():
        P[int(key[1:])] = cards
    return P


def fn(text: str, site: Site) -> Any:
    checked = check(text, site, ENV)
    assert checked.ok and not checked.issues, checked.issues
    return compile_rule(checked, ENV).fn


def codes(text: str, site: Site) -> list[str]:
    return [issue.code for issue in check(text, site, ENV).issues]


# ---------------------------------------------------------------- chain


def test_chain_checks_consecutive_pairs_with_prev_below() -> None:
    rule = fn("chain(cards, it.suit == prev.suit && it.rank == prev.rank - 1)", Site.EJECT)
    run = [card(13), card(12), card(11)]
    assert rule(piles(), None, run[0], tuple(run), 11) is True
    broken = [card(13), card(12), card(10)]
    assert rule(piles(), None, broken[0], tuple(broken), 11) is False
    mixed = [card(13), card(12, Suit.HEARTS)]
    assert rule(piles(), None, mixed[0], tuple(mixed), 11) is False
    assert rule(piles(), None, card(5), (card(5),), 11) is True
    assert rule(piles(), None, card(5), (), 11) is True


def test_chain_over_a_pile_and_prev_inside_a_nested_quantifier() -> None:
    rule = fn("chain(depot, it.rank == prev.rank + 1)", Site.TRIGGER)
    assert rule(piles(d11=[card(1), card(2), card(3)]), None, 11) is True
    assert rule(piles(d11=[card(1), card(3)]), None, 11) is False
    nested = fn("chain(c in depot, any(tab, count(it) == prev.value) && c.value > prev.value)", Site.TRIGGER)
    P = piles(d11=[card(2), card(5)], d12=[card(1), card(1)])
    assert nested(P, None, 11) is True  # prev is the 2; tab[1] holds two cards
    P = piles(d11=[card(3), card(5)], d12=[card(1), card(1)])
    assert nested(P, None, 11) is False


@pytest.mark.parametrize(("text", "code"), [
    ("chain(cards)", "CZ404"),
    ("chain(tab, true)", "CZ405"),
    ("prev.rank == Ace", "CZ407"),
    ("chain(cards, prev)", "CZ405"),
])
def test_chain_errors(text: str, code: str) -> None:
    assert code in codes(text, Site.EJECT)


def test_chain_type() -> None:
    assert check("chain(cards, it.rank == prev.rank - 1)", Site.EJECT, ENV).type == BOOL


# ---------------------------------------------------------------- topCards, bottom


def test_top_cards_takes_the_top_n_bottom_first() -> None:
    assert check("topCards(depot, 2)", Site.TRIGGER, ENV).node is not None
    assert check("topCards(depot, 2)", Site.TRIGGER, ENV).type == CARDS
    rule = fn("count(topCards(depot, count(stock))) * 100 + sum(topCards(depot, count(stock)), it.value)",
              Site.COUNT)
    pile = [card(1), card(2), card(3)]
    assert rule(piles(d11=pile, d6=[card(9)] * 2), None, 11) == 2 * 100 + 5
    assert rule(piles(d11=pile, d6=[card(9)] * 9), None, 11) == 3 * 100 + 6
    assert rule(piles(d11=pile), None, 11) == 0
    negative = fn("count(topCards(depot, 0 - count(stock)))", Site.COUNT)
    assert negative(piles(d11=pile, d6=[card(9)]), None, 11) == 0


def test_top_cards_errors() -> None:
    assert "CZ404" in codes("count(topCards(depot)) > 0", Site.TRIGGER)
    assert "CZ405" in codes("count(topCards(tab, 2)) > 0", Site.TRIGGER)
    assert "CZ405" in codes("count(topCards(depot, Ace)) > 0", Site.TRIGGER)


def test_bottom_of_a_group_member() -> None:
    rule = fn("empty(depot) ? !empty(found[0]) && card.rank == bottom(found[0]).rank : false", Site.ACCEPT)
    P = piles(d7=[card(7), card(8)])
    assert rule(P, None, card(7, Suit.HEARTS), (card(7),), 6, 8) is True
    assert rule(P, None, card(8), (card(8),), 6, 8) is False
    assert rule(piles(), None, card(7), (card(7),), 6, 8) is False
    assert codes("card.rank == bottom(found[0]).rank", Site.ACCEPT) == ["CZ408"]


# ---------------------------------------------------------------- covered


def test_covered_means_a_later_overlapping_depot_holds_a_card() -> None:
    rule = fn("covered(depot)", Site.TRIGGER)
    # pyr[0] at (2, 0); pyr[1], pyr[2] at (1.5, 0.5), (2.5, 0.5); pyr[3..5] at (1, 1), (2, 1), (3, 1)
    assert rule(piles(d0=[card(1)]), None, 0) is False
    assert rule(piles(d0=[card(1)], d2=[card(2)]), None, 0) is True
    assert rule(piles(d1=[card(1)], d2=[card(2)]), None, 1) is False  # pyr[2] only touches pyr[1]
    assert rule(piles(d1=[card(1)], d4=[card(2)]), None, 1) is True
    assert rule(piles(d1=[card(1)], d5=[card(2)]), None, 1) is False
    assert rule(piles(d0=[card(1)], d3=[card(2)]), None, 3) is False  # earlier depots never cover


def test_covered_of_a_named_member_and_its_type() -> None:
    assert check("!covered(pyr[0])", Site.WIN, ENV).issues == ()
    assert "CZ405" in codes("covered(pyr)", Site.WIN)


# ---------------------------------------------------------------- at


def test_at_finds_a_member_by_grid_row_and_column() -> None:
    checked = check("at(pyr, 2, 1)", Site.TRIGGER, ENV)
    assert checked.type == DEPOT_OPT
    rule = fn("exists(at(pyr, row(depot) + 1, col(depot))) ? count(at(pyr, row(depot) + 1, col(depot))) : -1",
              Site.COUNT)
    P = piles(d1=[card(1)], d3=[card(2), card(3)])
    assert rule(P, None, 1) == 2  # below pyr[1] (row 1, col 0) is pyr[3]
    assert rule(P, None, 0) == 1  # below pyr[0] is pyr[1]
    assert rule(P, None, 5) == -1  # nothing below the last row
    assert codes("count(at(pyr, 1, 0)) > 0", Site.WIN) == ["CZ408"]


def test_at_is_static_and_folds_on_constants() -> None:
    assert codes("at(pyr, 2, 1) == pyr[4]", Site.WIN) == ["CZ409"]  # always true
    absent = check("at(pyr, 0, 1)", Site.WIN, ENV)  # row 0 has one member
    assert absent.info[id(absent.node)].const == -1
    assert "CZ404" in codes("exists(at(pyr, 1))", Site.WIN)
    assert "CZ405" in codes("exists(at(stock, 0, 0))", Site.WIN)


# ---------------------------------------------------------------- pow


def test_pow_computes_and_clamps_its_exponent() -> None:
    rule = fn("pow(2, count(depot) - 1)", Site.COUNT)
    assert rule(piles(d11=[card(1)] * 4), None, 11) == 8
    assert rule(piles(), None, 11) == 1  # exponent below 0 counts as 0
    assert fn("pow(2, count(depot) + 40)", Site.COUNT)(piles(), None, 11) == 2 ** 30
    folded = check("pow(3, 2)", Site.SCORING, ENV)
    assert folded.info[id(folded.node)].const == 9


def test_nested_powers_stay_bounded() -> None:
    text = "pow(pow(pow(pow(pow(count(depot) + 2, 30), 30), 30), 30), 30)"
    assert fn(text, Site.COUNT)(piles(), None, 11) == 2 ** 62
    folded = check("pow(pow(pow(pow(2, 30), 30), 30), 30) - pow(0 - 3, 30) * 0 + pow(0 - 2, 3)", Site.SCORING, ENV)
    assert folded.info[id(folded.node)].const == 2 ** 62 - 8
    assert fn("pow(0 - count(depot) - 7, 29)", Site.COUNT)(piles(), None, 11) == -(2 ** 62)


@pytest.mark.parametrize("text", ["pow(2, 31)", "pow(2, -1)", "pow(2)", "pow(Ace, 2)"])
def test_pow_errors(text: str) -> None:
    assert any(code in ("CZ404", "CZ405") for code in codes(text, Site.SCORING))


# ---------------------------------------------------------------- kept and the new sites


def test_kept_reads_the_redeal_keep_set() -> None:
    checked = check("col(depot) == 0 || kept(left(depot)) ? 0 : 1", Site.REDEAL, ENV)
    assert checked.issues == () and checked.type == INT
    rule = compile_rule(checked, ENV).fn
    kept = frozenset({11})
    assert rule(piles(), None, 11, kept) == 0  # leftmost
    assert rule(piles(), None, 12, kept) == 0  # tab[0] was kept
    assert rule(piles(), None, 13, kept) == 1


def test_kept_only_in_a_redeal_count() -> None:
    assert codes("kept(depot) ? 1 : 0", Site.COUNT) == ["CZ406"]
    assert codes("kept(depot)", Site.REDEAL) == ["CZ405"]  # a count is an Int


def test_match_site_has_card_and_depot() -> None:
    rule = fn("card.rank == Ace && card.suit == Spades && depot in found", Site.MATCH)
    assert rule(piles(), None, make_card(1, Suit.SPADES), 7) is True
    assert rule(piles(), None, make_card(1, Suit.HEARTS), 7) is False
    assert rule(piles(), None, make_card(1, Suit.SPADES), 11) is False
    assert codes("card.value", Site.DEAL) == ["CZ406"]


def test_where_and_keep_sites_are_conditions_over_the_member() -> None:
    where = fn("row(depot) == 0 && !empty(depot) && top.rank == King", Site.WHERE)
    assert where(piles(d0=[card(13)]), None, 0) is True
    assert where(piles(d1=[card(13)]), None, 1) is False
    keep = fn("!empty(depot) && top.value == col(depot) + 2", Site.KEEP)
    assert keep(piles(d12=[card(3)]), None, 12) is True
    assert codes("count(depot)", Site.KEEP) == ["CZ405"]


# ---------------------------------------------------------------- Joker and rank arithmetic


def test_joker_is_a_rank() -> None:
    rule = fn("card.rank == Joker", Site.MATCH)
    assert rule(piles(), None, JOKER, 6) is True
    assert rule(piles(), None, make_card(1, Suit.CLUBS), 6) is False


@pytest.mark.parametrize(("text", "moved", "on"), [
    ("card.rank - 1 == Joker", card(1), card(5)),          # Ace - 1 is no rank
    ("card.rank == top.rank - 1", JOKER, card(1)),          # a joker does not go under an Ace
    ("card.rank == top.rank + 1", card(1), card(13)),       # nothing above a King
    ("card.rank + 1 == top.rank", card(1), JOKER),          # nor below a joker
])
def test_rank_arithmetic_out_of_range_matches_nothing(text: str, moved: int, on: int) -> None:
    rule = fn("!empty(depot) && " + text, Site.ACCEPT)
    assert rule(piles(d11=[on]), None, moved, (moved,), 6, 11) is False


def test_ace_minus_one_is_not_the_joker_when_folded() -> None:
    checked = check("Ace - 1 == Joker", Site.WIN, ENV)
    assert checked.info[id(checked.node)].const is False


# ---------------------------------------------------------------- the design sites


def test_check_design_visits_match_where_keep_and_redeal_counts() -> None:
    design = build_design({
        "name": "Sites",
        "depots": [
            {"name": "stock", "type": "Stock", "actions": [{"name": "a", "do": [
                {"kind": "move", "from": "tab", "to": "stock", "where": "nope1"},
                {"kind": "redeal", "group": "tab", "keep": "nope2", "count": "nope3"},
                {"kind": "deal", "from": "stock", "to": "tab", "count": "nope4"},
            ]}]},
            {"name": "tab", "type": "Tableau", "repeat": 2},
        ],
        "dealRules": [{"kind": "dealGroup", "to": "tab", "faceUp": 1, "match": "nope5"}],
        "winCondition": {"kind": "allCardsIn", "depots": "tab"},
    })
    found = {issue.pointer: issue.code for issue in check_design(design)}
    assert found == {
        "/depots/0/actions/0/do/0/where": "CZ401",
        "/depots/0/actions/0/do/1/keep": "CZ401",
        "/depots/0/actions/0/do/1/count": "CZ401",
        "/depots/0/actions/0/do/2/count": "CZ401",
        "/dealRules/0/match": "CZ401",
    }


def test_generated_code_holds_no_design_text() -> None:
    design = build_design({
        "name": "Names",
        "depots": [{"name": "secret_group_name", "type": "Tableau", "perRow": [1, 2]},
                   {"name": "other_pile", "type": "Stock", "col": 5}],
        "winCondition": {"kind": "allCardsIn", "depots": "Tableau"},
    })
    env = DesignEnv.from_design(design)
    text = ("chain(c in topCards(other_pile, 3), c.rank == prev.rank - 1) && covered(depot) "
            "&& exists(at(secret_group_name, row(depot), 0)) && pow(2, count(other_pile)) > 1")
    checked = check(text, Site.TRIGGER, env)
    assert checked.ok, checked.issues
    python = compile_rule(checked, env).python
    for word in ("secret_group_name", "other_pile", "prev", "topCards", "covered"):
        assert word not in python


def test_left_is_known_present_off_the_first_column() -> None:
    assert check("col(depot) == 0 || empty(left(depot))", Site.TRIGGER, ENV).issues == ()
    assert check("col(depot) > 0 && empty(left(depot))", Site.TRIGGER, ENV).issues == ()
    assert codes("row(depot) == 0 || empty(left(depot))", Site.TRIGGER) == ["CZ408"]
    assert codes("col(depot) == 0 || empty(right(depot))", Site.TRIGGER) == ["CZ408"]
