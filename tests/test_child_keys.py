"""A drag's child keyed without building it (:mod:`.child_keys`) has exactly the key of the child the engine
builds, on random positions of every shipped design, for the search's key and the plain one; the obvious unsound
versions (settling never fires, the source's new top never turns face up) fail that; and the search with it
searches the same positions as without it."""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterator
from pathlib import Path
from typing import Any

import pytest

from cardz_tools.analysis import tableau_search
from cardz_tools.analysis.child_keys import ChildKeys, child_keys, trigger_test
from cardz_tools.analysis.playout import deal_seed
from cardz_tools.analysis.tableau_search import Pruning, built
from cardz_tools.cards import FACE_UP
from cardz_tools.engine import Game
from cardz_tools.engine.moves import Drag
from cardz_tools.loading import open_design
from tests.engine_support import random_positions

GAMES = Path(__file__).resolve().parent.parent / "games"
DESIGNS = sorted(path.stem for path in GAMES.glob("*.cardz"))


def _drag_children(game: Any, state: Any) -> Iterator[tuple[Any, Any]]:
    """(base, drag) of every child of ``state`` the search keys unbuilt: its drags and its unbuilt waste plays."""
    for move in state.playable_moves():
        if type(move) is Drag:
            yield state, move
    plan = tableau_search.plan_for(game, Pruning())
    if plan.stock is not None:
        for _, base, move, _ in plan.stock.unbuilt_plays(state):
            if move is not None:
                yield base, move


def _state_of(state: Any) -> tuple[Any, ...]:
    """Everything a position holds but its cached moves and status (listed again: compared by value)."""
    return (
        state.piles, state.declared, state.redeals, state.uses, state.reshuffles, state.move_count, state.cascade,
        state.cards_in_play, state.touched, state.legal_moves(), state.status(),
    )


def _mismatches(game: Any, keys: ChildKeys, key_of: Callable[[Any], Hashable],
                states: list[Any]) -> tuple[int, int]:
    """(children keyed unbuilt, of those the ones whose key is not the built child's key)."""
    keyed = wrong = 0
    for state in states:
        for base, move in _drag_children(game, state):
            key = keys.key(base, move)
            if key is None:
                continue
            keyed += 1
            child, reference = keys.build(base, move), built(base, move)
            if key != key_of(reference) or _state_of(child) != _state_of(reference):
                wrong += 1
    return keyed, wrong


@pytest.mark.parametrize("name", DESIGNS)
def test_an_unbuilt_childs_key_is_the_built_childs(name: str) -> None:
    game = Game(open_design(GAMES / f"{name}.cardz").design)
    plan = tableau_search.plan_for(game, Pruning())
    states = random_positions(game, 8, seed=3, max_moves=100)
    for key_of in (plan.key_of, lambda state: state.key()):
        keys = child_keys(game, key_of, fires=trigger_test(game) if game.triggers else None)
        if keys is None:
            assert game.has_declarations
            continue
        keyed, wrong = _mismatches(game, keys, key_of, states)
        assert wrong == 0, (name, keyed, wrong)


class _NoFlips:
    """``game`` with no depot turning its new top face up (``autoFlipTop`` off), for the unsound version that
    forgets the flip."""

    def __init__(self, game: Any) -> None:
        self.game = game
        self.auto_flip = (False,) * len(game.names)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.game, name)


@pytest.mark.parametrize("name", ["spider-one-suit", "canfield", "canfield-runs", "pyramid"])
def test_leaving_out_the_settle_step_fails(name: str) -> None:
    """With the trigger test (the search leaves the unbuilt keys out where a trigger is checked after every
    move, for speed: Spider, Canfield; not in Pyramid, whose triggers read their own pile)."""
    game = Game(open_design(GAMES / f"{name}.cardz").design)
    key_of = tableau_search.plan_for(game, Pruning()).key_of
    states = random_positions(game, 60, seed=3, max_moves=200)
    assert (child_keys(game, key_of) is None) == bool(game.always_checked)
    sound = child_keys(game, key_of, fires=trigger_test(game))
    assert sound is not None and _mismatches(game, sound, key_of, states)[1] == 0
    never_fires = child_keys(game, key_of, fires=lambda parent, source, target: False)
    assert never_fires is not None and _mismatches(game, never_fires, key_of, states)[1] > 0


def test_leaving_out_the_flip_fails() -> None:
    game = Game(open_design(GAMES / "klondike.cardz").design)
    key_of = tableau_search.plan_for(game, Pruning()).key_of
    states = random_positions(game, 20, seed=3, max_moves=60)
    assert any(not card & FACE_UP for state in states for pile in state.piles for card in pile)
    no_flips = child_keys(_NoFlips(game), key_of)
    assert no_flips is not None and _mismatches(game, no_flips, key_of, states)[1] > 0


@pytest.mark.parametrize(
    ("name", "deals", "budget"),
    [("klondike", 2, 3000), ("canfield-runs", 2, 3000), ("spider-one-suit", 1, 3000), ("freecell", 2, 2000)],
)
def test_the_search_searches_the_same_positions_without_building_stored_children(
    name: str, deals: int, budget: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = Game(open_design(GAMES / f"{name}.cardz").design)

    def results() -> list[tuple[str, int]]:
        tableau_search._PLANS.clear()
        found = []
        for deal in range(deals):
            root = game.new_initial_state(seed=deal_seed(0, deal))
            result = tableau_search.search(root, budget, None, Pruning())
            found.append((result.result, result.nodes))
        return found

    with_keys = results()
    monkeypatch.setattr(tableau_search, "child_keys", lambda game, key_of: None)
    assert results() == with_keys
    tableau_search._PLANS.clear()
