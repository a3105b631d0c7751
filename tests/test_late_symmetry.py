"""Columns that become interchangeable once the stock that deals onto them in order is empty for good,
and sinks whose order only their own rules' readers of ``depot`` could see (analysis/symmetry.py,
analysis/position_key.py)."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

from cardz_tools.analysis.playout import deal_seed
from cardz_tools.analysis.position_key import order_blind_sinks
from cardz_tools.analysis.symmetry import canonical_key_function, interchangeable_classes, late_classes
from cardz_tools.analysis.tableau_search import Pruning, replays_to_a_win, search
from cardz_tools.engine import Game
from cardz_tools.model import build_design

GAMES = Path(__file__).resolve().parent.parent / "games"
RANKS = ["Ace", "Two", "Three", "Four", "Five", "Six", "Seven", "Eight", "Nine", "Ten", "Jack", "Queen", "King"]


def spider_design() -> dict[str, Any]:
    return json.loads((GAMES / "spider-one-suit.cardz").read_text(encoding="utf-8"))  # type: ignore[no-any-return]


def small_spider() -> Game:
    """Spider (one suit) with four decks of Ace to Six, three columns and runs of six."""
    design = spider_design()
    design["decks"] = 4
    tab = design["depots"][2]
    tab["repeat"] = 3
    trigger = tab["triggers"][0]
    trigger["when"] = trigger["when"].replace("13", "6")
    trigger["do"][0]["count"] = 6
    design["dealRules"][0]["faceDown"] = 1
    design["dealRules"].insert(0, {"kind": "remove", "ranks": RANKS[6:]})
    return Game(build_design(design))


def test_spider_columns_are_interchangeable_only_once_the_stock_is_empty() -> None:
    game = Game(build_design(spider_design()))
    stock, tab = game.index["stock"], game.members["tab"]
    assert interchangeable_classes(game) == ()  # the stock's deal gives its first card to the first column
    assert late_classes(game) == (frozenset({stock}), (tuple(tab),))
    key = canonical_key_function(game)
    state = game.new_initial_state(seed=3)
    swapped = state.clone()
    swapped.piles[tab[0]], swapped.piles[tab[7]] = state.piles[tab[7]], state.piles[tab[0]]
    assert key(state) != key(swapped)  # the stock still deals: the columns are told apart
    for position in (state, swapped):
        position.piles[tab[1]] = position.piles[tab[1]] + position.piles[stock]
        position.piles[stock] = ()
    assert key(state) == key(swapped)
    assert canonical_key_function(game, symmetry=False)(state) != canonical_key_function(game, symmetry=False)(swapped)


def test_a_stock_that_can_be_refilled_keeps_the_columns_apart() -> None:
    design = spider_design()
    design["depots"][0]["acceptRule"] = {"when": "true"}  # now a card may go back onto the stock
    assert late_classes(Game(build_design(design))) == (frozenset(), ())


def test_a_sink_is_order_blind_unless_a_rule_may_read_its_order() -> None:
    game = Game(build_design(spider_design()))
    assert order_blind_sinks(game) == (game.index["done"],)  # the trigger reads only its own column's order
    design = spider_design()
    design["winCondition"] = {"kind": "when", "when": "count(done) == 104 && chain(topCards(done, 2), true)"}
    assert order_blind_sinks(Game(build_design(design))) == ()
    design = spider_design()
    design["depots"][2]["acceptRule"]["when"] += " && !descending(done)"  # a column's rule reading another pile
    assert order_blind_sinks(Game(build_design(design))) == ()


def test_the_late_symmetry_agrees_with_the_plain_exhaustive_search() -> None:
    game = small_spider()
    assert late_classes(game)[1]
    verdicts = {"won": 0, "lost": 0}
    plain_nodes = pruned_nodes = 0
    for deal in range(8):
        root = game.new_initial_state(seed=deal_seed(7, deal))
        plain = search(root, 300_000, None, Pruning.none())
        assert plain.result != "unknown"
        verdicts[plain.result] += 1
        plain_nodes += plain.nodes
        for pruning in (dataclasses.replace(Pruning.none(), symmetry=True), Pruning()):
            pruned = search(root, 300_000, None, pruning)
            assert pruned.result == plain.result, f"deal {deal} with {pruning}"
            if pruned.result == "won":
                assert replays_to_a_win(root, pruned.line)
            if pruning == Pruning():
                pruned_nodes += pruned.nodes
    assert verdicts["won"] and verdicts["lost"], verdicts
    assert pruned_nodes < plain_nodes
