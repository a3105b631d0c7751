"""Every shipped game lints clean and plays random games to the end through the public API."""

from __future__ import annotations

from pathlib import Path

import pytest

from cardz_tools.cards import SplitMix64
from cardz_tools.engine import Game
from cardz_tools.loading import open_design

GAMES = sorted((Path(__file__).parent.parent / "games").glob("*.cardz"))


@pytest.mark.parametrize("path", GAMES, ids=lambda p: p.stem)
def test_game_plays_random_games_to_a_terminal_state(path: Path) -> None:
    # Regression: rules with quantifiers in several places of one generated lister
    # (a chain in an eject rule, all() in an action) once shared a helper name.
    game = Game(open_design(path).design)
    for deal in range(3):
        state = game.new_initial_state(seed=deal)
        rng = SplitMix64(deal)
        for _ in range(3000):
            if state.is_terminal():
                break
            moves = state.legal_moves()
            state.apply(moves[rng.below(len(moves))])
            assert state.key() == state.clone().key()
        outcome = state.outcome()
        assert outcome.won or outcome.lost or state.move_count == 3000
