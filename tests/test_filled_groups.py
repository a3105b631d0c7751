"""The groups a ``when`` win fills (:func:`.tableau_search.filled_groups`), which the ordering counts as cards home."""

from __future__ import annotations

from pathlib import Path

from cardz_tools.analysis.runner import game_for
from cardz_tools.analysis.tableau_search import Progress, filled_groups
from cardz_tools.loading import open_design

GAMES = Path(__file__).resolve().parent.parent / "games"


def _game(name: str) -> object:
    return game_for(open_design(GAMES / f"{name}.cardz").json_text)


def test_the_house_of_chateau_de_cartes_is_what_its_win_fills() -> None:
    game = _game("chateau-de-cartes")
    filled = filled_groups(game, game.design.win.when.text)  # type: ignore[attr-defined]
    assert filled == tuple(sorted((*game.members["tri"], *game.members["floor"])))  # type: ignore[attr-defined]
    root = game.new_initial_state(seed=1)  # type: ignore[attr-defined]
    assert Progress(game).home(root) == 0
    move = next(m for m in root.legal_moves() if getattr(m, "target", "").startswith("tri"))
    child = root.clone()
    child.apply(move)
    assert Progress(game).home(child) == 1
    assert Progress(game, heuristic=False)._targets == ()  # the plain order keeps its own


def test_other_when_wins_fill_nothing() -> None:
    for name in ("accordion", "montana", "gaps-no-redeal"):
        game = _game(name)
        assert filled_groups(game, game.design.win.when.text) == ()  # type: ignore[attr-defined]


def test_only_a_design_whose_win_fills_groups_gets_the_unfilled_member() -> None:
    """The member of :data:`.tableau_search.UNFILLED_WEIGHT`: a complete depth-first search whose order counts no
    filled group as home, its share taken from the depth-first member's; nowhere else."""
    from cardz_tools.analysis.tableau_search import UNFILLED_WEIGHT, Pruning, _portfolio, fills_groups

    game = _game("chateau-de-cartes")
    assert fills_groups(game)
    members = _portfolio(game.new_initial_state(seed=1), Pruning(), 1_000, None)  # type: ignore[attr-defined]
    deep = [m for m in members if m.steps.__name__ == "run" and m.search.pruning.ordering]  # not the restarts
    assert [m.search.progress._targets == () for m in deep] == [False, True]
    assert [m.weight for m in deep] == [1, UNFILLED_WEIGHT]
    assert all(m.complete for m in deep)
    for name in ("accordion", "klondike", "east-haven"):
        other = _game(name)
        assert not fills_groups(other)
        ordered = [m for m in _portfolio(other.new_initial_state(seed=1), Pruning(), 1_000, None)  # type: ignore[attr-defined]
                   if m.steps.__name__ == "run" and m.search.pruning.ordering and m.complete]  # not home splits
        assert len(ordered) == 1


def test_the_unfilled_order_differs_and_its_wins_replay() -> None:
    """Its order scores the house's empty depots as places to fill, not as cards missing from home; a win of the
    portfolio with it replays through the engine."""
    from cardz_tools.analysis.tableau_search import replays_to_a_win, search

    game = _game("chateau-de-cartes")
    root = game.new_initial_state(seed=1)  # type: ignore[attr-defined]
    move = next(m for m in root.legal_moves() if getattr(m, "target", "").startswith("tri"))
    child = root.clone()
    child.apply(move)
    filled, unfilled = Progress(game), Progress(game, groups=False)
    assert filled.heuristic(child) - filled.heuristic(root) > 0  # a card home
    assert unfilled.heuristic(child) - unfilled.heuristic(root) < 0  # an empty depot that took a card less
    found = search(root, 20_000)
    assert found.result == "won" and replays_to_a_win(root, found.line)


def test_a_finished_depot_of_the_house_scores_the_filled_weight() -> None:
    """:func:`.tableau_search.filled_counts` reads the cards the win asks of each depot of the house (two a triangle,
    one a floor), and the order scores the same card :data:`.tableau_search.FILLED_WEIGHT` better where it finishes
    a triangle than where it begins one (the cards home and the hand are the same)."""
    from cardz_tools.analysis.tableau_search import FILLED_WEIGHT, filled_counts

    game = _game("chateau-de-cartes")
    counts = dict(filled_counts(game, game.design.win.when.text))  # type: ignore[attr-defined]
    members = game.members  # type: ignore[attr-defined]
    assert {counts[d] for d in members["tri"]} == {2} and {counts[d] for d in members["floor"]} == {1}
    assert FILLED_WEIGHT > 0
    progress = Progress(game)
    compared = 0
    for seed in range(40):
        root = game.new_initial_state(seed=seed)  # type: ignore[attr-defined]
        for first in [m for m in root.legal_moves() if getattr(m, "target", "").startswith("tri")]:
            begun = root.clone()
            begun.apply(first)
            later = [m for m in begun.legal_moves() if getattr(m, "target", "").startswith("tri")]
            for move in later:
                if move.target != first.target:
                    continue
                others = [m for m in later if m.source == move.source and m.target != move.target
                          and not begun.piles[game.names.index(m.target)]]  # type: ignore[attr-defined]
                for other in others:
                    finished, started = begun.clone(), begun.clone()
                    finished.apply(move)
                    started.apply(other)
                    assert progress.home(finished) == progress.home(started)
                    assert progress.heuristic(finished) - progress.heuristic(started) == FILLED_WEIGHT
                    compared += 1
        if compared:
            break
    assert compared
