"""Safe moves in a design whose stock is dealt out onto the columns by an action (East Haven).

A small East Haven (three suits of Ace to Six, three columns, a stock dealt three cards at a time)
is solved with each pruning piece and with all of them, against the plain exhaustive search,
deal by deal; its safe moves are checked on random positions; and a design whose dealt cards may
move together with the card they were dealt on is refused, since there a safe move can lose a win.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from cardz_tools.analysis.deal_actions import dealt_depots, moving_pairs
from cardz_tools.analysis.dominance import SafeSinkMoves, safe_sink_moves
from cardz_tools.cards import parse_deck
from cardz_tools.engine import Game
from cardz_tools.model import build_design
from tests.engine_support import assert_pieces_agree_with_the_plain_search, random_positions, safe_move_verdicts

GAMES = Path(__file__).resolve().parent.parent / "games"
RANKS = ["Ace", "Two", "Three", "Four", "Five", "Six", "Seven", "Eight", "Nine", "Ten", "Jack", "Queen", "King"]
BUDGET = 300_000


def east_haven(edit: Any = None) -> dict[str, Any]:
    design: dict[str, Any] = json.loads((GAMES / "east-haven.cardz").read_text(encoding="utf-8"))
    if edit is not None:
        edit(design)
    return design


def small_east_haven(eject: str | None = None) -> Game:
    """East Haven with three suits of Ace to Six, three foundations and three columns of one card
    face down under one face up; the other twelve cards are dealt three at a time."""
    design = east_haven()
    design["suits"] = ["Spades", "Hearts", "Clubs"]
    design["depots"][1]["repeat"] = 3
    design["depots"][2]["repeat"] = 3
    design["dealRules"][0]["faceDown"] = 1
    design["dealRules"].insert(0, {"kind": "remove", "ranks": RANKS[6:]})
    if eject is not None:
        design["depots"][2]["ejectRule"] = eject
    return Game(build_design(design))


def test_the_shipped_east_haven_gets_safe_moves_whose_foundations_give_back() -> None:
    game = Game(build_design(east_haven()))
    safe = safe_sink_moves(game)
    assert isinstance(safe, SafeSinkMoves) and safe.gives_back
    assert dealt_depots(game) == frozenset(game.index[f"tab[{i}]"] for i in range(7))
    # a card moves together only with what the columns' rule builds on it
    pairs = moving_pairs(game, game.index["tab[0]"])
    assert pairs is not None and pairs[parse_deck("5H")[0]] == set(parse_deck("4S 4C"))


def test_deals_the_argument_does_not_cover_get_no_safe_moves_and_say_why() -> None:
    def runs_of_anything(design: dict[str, Any]) -> None:
        design["depots"][2]["ejectRule"] = "faceUp"  # a dealt card moves together with the card under it

    assert "may move together with a card no rule builds it on" in str(
        safe_sink_moves(Game(build_design(east_haven(runs_of_anything))))
    )

    def face_down(design: dict[str, Any]) -> None:
        design["depots"][0]["actions"][0]["do"][0]["faceUp"] = False

    assert "deal cards face up" in str(safe_sink_moves(Game(build_design(east_haven(face_down)))))

    def reads_the_columns(design: dict[str, Any]) -> None:
        design["depots"][0]["actions"][0]["when"] = "!empty(stock) && count(Tableau) > 3"

    assert "reads more than stock" in str(safe_sink_moves(Game(build_design(east_haven(reads_the_columns)))))

    def onto_the_foundations(design: dict[str, Any]) -> None:
        design["depots"][0]["actions"][0]["do"][0]["to"] = "found"

    assert "deals onto a win depot" in str(safe_sink_moves(Game(build_design(east_haven(onto_the_foundations)))))


def test_each_piece_agrees_with_the_plain_exhaustive_search_on_a_small_east_haven() -> None:
    game = small_east_haven()
    assert isinstance(safe_sink_moves(game), SafeSinkMoves)
    assert_pieces_agree_with_the_plain_search(game, BUDGET, "small East Haven")


def test_a_safe_move_never_leads_away_from_a_win_in_a_small_east_haven() -> None:
    game = small_east_haven()
    safe = safe_sink_moves(game)
    assert isinstance(safe, SafeSinkMoves)
    checked = won = 0
    for state in random_positions(game, 150, seed=3, max_moves=30):
        verdicts = safe_move_verdicts(safe, state, BUDGET)
        if verdicts is None:
            continue
        before, after = verdicts
        assert before != "unknown"
        if before == "won":
            won += 1
            assert after == "won", state
        checked += 1
    assert checked >= 20 and won >= 5, (checked, won)
