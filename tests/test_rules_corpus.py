"""The rules-text corpus: every text yields a design that plays the same game as its pair.

``tests/examples/rules/corpus/`` holds rules texts (our own wording of each game's rules as
commonly published) in six languages, each paired in ``pairs.json`` with the design it should
yield: a shipped design in ``games/`` or a small variant beside the texts. ``held-out/`` holds
one more text per family, worded differently, that the reader was not tuned on. "Plays the same
game" is checked by behaviour (:mod:`cardz_tools.authoring.compare`): the same legal moves along
seeded random playouts and the same solver verdicts where both designs are decided.
"""

from __future__ import annotations

import functools
import io
import json
from collections import Counter
from pathlib import Path

import pytest

from cardz_tools.authoring import compare
from cardz_tools.authoring.compare import compare_designs, format_comparison, match_depots, swap_groups
from cardz_tools.authoring.lexicon import Language
from cardz_tools.authoring.rules_text import convert, format_report, run_from_rules
from cardz_tools.engine.game import Game
from cardz_tools.lint import lint_text
from cardz_tools.loading import open_design
from cardz_tools.model import build_design

ROOT = Path(__file__).parent.parent
RULES = Path(__file__).parent / "examples" / "rules"
CORPUS = RULES / "corpus"
HELD_OUT = RULES / "held-out"


def _pairs(folder: Path) -> dict[str, str]:
    pairs: dict[str, str] = json.loads((folder / "pairs.json").read_text(encoding="utf-8"))
    return pairs


@functools.cache
def _reference(path: str) -> Game:
    return Game(open_design(ROOT / path).design)


def _plays_the_same(folder: Path, text: str, reference: str) -> None:
    conversion = convert((folder / text).read_text(encoding="utf-8"), text)
    comparison = compare_designs(
        build_design(conversion.design), _reference(reference), deals=2, moves=20, solve_deals=1, budget=200
    )
    assert comparison.steps > 0
    assert comparison.same, format_comparison(comparison, text, reference)


def test_the_corpus_is_as_large_as_the_issue_asks() -> None:
    pairs = _pairs(CORPUS)
    languages = {name.split(".")[-2] for name in pairs}
    families = {_reference(path).design.family for path in pairs.values()}
    shapes = {path for path in pairs.values()}
    assert len(pairs) >= 24 and len(shapes) >= 10 and len(languages & {lang.value for lang in Language}) >= 5
    assert len(families) >= 7
    held_out = _pairs(HELD_OUT)
    assert {_reference(path).design.family for path in held_out.values()} >= families
    for name in (*pairs, *held_out):
        assert (CORPUS / name).exists() or (HELD_OUT / name).exists(), name


@pytest.mark.parametrize(("text", "reference"), list(_pairs(CORPUS).items()))
def test_corpus_text_plays_the_same_game(text: str, reference: str) -> None:
    _plays_the_same(CORPUS, text, reference)


@pytest.mark.parametrize(("text", "reference"), list(_pairs(HELD_OUT).items()))
def test_held_out_text_plays_the_same_game(text: str, reference: str) -> None:
    """Texts worded unlike the corpus: the design plays as the shipped one, without edits."""
    _plays_the_same(HELD_OUT, text, reference)


def test_language_of_each_corpus_text_is_detected() -> None:
    for name in (*_pairs(CORPUS), *_pairs(HELD_OUT)):
        folder = CORPUS if (CORPUS / name).exists() else HELD_OUT
        analysis = convert((folder / name).read_text(encoding="utf-8"), name).analysis
        assert analysis.language.language.value == name.split(".")[-2], name


def test_no_rule_accepts_everything() -> None:
    for name in (*_pairs(CORPUS), *_pairs(HELD_OUT)):
        folder = CORPUS if (CORPUS / name).exists() else HELD_OUT
        design = convert((folder / name).read_text(encoding="utf-8"), name).design
        for depot in design["depots"]:
            for key in ("acceptRule", "ejectRule"):
                rule = depot.get(key)
                assert not (isinstance(rule, dict) and rule.get("when", "").strip() == "true"), (
                    name,
                    depot["name"],
                    key,
                )


def test_the_report_says_what_each_sentence_set_and_what_it_could_not_use() -> None:
    text = (HELD_OUT / "klondike.de.txt").read_text(encoding="utf-8")
    report = format_report(convert(text, "klondike.de.txt"))
    assert "'found' acceptRule: builds suit up" in report
    assert "'tab' acceptRule: builds alternate down" in report
    assert "'stock' draw.count (cards turned per tap) = 3" in report
    assert "'stock' draw.redeals = unlimited" in report
    golf = convert("Golf\n\nNothing may be played on a King. The weather is nice today.", "golf.txt")
    lines = format_report(golf).splitlines()
    king = lines.index(next(line for line in lines if "Nothing may be played" in line))
    assert "on a King goes nothing" in lines[king + 1]
    weather = lines.index(next(line for line in lines if "weather" in line))
    assert "not understood" in lines[weather + 1]


def test_a_text_that_says_otherwise_gets_the_variant() -> None:
    """The usual rule is written only where the text agrees or is silent; a stated variant changes the game."""
    by_suit = convert("Klondike\n\nBuild the columns down in suit. An empty column takes any card.", "k.txt").design
    tab = next(d for d in by_suit["depots"] if d["name"] == "tab")
    assert tab["acceptRule"]["when"] == "empty(depot) || card.suit == top.suit && card.rank == top.rank - 1"
    comparison = compare_designs(
        build_design(by_suit), _reference("games/klondike.cardz"), deals=2, moves=40, solve_deals=0
    )
    assert not comparison.same and comparison.differences[0].kind == "legal moves"


def test_nonsense_still_lints_clean_with_its_todos() -> None:
    conversion = convert("Xqv zzkr plomb, vrrt 7 ghh ktt!\nBlorp snee wuz.\n", "nonsense.txt")
    found = lint_text(conversion.to_json(), "nonsense.cardz")
    assert [d.code for d in found if d.code != "CZ601"] == []
    assert Counter(d.code for d in found)["CZ601"] == len(conversion.todos) > 0
    assert "not understood" in format_report(conversion)


def test_compare_reports_the_first_deal_and_move_that_differ() -> None:
    wrap = Game(open_design(ROOT / "games/golf-wrap.cardz").design)
    comparison = compare_designs(wrap, _reference("games/golf.cardz"), deals=3, moves=60, solve_deals=0)
    assert not comparison.same
    first = comparison.differences[0]
    assert first.kind == "legal moves" and "only here" in first.detail and len(first.line) == first.step
    text = format_comparison(comparison, "golf-wrap", "golf")
    assert f"deal {first.deal}, move {first.step + 1}: legal moves differ" in text and "plays a different game" in text


def test_boards_that_cannot_be_matched_are_reported() -> None:
    golf, freecell = _reference("games/golf.cardz").design, _reference("games/freecell.cardz").design
    assert isinstance(match_depots(golf, freecell), str)
    comparison = compare_designs(_reference("games/golf.cardz"), _reference("games/freecell.cardz"))
    assert comparison.board is not None and not comparison.same


def test_cli_compare_exit_codes(tmp_path: Path) -> None:
    text = HELD_OUT / "golf.it.txt"
    out, err = io.StringIO(), io.StringIO()
    assert (
        run_from_rules(text, tmp_path / "g.cardz", compare=ROOT / "games/golf.cardz", deals=2, stdout=out, stderr=err)
        == 0
    )
    assert "plays the same game" in out.getvalue()
    out = io.StringIO()
    assert (
        run_from_rules(
            text, tmp_path / "g.cardz", compare=ROOT / "games/golf-wrap.cardz", deals=3, stdout=out, stderr=err
        )
        == 1
    )
    assert "legal moves differ" in out.getvalue()
    err = io.StringIO()
    assert (
        run_from_rules(text, tmp_path / "g.cardz", compare=tmp_path / "missing.cardz", stdout=io.StringIO(), stderr=err)
        == 2
    )
    assert err.getvalue().startswith("cardz: ") and "Traceback" not in err.getvalue()
    broken = tmp_path / "broken.cardz"
    broken.write_text("{ not json", encoding="utf-8")
    err = io.StringIO()
    assert run_from_rules(text, None, compare=broken, stdout=io.StringIO(), stderr=err) == 2
    assert "cannot be played" in err.getvalue()


def test_moves_that_only_swap_two_equal_piles_are_not_compared(monkeypatch: pytest.MonkeyPatch) -> None:
    """A FreeCell whose cards never pass between free cells plays the same game as one whose cards may."""
    data = json.loads((ROOT / "games/freecell.cardz").read_text(encoding="utf-8"))
    cell = next(d for d in data["depots"] if d["name"] == "cell")
    cell["acceptRule"]["when"] = "empty(depot) && !(source in Cell)"
    freecell = _reference("games/freecell.cardz")
    assert swap_groups(freecell.design) == {"cell", "found", "tab"}
    assert compare_designs(build_design(data), freecell, deals=2, moves=30, solve_deals=0).same
    with monkeypatch.context() as patch:  # the same deals do reach a cell-to-cell move of the reference
        patch.setattr(compare, "swap_groups", lambda design: frozenset())
        assert not compare_designs(build_design(data), freecell, deals=2, moves=30, solve_deals=0).same
    # where a pile's place matters (Montana's gaps read their left neighbour), every move is compared
    assert swap_groups(_reference("games/montana.cardz").design) == frozenset()
    assert "found" not in swap_groups(_reference("games/canfield.cardz").design)  # its rules name found[0]
