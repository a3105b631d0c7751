"""Every error at once: reference and expression checks run on the parts the schema accepted, each mistake once."""

from __future__ import annotations

import json
from typing import Any

from cardz_tools.lint import lint_text


def design(**changes: Any) -> dict[str, Any]:
    base: dict[str, Any] = {
        "name": "Slips",
        "family": "Other",
        "depots": [
            {"name": "stock", "type": "Stock", "col": 0, "row": 0, "draw": {"to": "waste"}},
            {"name": "waste", "type": "Waste", "col": 1, "row": 0},
            {"name": "home", "type": "Foundation", "col": 3, "row": 0, "repeat": 4, "acceptRule": "any"},
            {"name": "tab", "type": "Tableau", "col": 0, "row": 1, "repeat": 7, "acceptRule": "any"},
        ],
        "dealRules": [{"kind": "dealGroup", "to": "tab", "faceUp": 1}],
        "winCondition": {"kind": "allCardsIn", "depots": "home"},
    }
    base.update(changes)
    return base


def codes(data: dict[str, Any]) -> list[str]:
    return sorted(d.code for d in lint_text(json.dumps(data, indent=2)))


def test_a_reference_mistake_is_reported_beside_a_schema_mistake() -> None:
    data = design()
    data["depots"][0]["col"] = "zero"  # CZ201
    data["dealRules"].append({"kind": "dealGroup", "to": "tabs", "faceUp": 1})  # CZ302
    found = lint_text(json.dumps(data, indent=2))
    assert sorted(d.code for d in found) == ["CZ201", "CZ302"]
    assert next(d for d in found if d.code == "CZ302").hint == "did you mean 'tab'?"


def test_an_expression_mistake_is_reported_beside_a_schema_mistake() -> None:
    data = design()
    data["decks"] = "two"  # CZ201
    data["depots"][3]["acceptRule"] = {"when": "card.rnak == Ace"}  # CZ402
    assert codes(data) == ["CZ201", "CZ402"]


def test_a_rejected_repeat_does_not_make_its_members_unknown() -> None:
    data = design()
    data["depots"][3]["repeat"] = "7"  # CZ201: tab's members are unknown now ...
    data["dealRules"].append({"kind": "dealGroup", "to": "tab[5]", "faceUp": 1})  # ... so tab[5] is not reported
    data["depots"][2]["acceptRule"] = {"when": "count(tab[6]) > 0"}
    assert codes(data) == ["CZ201"]


def test_a_rejected_type_is_one_mistake() -> None:
    data = design()
    data["depots"][2]["type"] = "Foundaton"
    # No CZ305 'never holds a card', no CZ306 'no stock': checks of the whole design wait for a valid design.
    assert codes(data) == ["CZ203"]


def test_a_rejected_name_silences_unknown_references_that_may_mean_it() -> None:
    data = design()
    data["depots"][1]["name"] = 5  # CZ201: 'waste' is gone, and stock's draw names it
    assert codes(data) == ["CZ201"]


def test_nothing_inside_a_rejected_value_is_reported_again() -> None:
    data = design()
    data["dealRules"][0] = {"kind": "dealGroop", "to": "nowhere", "faceUp": 1}  # the kind is wrong; its 'to' too
    found = codes(data)
    assert found.count("CZ203") == 1 and "CZ302" in found  # the reference inside a kept rule is still checked
    data["dealRules"][0] = "dealGroup"  # a rule that is not an object: nothing inside it to check
    assert codes(data) == ["CZ201"]


def test_a_design_that_is_not_an_object_is_reported_once() -> None:
    assert codes([1, 2]) == ["CZ201"]  # type: ignore[arg-type]
