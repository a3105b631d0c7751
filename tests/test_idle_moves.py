"""Moves out of an idle depot searched only where a move could use their target
(:mod:`cardz_tools.analysis.idle_moves`) never turn a win into a loss.

Small King Albert, Flower Garden and Alina boards (three suits of Ace to Six, of Ace to Five and of Ace to Five:
Alina's columns are idle once down to one card) and small Duchess
boards (a stock and waste, columns taking runs) are searched exhaustively with every pruning piece off and again
with only the idle moves (on Duchess also with the stock moves): the verdicts agree deal by deal and on random
positions, and the whole search (every piece) agrees too. The obvious unsound version, which never plays a
reserve card onto a column at all, calls won positions lost there, and so does the one that, beside the stock
moves, does not count a waste card played onto the target after taps as a use: the agreement tests can fail.
"""

from __future__ import annotations

import copy
import dataclasses
from pathlib import Path
from typing import Any

import pytest

from cardz_tools.analysis import tableau_search
from cardz_tools.analysis.idle_moves import IdleMoves, idle_moves
from cardz_tools.analysis.playout import deal_seed
from cardz_tools.analysis.tableau_search import Pruning, replays_to_a_win, search
from cardz_tools.engine import Game
from cardz_tools.loading import open_design
from cardz_tools.model import build_design
from tests.engine_support import random_positions
from tests.restart_support import finish

GAMES = Path(__file__).resolve().parent.parent / "games"
RANKS = ["Ace", "Two", "Three", "Four", "Five", "Six", "Seven", "Eight", "Nine", "Ten", "Jack", "Queen", "King"]
BUDGET = 300_000
NONE = Pruning.none()
IDLE = dataclasses.replace(NONE, idle=True)


def small_king_albert() -> Game:
    """King Albert with three suits of Ace to Six: five columns of 1 to 5 cards and three reserve cards."""
    design = copy.deepcopy(open_design(GAMES / "king-albert.cardz").data)
    design["suits"] = ["Spades", "Hearts", "Clubs"]
    design["depots"][0]["repeat"] = 3
    design["depots"][1]["repeat"] = 3
    design["depots"][2]["repeat"] = 5
    design["dealRules"] = [{"kind": "remove", "ranks": RANKS[6:]}, *design["dealRules"]]
    return Game(build_design(design))


def small_flower_garden() -> Game:
    """Flower Garden with three suits of Ace to Five: three columns of four cards and three bouquet cards."""
    design = copy.deepcopy(open_design(GAMES / "flower-garden.cardz").data)
    design["suits"] = ["Spades", "Hearts", "Clubs"]
    design["depots"][0]["repeat"] = 3
    design["depots"][1]["repeat"] = 3
    design["depots"][2]["repeat"] = 3
    design["dealRules"] = [
        {"kind": "remove", "ranks": RANKS[5:]},
        {"kind": "dealGroup", "to": "tab", "faceUp": 4, "roundRobin": True},
        {"kind": "dealGroup", "to": "bouquet", "faceUp": 1},
    ]
    return Game(build_design(design))


def small_alina() -> Game:
    """Alina with three suits of Ace to Five: five columns of three cards, which stay empty once emptied, and a cell."""
    design = copy.deepcopy(open_design(GAMES / "alina.cardz").data)
    design["suits"] = ["Spades", "Hearts", "Clubs"]
    design["depots"][0]["repeat"] = 3
    design["depots"][1]["repeat"] = 5
    design["dealRules"] = [
        {"kind": "remove", "ranks": RANKS[5:]},
        {"kind": "dealGroup", "to": "tab", "faceUp": 3, "roundRobin": True},
    ]
    return Game(build_design(design))


def small_duchess(columns: int) -> Game:
    """Duchess with three suits: Ace to Seven, two reserve cards and one column, or Ace to Six and two columns;
    the Aces start the foundations, the rest is the one-pass stock."""
    design = copy.deepcopy(open_design(GAMES / "duchess.cardz").data)
    design["suits"] = ["Spades", "Hearts", "Clubs"]
    design["depots"][2]["repeat"] = 3
    design["depots"][3]["repeat"] = 2
    design["depots"][4]["repeat"] = columns
    top = 7 if columns == 1 else 6
    design["dealRules"] = [{"kind": "remove", "ranks": RANKS[top:]}, *design["dealRules"]]
    return Game(build_design(design))


def small_duchess_one_column() -> Game:
    """:func:`small_duchess` with one column (about half its deals lost)."""
    return small_duchess(1)


def small_duchess_two_columns() -> Game:
    """:func:`small_duchess` with two columns (runs move between them)."""
    return small_duchess(2)


STOCK_IDLE = dataclasses.replace(NONE, idle=True, stock=True)
_successors = tableau_search._Search.successors


def _unsound_successors(self: Any, state: Any) -> Any:
    """Never plays a card out of an idle depot onto another depot but a win depot: not a dominance."""
    idle = self.plan.idle
    for moves, base, move in _successors(self, state):
        if idle is not None and idle.idle_move(state.piles, moves[0]):
            continue
        yield moves, base, move


def test_the_reserve_and_the_bouquet_are_idle() -> None:
    game = small_king_albert()
    found = idle_moves(game)
    assert isinstance(found, IdleMoves), found
    assert found.idle == {f"reserve[{i}]" for i in range(3)}
    for name in ("king-albert", "flower-garden", "raglan", "duchess", "northwest-territory"):
        assert isinstance(idle_moves(Game(build_design(open_design(GAMES / f"{name}.cardz").data))), IdleMoves)


def test_columns_that_stay_empty_once_emptied_are_idle() -> None:
    """Alina's columns build on a card but take none while empty (its cell takes one): moving a column's last card
    leaves it empty for good, as moving a reserve card does."""
    found = idle_moves(small_alina())
    assert isinstance(found, IdleMoves), found
    assert found.idle == {f"tab[{i}]" for i in range(5)}


def test_designs_outside_the_shape_get_no_idle_moves_and_say_why() -> None:
    for name, why in (
        ("freecell", "no depot is idle"),  # its cells take cards
        ("canfield", "triggers or actions"),
        ("klondike", "no depot is idle"),  # its stock and waste take no cards, but they are never idle
        ("beleaguered-castle", "no depot is idle"),
    ):
        found = idle_moves(Game(build_design(open_design(GAMES / f"{name}.cardz").data)))
        assert isinstance(found, str) and why in found, (name, found)
    notes = tableau_search.plan_for(Game(build_design(open_design(GAMES / "freecell.cardz").data)), Pruning()).notes
    assert any(note.startswith("no idle moves: ") for note in notes), notes


def test_a_rule_reading_another_depot_or_taking_runs_is_not_local() -> None:
    design = copy.deepcopy(open_design(GAMES / "king-albert.cardz").data)
    column = design["depots"][2]["acceptRule"]
    column["when"] = f"({column['when']}) && (source in Reserve || count(Reserve) < 7)"
    found = idle_moves(Game(build_design(design)))
    assert isinstance(found, str) and "reads other depots" in found, found
    design = copy.deepcopy(open_design(GAMES / "duchess.cardz").data)
    design["depots"][1]["acceptRule"] = {"when": "true"}  # a waste taking drags: a tap would cover them
    found = idle_moves(Game(build_design(design)))
    assert isinstance(found, str) and "draws onto a waste that takes cards" in found, found


def test_the_stock_and_the_waste_are_never_idle() -> None:
    found = idle_moves(small_duchess(1))
    assert isinstance(found, IdleMoves), found
    assert found.idle == {"reserve[0]", "reserve[1]"}


@pytest.mark.parametrize("make", [small_king_albert, small_flower_garden, small_alina, small_duchess_one_column])
def test_the_idle_moves_agree_with_the_plain_exhaustive_search(make: Any) -> None:
    game = make()
    verdicts = {"won": 0, "lost": 0}
    plain_nodes = idle_nodes = 0
    for deal in range(12):
        root = game.new_initial_state(seed=deal_seed(7, deal))
        plain = search(root, BUDGET, None, NONE)
        idle = search(root, BUDGET, None, IDLE)
        stock = search(root, BUDGET, None, STOCK_IDLE)
        full = search(root, BUDGET, None, Pruning())
        assert plain.result != "unknown" and idle.result == plain.result, f"deal {deal}"
        assert full.result == plain.result and stock.result == plain.result, f"deal {deal}"
        for found in (idle, stock, full):
            if found.result == "won":
                assert replays_to_a_win(root, found.line)
        verdicts[plain.result] += 1
        plain_nodes += plain.nodes
        idle_nodes += idle.nodes
    assert verdicts["won"] >= 3 and verdicts["lost"] >= 3, verdicts
    assert idle_nodes < plain_nodes, (idle_nodes, plain_nodes)


def test_with_a_stall_from_the_start_the_one_pass_portfolio_still_agrees(monkeypatch: pytest.MonkeyPatch) -> None:
    """STALL_UNIT: with one deck and one pass the best-first pass and the restarts stall-grow; the stall changes who
    searches when, never what a member finds, so with their shares at their most from the first position on the
    portfolio still gets the plain exhaustive search's verdict deal by deal, and its wins replay."""
    monkeypatch.setattr(tableau_search, "STALL_UNIT", 1)
    game = small_duchess_one_column()
    root = game.new_initial_state(seed=deal_seed(7, 0))
    assert any(m.stalls for m in tableau_search._portfolio(root, Pruning(), BUDGET, None))
    verdicts = set()
    for deal in range(12):
        root = game.new_initial_state(seed=deal_seed(7, deal))
        plain = search(root, BUDGET, None, NONE)
        found = search(root, BUDGET, None, Pruning())
        assert found.result == plain.result != "unknown", f"deal {deal}"
        if found.result == "won":
            assert replays_to_a_win(root, found.line)
        verdicts.add(found.result)
    assert verdicts == {"won", "lost"}


def _against_plain(game: Game, pruning: Pruning, count: int) -> tuple[int, int]:
    """(positions won, positions on which ``pruning`` disagrees with the plain exhaustive search)."""
    won = wrong = 0
    for state in random_positions(game, count, seed=5, max_moves=8):
        plain = search(state, BUDGET, None, NONE).result
        assert plain != "unknown"
        won += plain == "won"
        wrong += search(state, BUDGET, None, pruning).result != plain
    return won, wrong


@pytest.mark.parametrize("make", [small_king_albert, small_flower_garden, small_alina])
def test_on_random_positions_the_idle_moves_agree_with_the_plain_search(make: Any) -> None:
    won, wrong = _against_plain(make(), IDLE, 60)
    assert won >= 5 and not wrong, (won, wrong)


@pytest.mark.parametrize("make", [small_duchess_one_column, small_duchess_two_columns])
def test_on_random_positions_of_a_stock_game_the_idle_moves_agree_with_the_plain_search(make: Any) -> None:
    for pruning in (IDLE, STOCK_IDLE):
        won, wrong = _against_plain(make(), pruning, 60)
        assert won >= 5 and not wrong, (won, wrong)


def _eager_result(state: Any) -> str:
    """The depth-first search of :data:`STOCK_IDLE` with eager idle moves (``IdleMoves.eager``), alone."""
    plan = tableau_search.plan_for(state.game, STOCK_IDLE)
    assert plan.idle is not None
    plan = dataclasses.replace(plan, idle=dataclasses.replace(plan.idle, eager=True))
    return finish(tableau_search._Search(state, plan, STOCK_IDLE, BUDGET, None).run())[0]


def test_a_waste_card_played_after_taps_is_a_use_and_the_eager_members_are_incomplete() -> None:
    game = small_duchess_one_column()
    wrong = 0
    for state in random_positions(game, 60, seed=5, max_moves=8):
        plain = search(state, BUDGET, None, NONE).result
        eager = _eager_result(state)
        assert eager == plain or eager == "lost"  # it only drops lines
        wrong += eager != plain
    assert wrong, "without the stock's plays it agrees: the test could not fail"
    root = game.new_initial_state(seed=deal_seed(7, 0))
    members = tableau_search._portfolio(root, Pruning(), BUDGET, None)
    eager_members = [m for m in members if m.search.plan.idle is not None and m.search.plan.idle.eager]
    assert eager_members and not any(m.complete for m in eager_members)
    assert any(m.complete for m in members)
