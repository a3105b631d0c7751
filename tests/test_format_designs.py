"""Every game design in docs/format.md (the ```json cardz blocks) lints clean, so the doc and the code agree."""

from __future__ import annotations

import json
import re

import pytest

from cardz_tools.lint import lint_text

from .conftest import ROOT

FORMAT_MD = ROOT / "docs" / "format.md"
_BLOCK = re.compile(r"^```json cardz\n(.*?)^```", re.MULTILINE | re.DOTALL)
DESIGNS = _BLOCK.findall(FORMAT_MD.read_text(encoding="utf-8"))
GAMES = {"Klondike", "FreeCell", "Golf", "Black Hole", "Pyramid", "Spider (one suit)", "Canfield", "Montana",
         "Château de cartes"}


def _name(block: str) -> str:
    return str(json.loads(block)["name"])


def test_the_doc_holds_every_game_section() -> None:
    assert GAMES <= {_name(block) for block in DESIGNS}


@pytest.mark.parametrize("block", DESIGNS, ids=_name)
def test_design_in_the_doc_lints_with_no_diagnostics(block: str) -> None:
    found = lint_text(block, f"{_name(block)}.cardz")
    assert [f"{d.code} {d.line}:{d.column} {d.message}" for d in found] == []
