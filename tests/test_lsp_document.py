"""Editor diagnostics are `cardz lint`'s, on the unsaved text; variants resolve `extends` next to the file."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from cardz_tools.diagnostics import Severity
from cardz_tools.expr import Site
from cardz_tools.lint import lint_text
from cardz_tools.lsp.definition import definition
from cardz_tools.lsp.document import Snapshot, design_context, lint_document
from cardz_tools.lsp.positions import TextIndex
from tests.conftest import ROOT

GAMES = ROOT / "games"


@pytest.fixture()
def variant(tmp_path: Path) -> Path:
    """weathervane.cardz and its variant weathervane-6.cardz in a fresh folder."""
    for name in ("weathervane.cardz", "weathervane-6.cardz"):
        shutil.copy(GAMES / name, tmp_path / name)
    return tmp_path / "weathervane-6.cardz"


def _with_scoring(path: Path, value: str) -> str:
    """The variant's text with a scoring of its own (never saved)."""
    text = path.read_text(encoding="utf-8")
    return text.replace('"dealRules":', f'"scoring": {{ "value": "{value}" }},\n  "dealRules":')


def test_the_same_diagnostics_as_lint_with_ranges_hints_and_codes() -> None:
    text = (GAMES / "monte-carlo.cardz").read_text(encoding="utf-8").replace("card.rank", "card.rnak")
    [expected] = lint_text(text)
    [found] = lint_document(text, None)
    assert (found.code, found.severity) == (expected.code, Severity.ERROR)
    assert found.range == TextIndex(text).span_range(expected.span)
    assert found.message == f"{expected.message}\nhint: {expected.hint}"


def test_a_variants_unsaved_text_is_linted_against_the_design_it_extends(variant: Path) -> None:
    assert lint_document(variant.read_text(encoding="utf-8"), variant) == []
    text = _with_scoring(variant, "count(stok)")
    [found] = lint_document(text, variant)
    assert found.code == "CZ401" and "stock" in found.message
    index = TextIndex(text)
    start = text.index("count(stok)") + len("count(")
    assert (index.offset(found.range.start), index.offset(found.range.end)) == (start, start + 4)
    assert "stok" not in variant.read_text(encoding="utf-8")  # the file on disk was not touched


def test_a_finding_in_the_extended_design_is_shown_on_extends(variant: Path) -> None:
    base = variant.with_name("weathervane.cardz")
    base.write_text(
        base.read_text(encoding="utf-8").replace("count(stock, empty(Tableau))", "count(stok)"), encoding="utf-8"
    )
    text = variant.read_text(encoding="utf-8")
    [found] = lint_document(text, variant)
    index = TextIndex(text)
    assert text[index.offset(found.range.start) : index.offset(found.range.end)] == '"weathervane.cardz"'
    assert found.code == "CZ401" and found.message.startswith("in ")
    [related] = found.related
    assert related.file.resolve() == base.resolve()
    base_index = TextIndex(base.read_text(encoding="utf-8"))
    assert (
        base.read_text(encoding="utf-8")[base_index.offset(related.range.start) : base_index.offset(related.range.end)]
        == "stok"
    )


def test_a_variants_expressions_know_their_site_and_the_depots_of_the_design_it_extends(variant: Path) -> None:
    text = _with_scoring(variant, "count(tab) + count(stock)")
    context = design_context(text, variant)
    assert context is not None and context.site_at("/scoring/value") is Site.SCORING
    snapshot = Snapshot(text, context, variant)
    [(file, where)] = definition(snapshot, snapshot.index.position(text.index("count(tab)") + 7))
    assert file is not None and file.name == "weathervane.cardz"
    base = file.read_text(encoding="utf-8")
    base_index = TextIndex(base)
    assert base[base_index.offset(where.start) : base_index.offset(where.end)] == '"tab"'


def test_text_that_does_not_parse_has_its_syntax_error_and_no_design() -> None:
    text = '{ "name": "x", }'
    [found] = lint_document(text, None)
    assert found.code == "CZ104"
    assert design_context(text, None) is None
