"""Helpers shared by the tests of the ``restarts`` search member (test_search_restarts, test_restarts)."""

from __future__ import annotations

from collections.abc import Sequence

from cardz_tools.analysis import tableau_search
from cardz_tools.analysis.playout import deal_seed
from cardz_tools.analysis.tableau_search import Pruning, _Search, plan_for, replays_to_a_win, search
from cardz_tools.engine import Game, Move, State


def run_restarts(root: State, budget: int) -> tuple[str, list[Move], int]:
    """The restarts member alone: (result, line, positions)."""
    pruning = Pruning()
    member = _Search(root, plan_for(root.game, pruning), pruning, budget, None)
    steps = member.restarts()
    try:
        while True:
            next(steps)
    except StopIteration as finished:
        result, line = finished.value
    except tableau_search._Budget:
        result, line = "unknown", []
    return result, line, member.positions()


def restarts_against_search(
    game: Game, seed: int, deals: int, budget: int, prunings: Sequence[Pruning] = ()
) -> dict[str, int]:
    """Deals ``0 .. deals - 1`` of a run of ``game`` seeded with ``seed``, each solved by the plain exhaustive
    search (which must decide it), by the search with each of ``prunings`` and by the restarts alone: every one
    must give the plain verdict, and every win must replay through the engine. The plain verdicts must include a
    win and a loss (else the deals test nothing); returns them, counted."""
    verdicts = {"won": 0, "lost": 0}
    for deal in range(deals):
        root = game.new_initial_state(seed=deal_seed(seed, deal))
        plain = search(root, budget, None, Pruning.none())
        assert plain.result != "unknown", f"deal {deal}"
        verdicts[plain.result] += 1
        for pruning in prunings:
            pruned = search(root, budget, None, pruning)
            assert pruned.result == plain.result, f"deal {deal} with {pruning}"
            if pruned.result == "won":
                assert replays_to_a_win(root, pruned.line)
        alone, line, _ = run_restarts(root, budget)
        assert alone == plain.result, f"deal {deal}: the restarts alone"
        if alone == "won":
            assert replays_to_a_win(root, line)
    assert verdicts["won"] and verdicts["lost"], verdicts
    return verdicts
