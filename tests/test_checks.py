"""Semantic checks (CZ3xx) on modelled designs, with spans into the file."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from cardz_tools.checks import literal_count, run_checks
from cardz_tools.diagnostics import Diagnostic, Severity
from cardz_tools.model import Expr, build_design
from cardz_tools.source import SourceFile, load_source

from .conftest import ROOT
from .test_source import text_at

SEEDS = [ROOT / "games" / "monte-carlo.cardz", ROOT / "games" / "weathervane.cardz"]


def mini() -> dict[str, Any]:
    """A small valid design (four tableau piles, stock, waste, one foundation)."""
    return {
        "name": "Mini",
        "depots": [
            {"name": "stock", "type": "Stock", "col": 0, "row": 0, "draw": {"to": "waste"}},
            {"name": "waste", "type": "Waste", "col": 1, "row": 0},
            {"name": "home", "type": "Foundation", "col": 3, "row": 0, "acceptRule": "any"},
            {"name": "tab", "type": "Tableau", "col": 0, "row": 1, "repeat": 4},
        ],
        "dealRules": [{"kind": "dealGroup", "to": "tab", "faceUp": 3}],
        "winCondition": {"kind": "allCardsIn", "depots": "Foundation"},
    }


def run(data: dict[str, Any]) -> tuple[SourceFile, list[Diagnostic]]:
    source = SourceFile.from_text(json.dumps(data, indent=2), "t.cardz")
    return source, run_checks(build_design(source.data), source)


def codes(found: list[Diagnostic]) -> list[str]:
    return sorted(d.code for d in found)


@pytest.mark.parametrize("path", SEEDS, ids=lambda p: p.name)
def test_seeds_have_no_semantic_findings(path: Path) -> None:
    source = load_source(path)
    assert run_checks(build_design(source.data), source) == []


def test_the_base_design_is_clean() -> None:
    assert run(mini())[1] == []


def test_duplicate_depot_names() -> None:
    data = mini()
    data["depots"].append({"name": "waste", "type": "Reserve", "col": 9, "row": 9, "acceptRule": "any"})
    source, found = run(data)
    (diagnostic,) = found
    assert diagnostic.code == "CZ301"
    assert diagnostic.pointer == "/depots/4/name"
    assert text_at(source, diagnostic.span) == '"waste"'
    assert diagnostic.hint and f"line {source.span('/depots/1/name').line}" in diagnostic.hint


@pytest.mark.parametrize(
    ("path", "bad"),
    [
        (("dealRules", 0, "to"), "tabb"),
        (("depots", 0, "draw", "to"), "wastee"),
        (("winCondition", "depots"), "Foundations"),
    ],
)
def test_unknown_references_with_did_you_mean(path: tuple[Any, ...], bad: str) -> None:
    data = mini()
    target = data
    for step in path[:-1]:
        target = target[step]
    target[path[-1]] = bad
    source, found = run(data)
    unknown = [d for d in found if d.code == "CZ302"]
    assert len(unknown) == 1
    assert text_at(source, unknown[0].span) == json.dumps(bad)
    assert unknown[0].hint is not None and unknown[0].hint.startswith("did you mean")


def test_effect_references_allow_self_members_groups_and_types() -> None:
    data = mini()
    data["depots"][3]["triggers"] = [
        {
            "when": "true",
            "do": [
                {"kind": "move", "from": "@self", "to": "home"},
                {"kind": "move", "from": "tab[2]", "to": "Foundation"},
            ],
        }
    ]
    data["depots"][2]["actions"] = [
        {"name": "a", "do": [{"kind": "compact", "group": "tab", "from": "stock"}, {"kind": "flip", "depot": "tab[9]"}]}
    ]
    source, found = run(data)
    (diagnostic,) = found
    assert diagnostic.code == "CZ302" and "'tab[9]'" in diagnostic.message
    assert diagnostic.pointer == "/depots/2/actions/0/do/1/depot"


def test_self_outside_effects_is_unknown() -> None:
    data = mini()
    data["depots"][0]["draw"]["to"] = "@self"
    (diagnostic,) = [d for d in run(data)[1] if d.code == "CZ302"]
    assert diagnostic.hint and "only inside" in diagnostic.hint


def test_deal_overflow_is_reported_at_the_rule_that_runs_out() -> None:
    data = mini()
    data["dealRules"] = [
        {"kind": "dealGroup", "to": "tab", "faceDown": 11, "faceUp": "2"},
        {"kind": "dealGroup", "to": "home", "faceUp": 1},
        {"kind": "dealGroup", "to": "waste", "faceUp": 1},
    ]
    source, found = run(data)
    (diagnostic,) = found
    assert diagnostic.code == "CZ303" and diagnostic.pointer == "/dealRules/1"
    assert "53" in diagnostic.message and "52" in diagnostic.message


def test_a_second_deck_makes_room() -> None:
    data = mini()
    data["decks"] = 2
    data["dealRules"][0]["faceUp"] = 26
    assert run(data)[1] == []


def test_expression_counts_are_not_counted() -> None:
    data = mini()
    data["dealRules"][0]["faceUp"] = "index(depot) + 20"
    assert run(data)[1] == []
    assert literal_count(Expr("index(depot)", "")) is None
    assert literal_count(Expr(" 7 ", "")) == 7
    assert literal_count(None) == 0


def test_two_depots_on_one_cell() -> None:
    data = mini()
    data["depots"][2]["col"], data["depots"][2]["row"] = 2, 1  # tab[2] sits at col 2, row 1
    source, found = run(data)
    (diagnostic,) = found
    assert diagnostic.code == "CZ304"
    assert "'tab[2]'" in diagnostic.message and "'home'" in diagnostic.message
    assert text_at(source, diagnostic.span) == "0"  # the later entry's col


def test_fractional_positions_that_differ_do_not_overlap() -> None:
    data = mini()
    data["depots"][2]["col"] = 0.5
    assert run(data)[1] == []


def test_a_depot_nothing_uses_is_a_warning() -> None:
    data = mini()
    data["depots"].append({"name": "spare", "type": "Cell", "col": 7, "row": 0})
    source, found = run(data)
    (diagnostic,) = found
    assert diagnostic.code == "CZ305" and diagnostic.severity is Severity.WARNING
    assert text_at(source, diagnostic.span) == '"spare"'


@pytest.mark.parametrize(
    "use",
    [
        {"acceptRule": "any"},
        {"triggers": [{"when": "true", "do": [{"kind": "move", "from": "stock", "to": "@self"}]}]},
    ],
)
def test_a_depot_reached_by_a_rule_or_effect_is_fine(use: dict[str, Any]) -> None:
    data = mini()
    data["depots"].append({"name": "spare", "type": "Cell", "col": 7, "row": 0, **use})
    assert run(data)[1] == []


def test_a_depot_reached_by_the_deal_or_an_effect_elsewhere_is_fine() -> None:
    data = mini()
    data["depots"].append({"name": "spare", "type": "Cell", "col": 7, "row": 0})
    data["dealRules"].append({"kind": "dealGroup", "to": "Cell", "faceUp": 1})
    assert run(data)[1] == []


def test_undealt_cards_need_a_stock() -> None:
    data = mini()
    data["depots"][0]["type"] = "Reserve"
    source, found = run(data)
    (diagnostic,) = found
    assert diagnostic.code == "CZ306" and "40" in diagnostic.message
    assert text_at(source, diagnostic.span) == '"dealRules"'


def test_dealing_every_card_needs_no_stock() -> None:
    data = mini()
    data["depots"][0] = {"name": "stock", "type": "Reserve", "col": 0, "row": 0, "acceptRule": "any"}
    data["depots"][1]["acceptRule"] = "any"
    data["dealRules"][0]["faceUp"] = 13
    assert run(data)[1] == []


@pytest.mark.parametrize(
    ("ranks", "face_up", "left"),
    [
        (["Nine", "Ten", "Jack", "Queen", "King"], 8, None),  # Thirty: 32 cards left, all dealt
        (["King"], 12, None),  # 48 left, all dealt
        (["King"], 10, 8),  # 48 left, 40 dealt: 8 have no stock
        (["King", "King"], 12, None),  # a rank named twice is removed once
    ],
)
def test_cards_removed_before_the_deal_are_not_left_for_a_stock(
    ranks: list[str], face_up: int, left: int | None
) -> None:
    data = mini()
    data["depots"][0] = {"name": "stock", "type": "Reserve", "col": 0, "row": 0, "acceptRule": "any"}
    data["depots"][1]["acceptRule"] = "any"
    data["dealRules"] = [{"kind": "remove", "ranks": ranks}, {"kind": "dealGroup", "to": "tab", "faceUp": face_up}]
    found = run(data)[1]
    if left is None:
        assert found == []
    else:
        (diagnostic,) = found
        assert diagnostic.code == "CZ306" and f"the other {left}" in diagnostic.message


def test_cards_removed_after_the_deal_still_count_as_dealt() -> None:
    data = mini()
    data["depots"][0]["type"] = "Reserve"
    data["dealRules"].append({"kind": "remove", "ranks": ["King"]})
    (diagnostic,) = run(data)[1]
    assert diagnostic.code == "CZ306" and "the other 40" in diagnostic.message


def _tap(*effects: dict[str, Any]) -> dict[str, Any]:
    return {"actions": [{"name": "go", "do": list(effects)}]}


@pytest.mark.parametrize(
    ("spare", "rule"),
    [
        ({}, {"kind": "remove", "ranks": ["Ace"], "to": "spare"}),
        ({"repeat": 2, "col": 6}, None),  # reached by the stock's deal effect below
    ],
)
def test_remove_to_and_deal_to_reach_a_depot(spare: dict[str, Any], rule: dict[str, Any] | None) -> None:
    data = mini()
    data["depots"].append({"name": "spare", "type": "Cell", "col": 7, "row": 0, **spare})
    if rule is not None:
        data["dealRules"].append(rule)
    else:
        data["depots"][0].update(_tap({"kind": "deal", "from": "stock", "to": "spare"}))
    assert run(data)[1] == []


@pytest.mark.parametrize(
    "effect",
    [
        {"kind": "redeal", "group": "spare"},
        {"kind": "move", "from": "spare", "to": "home", "where": "!empty(depot)", "count": "all"},
    ],
)
def test_redeal_group_and_a_group_from_reach_every_member(effect: dict[str, Any]) -> None:
    data = mini()
    data["depots"].append({"name": "spare", "type": "Cell", "col": 6, "row": 0, "repeat": 2})
    data["depots"][0].update(_tap(effect))
    assert run(data)[1] == []


def test_a_key_of_another_kind_is_a_warning_at_the_key() -> None:
    data = mini()
    data["depots"][0].update(_tap({"kind": "deal", "from": "stock", "to": "tab", "where": "true"}))
    source, found = run(data)
    (diagnostic,) = found
    assert diagnostic.code == "CZ307" and diagnostic.severity is Severity.WARNING
    assert text_at(source, diagnostic.span) == '"where"'
    assert "count, faceUp, from, to" in (diagnostic.hint or "")


def test_perRow_sum_must_equal_repeat() -> None:
    data = mini()
    data["depots"][3].update({"repeat": 4, "perRow": [1, 2]})
    source, found = run(data)
    (diagnostic,) = found
    assert diagnostic.code == "CZ308" and "3 depots" in diagnostic.message
    assert text_at(source, diagnostic.span) == "4"
    data["depots"][3].pop("repeat")
    data["depots"][3]["perRow"] = [1, 3]
    assert run(data)[1] == []


@pytest.mark.parametrize(
    ("effect", "key"),
    [
        ({"kind": "move", "from": "stock", "to": "Tableau"}, "to"),
        ({"kind": "deal", "from": "tab", "to": "home"}, "from"),
        ({"kind": "compact", "group": "tab", "from": "tab"}, "from"),
    ],
)
def test_references_that_must_name_one_depot(effect: dict[str, Any], key: str) -> None:
    data = mini()
    data["depots"][0].update(_tap(effect))
    source, found = run(data)
    assert [d.code for d in found] == ["CZ309"]
    assert text_at(source, found[0].span) == json.dumps(effect[key])


def test_one_member_or_self_is_one_depot() -> None:
    data = mini()
    data["depots"][0].update(_tap({"kind": "move", "from": "tab", "to": "tab[1]"}))
    data["depots"][3].update(_tap({"kind": "move", "from": "stock", "to": "@self"}))
    assert run(data)[1] == []


def test_a_depot_named_like_a_type_is_a_warning() -> None:
    data = mini()
    data["depots"][2]["name"] = "Foundation"
    source, found = run(data)
    assert [d.code for d in found] == ["CZ310"]
    assert text_at(source, found[0].span) == '"Foundation"'
