"""Formatting through the server is byte-identical to `cardz fmt`; range formatting touches only its value."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from cardz_tools import fmt
from cardz_tools.lsp.formatting import NotFormatted, format_document, format_range
from tests.conftest import ROOT
from tests.lsp_support import apply_offsets

SEEDS = [ROOT / "games" / "monte-carlo.cardz", ROOT / "games" / "weathervane.cardz"]


def _apply(text: str, edits: list) -> str:
    return apply_offsets(text, [(e.start, e.end, e.new_text) for e in edits])


def _scrambled(text: str) -> str:
    """The same design with every key reversed and written on one line."""
    def reverse(value: object) -> object:
        if isinstance(value, dict):
            return {k: reverse(v) for k, v in reversed(list(value.items()))}
        if isinstance(value, list):
            return [reverse(v) for v in value]
        return value
    return json.dumps(reverse(json.loads(text)), ensure_ascii=False, indent=3) + "\r\n"


@pytest.mark.parametrize("seed", SEEDS, ids=lambda p: p.stem)
def test_formatting_gives_what_cardz_fmt_writes_byte_for_byte(seed: Path, tmp_path: Path) -> None:
    text = seed.read_text(encoding="utf-8")
    assert format_document(text) == []  # the seeds are canonical
    messy = _scrambled(text)
    on_disk = tmp_path / seed.name
    on_disk.write_bytes(messy.encode("utf-8"))
    subprocess.run([sys.executable, "-m", "cardz_tools", "fmt", str(on_disk)], check=True, cwd=ROOT,
                   capture_output=True, timeout=60)
    formatted = _apply(messy, format_document(messy))
    assert formatted.encode("utf-8") == on_disk.read_bytes()
    assert formatted == text


def test_the_edits_replace_only_the_lines_that_change() -> None:
    text = SEEDS[0].read_text(encoding="utf-8")
    messy = text.replace('  "depotOnly": true,\n', '  "depotOnly":    true  ,\n')
    edits = format_document(messy)
    assert len(edits) == 1 and edits[0].new_text == '  "depotOnly": true,\n'
    assert _apply(messy, edits) == text


@pytest.mark.parametrize("bad", ['{ "name": "x", }', "\ufeff{}", "", '{"a": NaN}'])
def test_text_that_fmt_refuses_gets_no_edits_and_a_reason(bad: str) -> None:
    with pytest.raises(NotFormatted):
        format_document(bad)
    with pytest.raises(NotFormatted):
        format_range(bad, 0, 0)


def test_range_formatting_rewrites_the_depot_holding_the_range_and_nothing_else() -> None:
    text = SEEDS[0].read_text(encoding="utf-8")
    depot = ('    { "type": "Foundation", "col": 5.5, "row": 1.5, "name": "discard", "acceptRule": "none",\n'
             '      "ejectRule": "locked" }')
    assert depot in text
    messy_depot = ('    { "name": "discard",   "type": "Foundation", "col": 5.5,\n'
                   '  "row": 1.5, "acceptRule": "none", "ejectRule": "locked" }')
    messy = text.replace(depot, messy_depot).replace('"depotOnly": true', '"depotOnly":  true')
    inside = messy.index('"ejectRule": "locked" }', messy.index(messy_depot))
    result = _apply(messy, format_range(messy, inside, inside + 3))
    assert depot in result  # the depot is canonical
    assert '"depotOnly":  true' in result  # the rest is untouched
    assert result.replace('"depotOnly":  true', '"depotOnly": true') == text


def test_range_formatting_widens_to_the_document_when_the_layout_needs_it() -> None:
    text = SEEDS[0].read_text(encoding="utf-8")
    # The whole design on one line: no depot starts where the canonical layout puts it.
    flat = json.dumps(json.loads(text), ensure_ascii=False)
    inside = flat.index('"discard"')
    assert _apply(flat, format_range(flat, inside, inside)) == fmt.format_text(flat)
