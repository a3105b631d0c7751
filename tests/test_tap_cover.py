"""The tap cover (:class:`cardz_tools.analysis.stock_moves.TapCover`): a position whose stock and waste
taps from a stored position reach is not stored again.

:meth:`StockMoves.reaches` must answer exactly what the engine's taps do, on positions of the same
rest reached along different lines (waste cards played in other orders, at other points of a pass);
the search with the cover must agree with the plain exhaustive search deal by deal; and the obvious
unsound version (any stored stock of the same rest covers, the split of stock and waste forgotten)
must fail the first check.
"""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Hashable
from typing import Any

import pytest

from cardz_tools.analysis.playout import deal_seed
from cardz_tools.analysis.stock_moves import StockMoves
from cardz_tools.analysis.tableau_search import Pruning, plan_for, replays_to_a_win, search
from cardz_tools.engine import Game, State
from cardz_tools.loading import open_design
from tests.test_solver_tableau import GAMES, SMALL

KLONDIKE_LIKE = ("klondike", "canfield")


def _game_named(name: str) -> Game:
    return Game(open_design(GAMES / f"{name}.cardz").design)


def _tap_reach(state: State, stock: StockMoves, key_of: Any) -> set[Hashable]:
    """The stock and waste (as the split key gives them) of every position the engine's taps lead to."""
    draw = next(draw for draw in stock.draws if draw.redeals < 0)
    found: set[Hashable] = set()
    current = state
    for _ in range(200):
        if current.is_terminal() or draw.move not in current.legal_moves():
            break
        current = current.clone()
        current.apply(draw.move)
        place = key_of(current)[1]
        if place in found:
            break
        found.add(place)
    return found


def _walks(game: Game, deal: int, walks: int, length: int, seed: int) -> list[State]:
    """Positions of random walks from one deal that favour taps and plays from the waste, so that
    many share everything but the stock and waste."""
    rng = random.Random(seed)
    found = []
    draw = game.draws[0]
    for _ in range(walks):
        state = game.new_initial_state(seed=deal_seed(5, deal))
        for _ in range(length):
            if state.is_terminal():
                break
            legal = state.legal_moves()
            waste = [m for m in legal if m != draw.move and game.drag_indexes.get(id(m), (None,))[0] == draw.to]
            if draw.move in legal and rng.random() < 0.7:
                move = draw.move
            elif waste and rng.random() < 0.8:
                move = rng.choice(waste)
            else:
                move = rng.choice(legal)
            state.apply(move)
            found.append(state.clone())
    return found


def _pairs(name: str) -> tuple[int, int]:
    """(pairs of positions of one rest checked, of them those whose end taps do not reach)."""
    game = _game_named(name)
    plan = plan_for(game, Pruning())
    assert plan.tap_cover and plan.stock is not None
    key_of = plan.key_of
    checked = unreached = 0
    for deal in range(3):
        groups: dict[Hashable, dict[Hashable, State]] = defaultdict(dict)
        for state in _walks(game, deal, 12, 60, seed=deal):
            rest, place = key_of(state)
            groups[rest].setdefault(place, state)
        for places in groups.values():
            for start, state in places.items():
                reach = _tap_reach(state, plan.stock, key_of)
                for end in places:
                    if end == start:
                        continue
                    expected = end in reach
                    assert plan.stock.reaches(game, start, end) == expected, (name, deal, start, end)
                    checked += 1
                    unreached += not expected
    return checked, unreached


@pytest.mark.parametrize("name", KLONDIKE_LIKE)
def test_reaches_is_what_the_engine_taps_reach(name: str) -> None:
    checked, unreached = _pairs(name)
    # Both answers were exercised: the unsound version (every stock of the same rest covers) fails here.
    assert checked > 50 and 0 < unreached < checked, (checked, unreached)


def test_split_keys_tell_the_same_positions_apart() -> None:
    game = _game_named("klondike")
    with_cover = plan_for(game, Pruning())
    without = plan_for(game, Pruning(tap_cover=False))
    assert with_cover.tap_cover and not without.tap_cover
    keys: dict[Hashable, Hashable] = {}
    back: dict[Hashable, Hashable] = {}
    for deal in range(2):
        for state in _walks(game, deal, 6, 60, seed=9):
            split, plain = with_cover.key_of(state), without.key_of(state)
            assert keys.setdefault(split, plain) == plain
            assert back.setdefault(plain, split) == split


@pytest.mark.parametrize("name", KLONDIKE_LIKE)
def test_the_cover_agrees_with_the_plain_exhaustive_search(name: str) -> None:
    game = SMALL[name]()
    assert plan_for(game, Pruning()).tap_cover
    covered = uncovered = 0
    verdicts = set()
    for deal in range(6):
        root = game.new_initial_state(seed=deal_seed(11, deal))
        plain = search(root, 300_000, None, Pruning.none())
        assert plain.result != "unknown"
        verdicts.add(plain.result)
        for quick in (False, True):
            found = search(root, 300_000, None, Pruning(quick=quick))
            assert found.result == plain.result, (name, deal, quick)
            if found.result == "won":
                assert replays_to_a_win(root, found.line)
        covered += search(root, 300_000, None, Pruning(quick=False)).nodes
        uncovered += search(root, 300_000, None, Pruning(quick=False, tap_cover=False)).nodes
    assert verdicts == {"won", "lost"}, verdicts
    assert covered < uncovered if name == "klondike" else covered <= uncovered  # and it prunes (small Canfield: little)


def test_a_stock_drawing_one_card_has_no_cover() -> None:
    # every state of its stock is on its cycle of taps, which the key already folds into one
    plan = plan_for(_game_named("klondike-draw-one"), Pruning())
    assert plan.stock is not None and not plan.tap_cover
    assert any("no tap cover" in note for note in plan.notes)
