"""Every size a design file controls is bounded: a clear diagnostic, fast, in bounded memory.

The first four tests are the done-when targets of issue #10, measured: a design with
``repeat: 1000000000``, a 100,000-deep nesting, a 1 MB expression, or an endless
trigger cascade each gets its diagnostic within a second, in bounded memory.
"""

from __future__ import annotations

import collections
import copy
import json
import time
import tracemalloc
from collections.abc import Callable
from typing import Any, TypeVar

import pytest

from cardz_tools.analysis.check import CheckOptions, play_findings
from cardz_tools.analysis.findings import FindingKind
from cardz_tools.analysis.solve import solve_state
from cardz_tools.diagnostics import Diagnostic
from cardz_tools.engine.game import Game
from cardz_tools.expr.cost import MAX_EVALUATION_STEPS
from cardz_tools.lint import lint_text
from cardz_tools.model import build_design
from tests.conftest import ROOT

T = TypeVar("T")
SECOND = 1.0
MEMORY_CEILING = 64 * 1024 * 1024
"""Generous: the diagnostics of one small file, never a copy per character of a large one."""


def seed(name: str = "monte-carlo") -> dict[str, Any]:
    return json.loads((ROOT / "games" / f"{name}.cardz").read_text(encoding="utf-8"))


def measured(action: Callable[[], T]) -> tuple[T, dict[str, float]]:
    """The result of ``action``, its wall time, and the tracemalloc peak of a second run.

    Two runs, because tracing every allocation slows the code several times over.
    """
    began = time.perf_counter()
    result = action()
    seconds = time.perf_counter() - began
    tracemalloc.start()
    try:
        action()
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    return result, {"seconds": seconds, "peak": peak}


def codes(diagnostics: list[Diagnostic]) -> set[str]:
    return {d.code for d in diagnostics}


def lint_measured(text: str) -> tuple[list[Diagnostic], dict[str, float]]:
    return measured(lambda: lint_text(text))


# ---------------------------------------------------------------- the four done-when targets


def test_a_billion_depots_is_refused_at_once() -> None:
    design = seed()
    design["depots"][0]["repeat"] = 1_000_000_000
    found, cost = lint_measured(json.dumps(design))
    assert any(d.pointer == "/depots/0/repeat" and d.severity.value == "error" for d in found), found
    assert cost["seconds"] < SECOND
    assert cost["peak"] < MEMORY_CEILING


@pytest.mark.parametrize("opening, closing", [("[", "]"), ('{"a":', "}")])
def test_a_hundred_thousand_deep_nesting_is_refused_at_once(opening: str, closing: str) -> None:
    text = '{"name": "deep", "depots": ' + opening * 100_000 + "1" + closing * 100_000 + "}"
    found, cost = lint_measured(text)
    assert codes(found) == {"CZ107"}
    assert found[0].line == 1
    assert cost["seconds"] < SECOND
    assert cost["peak"] < MEMORY_CEILING


@pytest.mark.parametrize("where", [("scoring", "value"), ("depots", 0, "acceptRule", "when")])
def test_a_one_megabyte_expression_is_refused_at_once(where: tuple[Any, ...]) -> None:
    design = seed()
    target = design
    for part in where[:-1]:
        target = target[part]
    target[where[-1]] = "1 + " * 250_000 + "1"
    text = json.dumps(design)
    assert len(text) > 1_000_000
    found, cost = lint_measured(text)
    pointer = "/" + "/".join(str(p) for p in where)
    assert any(d.pointer == pointer and d.severity.value == "error" for d in found), found
    assert cost["seconds"] < SECOND
    assert cost["peak"] < MEMORY_CEILING


def endless_cascade() -> dict[str, Any]:
    """Two triggers that hand a card back and forth for ever."""
    design = seed()
    design["depots"][1]["triggers"] = [
        {"when": "!empty(depot)", "do": [{"kind": "move", "from": "@self", "to": "discard", "count": "1"}]},
    ]
    design["depots"][2]["triggers"] = [
        {"when": "!empty(depot)", "do": [{"kind": "move", "from": "@self", "to": "stock", "count": "1"}]},
    ]
    return design


def test_an_endless_trigger_cascade_is_reported_at_once() -> None:
    design = endless_cascade()
    assert not [d for d in lint_text(json.dumps(design)) if d.severity.value == "error"]
    options = CheckOptions(playouts=2, deals=1, budget=50, max_moves=50, deal_seconds=SECOND / 4)
    findings, cost = measured(lambda: play_findings(design, options))
    assert FindingKind.NON_TERMINATING in {f.kind for f in findings}
    assert cost["seconds"] < SECOND
    assert cost["peak"] < MEMORY_CEILING


# ---------------------------------------------------------------- deal counts


@pytest.mark.parametrize("count", ["1000000000", "999999999 * 999999999", "1000000000 * 1000000000 * 1000000000"])
def test_a_huge_deal_count_deals_the_deck_and_no_more(count: str) -> None:
    design = seed()
    design["depots"][0]["repeat"] = 2
    design["depots"][0]["perRow"] = 2
    design["dealRules"] = [{"kind": "dealGroup", "to": "cell", "faceUp": count}]
    begun = time.perf_counter()
    state = Game(build_design(design)).new_initial_state(seed=1)
    assert time.perf_counter() - begun < SECOND
    cell_sizes = [len(state.piles[d.index]) for d in state.game.design.depots if d.name.startswith("cell")]
    assert cell_sizes == [52, 0]  # the first cell takes every card; there are none left for the second


def test_a_negative_deal_count_deals_nothing() -> None:
    design = seed()
    design["dealRules"] = [{"kind": "dealGroup", "to": "cell", "faceUp": "0 - 1000000000"}]
    state = Game(build_design(design)).new_initial_state(seed=1)
    stock = state.game.design.depot_named("stock")
    assert stock is not None and len(state.piles[stock.index]) == 52


# ---------------------------------------------------------------- expression cost


def test_nested_quantifiers_over_a_large_group_are_too_costly() -> None:
    design = seed()
    design["depots"][0]["repeat"] = 400
    design["depots"][0]["perRow"] = 20
    design["depots"][0]["acceptRule"]["when"] = "all(a in cell, all(b in cell, all(c in cell, index(a) < 400)))"
    found = {d.pointer: d for d in lint_text(json.dumps(design)) if d.code == "CZ410"}
    assert "/depots/0/acceptRule/when" in found
    assert f"{MAX_EVALUATION_STEPS:,}" in found["/depots/0/acceptRule/when"].message
    design["depots"][0]["repeat"] = 25
    assert "/depots/0/acceptRule/when" not in {d.pointer for d in lint_text(json.dumps(design)) if d.code == "CZ410"}


def test_the_seed_quantifiers_are_well_within_the_cost_bound() -> None:
    for name in ("monte-carlo", "weathervane"):
        assert "CZ410" not in codes(lint_text(json.dumps(seed(name))))


# ---------------------------------------------------------------- solver


def slow_to_solve() -> Game:
    return Game(build_design(seed("weathervane")))


def test_the_solver_table_holds_at_most_max_positions() -> None:
    state = slow_to_solve().new_initial_state(seed=3)
    result, _, nodes = solve_state(state, budget=10_000_000, max_positions=300)
    assert result in ("unknown", "won", "lost")
    assert nodes <= 301


def test_the_solver_stops_at_its_deadline() -> None:
    state = slow_to_solve().new_initial_state(seed=3)
    began = time.monotonic()
    result, _, nodes = solve_state(state, budget=10_000_000, deadline=began + 0.2)
    took = time.monotonic() - began
    assert took < 0.2 + SECOND
    if result == "unknown":
        assert nodes < 10_000_000


def test_solve_passes_the_per_deal_deadline_to_every_deal() -> None:
    from cardz_tools.analysis.solve import solve

    began = time.monotonic()
    report = solve(json.dumps(endless_cascade()), 2, 0, budget=10_000_000, workers=1, deal_seconds=0.1)
    assert time.monotonic() - began < 2 * SECOND
    assert len(report.verdicts) == 2


@pytest.mark.parametrize(
    "change",
    [
        lambda d: d.update(decks=1_000_000),
        lambda d: d.update(jokers=10**12),
        lambda d: d["depots"][0].update(repeat=1001),
        lambda d: d["depots"].extend(copy.deepcopy(d["depots"][2]) | {"name": f"x{i}"} for i in range(1000)),
    ],
    ids=["decks", "jokers", "repeat", "many-depots"],
)
def test_deck_and_depot_counts_are_bounded(change: Callable[[dict[str, Any]], None]) -> None:
    design = seed()
    change(design)
    found, cost = lint_measured(json.dumps(design))
    assert any(d.severity.value == "error" for d in found)
    assert cost["seconds"] < 2 * SECOND


# ---------------------------------------------------------------- deck order files


def test_a_deck_order_longer_than_any_deck_is_refused_at_once() -> None:
    from cardz_tools.cards import MAX_DECK_CARDS, CardSyntaxError, parse_deck

    assert len(parse_deck("AS " * MAX_DECK_CARDS)) == MAX_DECK_CARDS
    began = time.perf_counter()
    with pytest.raises(CardSyntaxError, match=str(MAX_DECK_CARDS)):
        parse_deck("AS " * 1_000_000)
    assert time.perf_counter() - began < SECOND


def test_a_wrong_deck_names_a_bounded_number_of_cards() -> None:
    from cardz_tools.cards import parse_deck
    from cardz_tools.engine.deal import LISTED_CARDS, DeckError, deck_for

    design = seed()
    design["decks"] = 8
    with pytest.raises(DeckError) as caught:
        deck_for(build_design(design), deck=parse_deck("AS " * 400))
    message = str(caught.value)
    assert "more" in message and len(message) < 20 * LISTED_CARDS * 2


def test_the_solver_keeps_no_copies_of_thousands_of_children() -> None:
    from cardz_tools.analysis.solve import KEPT_CHILDREN

    design = seed()
    design["depots"][0]["repeat"] = 200
    design["depots"][0]["perRow"] = 20
    design["depots"][0]["acceptRule"] = {"when": "true"}  # any card onto any cell; its pair trigger stays,
    state = Game(build_design(design)).new_initial_state(seed=1)  # so cards can still reach the discard
    assert len(state.legal_moves()) > 100 * KEPT_CHILDREN
    (result, _, nodes), cost = measured(lambda: solve_state(state, budget=20))
    assert result == "unknown" and nodes == 21
    assert cost["peak"] < MEMORY_CEILING


def test_a_trigger_that_changes_nothing_is_an_endless_cascade_found_at_once() -> None:
    design = seed()
    design["depots"][0]["triggers"] = [
        {"when": "empty(depot)", "do": [{"kind": "move", "from": "@self", "to": "discard", "count": "5"}]},
    ]
    game = Game(build_design(design))
    state = game.new_initial_state(seed=1)
    state.stats = collections.Counter()
    move = next(m for m in state.legal_moves())
    began = time.perf_counter()
    state.apply(move)
    assert state.non_terminating
    assert time.perf_counter() - began < 0.1
    assert sum(state.stats.values()) < 100  # one pass, not MAX_TRIGGER_FIRINGS


def test_the_solver_deadline_holds_while_it_orders_the_moves_of_one_position() -> None:
    design = seed()
    design["depots"][0]["acceptRule"] = {"when": "true"}  # 600 moves a position, and after each one
    design["depots"][0]["triggers"] = [  # every cell weighs a rule near the cost bound: seconds per position
        {"when": "sum(a in cell, sum(b in cell, sum(c in cell, count(c)))) > 1000000",
         "do": [{"kind": "move", "from": "@self", "to": "discard", "count": "1"}]},
    ]
    state = Game(build_design(design)).new_initial_state(seed=1)
    assert not state.is_terminal() and len(state.legal_moves()) > 500
    began = time.monotonic()
    result, _, _ = solve_state(state, budget=10_000_000, deadline=began + 0.3)
    assert result in ("unknown", "lost")
    assert time.monotonic() - began < 0.3 + SECOND
