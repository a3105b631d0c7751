"""Schema errors as diagnostics: codes, messages, spans and the choice among alternatives.

Most tests use the packaged schema; behaviour that does not depend on it (merging
what several keywords say) uses a small schema written in the test.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from cardz_tools import schema
from cardz_tools.diagnostics import Diagnostic, Severity
from cardz_tools.schema import SchemaChecker, check_source
from cardz_tools.source import SourceFile, load_source

from .conftest import ROOT
from .test_source import text_at

SEEDS = [ROOT / "games" / "monte-carlo.cardz", ROOT / "games" / "weathervane.cardz"]
MINI = (ROOT / "tests" / "examples" / "valid" / "mini-golf.cardz").read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def checker() -> SchemaChecker:
    return schema.packaged_checker()


def check(checker: SchemaChecker, old: str, new: str) -> tuple[SourceFile, list[Diagnostic]]:
    assert old in MINI
    source = SourceFile.from_text(MINI.replace(old, new, 1), "mini.cardz")
    assert source.ok
    return source, checker.check(source)


@pytest.mark.parametrize("path", SEEDS, ids=lambda p: p.name)
def test_seeds_pass_the_packaged_schema(path: Path) -> None:
    assert check_source(load_source(path)) == []


def test_packaged_schema_is_valid_draft_2020_12() -> None:
    from jsonschema import Draft202012Validator

    Draft202012Validator.check_schema(schema.load_packaged_schema())


def test_the_packaged_checker_is_built_once() -> None:
    assert schema.packaged_checker() is schema.packaged_checker()


def test_the_validator_sees_only_our_schema() -> None:
    remote = {"$schema": "https://json-schema.org/draft/2020-12/schema", "$ref": "https://example.invalid/x.json"}
    with pytest.raises(Exception, match="example.invalid"):
        SchemaChecker(remote).is_valid({})


def test_wrong_type(checker: SchemaChecker) -> None:
    source, found = check(checker, '"repeat": 4', '"repeat": "4"')
    (diagnostic,) = found
    assert diagnostic.code == "CZ201"
    assert "whole number" in diagnostic.message and '"4"' in diagnostic.message
    assert text_at(source, diagnostic.span) == '"4"'
    assert diagnostic.pointer == "/depots/3/repeat"


def test_missing_key_names_it_and_points_at_the_object(checker: SchemaChecker) -> None:
    source, found = check(checker, '"kind": "depotsEmpty", ', "")
    (diagnostic,) = found
    assert diagnostic.code == "CZ202" and "'kind'" in diagnostic.message
    assert text_at(source, diagnostic.span) == '"winCondition"'


def test_each_missing_key_is_reported_once(checker: SchemaChecker) -> None:
    source, found = check(checker, '{ "name": "waste", "type": "Waste", "col": 1, "row": 0 }', "{}")
    assert sorted(d.message.split("'")[-2] for d in found) == ["name", "type"]
    assert all(text_at(source, d.span) == "{" for d in found)


def test_enum_value_with_did_you_mean(checker: SchemaChecker) -> None:
    source, found = check(checker, '"type": "Tableau"', '"type": "tableau"')
    (diagnostic,) = found
    assert diagnostic.code == "CZ203"
    assert diagnostic.hint == "did you mean 'Tableau'?"
    assert text_at(source, diagnostic.span) == '"tableau"'


def test_unknown_keys_are_warnings_on_the_key(checker: SchemaChecker) -> None:
    source, found = check(checker, '"perRow": 2 }', '"perRow": 2, "perrow": 3, "zzz": 1 }')
    assert [d.code for d in found] == ["CZ204", "CZ204"]
    assert all(d.severity is Severity.WARNING for d in found)
    by_key = {text_at(source, d.span): d for d in found}
    assert by_key['"perrow"'].hint == "did you mean 'perRow'?"
    assert by_key['"zzz"'].hint is None


def test_unknown_key_under_unevaluated_properties() -> None:
    document = {
        "$defs": {"base": {"properties": {"kind": {"type": "string"}, "depot": {"type": "string"}}}},
        "type": "object",
        "allOf": [{"$ref": "#/$defs/base"}],
        "properties": {"count": {"type": "integer"}},
        "unevaluatedProperties": False,
    }
    source = SourceFile.from_text('{"kind": "flip", "depott": "x", "count": 1}', "t")
    (diagnostic,) = SchemaChecker(document).check(source)
    assert diagnostic.code == "CZ204" and diagnostic.hint == "did you mean 'depot'?"
    assert text_at(source, diagnostic.span) == '"depott"'


@pytest.mark.parametrize(
    ("old", "new", "text"),
    [
        ('"repeat": 4', '"repeat": 0', "0"),
        ('"repeat": 4', '"repeat": 1001', "1001"),
        ('"col": 1, "row": 0', '"col": -1, "row": 0', "-1"),
    ],
)
def test_out_of_range(checker: SchemaChecker, old: str, new: str, text: str) -> None:
    source, found = check(checker, old, new)
    (diagnostic,) = found
    assert diagnostic.code == "CZ205"
    assert text_at(source, diagnostic.span) == text


def test_empty_list_is_out_of_range(checker: SchemaChecker) -> None:
    text = '{"name": "x", "depots": [], "winCondition": {"kind": "when", "when": "true"}}'
    (diagnostic,) = checker.check(SourceFile.from_text(text, "t"))
    assert diagnostic.code == "CZ205" and "at least 1" in diagnostic.message


def test_pattern(checker: SchemaChecker) -> None:
    source, found = check(checker, '"name": "tab"', '"name": "my tab"')
    (diagnostic,) = found
    assert diagnostic.code == "CZ206"
    assert text_at(source, diagnostic.span) == '"my tab"'


def test_object_form_of_an_alternative_reports_its_own_problem(checker: SchemaChecker) -> None:
    source, found = check(checker, '"reason": "One higher or lower"', '"reasn": "One higher or lower"')
    (diagnostic,) = found
    assert diagnostic.code == "CZ204" and diagnostic.hint == "did you mean 'reason'?"


def test_a_misspelt_rule_name_gets_did_you_mean(checker: SchemaChecker) -> None:
    source, found = check(checker, '"perRow": 2 }', '"perRow": 2, "acceptRule": "nonne" }')
    (diagnostic,) = found
    assert diagnostic.code == "CZ203" and diagnostic.hint == "did you mean 'none'?"
    assert text_at(source, diagnostic.span) == '"nonne"'


ALTERNATIVES = {
    "type": "object",
    "properties": {
        "rule": {
            "oneOf": [
                {"enum": ["none", "any"]},
                {"type": "object", "properties": {"when": {"type": "string"}}, "additionalProperties": False},
            ]
        },
        "count": {"anyOf": [{"type": "integer", "minimum": 1}, {"const": "all"}]},
    },
}


@pytest.mark.parametrize(
    ("text", "code", "words"),
    [
        ('{"rule": "nonne"}', "CZ203", ['"none"', '"any"', "an object", 'not "nonne"', "did you mean 'none'?"]),
        ('{"rule": 7}', "CZ201", ['"none"', "an object", "not 7"]),
        ('{"count": "some"}', "CZ203", ["a whole number", '"all"']),
        ('{"count": 0}', "CZ205", ["at least 1"]),
        ('{"rule": {"whn": "true"}}', "CZ204", ["'whn'", "did you mean 'when'?"]),
    ],
)
def test_alternatives_report_the_relevant_problem(text: str, code: str, words: list[str]) -> None:
    (diagnostic,) = SchemaChecker(ALTERNATIVES).check(SourceFile.from_text(text, "t"))
    assert diagnostic.code == code
    said = f"{diagnostic.message} {diagnostic.hint}"
    for word in words:
        assert word in said


def test_alternative_with_a_range_error_reports_the_range(checker: SchemaChecker) -> None:
    source, found = check(checker, '"faceUp": 3', '"faceUp": -3')
    (diagnostic,) = found
    assert diagnostic.code == "CZ205"
    assert text_at(source, diagnostic.span) == "-3"


def test_every_error_is_reported(checker: SchemaChecker) -> None:
    source = SourceFile.from_text(MINI.replace('"Golf"', '"Golff"').replace('"repeat": 4', '"repeat": 0'), "t")
    assert sorted(d.code for d in checker.check(source)) == ["CZ203", "CZ205"]


def test_unreadable_files_have_no_schema_diagnostics(checker: SchemaChecker) -> None:
    assert check_source(SourceFile.from_text("{", "t"), checker) == []


def test_one_value_rejected_by_several_keywords_is_reported_once() -> None:
    document = {
        "type": "object",
        "properties": {
            "kind": {"allOf": [{"enum": ["a", "b", "c", "d"]}, {"enum": ["b", "c", "x"]}]},
            "rule": {
                "type": ["string", "object"],
                "if": {"type": "string"},
                "then": {"enum": ["on"]},
                "else": {"type": "object"},
            },
        },
    }
    source = SourceFile.from_text('{"kind": "bb", "rule": 3}', "t")
    found = SchemaChecker(document).check(source)
    assert [d.code for d in found] == ["CZ203", "CZ201"]
    assert '"b", "c"' in found[0].message and '"a"' not in found[0].message and '"x"' not in found[0].message
    assert found[0].hint == "did you mean 'b'?"


@pytest.mark.parametrize(
    ("rule", "missing"),
    [
        ('{ "kind": "toBottom", "ranks": ["King"], "to": "tab" }', []),
        ('{ "kind": "toBottom", "ranks": ["King"] }', ["to"]),
        ('{ "kind": "toBottom", "to": "tab" }', ["ranks"]),
    ],
)
def test_to_bottom_needs_its_ranks_and_piles(checker: SchemaChecker, rule: str, missing: list[str]) -> None:
    source, found = check(checker, '"dealRules": [', f'"dealRules": [{rule}, ')
    assert sorted(d.message.split("'")[-2] for d in found if d.code == "CZ202") == missing
    assert [d for d in found if d.code != "CZ202"] == []
