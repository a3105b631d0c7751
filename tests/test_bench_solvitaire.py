"""bench/solvitaire.py: a deal written for Solvitaire is the deal the engine plays (issue 15's cross-check)."""

from __future__ import annotations

from bench import solvitaire
from cardz_tools.analysis.playout import deal_seed
from cardz_tools.analysis.runner import game_for
from cardz_tools.cards import card_str, is_face_up
from cardz_tools.engine.moves import Tap
from cardz_tools.loading import open_design


def _game(stem: str) -> object:
    return game_for(open_design(solvitaire.GAMES / f"{stem}.cardz").json_text)


def test_a_klondike_deal_keeps_each_pile_bottom_first_its_faces_and_the_stock_top_last() -> None:
    game = _game("klondike")
    state = game.new_initial_state(seed=deal_seed(101, 3))  # type: ignore[attr-defined]
    deal = solvitaire.solvitaire_deal(game, state)
    assert set(deal) == {"tableau piles", "stock"}  # the empty waste and foundations are left out
    columns = state.piles[6:]
    assert [[text.upper() for text in pile] for pile in deal["tableau piles"]] == [
        [card_str(card) for card in pile] for pile in columns
    ]
    assert [[text.isupper() for text in pile] for pile in deal["tableau piles"]] == [
        [is_face_up(card) for card in pile] for pile in columns
    ]
    drawn = state.clone()
    drawn.apply(Tap("stock"))
    # Draw three turns the stock's last three cards one at a time, the third on top, as Solvitaire does.
    assert [card_str(card) for card in drawn.piles[1]] == deal["stock"][-1:-4:-1]


def test_every_preset_entry_names_a_shipped_design_and_a_canfield_reserve_stays_one_stacked_pile() -> None:
    assert all((solvitaire.GAMES / f"{stem}.cardz").exists() for stem in solvitaire.PRESETS)
    game = _game("canfield-runs")
    deal = solvitaire.solvitaire_deal(game, game.new_initial_state(seed=1))  # type: ignore[attr-defined]
    assert len(deal["reserve"]) == 13 and len(deal["foundations"]) == 1 and len(deal["tableau piles"]) == 4


def test_a_deal_that_does_not_fit_a_preset_is_reported_not_solved() -> None:
    game = _game("klondike")
    deal = solvitaire.solvitaire_deal(game, game.new_initial_state(seed=1))  # type: ignore[attr-defined]
    rules = {"tableau piles": {"count": 8}, "stock": {"size": 24}, "reserve": {"size": 0}, "cells": {"count": 4},
             "two decks": False}
    assert solvitaire.layout_problems(game, deal, rules) == [
        "tableau piles: ours 7, Solvitaire's 8",
        "cells: ours 0, Solvitaire's 4",
    ]


def test_a_gaps_deal_is_written_as_rows_left_to_right_with_its_gaps_as_the_placeholder() -> None:
    game = _game("gaps-no-redeal")
    state = game.new_initial_state(seed=deal_seed(0, 2))  # type: ignore[attr-defined]
    deal = solvitaire.deal_for(game, state, solvitaire.PRESETS["gaps-no-redeal"])
    assert set(deal) == {"sequences"} and [len(row) for row in deal["sequences"]] == [13] * 4
    cells = [depot for depot in game.design.depots if depot.spec.type.value == "Tableau"]  # type: ignore[attr-defined]
    for depot in cells:
        pile = state.piles[depot.index]  # type: ignore[attr-defined]
        expected = card_str(pile[0]).upper() if pile else "AS"
        assert deal["sequences"][depot.grid_row][depot.grid_col] == expected
    assert sum(row.count("AS") for row in deal["sequences"]) == 4  # the four Aces taken out
