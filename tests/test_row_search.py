"""The compact search for row games: it plays the engine's rules and agrees with the engine-state search."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from cardz_tools.analysis.playout import deal_seed
from cardz_tools.analysis.row_search import RowSearch, row_shape
from cardz_tools.analysis.solve import search_states, solve_state
from cardz_tools.engine import Game, State
from cardz_tools.loading import open_design
from cardz_tools.model import build_design

GAMES = Path(__file__).resolve().parent.parent / "games"


def game_of(name: str) -> Game:
    return Game(open_design(GAMES / f"{name}.cardz").design)


def accordion_with(when: str) -> Game:
    """Accordion with another accept rule."""
    raw = json.loads((GAMES / "accordion.cardz").read_text(encoding="utf-8"))
    raw["depots"][0]["acceptRule"]["when"] = when
    return Game(build_design(raw))


MATCH = "(top(cards).rank == top.rank || top(cards).suit == top.suit)"


def test_the_shape_is_read_off_the_rules() -> None:
    shape = row_shape(game_of("accordion"))
    assert shape is not None
    assert shape.reaches[0] == () and shape.reaches[1] == (0,) and shape.reaches[5] == (2, 4)
    assert len(shape.matches) == 52 * 15  # twelve cards of its suit and three of its rank
    # Onto the pile one or two to the left, same suit only: another table, the same search.
    near = row_shape(accordion_with(
        "(index(source) == index(depot) + 1 || index(source) == index(depot) + 2) && !empty(depot)"
        " && exists(top(cards)) && top(cards).suit == top.suit"
    ))
    assert near is not None and near.reaches[5] == (3, 4) and len(near.matches) == 52 * 12


def test_designs_outside_the_shape_keep_the_general_search() -> None:
    for name in ("klondike", "golf", "pyramid", "monte-carlo", "gaps-no-redeal"):
        assert row_shape(game_of(name)) is None, name
    # A rule reading the moved pile's bottom card (`card`) is not a rule on the tops.
    bottom = "index(source) == index(depot) + 1 && !empty(depot) && card.rank == top.rank"
    assert row_shape(accordion_with(bottom)) is None
    # A rule mixing the places and the cards in one part cannot be probed part by part.
    mixed = f"(index(source) == index(depot) + 1 || top.rank == Ace) && !empty(depot) && {MATCH}"
    assert row_shape(accordion_with(mixed)) is None


def test_a_row_that_does_not_close_up_or_wins_otherwise_is_not_the_shape() -> None:
    """The triggers and the win are probed through the engine on every shape a game reaches."""
    raw = json.loads((GAMES / "accordion.cardz").read_text(encoding="utf-8"))
    trigger = raw["depots"][0]["triggers"][0]
    trigger["when"] = trigger["when"].replace("empty(d) &&", "empty(d) && index(d) < 10 &&")  # gaps past 10 stay
    assert row_shape(Game(build_design(raw))) is None
    raw = json.loads((GAMES / "accordion.cardz").read_text(encoding="utf-8"))
    raw["winCondition"]["when"] = "count(row, !empty(it)) <= 2"
    assert row_shape(Game(build_design(raw))) is None


def test_a_short_row_with_the_cards_left_out_in_a_locked_depot_is_the_shape() -> None:
    """Late Binding deals 18 cards and leaves 34 in a locked stock that takes nothing: the row is the rest."""
    game = game_of("late-binding")
    shape = row_shape(game)
    assert shape is not None and len(shape.row) == 18 and game.names.index("unused") not in shape.row
    resolved = open_design(GAMES / "late-binding.cardz").json_text  # "extends" resolved
    raw = json.loads(resolved)
    unused = next(depot for depot in raw["depots"] if depot["name"] == "unused")
    unused["acceptRule"] = {"when": "true"}  # the left-out cards' depot takes cards: not inert
    assert row_shape(Game(build_design(raw))) is None
    raw = json.loads(resolved)
    raw["winCondition"] = {"kind": "when", "when": "count(row, !empty(it)) == 1 && empty(unused)"}
    assert row_shape(Game(build_design(raw))) is None


def test_the_row_moves_are_the_engines_legal_moves() -> None:
    game = game_of("accordion")
    rng = random.Random(5)
    for deal in range(8):
        state = game.new_initial_state(seed=deal_seed(3, deal))
        search = RowSearch.of(state)
        assert search is not None
        while True:
            tops = search.pack(state)
            moves = {search.engine_move(state, step): search.child(tops, step) for step in search.steps(tops)}
            legal = [] if state.is_terminal() else state.legal_moves()
            assert set(moves) == set(legal), f"deal {deal} after {state.move_count} moves"
            if not legal:
                break
            move = legal[rng.randrange(len(legal))]
            state.apply(move)
            assert search.pack(state) == moves[move]


def piles(state: State) -> int:
    return sum(1 for pile in state.piles if pile)


def late_positions(game: Game, rng: random.Random, piles_left: int) -> list[State]:
    """Positions with at most ``piles_left`` piles: of random games (mostly lost), on winning lines
    (won) and one random move off them."""
    positions = []
    for deal in range(20):
        state = game.new_initial_state(seed=deal_seed(13, deal))
        if deal < 4:
            _, line, _ = solve_state(state.clone(), 1_000_000)
            on_line = state.clone()
            for move in line:
                if piles(on_line) <= piles_left:
                    break
                on_line.apply(move)
            if piles(on_line) <= piles_left:  # not when the deal is lost
                legal = on_line.legal_moves()
                off_line = on_line.clone()
                off_line.apply(legal[rng.randrange(len(legal))])
                positions += [on_line, off_line]
        while not state.is_terminal() and piles(state) > piles_left:
            legal = state.legal_moves()
            state.apply(legal[rng.randrange(len(legal))])
        positions.append(state)
    return [position for position in positions if not position.is_terminal()]


@pytest.mark.parametrize(("name", "piles_left"), [("accordion", 14), ("late-binding", 9)])
def test_the_row_search_agrees_with_the_search_over_engine_states(name: str, piles_left: int) -> None:
    """The key of top cards only loses nothing: late positions get the engine-state search's verdicts
    (Late Binding's locked stock counts as a pile)."""
    game = game_of(name)
    verdicts = {"won": 0, "lost": 0}
    for state in late_positions(game, random.Random(8), piles_left):
        search = RowSearch.of(state)
        assert search is not None
        engine_result, _, _ = search_states(state.clone(), 200_000)
        row_result, line, _ = search.search(200_000, None)
        assert engine_result != "unknown"
        assert row_result == engine_result, state.piles
        verdicts[row_result] += 1
        if line:
            replay = state.clone()
            for move in line:
                replay.apply(move)
            assert replay.outcome().won
    assert verdicts["won"] >= 3 and verdicts["lost"] >= 3, verdicts


def test_the_solver_wins_full_deals_with_a_line_the_engine_replays() -> None:
    game = game_of("accordion")
    for deal in range(3):
        state = game.new_initial_state(seed=deal_seed(101, deal))
        result, line, nodes = solve_state(state.clone(), 1_000_000)
        assert result == "won" and nodes < 1_000_000
        replay = state.clone()
        for move in line:
            replay.apply(move)
        assert replay.outcome().won
