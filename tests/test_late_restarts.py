"""The ``restarts`` member joining late on open boards (:data:`cardz_tools.analysis.tableau_search.LATE_SHARE`).

Restarts change which positions are searched, never what is a proof: with the member joining
after a few positions, small Beleaguered Castle boards get the verdicts of the plain exhaustive
search deal by deal, and every win replays. A deal decided before the member joins costs what
it cost without it.
"""

from __future__ import annotations

from collections.abc import Generator

import pytest

from cardz_tools.analysis import tableau_search
from cardz_tools.analysis.playout import deal_seed
from cardz_tools.analysis.tableau_search import Pruning, open_board, replays_to_a_win, search
from cardz_tools.engine import Game
from cardz_tools.loading import open_design
from tests.test_relaxation import GAMES, castle

BUDGET = 300_000


def test_only_boards_with_every_card_face_up_and_nothing_drawn_are_open() -> None:
    assert open_board(castle("Six", 3, 4).new_initial_state(seed=1))
    assert open_board(Game(open_design(GAMES / "freecell.cardz").design).new_initial_state(seed=1))
    assert not open_board(Game(open_design(GAMES / "klondike.cardz").design).new_initial_state(seed=1))


def test_late_restarts_agree_with_the_plain_exhaustive_search(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(tableau_search, "LATE_SHARE", 3 / BUDGET)  # they join after 3 positions
    monkeypatch.setattr(tableau_search, "RESTART_UNIT", 4)  # restarts cut short and completed both
    monkeypatch.setattr(tableau_search, "TURN", 5)
    joined = []
    real = tableau_search._restarts_member

    def spy(*args: object) -> tableau_search._Member:
        joined.append(1)
        return real(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(tableau_search, "_restarts_member", spy)
    game = castle("Seven", 3, 5)
    verdicts = {"won": 0, "lost": 0}
    for deal in range(20):
        root = game.new_initial_state(seed=deal_seed(11, deal))
        plain = search(root, BUDGET, None, Pruning.none())
        found = search(root, BUDGET, None, Pruning())
        assert plain.result != "unknown" and found.result == plain.result, f"deal {deal}"
        if found.result == "won":
            assert replays_to_a_win(root, found.line)
        verdicts[found.result] += 1
    assert verdicts["won"] and verdicts["lost"] and joined, (verdicts, joined)


def test_a_deal_decided_before_the_restarts_join_costs_what_it_did() -> None:
    game = Game(open_design(GAMES / "freecell.cardz").design)
    root = game.new_initial_state(seed=deal_seed(101, 0))
    found = search(root, 100_000, None, Pruning())
    assert found.result == "won" and found.nodes < tableau_search.LATE_SHARE * 100_000
    assert search(root, 100_000, None, Pruning(restarts=False)).nodes == found.nodes


def test_once_the_restarts_join_they_take_their_turns_from_the_depth_first_searches(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The best-first pass keeps most of its share of the turns (:data:`tableau_search.LATE_WEIGHTS`)."""
    portfolios: list[list[tableau_search._Member]] = []
    real = tableau_search._portfolio

    def spy(*args: object) -> list[tableau_search._Member]:
        members = real(*args)  # type: ignore[arg-type]
        portfolios.append(list(members))  # the search adds the restarts to ``members`` itself
        return members

    monkeypatch.setattr(tableau_search, "_portfolio", spy)
    monkeypatch.setattr(tableau_search, "LATE_SHARE", 0.0)  # they join before the first turn
    root = Game(open_design(GAMES / "bakers-game.cardz").design).new_initial_state(seed=deal_seed(0, 4))
    before = [(m.best_first, m.weight) for m in real(root, Pruning(), 2_000, None)]
    search(root, 2_000, None, Pruning())
    (members,) = portfolios
    assert [m.best_first for m in members] == [first for first, _ in before] == [True, False, False]
    after_total = sum(m.weight for m in members) + tableau_search.LATE_WEIGHTS[2]
    before_total = sum(weight for _, weight in before)
    kept_by_the_pass = members[0].weight / after_total / (before[0][1] / before_total)
    kept_by_the_searches = sum(m.weight for m in members[1:]) / after_total / (
        sum(weight for _, weight in before[1:]) / before_total
    )
    assert kept_by_the_pass > 0.85 and kept_by_the_searches < 0.5


def test_a_loss_the_best_first_pass_proves_is_not_delayed_by_the_restarts() -> None:
    """Baker's Game, seed 0, deal 4: each complete member alone proves the loss in 9,000 positions; with the
    restarts joining after the first turns (as on a 2 s deal), the portfolio proves it in about 19,000, where
    with the restarts taking 4 of 9 of the turns from the best-first pass it needed more than 25,000."""
    root = Game(open_design(GAMES / "bakers-game.cardz").design).new_initial_state(seed=deal_seed(0, 4))
    found = search(root, 22_000, None, Pruning())
    assert found.result == "lost" and found.nodes > 5_000  # the restarts had joined (LATE_SHARE of 22,000)


def test_the_restarts_join_after_a_share_of_the_positions_or_of_the_seconds(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(tableau_search.time, "monotonic", lambda: 100.0)
    share = tableau_search.LATE_SHARE
    assert tableau_search._late_join(200_000, None) == (share * 200_000, None)
    positions, at = tableau_search._late_join(1_000_000, 102.0)  # a 2-second deal
    assert positions == share * 1_000_000 and at == pytest.approx(100.0 + share * 2.0)
    assert tableau_search._late_join(1_000, 99.0)[1] == 100.0  # past the deadline already: join at once


def test_with_a_deadline_the_restarts_join_before_the_share_of_positions(monkeypatch: pytest.MonkeyPatch) -> None:
    """A deal bounded by its seconds, with a budget of positions it never reaches, still gets the
    restarts (the results rows: 1,000,000 positions, 2 s)."""
    joined: list[int] = []
    real = tableau_search._restarts_member

    def spy(*args: object) -> tableau_search._Member:
        joined.append(1)
        return real(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(tableau_search, "_restarts_member", spy)
    monkeypatch.setattr(tableau_search, "_late_join", lambda budget, deadline: (float(budget), 0.0))
    root = castle("Seven", 3, 5).new_initial_state(seed=deal_seed(11, 0))
    search(root, BUDGET, tableau_search.time.monotonic() + 60, Pruning(relaxation=False))
    assert joined


def _late_pass_verdicts(monkeypatch: pytest.MonkeyPatch, cap: int | None = None) -> tuple[int, dict[str, int]]:
    """(deals whose verdict differs from the plain exhaustive search's, what the late pass returned), on 20 small
    castles with the second best-first pass joining after 3 positions and given most of the turns; with ``cap``, the
    obvious unsound pass: it stops after ``cap`` positions and calls that "lost"."""
    monkeypatch.setattr(tableau_search, "LATE_SHARE", 3 / BUDGET)
    monkeypatch.setattr(tableau_search, "TURN", 1)
    monkeypatch.setattr(tableau_search, "LATE_PASS_WEIGHT", 10_000)  # its first turn searches it all
    decided: dict[str, int] = {"won": 0, "lost": 0, "unknown": 0}
    real = tableau_search._late_pass_member

    def spy(*args: object) -> tableau_search._Member:
        member = real(*args)  # type: ignore[arg-type]
        assert member.search.progress.weights[4] == 2 * tableau_search.Progress.WEIGHTS[4]
        steps = member.steps

        def recorded() -> Generator[None, None, tuple[str, list[object]]]:
            if cap is None:
                result = yield from steps
            else:
                result = ("unknown", [])
                for _ in range(cap):
                    try:
                        next(steps)
                    except StopIteration as done:
                        result = done.value
                        break
                    yield
                else:
                    result = ("lost", [])
            decided[result[0]] += 1
            return result

        member.steps = recorded()
        return member

    monkeypatch.setattr(tableau_search, "_late_pass_member", spy)
    game = castle("Seven", 3, 5)
    wrong = 0
    for deal in range(20):
        root = game.new_initial_state(seed=deal_seed(11, deal))
        plain = search(root, BUDGET, None, Pruning.none())
        found = search(root, BUDGET, None, Pruning())
        assert plain.result != "unknown"
        wrong += found.result != plain.result
        if found.result == "won":
            assert replays_to_a_win(root, found.line)
    return wrong, decided


def test_the_late_second_pass_agrees_with_the_plain_exhaustive_search(monkeypatch: pytest.MonkeyPatch) -> None:
    """The second best-first pass (its buried-card term doubled) joins with the restarts; given most of the turns,
    it decides deals of both verdicts (it runs out of positions on the lost ones), and every verdict is the plain
    exhaustive search's."""
    wrong, decided = _late_pass_verdicts(monkeypatch)
    assert wrong == 0 and decided["won"] and decided["lost"], (wrong, decided)


def test_a_late_pass_that_calls_its_cut_lost_fails_that_test(monkeypatch: pytest.MonkeyPatch) -> None:
    wrong, decided = _late_pass_verdicts(monkeypatch, cap=3)
    assert wrong > 0 and decided["lost"], (wrong, decided)
