"""The ``restarts`` member of the portfolio on designs whose waste is never turned back, whose
columns a trigger refills, or whose tap-covered stock holds two decks.

(:mod:`tests.test_search_restarts` checks it where a trigger fills the foundations.) On a small
Forty Thieves, and on a small Canfield (whose columns a trigger refills from the reserve), the
restarts alone agree with the plain exhaustive search deal by deal, and a win they report replays
through the engine; so on a small two-deck Klondike drawing three, redealt without limit (alone and in
the portfolio). With a tiny budget per restart a won deal is still won, never called lost: a restart
that runs out of positions is no proof (the obvious unsound version would say "lost" here).
"""

from __future__ import annotations

import copy
import dataclasses
from collections.abc import Callable
from typing import Any

import pytest

from cardz_tools.analysis import tableau_search
from cardz_tools.analysis.dominance import refilled_depots
from cardz_tools.analysis.playout import deal_seed
from cardz_tools.analysis.tableau_search import Pruning, plan_for, replays_to_a_win, search
from cardz_tools.engine import Game
from cardz_tools.loading import open_design
from cardz_tools.model import build_design
from tests.restart_support import GAMES, RANKS, restarts_against_search, run_restarts
from tests.test_solver_tableau import SMALL, design_of
from tests.test_two_deck import small_forty_thieves

BUDGET = 300_000


def small_two_deck_klondike() -> Game:
    """Klondike with two decks drawing three, redealt without limit (the shipped nine-column design's rules: the
    tap cover applies), with two suits of Ace to Five, four foundations and three columns."""
    design: dict[str, Any] = copy.deepcopy(open_design(GAMES / "klondike-two-deck-9.cardz").data)
    design["suits"] = ["Spades", "Hearts"]
    for depot in design["depots"]:
        if depot["name"] in ("found", "tab"):
            depot["repeat"] = 4 if depot["name"] == "found" else 3
    design["dealRules"] = [{"kind": "remove", "ranks": RANKS[5:]}, *design["dealRules"]]
    return Game(build_design(design))


def test_the_portfolio_has_the_restarts_where_the_waste_is_never_turned_back() -> None:
    assert plan_for(small_forty_thieves(), Pruning()).restarts
    redealt = small_forty_thieves(draw={"to": "waste", "count": 1, "redeals": 1})
    assert not plan_for(redealt, Pruning()).restarts


def test_the_restarts_agree_with_the_plain_exhaustive_search() -> None:
    restarts_against_search(small_forty_thieves(), 5, 8, BUDGET)


@pytest.mark.parametrize(
    ("small_game", "seed", "deals"),
    [(small_forty_thieves, 5, 8), (SMALL["canfield"], 7, 6), (small_two_deck_klondike, 5, 8)],
)
def test_a_restart_that_runs_out_of_positions_proves_nothing(
    monkeypatch: pytest.MonkeyPatch, small_game: Callable[[], Game], seed: int, deals: int
) -> None:
    monkeypatch.setattr(tableau_search, "RESTART_UNIT", 3)
    game = small_game()
    won = 0
    for deal in range(deals):
        root = game.new_initial_state(seed=deal_seed(seed, deal))
        if search(root, BUDGET, None, Pruning.none()).result != "won":
            continue
        won += 1
        result, line, positions = run_restarts(root, BUDGET)
        assert result == "won" and replays_to_a_win(root, line), f"deal {deal}"
        assert positions > 3  # it got there only through restarts that ran out
    assert won >= 2


def test_the_portfolio_has_the_restarts_where_a_tap_covered_stock_holds_two_decks() -> None:
    """Twins under a stock drawing three, redealt without limit: restarts, no narrowed run moves; one deck: none."""
    plan = plan_for(small_two_deck_klondike(), Pruning())
    assert plan.tap_cover and plan.restarts and plan.runs is None
    one_deck = plan_for(SMALL["klondike"](), Pruning())
    assert one_deck.tap_cover and not one_deck.restarts


def test_the_restarts_agree_with_the_plain_search_under_a_tap_covered_stock_of_twins() -> None:
    """Alone and in the portfolio (deal 0 is lost only after the plain search has stored tens of thousands of
    positions: a proof through every pass of the stock)."""
    restarts_against_search(small_two_deck_klondike(), 5, 8, BUDGET, [Pruning()])


def test_the_portfolio_has_the_restarts_where_a_trigger_refills_an_emptied_column() -> None:
    """Canfield's columns are refilled from the reserve: restarts; a trigger that fires on a full
    column too is not that shape."""
    game = SMALL["canfield"]()
    assert refilled_depots(game) == frozenset(game.members["tab"])
    assert plan_for(game, Pruning()).restarts
    assert not plan_for(game, dataclasses.replace(Pruning(), restarts=False)).restarts
    design = design_of("canfield")
    design["depots"][4]["triggers"][0]["when"] = "!empty(reserve)"  # fires on a full column too
    assert refilled_depots(Game(build_design(design))) == frozenset()
    assert not refilled_depots(SMALL["klondike"]())  # no triggers


def test_the_restarts_agree_with_the_plain_exhaustive_search_on_a_small_canfield() -> None:
    restarts_against_search(SMALL["canfield"](), 7, 6, BUDGET)
