"""Quick fixes: every did-you-mean applies, unknown keys get the closest key, a TODO marker can be removed."""

from __future__ import annotations

from pathlib import Path

import pytest

from cardz_tools.lsp.actions import quick_fixes
from cardz_tools.lsp.document import lint_document
from cardz_tools.lsp.positions import TextIndex
from tests.conftest import ROOT
from tests.lsp_support import apply_offsets

SEED = ROOT / "games" / "monte-carlo.cardz"
TEXT = SEED.read_text(encoding="utf-8")


def _fixed(text: str, path: Path = SEED) -> tuple[list[str], str]:
    """Apply the first fix of every diagnostic; the codes that had one, and the resulting text."""
    index = TextIndex(text)
    edits, codes = [], []
    for found in lint_document(text, path):
        start, end = index.offset(found.range.start), index.offset(found.range.end)
        fixes = quick_fixes(text, start, end, found.code, found.message)
        if fixes:
            codes.append(found.code)
            edits.append((fixes[0].start, fixes[0].end, fixes[0].new_text))
    return codes, apply_offsets(text, edits)


@pytest.mark.parametrize(("typo", "code"), [
    (("card.rank", "card.rnak"), "CZ402"),                       # a field
    (("adjacent(source", "adjacent(sourec"), "CZ401"),           # a site name
    (("adjacent(", "adjacnet("), "CZ403"),                       # a function
    (('"perRow"', '"perRwo"'), "CZ204"),                         # a key
    (('"Foundation", "col"', '"Foundatoin", "col"'), "CZ203"),   # an enum value
    (('"to": "discard"', '"to": "dicsard"'), "CZ302"),           # a depot reference
    (('"depots": "Foundation"', '"depots": "Foundatoin"'), "CZ302"),
])
def test_every_did_you_mean_is_a_fix_that_gives_back_the_seed(typo: tuple[str, str], code: str) -> None:
    broken = TEXT.replace(*typo, 1)
    assert broken != TEXT
    codes, fixed = _fixed(broken)
    assert code in codes
    assert fixed == TEXT
    assert lint_document(fixed, SEED) == []


def test_a_fix_in_an_expression_keeps_escapes_and_emoji_around_it() -> None:
    broken = TEXT.replace('"when": "adjacent(source, depot)', '"when": "/* \\u00e9 */ adjacent(sourec, depot)'.replace(
        "/* \\u00e9 */ ", ""), 1).replace('"reason": "A card', '"reason": "🃏 A card', 1)
    codes, fixed = _fixed(broken)
    assert codes == ["CZ401"] and "adjacent(source, depot)" in fixed and "🃏" in fixed


def test_an_unknown_key_without_a_close_match_offers_the_closest_allowed_key() -> None:
    broken = TEXT.replace('"planner": true', '"plan_it": true', 1)
    found = [d for d in lint_document(broken, SEED) if d.code == "CZ204"]
    assert len(found) == 1 and "did you mean" not in found[0].message
    index = TextIndex(broken)
    fixes = quick_fixes(broken, index.offset(found[0].range.start), index.offset(found[0].range.end), "CZ204",
                        found[0].message)
    assert [(fix.title, fix.new_text, fix.preferred) for fix in fixes] == [("Change to 'planner'", '"planner"', False)]


def test_the_closest_key_is_one_the_object_does_not_have_yet() -> None:
    broken = TEXT.replace('"perRow": 5,', '"perRow": 5, "perRo": 1,', 1)
    found = [d for d in lint_document(broken, SEED) if d.code == "CZ204"]
    index = TextIndex(broken)
    fixes = quick_fixes(broken, index.offset(found[0].range.start), index.offset(found[0].range.end), "CZ204",
                        found[0].message)
    assert fixes and fixes[0].new_text not in ('"perRow"', '"perRo"') and not fixes[0].preferred


def test_a_todo_marker_can_be_removed_and_the_decision_stays() -> None:
    broken = TEXT.replace('"reason": "A card pairs', '"reason": "TODO: A card pairs', 1)
    codes, fixed = _fixed(broken)
    assert codes == ["CZ601"] and fixed == TEXT


def test_no_fix_without_a_suggestion_or_on_a_range_that_moved() -> None:
    broken = TEXT.replace("card.rank", "card.zzzz", 1)
    found = lint_document(broken, SEED)
    assert [d.code for d in found] == ["CZ402"]
    index = TextIndex(broken)
    start, end = index.offset(found[0].range.start), index.offset(found[0].range.end)
    assert quick_fixes(broken, start, end, "CZ402", found[0].message) == []
    # The client sends back a diagnostic whose range no longer holds a name (the text changed meanwhile).
    assert quick_fixes(broken, start - 1, end, "CZ402", "a Card has no field\nhint: did you mean 'rank'?") == []


def test_a_variant_removing_a_misspelled_depot_gets_the_inherited_name(tmp_path: Path) -> None:
    (tmp_path / "base.cardz").write_text(TEXT, encoding="utf-8")
    variant = ('{\n  "name": "No stock",\n  "extends": "base.cardz",\n'
               '  "depots": [{ "name": "stok", "remove": true }]\n}\n')
    path = tmp_path / "variant.cardz"
    codes, fixed = _fixed(variant, path)
    assert "CZ654" in codes and '{ "name": "stock", "remove": true }' in fixed
