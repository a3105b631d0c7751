"""The noProgress loss condition: the player gives up once no sequence of moves ends the game."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from cardz_tools.analysis.check import CheckOptions, check_paths
from cardz_tools.analysis.sim import simulate
from cardz_tools.engine import Game
from cardz_tools.engine.progress import can_end
from cardz_tools.engine.state import Termination
from cardz_tools.lint import lint_text
from cardz_tools.model import build_design

SHUTTLE = Path(__file__).parent / "examples" / "analysis" / "shuttle.cardz"


def shuttle(**changes: Any) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(SHUTTLE.read_text(encoding="utf-8"))
    data.update(changes)
    return data


def test_no_progress_is_a_loss_condition_the_schema_accepts() -> None:
    found = lint_text(json.dumps(shuttle(lossCondition={"kind": "noProgress"}), indent=2))
    assert [d.code for d in found] == ["CZ305"]  # the shuttle's home is unreachable; the loss condition is fine


def test_a_position_from_which_nothing_ends_is_lost_with_no_progress() -> None:
    state = Game(build_design(shuttle(lossCondition={"kind": "noProgress"}))).new_initial_state(seed=1)
    assert not state.is_terminal() and can_end(state) is False
    assert state.give_up_if_no_progress() is True
    assert state.is_terminal() and state.status() is Termination.LOST_NO_PROGRESS
    outcome = state.outcome()
    assert outcome.lost and not outcome.won and "no sequence of moves" in outcome.reason
    child = state.clone()
    assert child.is_terminal()  # the verdict is the position's, copies keep it


def test_the_player_does_not_give_up_while_the_game_can_still_end() -> None:
    depots = shuttle()["depots"]
    depots[3] = {**depots[3], "acceptRule": "any"}  # a card can go home: then no move is left, the game ends
    state = Game(build_design(shuttle(depots=depots, lossCondition={"kind": "noProgress"}))).new_initial_state(seed=1)
    assert can_end(state) is True
    assert state.give_up_if_no_progress() is False and not state.is_terminal()


def test_only_a_complete_search_gives_up() -> None:
    state = Game(build_design(shuttle(lossCondition={"kind": "noProgress"}))).new_initial_state(seed=1)
    assert state.give_up_if_no_progress(budget=1) is False  # the search was cut short: not a proof


def test_other_loss_conditions_never_give_up() -> None:
    for loss in ({"kind": "noLegalMoves"}, {"kind": "never"}):
        state = Game(build_design(shuttle(lossCondition=loss))).new_initial_state(seed=1)
        assert state.give_up_if_no_progress() is False and not state.is_terminal()


def test_playouts_of_a_no_progress_design_end_as_losses() -> None:
    report = simulate(json.dumps(shuttle(lossCondition={"kind": "noProgress"})), 4, workers=1, max_moves=50)
    assert report.aggregate.non_terminating == 0 and report.aggregate.wins == 0
    assert not [f for f in report.findings if f.kind.value == "non-terminating"]


def test_a_design_that_truly_never_ends_stays_an_error(tmp_path: Path) -> None:
    path = tmp_path / "shuttle.cardz"
    path.write_text(json.dumps(shuttle(lossCondition={"kind": "noProgress"}), indent=2), encoding="utf-8")
    result = check_paths([path], options=CheckOptions(playouts=4, deals=2, budget=1_000, max_moves=50))
    assert result.exit_code == 1
    assert [d.code for d in result.diagnostics if d.severity.value == "error"] == ["CZ503"]
