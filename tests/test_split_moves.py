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
from typing import Any

import pytest

from cardz_tools.analysis import tableau_search
from cardz_tools.analysis.playout import deal_seed
from cardz_tools.analysis.split_moves import SplitMoves, split_moves
from cardz_tools.analysis.tableau_search import Pruning, built, replays_to_a_win, search
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


SPLIT_DESIGNS = (
    "gargantua", "gargantua-redeal", "klondike", "klondike-draw-one", "klondike-reserve", "klondike-two-deck-9",
    "ultra-klondike-2-deck",
)
"""The shipped designs of the split shape (``split_moves`` is a :class:`SplitMoves` for these)."""


def _design(name: str) -> Game:
    from cardz_tools.analysis.runner import game_for

    return game_for(open_design(GAMES / f"{name}.cardz").json_text)


def _listed_uses(splits: SplitMoves, state: object, split: object) -> list[object]:
    """The reference: the drags of the built child of ``split`` that :meth:`SplitMoves.uses` keeps."""
    return [move for move in built(state, split).playable_moves() if type(move) is Drag and splits.uses(split, move)]


def _searched_positions(game: Game, count: int) -> list[Any]:
    """Copies of the positions a search of deal 0 expands (where cards have gone home), up to ``count``."""
    found: list[Any] = []
    successors = tableau_search._Search.successors

    def kept(self: Any, state: Any) -> Any:
        if len(found) < count:
            found.append(state.clone())
        return successors(self, state)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(tableau_search._Search, "successors", kept)
        search(game.new_initial_state(seed=deal_seed(0, 0)), 20 * count, None, Pruning())
    return found


def _use_mismatches(game: Game, count: int, splits: SplitMoves | None = None) -> tuple[int, int, set[str]]:
    """(splits compared, splits whose :meth:`SplitMoves.use_drags` is not the reference list, same moves in the
    same order; the kinds of use seen) on random positions of ``game``."""
    if splits is None:
        found_splits = split_moves(game)
        assert isinstance(found_splits, SplitMoves)
        splits = found_splits
    compared = wrong = 0
    kinds: set[str] = set()
    for state in [*random_positions(game, count, seed=5, max_moves=120), *_searched_positions(game, count)]:
        where = splits.runs_by_card(state)
        for split in [m for m in state.playable_moves() if splits.split_source(state, m) is not None]:
            piles = list(state.piles)
            found, reference = splits.use_drags(state, split, where), _listed_uses(splits, state, split)
            assert state.piles == piles  # the piles put in place are put back
            compared += 1
            if len(found) != len(reference) or any(a is not b for a, b in zip(found, reference, strict=True)):
                wrong += 1
            for move in reference:
                kinds.add("onto" if move.target == split.source else "back" if move.target == split.target else "out")
    return compared, wrong, kinds


@pytest.mark.parametrize("name", SPLIT_DESIGNS)
def test_the_uses_listed_without_the_child_are_the_built_childs(name: str) -> None:
    compared, wrong, kinds = _use_mismatches(_design(name), 80)
    assert wrong == 0 and compared >= 30, (compared, wrong)
    # "back" (onto the moved run) needs rules Klondike's are not; a card home from the split's source is rare
    assert {"onto", "out"} <= kinds if name == "gargantua" else "onto" in kinds, kinds


def _on_the_parent(self: SplitMoves, state: Any, split: Any, where: Any) -> list[Any]:
    """A broken version: the uses listed on the parent's piles (the split's two piles not put in place)."""
    found = sorted(self._candidates(state, self.index[split.source], self.index[split.target], where))
    return [m for m in (state.game.drag_move(s, n, t, None) for s, n, t in found) if self.uses(split, m)]


@pytest.mark.parametrize("broken", ["no outside", "on the parent"])
def test_a_broken_use_listing_fails_the_comparison(monkeypatch: pytest.MonkeyPatch, broken: str) -> None:
    """Broken versions (the uses out of the columns forgotten; the parent's piles read) are caught."""
    game = _design("gargantua")
    splits = split_moves(game)
    assert isinstance(splits, SplitMoves)
    if broken == "no outside":
        splits = dataclasses.replace(splits, outside_tables=())
    else:
        monkeypatch.setattr(SplitMoves, "use_drags", _on_the_parent)
    assert _use_mismatches(game, 80, splits)[1] > 0


def _reference_used(
    self: Any, split: Any, parent: Any, tapped: bool, where: Any, undone: bool = False
) -> Iterator[tuple[tuple[Any, ...], Any, Any]]:
    """The uses of a split as the search listed them before :meth:`SplitMoves.use_drags`: every move of the
    built child, kept by :meth:`SplitMoves.uses`, the move back included."""
    splits = self.plan.splits
    state = built(parent, split)
    for move in _listed_uses(splits, parent, split):
        yield (split, move), state, move
    if tapped and splits.may_take(parent, split, self.stocks):
        for moves, child, complete in self.plan.stock.plays(state):
            if not complete:
                self.cut = True
                continue
            if splits.uses(split, moves[-1]):
                yield (split, *moves), child, None


def _trace(game: Game, deals: int, budget: int) -> list[tuple[object, ...]]:
    """Per deal of seed 0: the verdict, the positions, the line and the sequence of positions expanded (their
    keys): whether two searches searched the same positions in the same order."""
    traces = []
    expand = tableau_search._Search.expand
    expanded: list[object] = []

    def kept(self: Any, state: Any) -> Any:
        expanded.append(self.plan.key_of(state))
        return expand(self, state)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(tableau_search._Search, "expand", kept)
        for deal in range(deals):
            expanded.clear()
            found = search(game.new_initial_state(seed=deal_seed(0, deal)), budget, None, Pruning())
            traces.append((found.result, found.nodes, tuple(found.line), tuple(expanded)))
    return traces


@pytest.mark.parametrize("name", ["gargantua", "ultra-klondike-2-deck", "klondike", "klondike-draw-one"])
def test_the_search_searches_the_same_positions_as_with_the_built_childs_uses(
    monkeypatch: pytest.MonkeyPatch, name: str
) -> None:
    game = _design(name)
    found = _trace(game, 3, 3_000)
    monkeypatch.setattr(tableau_search._Search, "used", _reference_used)
    assert found == _trace(game, 3, 3_000)


def test_the_search_comparison_fails_with_a_broken_use_listing(monkeypatch: pytest.MonkeyPatch) -> None:
    game = _design("gargantua")
    sound = _trace(game, 1, 3_000)
    monkeypatch.setattr(SplitMoves, "use_drags", _on_the_parent)
    assert _trace(game, 1, 3_000) != sound
