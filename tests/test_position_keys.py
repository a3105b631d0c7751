"""The search's position keys, written for speed (slices for neighbouring classes, forgetful sink piles kept by
their cards), give exactly the key the plain definition gives (:func:`.symmetry.canonical_key_function`'s doc)."""

from __future__ import annotations

from collections.abc import Callable, Hashable
from pathlib import Path
from typing import Any

import pytest

from cardz_tools.analysis import tableau_search
from cardz_tools.analysis.position_key import order_blind_sinks
from cardz_tools.analysis.symmetry import canonical_key_function, interchangeable_classes, late_classes
from cardz_tools.cards import FACE_UP
from cardz_tools.engine import Game
from cardz_tools.loading import open_design
from tests.engine_support import random_positions

GAMES = Path(__file__).resolve().parent.parent / "games"


def plain_key(game: Any, symmetry_on: bool, normalize: Callable[[Any, list[Any]], None] | None = None) -> Any:
    """The key by its definition, nothing kept between calls: the piles (normalized), each order-blind sink's
    cards below its top sorted, each class's piles sorted into its depots, then the counters."""
    sinks = order_blind_sinks(game)
    early = interchangeable_classes(game) if symmetry_on else ()
    emptied, late = late_classes(game) if symmetry_on else (frozenset(), ())

    def key(state: Any) -> Hashable:
        piles = list(state.piles)
        classes = late if emptied and late != early and not any(piles[d] for d in emptied) else early
        if normalize is not None:
            normalize(state, piles)
        for sink in sinks:
            if len(piles[sink]) > 1:
                piles[sink] = (piles[sink][-1], *sorted(piles[sink][:-1]))
        for members in classes:
            for depot, pile in zip(members, sorted(piles[d] for d in members), strict=True):
                piles[depot] = pile
        if game.has_declarations:
            raise AssertionError("no design here names suits")
        return tuple(piles), tuple(state.redeals), tuple(state.uses), state.reshuffles, state.cascade

    return key


@pytest.mark.parametrize(
    "name", ["klondike", "canfield-runs", "freecell", "forty-thieves", "spider", "east-haven", "golf", "bakers-game"]
)
def test_the_keys_tell_apart_exactly_the_positions_the_plain_key_does(name: str) -> None:
    game = Game(open_design(GAMES / f"{name}.cardz").design)
    states = random_positions(game, 40, seed=5, max_moves=120)
    for symmetry_on in (True, False):
        fast = canonical_key_function(game, symmetry_on)
        plain = plain_key(game, symmetry_on)
        fast_keys = [fast(state) for state in states for _ in range(2)]  # twice: the second from what is kept
        plain_keys = [plain(state) for state in states for _ in range(2)]
        for i in range(len(states)):
            for j in range(len(states)):
                same = plain_keys[2 * i] == plain_keys[2 * j]
                assert (fast_keys[2 * i] == fast_keys[2 * j]) == same, (name, i, j)
        assert all(fast_keys[2 * i] == fast_keys[2 * i + 1] for i in range(len(states)))


@pytest.mark.parametrize("name", ["klondike", "canfield-runs", "forty-thieves", "spider", "east-haven"])
def test_the_general_key_is_the_plain_key(name: str) -> None:
    """Where the key rewrites the piles (the stock's place on its cycle) or changes its classes late, it is the
    plain key itself, value for value."""
    game = Game(open_design(GAMES / f"{name}.cardz").design)
    plan = tableau_search.plan_for(game, tableau_search.Pruning())
    normalize = plan.stock.normalize if plan.stock is not None else None
    fast = canonical_key_function(game, True, normalize)
    plain = plain_key(game, True, normalize)
    for state in random_positions(game, 60, seed=7, max_moves=150):
        assert fast(state) == plain(state)
        assert fast(state) == plain(state)  # again, from the kept forms


def test_a_kept_forgetful_sink_pile_is_never_another_piles() -> None:
    """The obvious stale form: a sink pile looked up by its top and length (or by an id that was reused) would
    key two positions alike whose sinks hold different cards below the same top."""
    game = Game(open_design(GAMES / "golf.cardz").design)
    sinks = order_blind_sinks(game)
    assert sinks
    sink = sinks[0]
    key = canonical_key_function(game, True)
    state = random_positions(game, 1, seed=3, max_moves=2)[0]
    ace, two, three, four = (card | FACE_UP for card in (0x01, 0x02, 0x03, 0x14))
    first, second, third = state.clone(), state.clone(), state.clone()
    first.piles[sink] = (ace, two, four)
    second.piles[sink] = (two, ace, four)  # the same cards below the top, in another order
    third.piles[sink] = (ace, three, four)  # the same top and length, other cards below it
    assert key(first) == key(second)
    assert key(first) != key(third)
    assert key(third) != key(second)
