"""The generated move lister and settle pass against the plain interpreted rules (``Game(design, generated=False)``).

Both modes deal the same deals and play the same random moves on every shipped game; at
every step they must list the same moves, in the same order, and reach the same position.
"""

from __future__ import annotations

import collections

import pytest

from cardz_tools.cards import SplitMix64
from cardz_tools.engine import Game
from cardz_tools.loading import open_design
from tests.engine_support import GAMES

DESIGNS = sorted(path.stem for path in GAMES.glob("*.cardz"))
MOVES_PER_DEAL = 60


@pytest.mark.parametrize("name", DESIGNS)
def test_generated_code_plays_every_game_move_for_move_like_the_interpreted_rules(name: str) -> None:
    design = open_design(GAMES / f"{name}.cardz").design
    generated, interpreted = Game(design), Game(design, generated=False)
    assert generated.move_lister_source and not interpreted.move_lister_source
    for deal in range(2):
        fast, plain = generated.new_initial_state(seed=deal), interpreted.new_initial_state(seed=deal)
        fast.stats, plain.stats = collections.Counter(), collections.Counter()
        rng = SplitMix64(deal + 7)
        while True:
            assert fast.key() == plain.key(), f"deal {deal}, move {fast.move_count}"
            moves = fast.legal_moves()
            where = f"deal {deal}, move {fast.move_count}"
            assert [str(m) for m in moves] == [str(m) for m in plain.legal_moves()], where
            assert fast.outcome() == plain.outcome()
            if not moves or fast.move_count >= MOVES_PER_DEAL:
                break
            choice = rng.below(len(moves))
            fast.apply(moves[choice])
            plain.apply(plain.legal_moves()[choice])
        assert fast.stats == plain.stats, "the rules fired differently"
        assert str(fast) == str(plain)
