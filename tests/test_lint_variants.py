"""Linting a variant: the merged design is checked, each diagnostic points at the file that wrote the value."""

from __future__ import annotations

from pathlib import Path

from cardz_tools.lint import lint_paths
from cardz_tools.reporters import ReportOptions, render

GAMES = Path(__file__).parent.parent / "games"


def _variant_pair(tmp_path: Path, base_edit: tuple[str, str], variant: str) -> Path:
    base = (GAMES / "weathervane.cardz").read_text(encoding="utf-8").replace(*base_edit)
    (tmp_path / "weathervane.cardz").write_text(base, encoding="utf-8")
    path = tmp_path / "variant.cardz"
    path.write_text(variant, encoding="utf-8")
    return path


def test_shipped_variant_lints_clean() -> None:
    result = lint_paths([GAMES / "weathervane-6.cardz"])
    assert result.diagnostics == []


def test_each_diagnostic_points_at_the_file_that_wrote_the_value(tmp_path: Path) -> None:
    variant = (
        '{\n  "name": "V",\n  "extends": "weathervane.cardz",\n'
        '  "depots": [{ "name": "vane", "acceptRule": { "follow": true, "when": "card.rnak != Ace" } }]\n}\n'
    )
    path = _variant_pair(tmp_path, ('"depots": "Tableau" }', '"depots": "Tableaux" }'), variant)
    result = lint_paths([path])
    by_code = {(Path(d.file).name, d.code): d for d in result.diagnostics}
    field = by_code[("variant.cardz", "CZ402")]
    assert (field.line, field.column, field.span.end_column) == (4, 78, 82)  # under `rnak`
    reference = by_code[("weathervane.cardz", "CZ302")]
    assert reference.line == 22 and reference.pointer == "/winCondition/depots"
    text = render(result, "text", ReportOptions(color=False))
    # The excerpt under each diagnostic comes from the file it names.
    assert '"depots": "Tableaux"' in text and '"when": "card.rnak != Ace"' in text


def test_missing_base_is_a_diagnostic(tmp_path: Path) -> None:
    path = tmp_path / "lonely.cardz"
    path.write_text('{ "name": "L", "extends": "nowhere.cardz" }\n', encoding="utf-8")
    result = lint_paths([path])
    assert [d.code for d in result.diagnostics] == ["CZ650"]
    assert result.exit_code == 1
