"""The search's score keeps per-pile terms (:data:`PILE_TERMS_KEPT`): the score must not change."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from cardz_tools.analysis import tableau_search
from cardz_tools.analysis.playout import deal_seed
from cardz_tools.engine import Game
from cardz_tools.loading import open_design

GAMES = Path(__file__).resolve().parent.parent / "games"


@pytest.mark.parametrize("name", ["spider-one-suit", "freecell", "klondike"])
def test_kept_pile_terms_give_the_score_a_fresh_count_gives(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    game = Game(open_design(GAMES / f"{name}.cardz").design)
    monkeypatch.setattr(tableau_search, "PILE_TERMS_KEPT", 50)  # small: the forgetting is exercised too
    kept = tableau_search.Progress(game)
    counting = tableau_search.Progress(game)
    rng = random.Random(2)
    scores = set()
    for deal in range(4):
        state = game.new_initial_state(seed=deal_seed(3, deal))
        for _ in range(60):
            if state.is_terminal():
                break
            counting._terms.clear()
            fresh = counting.heuristic(state)
            assert kept.heuristic(state) == fresh
            scores.add(fresh)
            state.apply(rng.choice(state.legal_moves()))
    assert len(scores) > 5  # the positions differ in score
