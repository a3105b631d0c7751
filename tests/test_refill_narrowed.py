"""The narrowed depth-first member of Canfield with runs (:data:`.tableau_search.REFILL_NARROWED_WEIGHT`).

It searches only the drags that do not split a run or move it from one build onto another (:mod:`.run_moves`),
so it is incomplete: where it runs out of lines the deal may still be won. The tests check which designs get it,
and that on a deal it runs out on (it would answer "lost" alone) the portfolio still finds the win: the obvious
unsound version, its "lost" taken as a proof, would call that deal lost.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from cardz_tools.analysis import tableau_search
from cardz_tools.analysis.playout import deal_seed
from cardz_tools.analysis.tableau_search import Pruning, _Search, plan_for, refill_narrowed, search
from cardz_tools.engine import Game
from cardz_tools.loading import open_design
from tests.restart_support import finish

GAMES = Path(__file__).resolve().parent.parent / "games"


def game_of(name: str) -> Game:
    return Game(open_design(GAMES / f"{name}.cardz").design)


def narrowed_members(game: Game) -> list[tableau_search._Member]:
    members = tableau_search._portfolio(game.new_initial_state(seed=1), Pruning(), 1_000, None)
    return [m for m in members if m.weight == tableau_search.REFILL_NARROWED_WEIGHT and m.search.runs is not None]


def test_only_canfield_with_runs_gets_the_narrowed_member() -> None:
    runs = game_of("canfield-runs")
    assert refill_narrowed(runs, plan_for(runs, Pruning())) is not None
    (member,) = narrowed_members(runs)
    assert not member.complete
    switched_off = tableau_search._portfolio(runs.new_initial_state(seed=1), Pruning(runs=False), 1_000, None)
    assert all(m.search.runs is None for m in switched_off)  # the ``runs`` piece switches it off
    # no narrowed set (the top card or the whole column moves), no safe moves (empty columns refuse more)
    for name in ("canfield", "canfield-strict", "canfield-auto-reserve-then-waste", "klondike", "forty-thieves"):
        assert not narrowed_members(game_of(name)), name


def narrowed_alone(game: Game, deal: int, budget: int) -> str:
    root = game.new_initial_state(seed=deal_seed(0, deal))
    pruning = Pruning(quick=False)
    plan = plan_for(game, pruning)
    narrowed = refill_narrowed(game, plan)
    assert narrowed is not None
    found = _Search(root, dataclasses.replace(plan, runs=narrowed), pruning, budget, None, narrow=True)
    return finish(found.run())[0]


@pytest.mark.parametrize("deal", [4])
def test_a_deal_the_narrowed_search_runs_out_on_is_still_won(deal: int) -> None:
    # seed 0 deal 4: the narrowed search alone has no line left after 19,135 positions; the portfolio wins it
    game = game_of("canfield-runs")
    assert narrowed_alone(game, deal, 30_000) == "lost"  # no winning line within the narrowed set
    found = search(game.new_initial_state(seed=deal_seed(0, deal)), 60_000)
    assert found.result == "won"  # the complete members' win (search() replays it through the engine)
