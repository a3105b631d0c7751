"""Random playouts through the public API: every deal ends, and the engine agrees with the
hand-written reference playouts in ``tests/reference_games.py`` move for move."""

from __future__ import annotations

import pytest

from cardz_tools.cards import SplitMix64
from cardz_tools.engine import Game, State
from tests.engine_support import load_design
from tests.reference_games import monte_carlo_playout, weathervane_playout

MAX_MOVES = 10_000


def random_playout(game: Game, deal_seed: int, play_seed: int) -> State:
    """Play uniformly random legal moves until the game ends (or the move bound)."""
    state = game.new_initial_state(seed=deal_seed)
    rng = SplitMix64(play_seed)
    while not state.is_terminal() and state.move_count < MAX_MOVES:
        legal = state.legal_moves()
        state.apply(legal[rng.below(len(legal))])
    return state


@pytest.mark.slow
@pytest.mark.parametrize("name", ["monte-carlo", "weathervane"])
def test_ten_thousand_random_deals_all_end(name: str) -> None:
    game = Game(load_design(name))
    outcomes = {"won": 0, "lost": 0}
    for deal in range(10_000):
        state = random_playout(game, deal, deal + 1)
        outcome = state.outcome()
        assert state.is_terminal(), f"deal {deal} did not end in {MAX_MOVES} moves"
        assert outcome.won != outcome.lost
        assert state.legal_moves() == []
        outcomes["won" if outcome.won else "lost"] += 1
    assert outcomes["won"] > 0 and outcomes["lost"] > 0


@pytest.mark.parametrize(("generated", "deals"), [(True, 300), (False, 40)], ids=["generated", "interpreted"])
@pytest.mark.parametrize(
    ("name", "reference"), [("monte-carlo", monte_carlo_playout), ("weathervane", weathervane_playout)]
)
def test_engine_plays_exactly_like_the_hand_written_reference(
    name: str, reference: object, generated: bool, deals: int
) -> None:
    game = Game(load_design(name), generated=generated)
    for deal in range(deals):
        state = random_playout(game, deal, deal + 1000)
        outcome = state.outcome()
        assert (outcome.won, outcome.score, state.move_count) == reference(deal, deal + 1000), deal  # type: ignore[operator]


@pytest.mark.parametrize("name", ["monte-carlo", "weathervane"])
def test_clone_is_independent_and_keys_name_positions(name: str) -> None:
    game = Game(load_design(name))
    rng = SplitMix64(99)
    for deal in range(30):
        state = game.new_initial_state(seed=deal)
        while not state.is_terminal():
            copy = state.clone()
            assert copy.key() == state.key() and hash(copy.key()) == hash(state.key())
            assert str(copy) == str(state) and copy.legal_moves() == state.legal_moves()
            before_text, before_key = str(state), state.key()
            move = copy.legal_moves()[rng.below(len(copy.legal_moves()))]
            copy.apply(move)
            assert state.key() == before_key and str(state) == before_text, "apply on a clone changed the original"
            twin = state.clone()
            twin.apply(move)
            assert twin.key() == copy.key()
            assert copy.key() != before_key
            state = copy
