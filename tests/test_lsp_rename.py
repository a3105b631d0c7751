"""Find references and rename of depots and groups across names, references and expressions."""

from __future__ import annotations

from pathlib import Path

import pytest

from cardz_tools.lsp.document import Snapshot, lint_document
from cardz_tools.lsp.rename import (
    RenameRefused,
    prepare_rename,
    references,
    references_with_variants,
    rename,
    rename_with_variants,
)
from tests.conftest import ROOT
from tests.lsp_support import apply_edits

SEED = ROOT / "games" / "monte-carlo.cardz"
TEXT = SEED.read_text(encoding="utf-8")


def _at(text: str, needle: str, shift: int) -> tuple[Snapshot, object]:
    snapshot = Snapshot.of(text, SEED)
    return snapshot, snapshot.index.position(text.index(needle) + shift)


@pytest.mark.parametrize(("needle", "shift"), [
    ('"name": "cell"', 10), ("any(cell", 5), ('"to": "cell"', 8), ('"group": "cell"', 11),
])
def test_a_group_is_renamed_everywhere_from_any_of_its_places(needle: str, shift: int) -> None:
    snapshot, position = _at(TEXT, needle, shift)
    renamed = apply_edits(TEXT, rename(snapshot, position, "grid"))
    assert '"name": "grid"' in renamed and "any(grid, " in renamed and "any(c in grid," in renamed
    assert '"group": "grid"' in renamed and '"to": "grid"' in renamed
    assert '"cell"' not in renamed and "cell," not in renamed
    assert lint_document(renamed, SEED) == []
    assert len(references(snapshot, position)) == 5
    assert len(references(snapshot, position, include_declaration=False)) == 4


def test_a_member_reference_keeps_its_index_and_a_binder_spelt_like_the_depot_is_left_alone() -> None:
    shadowed = "count(depot) == 2 || all(discard in cell, !empty(discard))"
    text = TEXT.replace('"compact", "group": "cell"', '"compact", "group": "cell", "to": "cell[3]"').replace(
        "count(depot) == 2", shadowed)
    assert [d.code for d in lint_document(text, SEED) if d.severity.value == "error"] == []
    snapshot, position = _at(text, '"name": "discard"', 10)
    renamed = apply_edits(text, rename(snapshot, position, "pile"))
    assert "all(discard in cell, !empty(discard))" in renamed  # the binder's name, not the depot
    assert '"to": "pile"' in renamed and "count(pile)" in renamed
    snapshot, position = _at(text, '"name": "cell"', 10)
    renamed = apply_edits(text, rename(snapshot, position, "grid"))
    assert '"to": "grid[3]"' in renamed and "all(discard in grid, " in renamed


def test_a_site_name_spelt_like_a_depot_is_not_the_depot() -> None:
    # In an accept rule `depot` is the target pile, whatever the design names its depots.
    text = TEXT.replace('"name": "discard"', '"name": "depot"').replace('"to": "discard"', '"to": "depot"').replace(
        "count(discard)", "count(depot)")
    snapshot, position = _at(text, '"name": "depot"', 10)
    renamed = apply_edits(text, rename(snapshot, position, "discard"))
    assert "adjacent(source, depot) && !empty(depot)" in renamed  # the accept rule's site name is untouched
    assert '"to": "discard"' in renamed and "count(discard)" in renamed
    assert '"when": "count(depot) == 2"' in renamed  # a trigger's `depot` is its owner, not the depot


@pytest.mark.parametrize(("needle", "shift", "why"), [
    ("card.rank", 1, "only a depot or group name"),
    ('"depots": "Foundation"', 12, "not a depot type"),
    ('"from": "@self"', 10, "@self"),
    ('"kind": "move"', 2, "a key"),
    ("adjacent(", 2, "only a depot or group name"),
])
def test_prepare_rename_refuses_what_cannot_be_renamed(needle: str, shift: int, why: str) -> None:
    snapshot, position = _at(TEXT, needle, shift)
    with pytest.raises(RenameRefused, match=why):
        prepare_rename(snapshot, position)
    assert references(snapshot, position) == []


@pytest.mark.parametrize(("new_name", "why"), [
    ("stock", "already named"), ("2cell", "not a depot name"), ("Tableau", "depot type"), ("card", "site name"),
    ("count", "already means"), ("it", "already means"), ("Red", "already means"),
])
def test_rename_refuses_a_new_name_that_would_change_what_the_design_says(new_name: str, why: str) -> None:
    snapshot, position = _at(TEXT, '"name": "cell"', 10)
    with pytest.raises(RenameRefused, match=why):
        rename(snapshot, position, new_name)


def test_rename_needs_a_design_that_loads_and_refuses_in_a_variant(tmp_path: Path) -> None:
    snapshot, position = _at(TEXT.replace('"tools": "None"', '"tools": "None",'), '"name": "cell"', 10)
    with pytest.raises(RenameRefused, match="valid JSON"):
        prepare_rename(snapshot, position)
    (tmp_path / "base.cardz").write_text(TEXT, encoding="utf-8")
    variant = '{\n  "name": "Variant",\n  "extends": "base.cardz",\n  "scoring": { "value": "count(discard) + 1" }\n}\n'
    path = tmp_path / "variant.cardz"
    path.write_text(variant, encoding="utf-8")
    snapshot = Snapshot.of(variant, path)
    with pytest.raises(RenameRefused, match="extends another: .* renames it here too"):
        prepare_rename(snapshot, snapshot.index.position(variant.index("(discard") + 2))


VARIANT = """{
  "name": "Variant",
  "extends": "base.cardz",
  "depots": [{ "name": "discard", "row": 2 }],
  "winCondition": { "kind": "allCardsIn", "depots": "discard" },
  "scoring": { "value": "count(discard) + count(Foundation)" }
}
"""


def _base_and_variant(tmp_path: Path, variant: str = VARIANT) -> tuple[Snapshot, object, Snapshot]:
    base = tmp_path / "base.cardz"
    base.write_text(TEXT, encoding="utf-8")
    (tmp_path / "variant.cardz").write_text(variant, encoding="utf-8")
    snapshot = Snapshot.of(TEXT, base)
    return snapshot, snapshot.index.position(TEXT.index('"name": "discard"') + 10), \
        Snapshot(variant, None, tmp_path / "variant.cardz")


def test_renaming_in_a_design_renames_in_its_variants_and_leaves_other_designs_alone(tmp_path: Path) -> None:
    snapshot, position, variant = _base_and_variant(tmp_path)
    other_base = tmp_path / "other.cardz"
    other_base.write_text(TEXT, encoding="utf-8")
    unrelated = Snapshot(VARIANT.replace("base.cardz", "other.cardz"), None, tmp_path / "unrelated.cardz")
    chained = Snapshot('{ "name": "Chained", "extends": "variant.cardz", "scoring": { "value": "count(discard)" } }',
                       None, tmp_path / "chained.cardz")
    (tmp_path / "chained.cardz").write_text(chained.text, encoding="utf-8")
    edits, in_variants = rename_with_variants(snapshot, position, "pile", [variant, unrelated, chained])
    renamed_base = apply_edits(TEXT, edits)
    renamed_variant = apply_edits(VARIANT, in_variants[0])
    assert in_variants[1] == []  # extends another design
    assert '"name": "pile"' in renamed_variant and '"depots": "pile"' in renamed_variant
    assert "count(pile) + count(Foundation)" in renamed_variant and "discard" not in renamed_variant
    assert apply_edits(chained.text, in_variants[2]).count("count(pile)") == 1  # a variant of a variant
    (tmp_path / "base.cardz").write_text(renamed_base, encoding="utf-8")
    (tmp_path / "variant.cardz").write_text(renamed_variant, encoding="utf-8")
    assert lint_document(renamed_variant, tmp_path / "variant.cardz") == []  # the variant still loads and lints


def test_a_rename_a_variant_cannot_follow_is_refused_saying_which_variant(tmp_path: Path) -> None:
    snapshot, position, variant = _base_and_variant(tmp_path, VARIANT.replace(
        '[{ "name": "discard", "row": 2 }]', '[{ "name": "discard", "row": 2 }, { "type": "Waste", "name": "pile",'
        ' "col": 7, "row": 0 }]'))
    with pytest.raises(RenameRefused, match="in the variant variant.cardz: a depot or group is already named 'pile'"):
        rename_with_variants(snapshot, position, "pile", [variant])
    broken = Snapshot(VARIANT.replace('"row": 2 }', '"row": 2 },'), None, variant.path)
    with pytest.raises(RenameRefused, match="open variant variant.cardz does not load"):
        rename_with_variants(snapshot, position, "pile", [broken])
    edits, in_variants = rename_with_variants(snapshot, position, "pile", [Snapshot(
        broken.text.replace("base.cardz", "other.cardz"), None, variant.path)])
    assert edits and in_variants == [[]]  # a broken design that extends another one does not stop it


def test_references_in_a_design_include_the_places_its_variants_write_the_name(tmp_path: Path) -> None:
    snapshot, position, variant = _base_and_variant(tmp_path)
    unrelated = Snapshot(VARIANT.replace("base.cardz", "other.cardz"), None, tmp_path / "unrelated.cardz")
    here, in_variants = references_with_variants(snapshot, position, True, [variant, unrelated])
    assert here == references(snapshot, position)
    written = [VARIANT[variant.index.offset(r.start):variant.index.offset(r.end)] for r in in_variants[0]]
    assert written == ["discard"] * 3 and in_variants[1] == []
    _, without = references_with_variants(snapshot, position, False, [variant, unrelated])
    assert len(without[0]) == 2  # the variant's entry that names the depot counts as a declaration
