"""Moves out of an idle depot searched only in pairs (:mod:`cardz_tools.analysis.deferred_moves`) never
turn a win into a loss.

Small King Albert boards (three suits of Ace to Six, five columns of 1 to 5 cards, three reserve cards) are searched
exhaustively with every pruning piece off and again with only the deferred moves: the verdicts agree deal
by deal and on random positions. The obvious unsound version, which never plays a reserve card onto a
column at all, calls won positions lost there, so the agreement test can fail.
"""

from __future__ import annotations

import copy
import dataclasses
from pathlib import Path
from typing import Any

import pytest

from cardz_tools.analysis import tableau_search
from cardz_tools.analysis.deferred_moves import DeferredMoves, deferred_moves
from cardz_tools.analysis.playout import deal_seed
from cardz_tools.analysis.tableau_search import Pruning, replays_to_a_win, search
from cardz_tools.engine import Game
from cardz_tools.loading import open_design
from cardz_tools.model import build_design
from tests.engine_support import random_positions

GAMES = Path(__file__).resolve().parent.parent / "games"
RANKS = ["Ace", "Two", "Three", "Four", "Five", "Six", "Seven", "Eight", "Nine", "Ten", "Jack", "Queen", "King"]
BUDGET = 300_000
NONE = Pruning.none()
DEFERRED = dataclasses.replace(NONE, deferred=True)


def small_king_albert() -> Game:
    """King Albert with three suits of Ace to Six: five columns of 1 to 5 cards and three reserve cards."""
    design = copy.deepcopy(open_design(GAMES / "king-albert.cardz").data)
    design["suits"] = ["Spades", "Hearts", "Clubs"]
    design["depots"][0]["repeat"] = 3
    design["depots"][1]["repeat"] = 3
    design["depots"][2]["repeat"] = 5
    design["dealRules"] = [{"kind": "remove", "ranks": RANKS[6:]}, *design["dealRules"]]
    return Game(build_design(design))


def _unsound_successors(self: Any, state: Any) -> Any:
    """Never plays a card out of an idle depot onto a column (no pairs): not a dominance."""
    for moves, child in _successors(self, state):
        deferred = self.plan.deferred
        if deferred is not None and deferred.target(state.piles, moves[0]) is not None:
            continue
        yield moves, child


_successors = tableau_search._Search.successors


def test_king_albert_is_local_and_its_reserve_idle() -> None:
    game = small_king_albert()
    found = deferred_moves(game)
    assert isinstance(found, DeferredMoves), found
    assert {game.names[d] for d in found.idle} == {f"reserve[{i}]" for i in range(3)}
    full = deferred_moves(Game(build_design(open_design(GAMES / "king-albert.cardz").data)))
    assert isinstance(full, DeferredMoves)


def test_designs_outside_the_shape_get_no_deferred_moves_and_say_why() -> None:
    for name, why in (
        ("freecell", "no depot is idle"),  # its cells take cards
        ("canfield", "triggers or actions"),
        ("klondike", "it draws"),
    ):
        found = deferred_moves(Game(build_design(open_design(GAMES / f"{name}.cardz").data)))
        assert isinstance(found, str) and why in found, (name, found)


def test_a_rule_reading_another_depot_is_not_local() -> None:
    design = copy.deepcopy(open_design(GAMES / "king-albert.cardz").data)
    column = design["depots"][2]["acceptRule"]
    column["when"] = f"({column['when']}) && (source in Reserve || count(Reserve) < 7)"
    found = deferred_moves(Game(build_design(design)))
    assert isinstance(found, str) and "reads other depots" in found, found


def test_the_deferred_moves_agree_with_the_plain_exhaustive_search() -> None:
    game = small_king_albert()
    verdicts = {"won": 0, "lost": 0}
    plain_nodes = deferred_nodes = 0
    for deal in range(12):
        root = game.new_initial_state(seed=deal_seed(7, deal))
        plain = search(root, BUDGET, None, NONE)
        deferred = search(root, BUDGET, None, DEFERRED)
        assert plain.result != "unknown" and deferred.result == plain.result, f"deal {deal}"
        if deferred.result == "won":
            assert replays_to_a_win(root, deferred.line)
        verdicts[plain.result] += 1
        plain_nodes += plain.nodes
        deferred_nodes += deferred.nodes
    assert verdicts["won"] >= 5 and verdicts["lost"] >= 3, verdicts
    assert deferred_nodes < plain_nodes, (deferred_nodes, plain_nodes)


def _against_plain(game: Game, pruning: Pruning, count: int) -> tuple[int, int]:
    """(positions won, positions on which ``pruning`` disagrees with the plain exhaustive search)."""
    won = wrong = 0
    for state in random_positions(game, count, seed=5, max_moves=8):
        plain = search(state, BUDGET, None, NONE).result
        assert plain != "unknown"
        won += plain == "won"
        wrong += search(state, BUDGET, None, pruning).result != plain
    return won, wrong


def test_on_random_positions_the_deferred_moves_agree_with_the_plain_search() -> None:
    won, wrong = _against_plain(small_king_albert(), DEFERRED, 60)
    assert won >= 5 and not wrong, (won, wrong)


def test_never_playing_a_reserve_card_onto_a_column_turns_wins_into_losses(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(tableau_search._Search, "successors", _unsound_successors)
    won, wrong = _against_plain(small_king_albert(), DEFERRED, 60)
    assert wrong, "the unsound version agrees: the test could not fail"
