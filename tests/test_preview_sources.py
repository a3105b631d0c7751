"""The preview's data sources: checking a file, the sample deal, the quick summary's shapes."""

from __future__ import annotations

from pathlib import Path

import pytest

from cardz_tools.cards import card_rank, identity, is_face_up, same_cards, shuffle, standard_deck
from cardz_tools.diagnostics import Span
from cardz_tools.preview.sources import (
    BoardUnavailable,
    Summary,
    SummaryStatus,
    check_file,
    diagnose,
    excerpt,
    quick_summary,
    safe_summary,
    sample_board,
)

GAMES = Path(__file__).resolve().parent.parent / "games"


@pytest.mark.parametrize("name", ["monte-carlo.cardz", "weathervane.cardz"])
def test_seed_designs_check_clean_and_model(name: str) -> None:
    checked = check_file(GAMES / name)
    assert checked.diagnostics == () and checked.design is not None and not checked.has_errors


@pytest.mark.parametrize(
    "content, code",
    [
        (b"", "CZ103"),
        (b"\xef\xbb\xbf{}", "CZ102"),
        (b'{"name": "\xff"}', "CZ101"),
        (b'{\n  "name": "x",\n  "depots": [\n', "CZ104"),
        (b"[1, 2]", "CZ2"),
        (b'{"name": "x", "depots": [{"name": "a", "type": "Nowhere"}], "winCondition": {}}', "CZ2"),
    ],
)
def test_bad_files_give_a_diagnostic_and_no_design(tmp_path: Path, content: bytes, code: str) -> None:
    path = tmp_path / "bad.cardz"
    path.write_bytes(content)
    checked = check_file(path)
    assert any(d.code.startswith(code) for d in checked.diagnostics), checked.diagnostics
    assert checked.design is None and checked.has_errors


def test_a_design_with_semantic_errors_still_has_a_board(tmp_path: Path) -> None:
    path = tmp_path / "overlap.cardz"
    text = (GAMES / "weathervane.cardz").read_text(encoding="utf-8")
    path.write_text(
        text.replace('"col": 1, "row": 0, "name": "waste"', '"col": 0, "row": 0, "name": "waste"'), encoding="utf-8"
    )
    checked = check_file(path)
    assert "CZ304" in [d.code for d in checked.diagnostics] and checked.design is not None


def test_the_lint_configuration_applies(tmp_path: Path) -> None:
    from cardz_tools.config import LintConfig

    path = tmp_path / "overlap.cardz"
    text = (GAMES / "weathervane.cardz").read_text(encoding="utf-8")
    path.write_text(
        text.replace('"col": 1, "row": 0, "name": "waste"', '"col": 0, "row": 0, "name": "waste"'), encoding="utf-8"
    )
    assert "CZ304" not in [d.code for d in check_file(path, LintConfig(ignore=("CZ304",))).diagnostics]


def test_a_missing_file_is_a_diagnostic(tmp_path: Path) -> None:
    assert [d.code for d in diagnose(tmp_path / "gone.cardz")] == ["CZ100"]


def test_json_syntax_errors_point_at_the_line(tmp_path: Path) -> None:
    path = tmp_path / "bad.cardz"
    path.write_text('{\n  "name": "x",\n  "depots" [\n', encoding="utf-8")
    (diagnostic,) = diagnose(path)
    assert (diagnostic.span.line, diagnostic.span.column) == (3, 12)


def test_excerpt_clips_long_lines_around_the_span() -> None:
    line = "x" * 300 + "HERE" + "y" * 300
    shown = excerpt([line], Span(1, 301, 1, 305), width=60)
    assert shown is not None and len(shown.text) == 62 and shown.text[0] == shown.text[-1] == "…"
    assert shown.text[shown.start : shown.end] == "HERE"
    start = excerpt([line], Span(1, 2, 1, 3), width=60)
    assert start is not None and start.text == "x" * 60 + "…" and (start.start, start.end) == (1, 2)
    end = excerpt([line], Span(1, 604, 1, 605), width=60)
    assert end is not None and end.text == "…" + "y" * 60 and end.text[end.start : end.end] == "y"
    assert excerpt(["short"], Span(4, 1, 4, 2)) is None


def test_monte_carlo_deal_fills_the_grid_and_stocks_the_rest_in_deck_order() -> None:
    design = check_file(GAMES / "monte-carlo.cardz").design
    assert design is not None
    piles = sample_board(design, 42)
    deck = shuffle(standard_deck(), 42)
    cells = design.resolve("cell")
    assert cells is not None
    assert [identity(piles[i][0]) for i in cells] == deck[:25]
    assert all(len(piles[i]) == 1 and is_face_up(piles[i][0]) for i in cells)
    stock = piles[design.depot_named("stock").index]
    assert len(stock) == 27 and not any(is_face_up(c) for c in stock)
    assert identity(stock[-1]) == deck[25]  # the next card in deck order is the stock's top
    assert same_cards([c for pile in piles for c in pile], standard_deck())


def test_weathervane_deal_is_round_robin_face_down_then_face_up() -> None:
    design = check_file(GAMES / "weathervane.cardz").design
    assert design is not None
    piles = sample_board(design, 9)
    deck = shuffle(standard_deck(), 9)
    tabs = design.resolve("tab")
    assert tabs is not None
    for column, depot in enumerate(tabs):
        pile = piles[depot]
        assert [is_face_up(c) for c in pile] == [False] * 5 + [True]
        assert identity(pile[0]) == deck[column]  # round robin: the first round gives each column one card
        assert identity(pile[-1]) == deck[35 + column]
    vane = piles[design.depot_named("vane").index]
    assert [identity(c) for c in vane] == [deck[42]] and is_face_up(vane[0])
    assert len(piles[design.depot_named("stock").index]) == 9
    assert sample_board(design, 9) == piles and sample_board(design, 10) != piles


def test_remove_rule_takes_ranks_off_the_board(tmp_path: Path) -> None:
    path = tmp_path / "gaps.cardz"
    path.write_text(
        '{"name": "Gaps", "depots": [{"name": "cell", "type": "Tableau", "repeat": 52, "perRow": 13}],'
        ' "dealRules": [{"kind": "dealGroup", "to": "cell", "faceUp": 1}, {"kind": "remove", "ranks": ["Ace"]}],'
        ' "winCondition": {"kind": "when", "when": "false"}}',
        encoding="utf-8",
    )
    design = check_file(path).design
    assert design is not None
    piles = sample_board(design, 1)
    assert sum(len(p) for p in piles) == 48 and all(card_rank(c) != 1 for p in piles for c in p)


def test_summary_from_a_sim_report() -> None:
    summary = Summary.from_report(
        {
            "playouts": 200,
            "wins": 30,
            "win_rate": 0.15,
            "win_rate_interval": [0.1, 0.2],
            "stuck_at_deal": 2,
            "non_terminating": 0,
            "findings": [{"kind": "never-won", "severity": "warning", "message": "m"}],
            "elapsed_s": 1.5,
        }
    )
    assert summary.status is SummaryStatus.DONE and summary.win_rate_interval == (0.1, 0.2)
    assert summary.findings[0].kind == "never-won" and summary.stuck_at_deal == 2


def test_safe_summary_never_raises() -> None:
    summary = safe_summary("{not json", 5, 0)
    assert summary.status is SummaryStatus.FAILED and summary.message


def test_quick_summary_of_a_seed_design_is_reproducible() -> None:
    text = (GAMES / "monte-carlo.cardz").read_text(encoding="utf-8")
    first = quick_summary(text, 30, 5)
    assert first.status is SummaryStatus.DONE and first.playouts == 30
    assert (
        first.wins == round(first.win_rate * 30)
        and first.win_rate_interval[0] <= first.win_rate <= first.win_rate_interval[1]
    )
    assert quick_summary(text, 30, 5).wins == first.wins


def test_a_design_the_engine_cannot_deal_says_why(tmp_path: Path) -> None:
    path = tmp_path / "misdealt.cardz"
    text = (GAMES / "weathervane.cardz").read_text(encoding="utf-8")
    path.write_text(text.replace('"to": "vane", "faceUp": 1', '"to": "vain", "faceUp": 1'), encoding="utf-8")
    checked = check_file(path)
    assert checked.design is not None and "CZ302" in [d.code for d in checked.diagnostics]
    with pytest.raises(BoardUnavailable, match="the engine cannot deal this design"):
        sample_board(checked.design, 0)


def test_a_variant_models_merged_and_its_diagnostics_quote_the_file_they_lie_in(tmp_path: Path) -> None:
    base, variant = tmp_path / "base.cardz", tmp_path / "variant.cardz"
    text = (GAMES / "monte-carlo.cardz").read_text(encoding="utf-8")
    base.write_text(text.replace("card.rank == top.rank", "card.rank == top.rnak"), encoding="utf-8")
    variant.write_text('{"name": "Variant", "extends": "base.cardz", "decks": 2}', encoding="utf-8")
    checked = check_file(variant)
    (typo,) = [d for d in checked.diagnostics if d.code == "CZ402"]
    assert checked.is_elsewhere(typo) and typo.file.endswith("base.cardz")
    shown = checked.excerpt_for(typo)
    assert shown is not None and shown.text[shown.start : shown.end] == "rnak"
    assert checked.design is not None and checked.design.decks == 2 and checked.design.name == "Variant"
    assert checked.design_json is not None and '"extends"' not in checked.design_json


def test_the_seed_variant_models_as_its_flattened_design() -> None:
    checked = check_file(GAMES / "weathervane-6.cardz")
    assert checked.diagnostics == () and checked.design is not None
    assert checked.design.name == "Weathervane (six hidden)" and len(checked.design.depots) == 10
    piles = sample_board(checked.design, 0)
    tabs = checked.design.resolve("tab")
    assert tabs is not None and all(len(piles[i]) == 7 for i in tabs)
