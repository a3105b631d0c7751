"""The design model: layout of groups, suits, the Joker rank, references and the new effect fields."""

from __future__ import annotations

import json
from typing import Any

import pytest

from cardz_tools.cards import JOKER, RANKS, SUITS, Rank, Suit, card_suit, make_card, standard_deck
from cardz_tools.model import Align, EffectKind, ModelError, build_design

from .conftest import ROOT


def design(*depots: dict[str, Any], **top: Any) -> Any:
    data = {"name": "T", "depots": list(depots), "winCondition": {"kind": "allCardsIn", "depots": "Foundation"}}
    data.update(top)
    return build_design(data)


PYRAMID = {"name": "pyr", "type": "Tableau", "col": 1, "row": 0,
           "perRow": [1, 2, 3, 4, 5, 6, 7], "align": "center", "rowStep": 0.5}


def test_a_perRow_list_lays_out_a_centred_pyramid() -> None:
    d = design(PYRAMID)
    assert len(d.depots) == 28 and d.specs[0].repeat == 28
    places = {depot.name: (depot.col, depot.row) for depot in d.depots}
    assert places["pyr[0]"] == (4.0, 0.0)  # (7 - 1) / 2 to the right of col 1
    assert places["pyr[1]"] == (3.5, 0.5) and places["pyr[2]"] == (4.5, 0.5)  # the doc's example
    assert places["pyr[21]"] == (1.0, 3.0) and places["pyr[27]"] == (7.0, 3.0)  # the base row is full width
    for row in range(7):  # every row is centred on the apex
        cols = [depot.col for depot in d.depots if depot.grid_row == row]
        assert len(cols) == row + 1 and (min(cols) + max(cols)) / 2 == 4.0


def test_grid_places_follow_the_row_lengths() -> None:
    d = design(PYRAMID)
    grid = [(depot.grid_row, depot.grid_col) for depot in d.depots]
    assert grid[:6] == [(0, 0), (1, 0), (1, 1), (2, 0), (2, 1), (2, 2)]
    assert grid[-1] == (6, 6)


@pytest.mark.parametrize(("align", "cols"), [("left", [0.0, 2.0, 0.0]), ("center", [1.0, 3.0, 0.0]),
                                             ("right", [2.0, 4.0, 0.0])])
def test_align_and_steps_place_short_rows(align: str, cols: list[float]) -> None:
    d = design({"name": "g", "type": "Tableau", "perRow": [2, 3], "align": align, "colStep": 2, "rowStep": 1.5})
    assert d.specs[0].align is Align(align)
    row0 = [depot.col for depot in d.depots[:2]]
    assert row0 == cols[:2]
    assert [depot.row for depot in d.depots] == [0, 0, 1.5, 1.5, 1.5]
    assert [depot.col for depot in d.depots[2:]] == [0.0, 2.0, 4.0]


def test_the_seed_layout_is_unchanged() -> None:
    seed = build_design(json.loads((ROOT / "games" / "monte-carlo.cardz").read_text(encoding="utf-8")))
    cell7 = seed.depot_named("cell[7]")
    assert cell7 is not None and (cell7.col, cell7.row, cell7.grid_col, cell7.grid_row) == (2, 1, 2, 1)


def test_a_number_perRow_with_a_short_last_row() -> None:
    d = design({"name": "fan", "type": "Tableau", "repeat": 17, "perRow": 6, "colStep": 1.5})
    assert d.specs[0].row_lengths == (6, 6, 5)
    last = d.depots[-1]
    assert (last.grid_row, last.grid_col, last.col, last.row) == (2, 4, 6.0, 2.0)


def test_repeat_that_differs_from_the_list_is_modelled_for_the_linter() -> None:
    more = design({"name": "g", "type": "Tableau", "repeat": 7, "perRow": [1, 2]})
    assert more.specs[0].row_lengths == (1, 2, 2, 2) and more.specs[0].written_rows == (1, 2)
    fewer = design({"name": "g", "type": "Tableau", "repeat": 2, "perRow": [1, 2, 3]})
    assert fewer.specs[0].row_lengths == (1, 1) and len(fewer.depots) == 2


def test_a_list_of_one_still_names_a_member() -> None:
    d = design({"name": "g", "type": "Tableau", "perRow": [1]})
    assert d.depots[0].name == "g[0]"


def test_suits_choose_the_deck() -> None:
    spider = design({"name": "s", "type": "Stock"}, decks=8, suits=["Spades"])
    assert spider.suits == (Suit.SPADES,) and spider.deck_size == 104
    two = design({"name": "s", "type": "Stock"}, suits=["Spades", "Hearts"], jokers=2)
    assert two.suits == (Suit.HEARTS, Suit.SPADES) and two.deck_size == 28
    assert design({"name": "s", "type": "Stock"}).deck_size == 52
    with pytest.raises(ModelError):
        design({"name": "s", "type": "Stock"}, suits=["Stars"])


def test_standard_deck_with_suits_keeps_the_deck_order() -> None:
    assert standard_deck(1, 0) == standard_deck(1, 0, SUITS)
    assert len(standard_deck(2, 1)) == 105 and standard_deck(2, 1)[-1] == JOKER
    deck = standard_deck(2, 0, [Suit.SPADES, Suit.HEARTS])
    assert [card_suit(c) for c in deck[:26:13]] == [Suit.HEARTS, Suit.SPADES]
    assert deck[:13] == [make_card(rank, Suit.HEARTS) for rank in RANKS]
    assert len(deck) == 52


def test_joker_is_a_rank_name() -> None:
    d = design({"name": "f", "type": "Foundation", "acceptRule": {"follow": True, "wildRank": "Joker"}},
               dealRules=[{"kind": "remove", "ranks": ["Joker", "Ace"], "to": "f"}])
    assert d.specs[0].accept.wild_rank is Rank.JOKER
    assert d.deal_rules[0].ranks == (Rank.JOKER, Rank.ACE) and d.deal_rules[0].to == "f"


def test_resolve_accepts_members_groups_and_types() -> None:
    d = design({"name": "stock", "type": "Stock"}, {"name": "tab", "type": "Tableau", "repeat": 3})
    assert d.resolve("tab[2]") == (3,)
    assert d.resolve("tab") == (1, 2, 3) and d.resolve("Tableau") == (1, 2, 3) and d.resolve("stock") == (0,)
    assert d.resolve("tab[3]") is None and d.resolve("nothing") is None
    member = d.depot_named("tab[1]")
    assert member is not None and member.index == 2
    assert d.depot_named("tab") is None


def test_effect_and_deal_fields() -> None:
    d = design(
        {"name": "stock", "type": "Stock", "actions": [{"name": "a", "limit": 2, "do": [
            {"kind": "deal", "from": "stock", "to": "tab", "count": 2, "faceUp": False},
            {"kind": "redeal", "group": "tab", "keep": "count(depot) > 3", "count": "kept(depot) ? 0 : 1"},
            {"kind": "move", "from": "tab", "to": "stock", "count": "all", "where": "row(depot) == 0"},
            {"kind": "flip", "depot": "tab[0]"},
        ]}]},
        {"name": "tab", "type": "Tableau", "repeat": 3},
        dealRules=[{"kind": "dealGroup", "to": "tab", "faceUp": 1, "match": "card.rank == Ace"}],
        **{"$schema": "./schema/cardz.schema.json"},
    )
    action = d.specs[0].actions[0]
    deal, redeal, move, flip = action.effects
    assert action.limit == 2
    assert [e.effect_kind for e in action.effects] == [EffectKind.DEAL, EffectKind.REDEAL, EffectKind.MOVE,
                                                       EffectKind.FLIP]
    assert (deal.source, deal.target, deal.face_up) == ("stock", "tab", False)
    assert deal.count is not None and deal.count.text == "2"
    assert redeal.keep is not None and redeal.keep.pointer == "/depots/0/actions/0/do/1/keep"
    assert redeal.group == "tab" and redeal.count is not None and redeal.count.text == "kept(depot) ? 0 : 1"
    assert move.where is not None and move.where.text == "row(depot) == 0" and move.face_up is None
    assert flip.depot == "tab[0]"
    match = d.deal_rules[0].match
    assert match is not None and (match.text, match.pointer) == ("card.rank == Ace", "/dealRules/0/match")


def test_design_stays_immutable() -> None:
    d = design({"name": "stock", "type": "Stock"})
    with pytest.raises(AttributeError):
        d.suits = ()  # type: ignore[misc]
    with pytest.raises(AttributeError):
        d.specs[0].row_lengths = (2,)  # type: ignore[misc]
