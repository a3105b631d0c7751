"""Inlay hints in a variant: the inherited type of each depot it changes, and the name of the design it extends."""

from __future__ import annotations

from pathlib import Path

from cardz_tools.lsp.document import Snapshot
from cardz_tools.lsp.hints import inlay_hints
from tests.conftest import ROOT

SEED = ROOT / "games" / "monte-carlo.cardz"
VARIANT = """{
  "name": "Variant",
  "extends": "base.cardz",
  "depots": [
    { "name": "discard", "row": 2 },
    { "name": "cell", "col": 1 },
    { "name": "spare", "type": "Waste", "col": 7, "row": 0 },
    { "name": "stock", "remove": true }
  ],
  "dealRules": [{ "kind": "dealGroup", "to": "cell", "faceUp": 1 }]
}
"""


def test_a_variant_shows_the_type_each_depot_it_changes_inherits_and_the_name_of_its_base(tmp_path: Path) -> None:
    (tmp_path / "base.cardz").write_text(SEED.read_text(encoding="utf-8"), encoding="utf-8")
    path = tmp_path / "variant.cardz"
    path.write_text(VARIANT, encoding="utf-8")
    snapshot = Snapshot.of(VARIANT, path)
    hints = [(snapshot.index.offset(hint.position), hint.label, hint.tooltip) for hint in inlay_hints(snapshot)]
    assert hints == [
        (VARIANT.index('"base.cardz"') + len('"base.cardz"'), "= Monte Carlo", "the name of the design it extends"),
        (VARIANT.index('"discard"') + len('"discard"'), "Foundation", "inherited from base.cardz"),
        (VARIANT.index('"cell"') + len('"cell"'), "Tableau × 25", "inherited from base.cardz"),
    ]  # not on a depot that says its type itself, nor on one it removes


def test_a_design_that_extends_nothing_or_does_not_load_has_no_hints(tmp_path: Path) -> None:
    assert inlay_hints(Snapshot.of(SEED.read_text(encoding="utf-8"), SEED)) == []
    path = tmp_path / "variant.cardz"
    assert inlay_hints(Snapshot.of(VARIANT, path)) == []  # base.cardz is missing: the variant does not load
