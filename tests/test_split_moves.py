"""A split (a run carried from one card to another) searched only with a use of the card it leaves: no win lost.

Small Klondike boards (three suits of Ace to Six, four columns) are solved by the plain exhaustive search and by
the same search with the split pairing, deal by deal and on random positions; the obvious unsound versions (no
split at all, or a split only when a card goes onto the column it left) turn won positions into lost ones there,
so the checks can fail.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from pathlib import Path

import pytest

from cardz_tools.analysis.playout import deal_seed
from cardz_tools.analysis.split_moves import SplitMoves, split_moves
from cardz_tools.analysis.tableau_search import Pruning, replays_to_a_win, search
from cardz_tools.engine import Game
from cardz_tools.engine.moves import Drag
from cardz_tools.loading import open_design
from tests.engine_support import random_positions
from tests.test_solver_tableau import SMALL, small, small_klondike

GAMES = Path(__file__).resolve().parent.parent / "games"
BUDGET = 300_000
PLAIN = Pruning.none()
PAIRED = dataclasses.replace(PLAIN, splits=True)


def small_draw_one() -> Game:
    def edit(design: dict[str, object]) -> None:
        small_klondike(design)
        design["depots"][0]["draw"]["count"] = 1  # type: ignore[index]

    return small("klondike", ["Spades", "Hearts", "Clubs"], 6, edit)


GAMES_SMALL = {"klondike": SMALL["klondike"], "klondike-draw-one": small_draw_one}


@pytest.mark.parametrize("name", sorted(GAMES_SMALL))
def test_the_split_pairing_agrees_with_the_plain_exhaustive_search_deal_by_deal(name: str) -> None:
    game = GAMES_SMALL[name]()
    assert isinstance(split_moves(game), SplitMoves)
    verdicts = {"won": 0, "lost": 0}
    plain_nodes = paired_nodes = 0
    for deal in range(10):
        root = game.new_initial_state(seed=deal_seed(7, deal))
        plain = search(root, BUDGET, None, PLAIN)
        assert plain.result != "unknown"
        verdicts[plain.result] += 1
        plain_nodes += plain.nodes
        for pruning in (PAIRED, Pruning()):
            paired = search(root, BUDGET, None, pruning)
            assert paired.result == plain.result, (name, deal, pruning)
            if paired.result == "won":
                assert replays_to_a_win(root, paired.line)
            if pruning == PAIRED:
                paired_nodes += paired.nodes
    assert verdicts["won"] and verdicts["lost"], verdicts
    assert paired_nodes < plain_nodes


def _won_positions_with_a_split(game: Game) -> Iterator[object]:
    """Random positions of ``game`` that have a split (:class:`SplitMoves`), with the plain search's verdict."""
    splits = split_moves(game)
    assert isinstance(splits, SplitMoves)
    for state in random_positions(game, 300, seed=11, max_moves=40):
        if any(splits.split_source(state, move) is not None for move in state.playable_moves()):
            yield state


def test_the_split_pairing_keeps_every_won_random_position_won() -> None:
    game = SMALL["klondike"]()
    checked = {"won": 0, "lost": 0}
    for state in _won_positions_with_a_split(game):
        plain = search(state, BUDGET, None, PLAIN).result
        assert plain != "unknown"
        assert search(state, BUDGET, None, PAIRED).result == plain
        checked[plain] += 1
    assert checked["won"] >= 20 and checked["lost"] >= 5, checked


def _never(self: SplitMoves, split: object, move: object) -> bool:
    """An unsound version: no split is ever searched."""
    return False


def _onto_only(self: SplitMoves, split: object, move: object) -> bool:
    """An unsound version: a split only when a card goes onto the column it left at once (not when that
    column's card goes up)."""
    return type(move) is Drag and move.target == split.source  # type: ignore[attr-defined]


@pytest.mark.parametrize("unsound", [_never, _onto_only])
def test_the_unsound_versions_turn_a_won_position_into_a_lost_one(
    monkeypatch: pytest.MonkeyPatch, unsound: object
) -> None:
    game = SMALL["klondike"]()
    won = [state for state in random_positions(game, 300, seed=11, max_moves=40)
           if search(state, BUDGET, None, PLAIN).result == "won"]
    monkeypatch.setattr(SplitMoves, "uses", unsound)
    assert any(search(state, BUDGET, None, PAIRED).result == "lost" for state in won), (
        "the unsound version lost no win: the checks could not fail"
    )


def test_designs_outside_the_split_shape_say_why() -> None:
    def why(name: str) -> str | SplitMoves:
        from cardz_tools.analysis.runner import game_for

        return split_moves(game_for(open_design(GAMES / f"{name}.cardz").json_text))

    assert isinstance(why("klondike"), SplitMoves)
    assert why("canfield") == "it has triggers or actions"
    assert why("freecell") == "an eject rule reads more than which cards are face up"
