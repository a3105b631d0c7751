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
