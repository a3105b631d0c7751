"""Go to definition: a depot name in an expression or a reference -> its `name` value."""

from __future__ import annotations

from pathlib import Path

from cardz_tools.lsp.definition import definition
from cardz_tools.lsp.document import Snapshot
from tests.conftest import ROOT

SEED = ROOT / "games" / "monte-carlo.cardz"
TEXT = SEED.read_text(encoding="utf-8")
SNAPSHOT = Snapshot.of(TEXT, SEED)


def _targets(needle: str, shift: int) -> list[tuple[Path | None, int]]:
    found = definition(SNAPSHOT, SNAPSHOT.index.position(TEXT.index(needle) + shift))
    return [(file, SNAPSHOT.index.offset(where.start)) for file, where in found]


def _name_value(name: str) -> int:
    return TEXT.index(f'"name": "{name}"') + len('"name": ')


def test_a_depot_in_an_expression_leads_to_its_name() -> None:
    assert _targets("empty(stock)", 8) == [(None, _name_value("stock"))]
    assert _targets("count(discard)", 8) == [(None, _name_value("discard"))]
    assert _targets("any(cell,", 5) == [(None, _name_value("cell"))]


def test_references_lead_to_the_depot_they_name() -> None:
    assert _targets('"to": "discard"', 8) == [(None, _name_value("discard"))]
    assert _targets('"from": "stock"', 10) == [(None, _name_value("stock"))]
    assert _targets('"from": "@self"', 10) == [(None, _name_value("cell"))]  # the depot owning the trigger
    assert _targets('"depots": "Foundation"', 13) == [(None, _name_value("discard"))]  # every depot of the type


def test_names_that_are_not_depots_lead_nowhere() -> None:
    assert _targets("card.rank", 1) == []
    assert _targets("card.rank", 6) == []
    assert _targets("adjacent(", 2) == []
    assert _targets('"kind": "move"', 10) == []
