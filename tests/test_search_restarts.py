"""The ``restarts`` member of the search portfolio (:mod:`cardz_tools.analysis.tableau_search`).

A small Spider (two suits of four ranks, three columns, runs of four leave by a trigger) is
solved exhaustively with every piece off, with each piece, and with all of them; the restarts
alone must never answer "lost" unless the plain search does, and must not call a deal lost
because a restart ran out of positions.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cardz_tools.analysis import tableau_search
from cardz_tools.analysis.playout import deal_seed
from cardz_tools.analysis.relaxation import effect_filled_sinks
from cardz_tools.analysis.tableau_search import Pruning, luby, plan_for, search
from cardz_tools.engine import Game
from cardz_tools.model import build_design
from tests.restart_support import restarts_against_search, run_restarts, small_spider

GAMES = Path(__file__).resolve().parent.parent / "games"
PIECES = ("symmetry", "safe_moves", "forced", "stock", "ordering", "quick", "relaxation", "restarts")


def test_the_luby_sequence() -> None:
    assert [luby(n) for n in range(1, 16)] == [1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8]


def test_only_designs_whose_sinks_a_trigger_fills_get_restarts() -> None:
    spider = small_spider()
    assert effect_filled_sinks(spider) == frozenset({1})
    assert plan_for(spider, Pruning()).restarts
    assert not plan_for(spider, Pruning(restarts=False)).restarts
    freecell = Game(build_design(json.loads((GAMES / "freecell.cardz").read_text(encoding="utf-8"))))
    assert effect_filled_sinks(freecell) == frozenset()
    plan = plan_for(freecell, Pruning())
    assert not plan.restarts
    assert any(note.startswith("no restarts:") for note in plan.notes)  # said in --verbose


def test_each_piece_agrees_with_the_plain_exhaustive_search_on_a_small_spider() -> None:
    prunings = [Pruning(**{name: name == piece for name in PIECES}) for piece in PIECES]
    restarts_against_search(small_spider(), 7, 12, 300_000, [*prunings, Pruning(), Pruning(restarts=False)])


def test_a_restart_cut_by_its_positions_is_never_a_proof(monkeypatch: pytest.MonkeyPatch) -> None:
    # With restarts of 5 positions each and 60 in all, no restart can finish the search of a
    # deal the plain search needs hundreds of positions for: reading a cut restart as
    # "searched everything" would call the deal lost.
    monkeypatch.setattr(tableau_search, "RESTART_UNIT", 5)
    game = small_spider()
    checked = 0
    for deal in range(12):
        root = game.new_initial_state(seed=deal_seed(7, deal))
        plain = search(root, 300_000, None, Pruning.none())
        if plain.nodes < 300:
            continue
        result, _, positions = run_restarts(root, 60)
        assert result != "lost" or plain.result == "lost"
        assert positions <= 60 + 5
        checked += 1
    assert checked >= 2
