"""The depth-first member that takes its first tie the other way (FLIPPED_TIE_WEIGHT): where it joins, that it
flips one tie only, that its verdicts are the plain search's (it is complete: its "lost" is a proof), and the deal
it is there for."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from cardz_tools.analysis import tableau_search
from cardz_tools.analysis.playout import deal_seed
from cardz_tools.analysis.runner import game_for
from cardz_tools.analysis.tableau_search import Pruning, _portfolio, _Search, plan_for, replays_to_a_win, search
from cardz_tools.loading import open_design
from tests.test_solver_tableau import BUDGET, SMALL

GAMES = Path(__file__).resolve().parents[1] / "games"


def flipped(members: list[Any]) -> list[Any]:
    return [m for m in members if m.search.flip_tie]


def alone(root: Any, flip: bool, budget: int) -> tuple[str, list[Any], int]:
    """(result, line, positions) of the depth-first search with every piece alone, its first tie flipped or not."""
    pruning = Pruning(quick=False)
    found = _Search(root, plan_for(root.game, pruning), pruning, budget, None)
    found.flip_tie = flip
    steps = found.run()
    try:
        while True:
            next(steps)
    except StopIteration as done:
        result, line = done.value
    except tableau_search._Budget:
        result, line = "unknown", []
    return result, line, len(found.seen)


def test_only_canfield_with_columns_kept_full_gets_the_member_and_it_is_complete() -> None:
    for name in ("canfield", "canfield-runs", "canfield-strict", "canfield-auto-reserve-then-waste", "klondike"):
        game = game_for(open_design(GAMES / f"{name}.cardz").json_text)
        members = _portfolio(game.new_initial_state(seed=1), Pruning(), 100, None)
        extra = flipped(members)
        if name in ("canfield", "canfield-runs", "klondike"):  # no columns kept full: the portfolio is as it was
            assert extra == [], name
            continue
        assert len(extra) == 1, name
        assert extra[0].weight == tableau_search.FLIPPED_TIE_WEIGHT and extra[0].complete
        assert extra[0].search.pruning == Pruning() and extra[0].search.runs is None


def test_one_tie_is_flipped_and_then_the_order_is_the_depth_first_members() -> None:
    game = game_for(open_design(GAMES / "canfield-auto-reserve-then-waste.cardz").json_text)
    root = game.new_initial_state(seed=deal_seed(0, 1))
    pruning = Pruning(quick=False)
    plain = _Search(root, plan_for(game, pruning), pruning, 10_000, None)
    flip = _Search(root, plan_for(game, pruning), pruning, 10_000, None)
    flip.flip_tie = True
    state, ties = root.clone(), 0
    for _ in range(12):  # down the first children of the plain order
        _, first = plain.expand(state)
        _, other = flip.expand(state)
        keys, other_keys = [o[3] for o in first], [o[3] for o in other]
        tied = len(first) > 1 and first[0][2] == first[1][2]
        if tied and ties == 0:
            assert other_keys == [keys[1], keys[0], *keys[2:]]
            ties += 1
        else:
            assert other_keys == keys
        if not first:
            break
        state = state.clone()
        for move in first[0][0]:
            state.apply(move)
    assert ties == 1 and not flip.flip_tie


@pytest.mark.parametrize("name", ["canfield-strict", "canfield-spaces"])
def test_the_member_alone_agrees_with_the_plain_exhaustive_search(name: str) -> None:
    game = SMALL[name]()
    verdicts = set()
    for deal in range(8):
        root = game.new_initial_state(seed=deal_seed(5, deal))
        plain = search(root, BUDGET, None, Pruning.none())
        assert plain.result != "unknown", deal
        verdicts.add(plain.result)
        result, line, _ = alone(root, True, BUDGET)
        assert result == plain.result, (name, deal)
        if result == "won":
            assert replays_to_a_win(root, line)
    assert verdicts == {"won", "lost"}, name


def test_the_member_wins_the_spaces_deal_the_depth_first_member_leaves_open() -> None:
    # Seed 0, deal 1: the depth-first member alone searches 480,842 positions under its first tie's first child.
    game = game_for(open_design(GAMES / "canfield-auto-reserve-then-waste.cardz").json_text)
    root = game.new_initial_state(seed=deal_seed(0, 1))
    result, line, positions = alone(root, True, 30_000)
    assert result == "won" and replays_to_a_win(root, line), positions
    assert alone(root, False, 30_000)[0] == "unknown"
