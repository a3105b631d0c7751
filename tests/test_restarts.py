"""The restarted depth-first searches of the portfolio (:func:`cardz_tools.analysis.tableau_search._restarts`).

They run on designs whose waste is never turned back. On a small Forty Thieves their verdicts
agree with the plain exhaustive search deal by deal, and a win they report replays through the
engine. With a tiny budget per restart a won deal is still won, never called lost: a restart
that runs out of positions is no proof (the obvious unsound version would say "lost" here).
"""

from __future__ import annotations

from typing import Any

import pytest

from cardz_tools.analysis import tableau_search
from cardz_tools.analysis.playout import deal_seed
from cardz_tools.analysis.tableau_search import Pruning, _Member, _restarts, _Search, luby, replays_to_a_win, search
from tests.test_two_deck import small_forty_thieves

BUDGET = 300_000


def test_the_restart_budgets_follow_the_luby_sequence() -> None:
    assert [luby(n) for n in range(1, 16)] == [1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8]


def restarted(root: Any, pruning: Pruning = Pruning()) -> tuple[str, list[Any], int]:
    """(result, line, positions) of the restarted searches alone, run to the end."""
    plan = tableau_search.plan_for(root.game, pruning)
    placeholder = _Search(root, plan, pruning, 1, None)
    member = _Member("restarts", 1, placeholder, placeholder.run(), True)
    steps = _restarts(root, pruning, None, member)
    while True:
        try:
            next(steps)
        except StopIteration as finished:
            result, line = finished.value
            return result, line, member.stored()


def test_the_portfolio_has_the_restarts_where_the_waste_is_never_turned_back() -> None:
    game = small_forty_thieves()
    root = game.new_initial_state(seed=deal_seed(5, 0))
    stages = [member.stage for member in tableau_search._portfolio(root, Pruning(), BUDGET, None)]
    assert stages.count("restarts") == 1
    redealt = small_forty_thieves(draw={"to": "waste", "count": 1, "redeals": 1})
    root = redealt.new_initial_state(seed=deal_seed(5, 0))
    assert "restarts" not in [member.stage for member in tableau_search._portfolio(root, Pruning(), BUDGET, None)]


def test_the_restarts_agree_with_the_plain_exhaustive_search() -> None:
    game = small_forty_thieves()
    verdicts = {"won": 0, "lost": 0}
    for deal in range(8):
        root = game.new_initial_state(seed=deal_seed(5, deal))
        plain = search(root, BUDGET, None, Pruning.none())
        assert plain.result != "unknown"
        verdicts[plain.result] += 1
        result, line, _ = restarted(root)
        assert result == plain.result, f"deal {deal}"
        if result == "won":
            assert replays_to_a_win(root, line)
    assert verdicts["won"] and verdicts["lost"], verdicts


def test_a_restart_that_runs_out_of_positions_proves_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(tableau_search, "RESTART_POSITIONS", 3)
    game = small_forty_thieves()
    won = 0
    for deal in range(8):
        root = game.new_initial_state(seed=deal_seed(5, deal))
        if search(root, BUDGET, None, Pruning.none()).result != "won":
            continue
        won += 1
        result, line, positions = restarted(root)
        assert result == "won" and replays_to_a_win(root, line), f"deal {deal}"
        assert positions > 3  # it got there only through restarts that ran out
    assert won >= 2
