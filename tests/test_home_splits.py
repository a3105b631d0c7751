"""The home-splits member of the Klondike family (:data:`.tableau_search.HOME_SPLITS_WEIGHTS`).

It searches a split only together with a use that takes cards from the split's source out of the columns (Solvitaire's
Klondike rule), a narrowed move set, so it is incomplete. The tests check which designs get it, that its uses are
exactly those of the complete pairing that leave the columns, and that a "lost" of it never becomes the answer: the
obvious unsound version, the member counted as complete, fails the last test.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from cardz_tools.analysis import tableau_search
from cardz_tools.analysis.playout import deal_seed
from cardz_tools.analysis.split_moves import SplitMoves
from cardz_tools.analysis.tableau_search import Pruning, _Search, plan_for, search
from cardz_tools.engine import Game
from cardz_tools.loading import open_design
from tests.engine_support import random_positions

GAMES = Path(__file__).resolve().parent.parent / "games"


def game_of(name: str) -> Game:
    return Game(open_design(GAMES / f"{name}.cardz").design)


def is_home_splits(member: tableau_search._Member) -> bool:
    splits = member.search.plan.splits
    return splits is not None and splits.home_only


def home_members(game: Game, pruning: Pruning = Pruning()) -> list[tableau_search._Member]:
    members = tableau_search._portfolio(game.new_initial_state(seed=1), pruning, 1_000, None)
    return [m for m in members if is_home_splits(m)]


def test_the_klondike_family_gets_one_incomplete_home_splits_member_and_the_others_none() -> None:
    for name, weight in (("klondike", 2), ("klondike-draw-one", 8), ("ultra-klondike-2-deck", 8)):
        (member,) = home_members(game_of(name))
        assert not member.complete and member.weight == weight, name
        assert not home_members(game_of(name), Pruning(home_splits=False)), name  # the piece switches it off
    for name in ("freecell", "canfield", "forty-thieves"):  # no split pairing there
        assert not home_members(game_of(name)), name


def _positions(game: Game) -> Iterator[Any]:
    """Random positions, and the positions along winning lines (where cards go home: random play seldom gets there)."""
    yield from random_positions(game, 60, seed=5, max_moves=60)
    for deal in (1, 2, 4, 5, 6):
        state = game.new_initial_state(seed=deal_seed(101, deal))
        found = search(state.clone(), 20_000)
        assert found.result == "won", deal
        for move in found.line:
            state.apply(move)
            yield state.clone()


def _splits_with_uses(game: Game) -> Iterator[tuple[Any, Any, SplitMoves]]:
    splits = plan_for(game, Pruning()).splits
    assert splits is not None
    for state in _positions(game):
        for move in state.legal_moves():
            if splits.split_source(state, move) is not None:
                yield state, move, splits


def test_a_home_use_is_a_use_of_the_complete_pairing_that_takes_cards_out_of_the_columns() -> None:
    game = game_of("klondike-draw-one")
    home_uses = other_uses = 0
    for state, split, splits in _splits_with_uses(game):
        homeward = splits.homeward()
        where = splits.runs_by_card(state)
        full = splits.use_drags(state, split, where)
        kept = homeward.use_drags(state, split, where)
        assert kept == [m for m in full if m.source == split.source and splits.index[m.target] not in splits.columns]
        assert not homeward.may_take(state, split, ())  # a waste card is never a home use
        home_uses += len(kept)
        other_uses += len(full) - len(kept)
    assert home_uses >= 3 and other_uses >= 10, (home_uses, other_uses)


@pytest.mark.parametrize("complete", [False, True])
def test_the_members_lost_is_never_the_answer(complete: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    # Klondike draw one, seed 101, deal 1: a win the other members find in a few hundred positions. The home-splits
    # member is made to answer "lost" at once (as it would where no line of its narrowed set wins); counted as
    # complete (the unsound version) that would be the verdict, since it takes the first turn here.
    game = game_of("klondike-draw-one")
    run = _Search.run

    def lost_at_once(self: _Search) -> Any:
        if self.plan.splits is not None and self.plan.splits.home_only:
            def steps() -> Any:
                return ("lost", [])
                yield
            return steps()
        return run(self)

    monkeypatch.setattr(_Search, "run", lost_at_once)
    portfolio = tableau_search._portfolio

    def home_first(*args: Any, **kwargs: Any) -> list[tableau_search._Member]:
        members = portfolio(*args, **kwargs)
        home = [m for m in members if is_home_splits(m)]
        for member in home:
            member.complete = complete
        return home + [m for m in members if m not in home]

    monkeypatch.setattr(tableau_search, "_portfolio", home_first)
    found = search(game.new_initial_state(seed=deal_seed(101, 1)), 50_000)
    assert found.result == ("lost" if complete else "won")
