"""``covered(depot)`` reads the piles over a depot, so the engine must not treat it as reading its own pile only."""

from __future__ import annotations

from typing import Any

from cardz_tools.cards import standard_deck
from cardz_tools.engine import Game
from cardz_tools.model import build_design


def _pyramid(pyr: dict[str, Any]) -> Game:
    return Game(build_design({
        "name": "Tiny pyramid",
        "depots": [
            {"name": "pyr", "type": "Tableau", "col": 0, "row": 0, "perRow": [1, 2], "align": "center",
             "rowStep": 0.5, "fanDirection": "None", **pyr},
            {"name": "stock", "type": "Stock", "col": 5, "row": 0, "ejectRule": "locked"},
            {"name": "discard", "type": "Foundation", "col": 7, "row": 0, "acceptRule": "any", "ejectRule": "locked"},
        ],
        "dealRules": [{"kind": "dealGroup", "to": "pyr", "faceUp": 1}],
        "winCondition": {"kind": "allCardsIn", "depots": "discard"},
    }))


def test_a_trigger_on_covered_fires_once_the_cards_over_it_leave() -> None:
    game = _pyramid({"ejectRule": "locked", "triggers": [
        {"when": "!empty(depot) && !covered(depot)", "do": [{"kind": "move", "from": "@self", "to": "discard"}]}]})
    state = game.new_initial_state(deck=standard_deck())
    assert [len(state.piles[i]) for i in range(3)] == [0, 0, 0]
    assert len(state.piles[4]) == 3


def test_a_covered_card_is_freed_for_dragging() -> None:
    game = _pyramid({"ejectRule": {"when": "!covered(depot)"}})
    state = game.new_initial_state(deck=standard_deck())
    assert sorted(str(m) for m in state.legal_moves()) == ["pyr[1] → discard", "pyr[2] → discard"]
    state.apply(next(m for m in state.legal_moves() if str(m) == "pyr[1] → discard"))
    assert [str(m) for m in state.legal_moves()] == ["pyr[2] → discard"]
    state.apply(state.legal_moves()[0])
    assert [str(m) for m in state.legal_moves()] == ["pyr[0] → discard"]
