"""Helpers shared by the tests of the ``restarts`` search member (test_search_restarts, test_restarts)."""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from pathlib import Path

from cardz_tools.analysis import tableau_search
from cardz_tools.analysis.playout import deal_seed
from cardz_tools.analysis.tableau_search import Pruning, _Search, plan_for, replays_to_a_win, search
from cardz_tools.engine import Game, Move, State
from cardz_tools.model import build_design

GAMES = Path(__file__).resolve().parent.parent / "games"
RANKS = ["Ace", "Two", "Three", "Four", "Five", "Six", "Seven", "Eight", "Nine", "Ten", "Jack", "Queen", "King"]


def finish(steps: Iterator[object]) -> tuple[str, list[Move]]:
    """Drive one member's steps (``_Search.run()``, ``restarts()``, ...) to their end: (result, line), with
    ``"unknown"`` and no line where the member's budget ran out."""
    try:
        while True:
            next(steps)
    except StopIteration as finished:
        result, line = finished.value
        return result, line
    except tableau_search._Budget:
        return "unknown", []


def run_restarts(root: State, budget: int) -> tuple[str, list[Move], int]:
    """The restarts member alone: (result, line, positions)."""
    pruning = Pruning()
    member = _Search(root, plan_for(root.game, pruning), pruning, budget, None)
    result, line = finish(member.restarts())
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


def small_spider() -> Game:
    """Spider (one suit) with two decks of Spades and Hearts, Ace to Four, on three columns:
    a run from Four down to Ace in one suit leaves by the trigger."""
    design = json.loads((GAMES / "spider-one-suit.cardz").read_text(encoding="utf-8"))
    design["decks"] = 2
    design["suits"] = ["Spades", "Hearts"]
    columns = design["depots"][2]
    columns["repeat"] = 3
    trigger = columns["triggers"][0]
    trigger["when"] = trigger["when"].replace("13", "4")
    trigger["do"][0]["count"] = 4
    design["dealRules"][0]["faceDown"] = "col(depot) < 1 ? 2 : 1"
    design["dealRules"].insert(0, {"kind": "remove", "ranks": RANKS[4:]})
    return Game(build_design(design))
