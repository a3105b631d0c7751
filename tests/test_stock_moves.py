"""The stock as one move (:mod:`cardz_tools.analysis.stock_moves`).

The plays after a run of taps are found without listing every move after each tap where no
trigger can fire (``_probed_plays``); they must be exactly the plays the engine lists
(``_listed_plays``), in the same order, reaching the same positions, on random positions of
stocks that redeal without limit, a limited number of times or never, drawing one or three.
"""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest

from cardz_tools.analysis.stock_moves import StockMoves, stock_moves
from cardz_tools.engine import Game, State
from cardz_tools.loading import open_design
from cardz_tools.model import build_design
from tests.engine_support import random_positions

GAMES = Path(__file__).resolve().parent.parent / "games"


def _game(name: str) -> Game:
    return Game(open_design(GAMES / f"{name}.cardz").design)


def _plays(found: list[tuple[tuple[Any, ...], State, bool]]) -> list[tuple[Any, ...]]:
    return [
        (moves, tuple(child.piles), tuple(child.redeals), child.move_count, complete, child.is_terminal())
        for moves, child, complete in found
    ]


@pytest.mark.parametrize(
    "name",
    ["gargantua-redeal", "klondike-two-deck-9", "gargantua", "forty-thieves", "klondike", "limited"],
)
def test_probed_plays_are_the_plays_the_engine_lists(name: str) -> None:
    game = _game(name)
    stock = stock_moves(game)
    assert isinstance(stock, StockMoves), stock
    compared = plays = 0
    for state in random_positions(game, 12, seed=7, max_moves=160):
        for draw in stock.draws:
            listed = _plays(list(stock._listed_plays(state, draw)))
            probed = _plays(list(stock._probed_plays(state, draw)))
            assert probed == listed
            compared += 1
            plays += len(listed)
    assert compared == 12 and plays > 12  # the positions did have plays to compare


def test_limited_redeals_are_counted_as_the_engine_counts_them() -> None:
    design: dict[str, Any] = copy.deepcopy(open_design(GAMES / "klondike-two-deck-9.cardz").data)
    design["depots"][0]["draw"]["redeals"] = 1
    game = Game(build_design(design))
    stock = stock_moves(game)
    assert isinstance(stock, StockMoves), stock
    for state in random_positions(game, 8, seed=3, max_moves=200):
        listed = _plays(list(stock._listed_plays(state, stock.draws[0])))
        assert _plays(list(stock._probed_plays(state, stock.draws[0]))) == listed
