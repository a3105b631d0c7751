"""The outline (document symbols) and folding ranges."""

from __future__ import annotations

from cardz_tools.lsp.outline import SymbolKind, folding_ranges, outline
from cardz_tools.lsp.positions import TextIndex
from tests.conftest import ROOT

SEED = ROOT / "games" / "monte-carlo.cardz"
WEATHERVANE = ROOT / "games" / "weathervane.cardz"


def test_the_outline_lists_the_depots_deal_rules_conditions_and_scoring() -> None:
    text = SEED.read_text(encoding="utf-8")
    symbols = outline(text)
    assert [(s.name, s.kind) for s in symbols] == [
        ("Monte Carlo", SymbolKind.DESIGN), ("depots", SymbolKind.LIST), ("dealRules", SymbolKind.LIST),
        ("winCondition", SymbolKind.CONDITION), ("lossCondition", SymbolKind.CONDITION),
        ("scoring", SymbolKind.SCORING),
    ]
    depots = symbols[1].children
    assert [(d.name, d.kind, d.detail) for d in depots] == [
        ("cell", SymbolKind.GROUP, "Tableau × 25"), ("stock", SymbolKind.DEPOT, "Stock"),
        ("discard", SymbolKind.DEPOT, "Foundation"),
    ]
    assert [c.name for c in depots[0].children] == ["acceptRule", "triggers"]
    assert [c.name for c in depots[1].children[-1].children] == ["consolidate"]
    assert [d.name for d in symbols[2].children] == ["dealGroup → cell"]
    assert symbols[3].detail == "allCardsIn" and symbols[5].detail == "count(discard)"


def test_ranges_hold_the_entry_and_the_selection_is_its_name() -> None:
    text = SEED.read_text(encoding="utf-8")
    index = TextIndex(text)
    stock = outline(text, index)[1].children[1]
    start, end = index.offset(stock.range.start), index.offset(stock.range.end)
    assert text[start] == "{" and text[end - 1] == "}" and '"name": "stock"' in text[start:end]
    assert text[index.offset(stock.selection.start):index.offset(stock.selection.end)] == '"stock"'


def test_no_outline_for_text_that_is_not_json_yet() -> None:
    assert outline('{ "name": "x", "depots": [ { "name": ') == []


def test_every_multiline_object_and_array_folds() -> None:
    text = WEATHERVANE.read_text(encoding="utf-8")
    folds = folding_ranges(text)
    lines = text.splitlines()
    assert folds[0].start_line == 0 and folds[0].end_line == len(lines) - 2  # the design, up to its closing brace
    multiline = sum(1 for line in lines if line.rstrip().endswith(("[", "{")))
    assert len(folds) >= multiline
    assert all(f.end_line > f.start_line or lines[f.end_line].strip() for f in folds)


def test_folding_ignores_brackets_in_strings_and_survives_broken_text() -> None:
    text = '{\n  "description": "a [ and a {",\n  "depots": [\n    { "name": "a",\n      "x": 1 }\n  ]\n'
    assert [(f.start_line, f.end_line) for f in folding_ranges(text)] == [(2, 4), (3, 4)]
