"""The generated drag lister agrees with the rules checked one move at a time.

``State.why_illegal`` tests a single drag with the full rules (static part included)
and no generated lister, so it serves as the oracle: along random playouts of
designs that use every part of the accept and eject rules, the drags of
``legal_moves()`` must be exactly the drags ``why_illegal`` accepts, in the
documented order (source, run length, target, named suit).
"""

from __future__ import annotations

import collections
from collections.abc import Iterator
from typing import Any

import pytest

from cardz_tools.cards import SUITS, SplitMix64
from cardz_tools.engine import Drag, Game, State, Tap
from cardz_tools.model import build_design
from tests.engine_support import load_design

_STOCK = {"name": "stock", "type": "Stock", "col": 0, "ejectRule": "locked", "draw": {"to": "waste", "redeals": 1}}
_WASTE = {"name": "waste", "type": "Waste", "col": 1, "acceptRule": "none", "ejectRule": "topOnly"}

KLONDIKE_LIKE: dict[str, Any] = {
    "name": "Runs",
    "depots": [
        _STOCK,
        _WASTE,
        {"name": "home", "type": "Foundation", "col": 3, "repeat": 4, "ejectRule": "topOnly", "acceptRule": {
            "single": True,
            "when": "(empty(depot) && card.rank == Ace) "
            "|| (!empty(depot) && card.suit == top.suit && card.rank == top.rank + 1)",
        }},
        {"name": "pile", "type": "Tableau", "col": 0, "row": 1, "repeat": 7, "ejectRule": "faceUp", "autoFlipTop": True,
         "acceptRule": {
             "when": "empty(depot) ? card.rank == King : card.color != top.color && card.rank + 1 == top.rank"
         }},
    ],
    "dealRules": [{"kind": "dealGroup", "to": "pile", "faceDown": 2, "faceUp": 1}],
    "winCondition": {"kind": "allCardsIn", "depots": "Foundation"},
}

EJECT_WHEN: dict[str, Any] = {
    "name": "Eject when",
    "depots": [
        _STOCK,
        _WASTE,
        {"name": "col", "type": "Tableau", "col": 0, "row": 1, "repeat": 5, "autoFlipTop": True,
         "ejectRule": {"when": "descending(cards) && count(cards) <= 3 && top.rank != Queen"},
         "acceptRule": {"when": "empty(depot) || (card.rank + 1 == top.rank && count(stock) > 5)"}},
        {"name": "cell", "type": "Cell", "col": 6, "repeat": 2, "ejectRule": "topOnly",
         "acceptRule": {"single": True, "when": "empty(depot) && all(cards, it.faceUp) && index(source) != 1"}},
        {"name": "bin", "type": "Foundation", "col": 8, "ejectRule": "locked",
         "acceptRule": {"when": "index(source) == 2 || source == waste"}},
    ],
    "dealRules": [{"kind": "dealGroup", "to": "col", "faceDown": 1, "faceUp": 4}],
    "winCondition": {"kind": "depotsEmpty", "depots": "Tableau"},
}

WILD_FOLLOW: dict[str, Any] = {
    "name": "Wild",
    "depots": [
        _STOCK,
        _WASTE,
        {"name": "vane", "type": "Foundation", "col": 3, "repeat": 2, "ejectRule": "locked",
         "acceptRule": {"follow": True, "wildRank": "Jack", "wildDeclares": "suit", "when": "count(depot) < 30"}},
        {"name": "free", "type": "Foundation", "col": 5, "ejectRule": "locked", "acceptRule": {"wildRank": "Two"}},
        {"name": "tab", "type": "Tableau", "col": 0, "row": 1, "repeat": 5, "ejectRule": "faceUp", "autoFlipTop": True,
         "acceptRule": {"follow": True, "when": "count(cards) <= 2"}},
    ],
    "dealRules": [
        {"kind": "dealGroup", "to": "tab", "faceDown": 1, "faceUp": 2},
        {"kind": "dealGroup", "to": "vane", "faceUp": 1},
    ],
    "winCondition": {"kind": "depotsEmpty", "depots": "Tableau"},
}

RUN_EJECTS: dict[str, Any] = {
    "name": "Run ejects",
    "depots": [
        _STOCK,
        _WASTE,
        {"name": "home", "type": "Foundation", "col": 2, "ejectRule": "locked", "acceptRule": {"single": True}},
        # suffix-closed ejects: the lister stops at the first run length they refuse
        {"name": "suit", "type": "Tableau", "col": 0, "row": 1, "repeat": 3,
         "ejectRule": {"when": "sameSuit(cards) && descending(cards)"},
         "acceptRule": {"when": "empty(depot) || card.rank + 1 == top.rank"}},
        {"name": "link", "type": "Tableau", "col": 3, "row": 1, "repeat": 3,
         "ejectRule": {"when": "chain(cards, it.color != prev.color && it.rank == prev.rank - 1)"},
         "acceptRule": {"when": "empty(depot) || card.rank + 1 == top.rank || card.suit == top.suit"}},
        # not suffix-closed: a whole column moves though its top two cards do not
        {"name": "whole", "type": "Tableau", "col": 6, "row": 1, "repeat": 2,
         "ejectRule": {"when": "count(cards) == 1 || count(cards) == count(depot)"},
         "acceptRule": {"when": "empty(depot) || card.suit == top.suit"}},
    ],
    "dealRules": [{"kind": "dealGroup", "to": "Tableau", "faceUp": 4}],
    "winCondition": {"kind": "allCardsIn", "depots": "Foundation"},
}


def _oracle_drags(state: State) -> list[Drag]:
    """Every drag ``why_illegal`` accepts, in the documented order."""
    game = state.game
    drags = []
    for source, name in enumerate(game.names):
        for count in range(1, len(state.piles[source]) + 1):
            for target in game.names:
                for declare in (None, *SUITS):
                    move = Drag(name, count, target, declare)
                    if state.why_illegal(move) is None:
                        drags.append(move)
    return drags


def _list_drags(monkeypatch: pytest.MonkeyPatch, written_out: bool) -> None:
    """The lister writes each pair of depots out, or (as for designs with more pairs than the limit) loops."""
    from cardz_tools.engine import lister

    if not written_out:
        monkeypatch.setattr(lister, "_UNROLL_LIMIT", 0)


def _playout(game: Game, deals: int, moves: int) -> Iterator[tuple[State, list[Any], list[Drag]]]:
    """Each position of a playout of the first ``deals`` deals, up to ``moves`` moves, with its legal moves and
    drags; the caller applies the next move."""
    for deal in range(deals):
        state = game.new_initial_state(seed=deal)
        while not state.is_terminal() and state.move_count < moves:
            legal = state.legal_moves()
            yield state, legal, [m for m in legal if isinstance(m, Drag)]


def _games() -> list[Game]:
    designs = [build_design(data) for data in (KLONDIKE_LIKE, EJECT_WHEN, WILD_FOLLOW, RUN_EJECTS)]
    return [Game(design) for design in (*designs, load_design("monte-carlo"), load_design("weathervane"))]


@pytest.mark.parametrize("written_out", [True, False], ids=["pairs written out", "loop over targets"])
@pytest.mark.parametrize("design", [game.design for game in _games()], ids=lambda design: design.name)
def test_listed_drags_are_exactly_the_legal_drags_in_order(
    design: Any, written_out: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    _list_drags(monkeypatch, written_out)
    game = Game(design)
    assert ("for _source, _targets, _moves_to in" in game.move_lister_source) is not written_out or not game.drag_plan
    rng = SplitMix64(7)
    compared = listed = 0
    for state, legal, drags in _playout(game, deals=4, moves=60):
        assert legal[: len(drags)] == drags, "drags come before taps"
        assert drags == _oracle_drags(state)
        compared += 1
        listed += len(drags)
        state.apply(legal[rng.below(len(legal))])
    assert compared > 20 and listed > 20, "the playouts exercised the lister"


def test_only_ejects_that_read_neighbouring_pairs_of_the_run_end_the_loop_over_run_lengths() -> None:
    from cardz_tools.engine.lister import suffix_closed
    from cardz_tools.expr import parse

    closed = ["descending(cards)", "sameSuit(cards) && alternating(cards) && ascending(cards)",
              "chain(cards, it.suit == prev.suit && !(it.rank == prev.rank))"]
    open_ = ["count(cards) == 1 || count(cards) == count(depot)", "descending(cards) || alternating(cards)",
             "!descending(cards)", "descending(cards) && count(cards) <= 3", "chain(cards, it.rank == top.rank)",
             "descending(depot)", "chain(depot, it.rank == prev.rank - 1)", "count(cards) >= 2"]
    assert all(suffix_closed(parse(text)) for text in closed)
    assert not any(suffix_closed(parse(text)) for text in open_)
    source = Game(build_design(RUN_EJECTS)).move_lister_source
    assert source.count(": break") == 6 and ": continue" in source  # the whole-column eject keeps looping


def test_the_lister_source_holds_no_design_text() -> None:
    game = Game(build_design(EJECT_WHEN))
    source = game.move_lister_source
    assert "stock" not in source and "col" not in source and "Queen" not in source
    assert "def _list_moves(P, S)" in source


def test_settling_fires_several_triggers_of_a_depot_in_order_and_rechecks_rules_reading_other_piles() -> None:
    feed = {"name": "feed", "do": [{"kind": "move", "from": "stock", "to": "a", "count": "4"}]}
    give = {"when": "count(depot) >= 3", "do": [{"kind": "move", "from": "@self", "to": "b"}]}
    pass_on = {"when": "count(depot) >= 2", "do": [{"kind": "move", "from": "@self", "to": "c"}]}
    drain = {
        "when": "count(a) <= 1 && count(depot) > 0",
        "do": [{"kind": "move", "from": "@self", "to": "b", "count": "all"}],
    }
    game = Game(
        build_design(
            {
                "name": "Cascade",
                "depots": [
                    {"name": "stock", "type": "Stock", "ejectRule": "locked", "acceptRule": "none", "actions": [feed]},
                    {"name": "a", "type": "Cell", "col": 1, "acceptRule": "none", "triggers": [give, pass_on]},
                    {"name": "b", "type": "Cell", "col": 2, "acceptRule": "none"},
                    {"name": "c", "type": "Cell", "col": 3, "acceptRule": "none", "triggers": [drain]},
                ],
                "winCondition": {"kind": "depotsEmpty", "depots": "stock"},
            }
        )
    )
    state = game.new_initial_state(seed=3)
    state.stats = collections.Counter()
    state.apply(Tap("stock", "feed"))
    # pass 1: a#0 (4 cards), a#1 (3); c waits for a; pass 2: a#1 (2), then c drains; pass 3: quiet
    assert [len(p) for p in state.piles[1:]] == [1, 3, 0]
    assert state.stats == collections.Counter(
        {"trigger:a#0": 1, "trigger:a#1": 2, "trigger:c#0": 1, "action:stock.feed": 1}
    )


@pytest.mark.parametrize("written_out", [True, False], ids=["pairs written out", "loop over targets"])
def test_designs_with_many_depots_list_the_same_moves(written_out: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    from cardz_tools.engine import lister

    design = build_design(WILD_FOLLOW)
    dense = Game(design)
    monkeypatch.setattr(lister, "_DENSE_LIMIT", 0)
    if not written_out:
        monkeypatch.setattr(lister, "_UNROLL_LIMIT", 0)
    sparse = Game(design)
    if not written_out:  # written out, each move is a constant of its own
        rows = [c.cell_contents for c in sparse.move_lister.__closure__ or () if isinstance(c.cell_contents, tuple)]
        assert any(
            isinstance(row[2], dict) for table in rows for row in table if isinstance(row, tuple) and len(row) == 3
        )
    rng = SplitMix64(11)
    one, two = dense.new_initial_state(seed=2), sparse.new_initial_state(seed=2)
    while not one.is_terminal() and one.move_count < 80:
        assert [str(m) for m in one.legal_moves()] == [str(m) for m in two.legal_moves()]
        pick = rng.below(len(one.legal_moves()))
        one.apply(one.legal_moves()[pick])
        two.apply(two.legal_moves()[pick])
    assert one.key() == two.key()


@pytest.mark.parametrize("loops", [False, True], ids=["written-out", "loops"])
def test_every_name_generated_code_uses_is_documented(monkeypatch: pytest.MonkeyPatch, loops: bool) -> None:
    import ast

    from cardz_tools.engine import lister
    from cardz_tools.expr.codegen import GENERATED_NAMES, SAFE_BUILTINS, generated_name_key

    if loops:
        monkeypatch.setattr(lister, "_UNROLL_LIMIT", -1)
    seen: set[str] = set()
    shapes = ("klondike", "freecell", "spider-one-suit", "canfield", "weathervane", "monte-carlo", "pyramid", "golf")
    for name in shapes:
        game = Game(load_design(name))
        for source in (game.move_lister_source, game.settle_source):
            for node in ast.walk(ast.parse(source)):
                if isinstance(node, ast.Name):
                    seen.add(node.id)
                elif isinstance(node, ast.arg):
                    seen.add(node.arg)
                elif isinstance(node, ast.FunctionDef):
                    seen.add(node.name)
    undocumented = sorted(n for n in seen if n not in SAFE_BUILTINS and generated_name_key(n) not in GENERATED_NAMES)
    assert undocumented == [] and {"_ps", "_k#", "_settle"} <= {generated_name_key(n) for n in seen}


@pytest.mark.parametrize("written_out", [True, False], ids=["pairs written out", "loop over targets"])
@pytest.mark.parametrize("name", ["canfield-runs", "freecell", "spider-one-suit"])
def test_a_suffix_closed_eject_tested_on_the_lowest_pair_lists_the_legal_runs(
    name: str, written_out: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A suffix-closed eject rule is tested on the two lowest cards of each longer run only (the shorter runs
    passed): on positions with long runs (playouts that build them), the drags listed are still exactly those the
    engine's full check accepts; the first foundation's base rank read inside Canfield's chain is the same for
    every run length, so its rule is suffix-closed too."""
    from cardz_tools.loading import open_design
    from tests.engine_support import GAMES

    _list_drags(monkeypatch, written_out)
    game = Game(open_design(GAMES / f"{name}.cardz").design)  # Canfield with runs extends canfield.cardz
    assert ": break" in game.move_lister_source and "_pair" in game.move_lister_source
    rng = SplitMix64(5)
    compared = longest = 0
    for state, legal, drags in _playout(game, deals=6, moves=90):
        if state.move_count % 15 == 14:
            assert drags == _oracle_drags(state)
            compared += 1
        longest = max([longest, *(m.count for m in drags)])
        # build: a drag onto a non-empty pile that is not a foundation, when there is one
        building = [m for m in drags if state.piles[game.index[m.target]] and "found" not in m.target]
        choices = building if building and rng.below(4) else legal
        state.apply(choices[rng.below(len(choices))])
    assert compared >= 12 and longest >= 3  # runs of three or more were listed and compared
