"""The JSON Schema file: well-formed, documented, packaged, and true to the seeds and the reference."""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Iterator
from importlib import resources
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator

ROOT = Path(__file__).resolve().parent.parent
SCHEMA_PATH = ROOT / "schema" / "cardz.schema.json"
FORMAT_DOC = ROOT / "docs" / "format.md"
SEEDS = sorted((ROOT / "games").glob("*.cardz"))
SEED_NAMES = ("monte-carlo.cardz", "weathervane.cardz")

# The games docs/format.md must show how to express, each in a ```json cardz block.
EXPRESSED_GAMES = (
    "Klondike",
    "FreeCell",
    "Golf",
    "Black Hole",
    "Pyramid",
    "Spider",
    "Canfield",
    "Montana",
    "Château de cartes",
)


@pytest.fixture(scope="module")
def schema() -> dict[str, Any]:
    return json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def validator(schema: dict[str, Any]) -> Draft202012Validator:
    return Draft202012Validator(schema)


def _seed(name: str) -> dict[str, Any]:
    return json.loads((ROOT / "games" / name).read_text(encoding="utf-8"))


def _messages(validator: Draft202012Validator, design: object) -> list[str]:
    return [f"{error.json_path}: {error.message}" for error in validator.iter_errors(design)]


def test_packaged_copy_is_byte_identical() -> None:
    packaged = resources.files("cardz_tools").joinpath("data/cardz.schema.json").read_bytes()
    assert packaged == SCHEMA_PATH.read_bytes()


def test_schema_is_valid_draft_2020_12(schema: dict[str, Any]) -> None:
    Draft202012Validator.check_schema(schema)
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert schema["$id"].startswith("https://")


@pytest.mark.parametrize("name", SEED_NAMES)
def test_seed_files_validate_unchanged(validator: Draft202012Validator, name: str) -> None:
    assert _messages(validator, _seed(name)) == []


def _defined_properties(node: object, path: str = "#") -> Iterator[tuple[str, str, object]]:
    """Every (path, key, subschema) under a ``properties`` keyword.

    ``if`` subschemas are skipped: they only select a branch (``kind == "move"``)
    and define no key a designer writes.
    """
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "if":
                continue
            if key == "properties" and isinstance(value, dict):
                for prop, sub in value.items():
                    yield f"{path}/properties/{prop}", prop, sub
            yield from _defined_properties(value, f"{path}/{key}")
    elif isinstance(node, list):
        for i, item in enumerate(node):
            yield from _defined_properties(item, f"{path}/{i}")


def test_every_property_has_description_and_markdown(schema: dict[str, Any]) -> None:
    properties = list(_defined_properties(schema))
    assert len(properties) > 50  # the walk reaches into $defs, not just the top level
    missing = [
        path
        for path, _key, sub in properties
        if not (isinstance(sub, dict) and sub.get("description") and sub.get("markdownDescription"))
    ]
    assert missing == []


def test_objects_reject_unknown_keys(schema: dict[str, Any]) -> None:
    """Every object schema that defines properties closes itself, so typos are caught."""
    open_objects = [
        path
        for path, node in _object_schemas(schema)
        if node.get("additionalProperties") is not False and node.get("unevaluatedProperties") is not False
    ]
    assert open_objects == []


def _object_schemas(node: object, path: str = "#") -> Iterator[tuple[str, dict[str, Any]]]:
    if isinstance(node, dict):
        if node.get("type") == "object" and "properties" in node:
            yield path, node
        for key, value in node.items():
            if key != "if":
                yield from _object_schemas(value, f"{path}/{key}")
    elif isinstance(node, list):
        for i, item in enumerate(node):
            yield from _object_schemas(item, f"{path}/{i}")


# case -> (edit of Weathervane, JSON path of the error, JSON Schema keyword that must report it)
INVALID: dict[str, tuple[Any, str, str]] = {
    "bad depot type": (lambda d: d["depots"][0].__setitem__("type", "Stok"), "$.depots[0].type", "enum"),
    "missing name": (lambda d: d.pop("name"), "$", "required"),
    "missing depot name": (lambda d: d["depots"][1].pop("name"), "$.depots[1]", "required"),
    "unknown top-level key": (lambda d: d.__setitem__("depotsOnly", True), "$", "additionalProperties"),
    "unknown depot key": (
        lambda d: d["depots"][0].__setitem__("acceptRules", "none"), "$.depots[0]", "additionalProperties"
    ),
    "repeat 0": (lambda d: d["depots"][3].__setitem__("repeat", 0), "$.depots[3].repeat", "minimum"),
    "repeat too large": (lambda d: d["depots"][3].__setitem__("repeat", 1001), "$.depots[3].repeat", "maximum"),
    "bad wildRank": (
        lambda d: d["depots"][2]["acceptRule"].__setitem__("wildRank", "Eights"),
        "$.depots[2].acceptRule.wildRank",
        "enum",
    ),
    "bad fan direction": (
        lambda d: d["depots"][3].__setitem__("fanDirection", "Diagonal"), "$.depots[3].fanDirection", "enum"
    ),
    "bad eject string": (lambda d: d["depots"][1].__setitem__("ejectRule", "top"), "$.depots[1].ejectRule", "enum"),
    "bad tools": (lambda d: d.__setitem__("tools", "Some"), "$.tools", "enum"),
    "too many decks": (lambda d: d.__setitem__("decks", 9), "$.decks", "maximum"),
    "negative jokers": (lambda d: d.__setitem__("jokers", -1), "$.jokers", "minimum"),
    "move without to": (
        lambda d: d["depots"][0].__setitem__("actions", [{"name": "x", "do": [{"kind": "move", "from": "stock"}]}]),
        "$.depots[0].actions[0].do[0]",
        "required",
    ),
    "unknown effect kind": (
        lambda d: d["depots"][0].__setitem__(
            "actions", [{"name": "x", "do": [{"kind": "teleport", "from": "stock", "to": "waste"}]}]
        ),
        "$.depots[0].actions[0].do[0].kind",
        "enum",
    ),
    "loss kind used for win": (
        lambda d: d.__setitem__("winCondition", {"kind": "noLegalMoves"}), "$.winCondition.kind", "enum"
    ),
    "win by depots without depots": (lambda d: d["winCondition"].pop("depots"), "$.winCondition", "required"),
    "bad deal kind": (lambda d: d["dealRules"][0].__setitem__("kind", "deal"), "$.dealRules[0].kind", "enum"),
    "expression too long": (
        lambda d: d["scoring"].__setitem__("value", "1 + " * 1000 + "1"), "$.scoring.value", "maxLength"
    ),
    "redeals as a word other than unlimited": (
        lambda d: d["depots"][0]["draw"].__setitem__("redeals", "forever"), "$.depots[0].draw.redeals", "const"
    ),
    "depot name with a space": (
        lambda d: d["depots"][1].__setitem__("name", "the waste"), "$.depots[1].name", "pattern"
    ),
    "row length 0 in a perRow list": (
        lambda d: d["depots"][3].__setitem__("perRow", [4, 0, 3]), "$.depots[3].perRow[1]", "minimum"
    ),
    "bad align": (lambda d: d["depots"][3].__setitem__("align", "middle"), "$.depots[3].align", "enum"),
    "action limit 0": (
        lambda d: d["depots"][0].__setitem__(
            "actions", [{"name": "x", "limit": 0, "do": [{"kind": "flip", "depot": "waste"}]}]
        ),
        "$.depots[0].actions[0].limit",
        "minimum",
    ),
    "unknown suit": (lambda d: d.__setitem__("suits", ["Spades", "Stars"]), "$.suits[1]", "enum"),
    "expression that is not a string": (
        lambda d: d["scoring"].__setitem__("value", 3), "$.scoring.value", "type"
    ),
}


@pytest.mark.parametrize("case", sorted(INVALID))
def test_invalid_designs_are_rejected_at_the_right_place(validator: Draft202012Validator, case: str) -> None:
    edit, path, keyword = INVALID[case]
    design = copy.deepcopy(_seed("weathervane.cardz"))
    edit(design)
    found = [(error.json_path, error.validator) for error in validator.iter_errors(design)]
    assert (path, keyword) in found, found


def test_effect_count_may_be_int_expression_or_all(validator: Draft202012Validator) -> None:
    for count in (2, "2", "count(depot) - 1", "all"):
        design = _seed("monte-carlo.cardz")
        design["depots"][0]["triggers"][0]["do"][0]["count"] = count
        assert _messages(validator, design) == [], count
    design = _seed("monte-carlo.cardz")
    design["depots"][0]["triggers"][0]["do"][0]["count"] = -1
    assert _messages(validator, design) != []


# ------------------------------------------------------------ the reference's examples

_CARDZ_BLOCK = re.compile(r"^```json cardz[ \t]*\n(.*?)^```[ \t]*$", re.MULTILINE | re.DOTALL)


def _reference_designs() -> list[tuple[str, str]]:
    """(heading, json text) for every ```json cardz block in docs/format.md."""
    text = FORMAT_DOC.read_text(encoding="utf-8")
    designs = []
    for match in _CARDZ_BLOCK.finditer(text):
        headings = re.findall(r"^#+ (.+)$", text[: match.start()], re.MULTILINE)
        designs.append((headings[-1] if headings else "?", match.group(1)))
    return designs


def test_reference_expresses_every_required_game() -> None:
    headings = [heading for heading, _ in _reference_designs()]
    for game in EXPRESSED_GAMES:
        assert any(heading == f"How to express {game}" for heading in headings), game


@pytest.mark.parametrize("heading,text", _reference_designs(), ids=lambda v: v if len(v) < 60 else None)
def test_reference_designs_validate(validator: Draft202012Validator, heading: str, text: str) -> None:
    design = json.loads(text)
    assert _messages(validator, design) == [], heading


# ------------------------------------------------------------ agreement with the code and the docs


def _enum_at(schema: dict[str, Any], *path: str) -> set[str]:
    node: Any = schema
    for key in path:
        node = node[key]
    return set(node["enum"])


def test_closed_sets_agree_with_the_model(schema: dict[str, Any]) -> None:
    """The schema's enums and bounds are the model's: one cannot drift from the other."""
    from cardz_tools import model
    from cardz_tools.cards import RANK_NAMES, SUIT_NAMES

    depot = schema["$defs"]["Depot"]["properties"]
    assert _enum_at(depot, "type") == {t.value for t in model.DepotType}
    assert _enum_at(depot, "fanDirection") == {f.value for f in model.Fan}
    eject_words = set(schema["$defs"]["EjectRule"]["then"]["enum"])
    assert eject_words == {k.value for k in model.EjectKind if k is not model.EjectKind.WHEN}
    assert _enum_at(schema["$defs"]["Scoring"]["properties"], "better") == {b.value for b in model.Better}
    assert set(schema["$defs"]["RankName"]["enum"]) == set(RANK_NAMES) | {"Joker"}
    assert set(schema["$defs"]["SuitName"]["enum"]) == set(SUIT_NAMES)
    top = schema["properties"]
    assert top["decks"]["maximum"] == model.MAX_DECKS
    assert top["jokers"]["maximum"] == model.MAX_JOKERS
    assert depot["repeat"]["maximum"] == model.MAX_DEPOTS
    assert top["depots"]["maxItems"] == model.MAX_DEPOTS


def test_reference_mentions_every_key(schema: dict[str, Any]) -> None:
    """Every key a designer can write appears, as `key`, in docs/format.md."""
    text = FORMAT_DOC.read_text(encoding="utf-8")
    keys = {key for _path, key, _sub in _defined_properties(schema)}
    assert {"acceptRule", "perRow", "kind"} <= keys
    assert sorted(key for key in keys if f"`{key}`" not in text) == []


def test_reference_has_one_generated_expressions_section() -> None:
    text = FORMAT_DOC.read_text(encoding="utf-8")
    begin, end = "<!-- BEGIN GENERATED: expressions -->", "<!-- END GENERATED: expressions -->"
    assert text.count(begin) == 1 and text.count(end) == 1
    assert text.index(begin) < text.index(end)


def test_reference_json_fragments_parse() -> None:
    """Plain ```json blocks (settings, fragments) are at least valid JSON."""
    text = FORMAT_DOC.read_text(encoding="utf-8")
    blocks = re.findall(r"^```json[ \t]*\n(.*?)^```[ \t]*$", text, re.MULTILINE | re.DOTALL)
    assert blocks
    for block in blocks:
        json.loads(block)
