"""Helpers shared by the engine tests."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

from cardz_tools.analysis.playout import deal_seed
from cardz_tools.analysis.tableau_search import Pruning, replays_to_a_win, search
from cardz_tools.engine import Game, State
from cardz_tools.engine.moves import Tap
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
    the move ``safe`` (a dominance's safe moves) plays there, after the taps that bring a card round to be moved
    ("" otherwise); None when it plays none. The move must be legal: a safe move that leads away from a win
    answers ("won", something else)."""
    move = safe.safe_move(state)
    if move is None:
        return None
    assert move in state.legal_moves()
    before = search(state, budget, None, Pruning.none()).result
    if before != "won":
        return before, ""
    after = state.clone()
    for _ in range(len(state.game.names) * 52 * state.game.design.decks):  # taps bring a stock's card round
        after.apply(move)
        if not isinstance(move, Tap):
            break
        move = safe.safe_move(after)
        assert move is not None, "a safe tap leads to no safe move"
    return before, search(after, budget, None, Pruning.none()).result


PIECES = ("symmetry", "safe_moves", "forced", "stock", "ordering", "quick", "relaxation", "splits")
"""The pruning pieces the agreement tests switch on one at a time (the others keep their defaults)."""


def only(piece: str) -> Pruning:
    """The search with ``piece`` on and the other :data:`PIECES` off."""
    return Pruning(**{name: name == piece for name in PIECES})


def assert_pieces_agree_with_the_plain_search(game: Game, budget: int, label: str = "") -> None:
    """Deals 0 to 7 of seed 7: each of :data:`PIECES` alone, and every piece, give the plain exhaustive
    search's verdict, and their wins replay; both verdicts occur, and every piece together stores fewer positions."""
    verdicts = {"won": 0, "lost": 0}
    plain_nodes = pruned_nodes = 0
    for deal in range(8):
        root = game.new_initial_state(seed=deal_seed(7, deal))
        plain = search(root, budget, None, Pruning.none())
        assert plain.result != "unknown"
        verdicts[plain.result] += 1
        plain_nodes += plain.nodes
        for pruning in [only(piece) for piece in PIECES] + [Pruning()]:
            pruned = search(root, budget, None, pruning)
            assert pruned.result == plain.result, f"{label} deal {deal} with {pruning}"
            if pruned.result == "won":
                assert replays_to_a_win(root, pruned.line)
            if pruning == Pruning():
                pruned_nodes += pruned.nodes
    assert verdicts["won"] and verdicts["lost"], verdicts  # both verdicts were exercised
    assert pruned_nodes < plain_nodes  # and the pieces prune
