"""Designs where no move can be undone (:func:`.tableau_search.one_way`): the portfolio has the restarts and, unless
the waste is never turned back, a beam search over every move (:data:`.tableau_search.ONE_WAY_BEAM_WEIGHT`)."""

from __future__ import annotations

from pathlib import Path

from cardz_tools.analysis.playout import deal_seed
from cardz_tools.analysis.runner import game_for
from cardz_tools.analysis.tableau_search import (
    ONE_WAY_BEAM_WEIGHT,
    Pruning,
    _portfolio,
    _Search,
    one_way,
    plan_for,
    replays_to_a_win,
)
from cardz_tools.loading import open_design
from tests.restart_support import finish

GAMES = Path(__file__).resolve().parent.parent / "games"

BEAM_DEAL, BEAM_BUDGET = 0, 40_000
"""A deal of the Château de cartes row that no member won within 150,000 positions before the filled depots were
scored (:data:`.tableau_search.FILLED_WEIGHT`; the beam alone at 200,150) and the beam alone wins within this
budget with them (30,096, session 15)."""


def _game(name: str) -> object:
    return game_for(open_design(GAMES / f"{name}.cardz").json_text)


def test_one_way_is_every_depot_that_takes_cards_locked() -> None:
    for name in ("chateau-de-cartes", "weathervane", "golf"):
        assert one_way(_game(name)), name
    for name in ("klondike", "east-haven", "trigon", "fortunes-favor", "northwest-territory", "accordion"):
        assert not one_way(_game(name)), name


def test_the_beam_joins_only_a_one_way_design_without_the_lead_share_and_proves_nothing() -> None:
    chateau = _game("chateau-de-cartes")
    assert plan_for(chateau, Pruning()).restarts
    members = _portfolio(chateau.new_initial_state(seed=1), Pruning(), 1_000, None)  # type: ignore[attr-defined]
    beams = [m for m in members if not m.complete]
    assert [m.weight for m in beams] == [ONE_WAY_BEAM_WEIGHT]
    for name in ("weathervane", "klondike", "east-haven"):  # weathervane: one way, but its waste is never turned back
        other = _game(name)
        members = _portfolio(other.new_initial_state(seed=1), Pruning(), 1_000, None)  # type: ignore[attr-defined]
        # the Klondike family's home-splits member aside (tests/test_home_splits.py)
        assert all(m.complete for m in members if not (m.search.plan.splits and m.search.plan.splits.home_only)), name


def test_a_win_of_the_beam_alone_replays() -> None:
    game = _game("chateau-de-cartes")
    root = game.new_initial_state(seed=deal_seed(0, BEAM_DEAL))  # type: ignore[attr-defined]
    found = _Search(root, plan_for(game, Pruning()), Pruning(), BEAM_BUDGET, None)
    result, line = finish(found.beams(32))
    assert result == "won" and replays_to_a_win(root, line)
