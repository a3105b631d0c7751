"""Run-test eject rules that let go of every face-up run there is (:mod:`.face_up_runs`), and the splits they allow.

Small Northwest Territory boards (three suits of Ace to Six, four columns, eight reserve cards): on every random
position the columns' ``chain`` eject rule lets go of exactly the face-up runs (what ``faceUp`` would), and the
split pairing searched over it agrees with the plain exhaustive search deal by deal and on random positions. A
board whose columns build down in any colour but move only runs in alternate colours is refused, and there the
claim is false on random positions: the version of the check without its accept-rule test (the unsound one) takes
that board, so the claim's test can fail.
"""

from __future__ import annotations

from typing import Any

import pytest

from cardz_tools.analysis import face_up_runs as runs_module
from cardz_tools.analysis.face_up_runs import face_up_runs, holds_at
from cardz_tools.analysis.playout import deal_seed
from cardz_tools.analysis.split_moves import SplitMoves, split_moves
from cardz_tools.analysis.tableau_search import Pruning, replays_to_a_win, search
from cardz_tools.cards import FACE_UP
from cardz_tools.engine import Game
from tests.engine_support import random_positions
from tests.test_solver_tableau import small
from tests.test_split_moves import PAIRED, PLAIN

BUDGET = 300_000


def _small_northwest(design: dict[str, Any]) -> None:
    design["depots"][0]["repeat"] = 3  # foundations
    design["depots"][1]["repeat"] = 8  # reserve: 18 cards, 10 of them in the columns
    design["depots"][2]["repeat"] = 4  # columns


def small_northwest(any_colour: bool = False) -> Game:
    """A small Northwest Territory; with ``any_colour``, its columns build down in any colour (and still move
    only runs in alternate colours)."""

    def edit(design: dict[str, Any]) -> None:
        _small_northwest(design)
        if any_colour:
            rule = design["depots"][2]["acceptRule"]
            rule["when"] = rule["when"].replace("card.color != top.color && ", "")

    return small("northwest-territory", ["Spades", "Hearts", "Clubs"], 6, edit)


def _lets_go_of_every_face_up_run(game: Game, depots: frozenset[int]) -> bool:
    """Whether every position of 300 random ones lets each of ``depots`` give up each of its face-up runs."""
    for state in random_positions(game, 300, seed=5, max_moves=60):
        for depot in depots:
            pile = state.piles[depot]
            up = 0
            while up < len(pile) and pile[-1 - up] & FACE_UP:
                up += 1
            if pile and list(state.run_lengths(depot, pile)) != list(range(1, up + 1)):
                return False
    return True


def test_the_columns_of_northwest_territory_let_go_of_every_face_up_run() -> None:
    game = small_northwest()
    depots = face_up_runs(game)
    assert isinstance(depots, frozenset) and len(depots) == 4
    assert all(holds_at(game, depots, game.new_initial_state(seed=deal_seed(3, deal))) for deal in range(10))
    assert _lets_go_of_every_face_up_run(game, depots)
    assert isinstance(split_moves(game), SplitMoves)


def test_a_board_building_in_any_colour_is_refused_and_the_claim_fails_there(monkeypatch: pytest.MonkeyPatch) -> None:
    game = small_northwest(any_colour=True)
    assert face_up_runs(game) == "the accept rule builds a card on one the eject rule would not let go with it"
    assert split_moves(game) == (
        "an eject rule reads more than which cards are face up"
        " (the accept rule builds a card on one the eject rule would not let go with it)"
    )
    # The unsound version: no accept-rule test (its card-and-top part taken to allow nothing).
    face_up_runs.cache_clear()
    monkeypatch.setattr(runs_module, "card_and_top_part", lambda rule: "false")
    try:
        depots = face_up_runs(game)
        assert isinstance(depots, frozenset)
        assert not _lets_go_of_every_face_up_run(game, depots), "the claim held where it should not: it cannot fail"
    finally:
        face_up_runs.cache_clear()


def test_a_first_position_holding_a_broken_run_gets_no_splits() -> None:
    game = small_northwest()
    depots = face_up_runs(game)
    assert isinstance(depots, frozenset)
    root = game.new_initial_state(seed=deal_seed(3, 0))
    column = min(depots)
    reserve = game.names.index("reserve[0]")
    broken = root.clone()
    # A reserve card face up on a column's top twice over: a run of two the eject rule does not let go.
    card = root.piles[reserve][-1] | FACE_UP
    broken.piles[column] = (*broken.piles[column], card, card)
    assert holds_at(game, depots, root)
    assert not holds_at(game, depots, broken)


def test_the_split_pairing_over_run_tests_agrees_with_the_plain_exhaustive_search_deal_by_deal() -> None:
    game = small_northwest()
    verdicts = {"won": 0, "lost": 0}
    plain_nodes = paired_nodes = 0
    for deal in range(12):
        root = game.new_initial_state(seed=deal_seed(7, deal))
        plain = search(root, BUDGET, None, PLAIN)
        assert plain.result != "unknown"
        verdicts[plain.result] += 1
        plain_nodes += plain.nodes
        for pruning in (PAIRED, Pruning()):
            paired = search(root, BUDGET, None, pruning)
            assert paired.result == plain.result, (deal, pruning)
            if paired.result == "won":
                assert replays_to_a_win(root, paired.line)
            if pruning == PAIRED:
                paired_nodes += paired.nodes
    assert verdicts["won"] and verdicts["lost"], verdicts
    assert paired_nodes <= plain_nodes  # few deals of so small a board hold a split


def test_the_split_pairing_over_run_tests_keeps_every_random_position_s_verdict() -> None:
    game = small_northwest()
    splits = split_moves(game)
    assert isinstance(splits, SplitMoves)
    checked = {"won": 0, "lost": 0}
    for state in random_positions(game, 200, seed=11, max_moves=40):
        if not any(splits.split_source(state, move) is not None for move in state.playable_moves()):
            continue
        plain = search(state, BUDGET, None, PLAIN).result
        assert plain != "unknown"
        assert search(state, BUDGET, None, PAIRED).result == plain
        checked[plain] += 1
    assert checked["won"] >= 10, checked
