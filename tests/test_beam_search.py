"""The beam searches of the ``runs`` portfolio members (:mod:`cardz_tools.analysis.beam_search`).

A beam keeps the best few positions of each level and drops the rest, so it is incomplete: these tests
pin that its wins replay, that it ends "unknown" (never "lost") when a level has no new child, that it
does so on some positions the plain exhaustive search wins (so that answer must never be read as a
proof), and that the portfolio with it still agrees with the plain search.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from cardz_tools.analysis import tableau_search
from cardz_tools.analysis.beam_search import beam
from cardz_tools.analysis.playout import deal_seed
from cardz_tools.analysis.tableau_search import Progress, Pruning, _Search, plan_for, replays_to_a_win, search
from cardz_tools.cards import FACE_UP
from cardz_tools.engine import Game
from cardz_tools.loading import open_design
from tests.engine_support import random_positions
from tests.restart_support import small_spider


def beam_alone(root: Any, width: int, narrow: bool = True) -> tuple[str, list[Any]]:
    """One beam of ``width`` from ``root`` over the narrowed move set (or every move), to its end."""
    pruning = Pruning()
    plan = plan_for(root.game, pruning)
    member = _Search(root, plan, pruning, 1_000_000, None, narrow=narrow)
    start = root.clone()
    prefix: list[Any] = []
    member.forced(start, prefix)
    member.seen.add(plan.key_of(start))
    steps = beam(start, prefix, member.expand, width)
    try:
        while True:
            next(steps)
    except StopIteration as finished:
        return finished.value  # type: ignore[no-any-return]


def test_a_beam_wins_or_says_unknown_and_its_wins_replay() -> None:
    game = small_spider()
    answers = {"won": 0, "unknown": 0}
    for root in random_positions(game, 30, 5, 20):
        result, line = beam_alone(root, 4)
        answers[result] += 1  # a KeyError here is a beam answering "lost"
        if result == "won":
            assert replays_to_a_win(root, line)
    assert answers["won"] >= 1


def test_a_narrow_beam_runs_out_on_some_won_positions() -> None:
    game = small_spider()
    ran_out = 0
    for root in random_positions(game, 40, 7, 20):
        if beam_alone(root, 1, narrow=False)[0] != "unknown":
            continue
        if search(root, 300_000, None, Pruning.none()).result == "won":
            ran_out += 1
            found = search(root, 300_000, None, Pruning())  # the complete members still decide it
            assert found.result == "won" and replays_to_a_win(root, found.line)
    assert ran_out >= 1  # a beam that ran out proves nothing: reporting it as lost would be wrong here


def test_the_beams_member_is_incomplete_and_takes_turns() -> None:
    game = small_spider()
    root = game.new_initial_state(seed=deal_seed(11, 0))
    members = tableau_search._portfolio(root, Pruning(), 1_000, None)
    beams = [m for m in members if m.beam]
    assert [m.weight for m in beams] == list(tableau_search.BEAM_WEIGHTS)
    assert all(m.search.runs is not None and not m.complete for m in beams)
    # The second scores a face-down card as the third runs member does, the rest of the score as the first.
    hidden = sum(1 for pile in root.piles for card in pile if not card & FACE_UP)
    plain, heavier = (m.search.progress.heuristic(root) for m in beams)
    assert hidden > 0 and plain - heavier == hidden * (Progress.WEIGHTS[3] - tableau_search.RUNS_HIDDEN_WEIGHT)
    for pruning in (Pruning(beams=False), Pruning(runs=False)):
        others = tableau_search._portfolio(root, pruning, 1_000, None)
        assert not any(m.beam for m in others)


def test_an_open_board_gets_the_runs_members_but_no_beams() -> None:
    game = Game(open_design(Path(__file__).resolve().parent.parent / "games" / "mrs-mop.cardz").design)
    root = game.new_initial_state(seed=deal_seed(0, 0))
    assert tableau_search.open_board(root)
    members = tableau_search._portfolio(root, Pruning(), 1_000, None)
    assert any(m.search.runs is not None for m in members) and not any(m.beam for m in members)


def test_the_portfolio_with_the_beams_agrees_with_the_plain_search() -> None:
    game = small_spider()
    verdicts = set()
    for deal in range(10):
        root = game.new_initial_state(seed=deal_seed(23, deal))
        plain = search(root, 300_000, None, Pruning.none())
        assert plain.result != "unknown"
        verdicts.add(plain.result)
        found = search(root, 300_000, None, Pruning())
        assert found.result == plain.result, f"deal {deal}"
        if found.result == "won":
            assert replays_to_a_win(root, found.line)
    assert verdicts == {"won", "lost"}
