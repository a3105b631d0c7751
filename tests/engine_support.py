"""Helpers shared by the engine tests."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

from cardz_tools.analysis.playout import deal_seed
from cardz_tools.analysis.tableau_search import Pruning, search
from cardz_tools.engine import Game, State
from cardz_tools.model import Design, build_design

GAMES = Path(__file__).resolve().parent.parent / "games"
"""The seed designs."""


def load_design(name: str) -> Design:
    """A design from games/ by file stem."""
    return build_design(json.loads((GAMES / f"{name}.cardz").read_text(encoding="utf-8")))


def random_positions(game: Game, count: int, seed: int, max_moves: int) -> list[State]:
    """``count`` positions part way (0 to ``max_moves`` - 1 random moves) through playouts of ``game``."""
    rng = random.Random(seed)
    found = []
    deal = 0
    while len(found) < count:
        state = game.new_initial_state(seed=deal_seed(seed, deal))
        deal += 1
        for _ in range(rng.randrange(0, max_moves)):
            if state.is_terminal():
                break
            state.apply(rng.choice(state.legal_moves()))
        if not state.is_terminal():
            found.append(state)
    return found


def safe_move_verdicts(safe: Any, state: State, budget: int) -> tuple[str, str] | None:
    """What the plain exhaustive search says of ``state`` and, when that is a win, of the position after
    the move ``safe`` (a dominance's safe moves) plays there ("" otherwise); None when it plays none. The
    move must be legal: a safe move that leads away from a win answers ("won", something else)."""
    move = safe.safe_move(state)
    if move is None:
        return None
    assert move in state.legal_moves()
    before = search(state, budget, None, Pruning.none()).result
    if before != "won":
        return before, ""
    after = state.clone()
    after.apply(move)
    return before, search(after, budget, None, Pruning.none()).result
