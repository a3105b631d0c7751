"""cardz from-rules: rules texts in four languages become valid design templates with TODOs."""

from __future__ import annotations

import io
import json
import re
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardz_tools import fmt
from cardz_tools.authoring.lexicon import Family, Language
from cardz_tools.authoring.reading import (
    Quantity,
    SentenceKind,
    analyse,
    detect_language,
    extract,
    numberise,
    split_sentences,
)
from cardz_tools.authoring.rules_text import convert, format_report, run_from_rules
from cardz_tools.authoring.skeletons import NEVER, PLACEHOLDER
from cardz_tools.engine.game import Game
from cardz_tools.lint import lint_text
from cardz_tools.model import build_design
from cardz_tools.todos import find_todos

RULES = Path(__file__).parent / "examples" / "rules"

GERMAN_KLONDIKE = """Klondike – Spielregeln

Ziel des Spiels
Ziel ist es, alle Karten auf die vier Ablagestapel zu legen, nach Farbe sortiert vom Ass bis zum König.

Aufbau
Gespielt wird mit einem Kartenspiel zu 52 Karten ohne Joker. Die Karten werden in sieben Stapeln ausgelegt: der erste Stapel hat eine Karte, der zweite zwei, und so weiter. Nur die oberste Karte jedes Stapels liegt offen, die anderen liegen verdeckt. Die restlichen 24 Karten bilden den Talon.

Spielablauf
Auf den Stapeln wird absteigend und abwechselnd in Farbe (rot auf schwarz) angelegt. Ein leerer Stapel darf nur mit einem König belegt werden. Vom Talon zieht man jeweils drei Karten. Der Talon darf beliebig oft neu ausgeteilt werden.
"""

ENGLISH_FREECELL = """FreeCell

Object: move all 52 cards to the four foundations, building each suit up from Ace to King.

Deal all the cards face up into eight columns. There are four free cells; each free cell holds one card.
You may move the top card of a column to a free cell, to a foundation, or onto another column, building down in alternating colours.
An empty column can be filled with any card.
"""

GIBBERISH = "Xqv zzkr plomb, vrrt 7 ghh ktt!\nBlorp snee wuz.\n"


# ------------------------------------------------------------------ helpers


def _convert_file(name: str):
    return convert((RULES / name).read_text(encoding="utf-8"), name)


def _spec(design: Mapping[str, Any], name: str) -> Mapping[str, Any]:
    return next(d for d in design["depots"] if d["name"] == name)


def _rule_objects(design: Mapping[str, Any]) -> Iterator[tuple[str, Mapping[str, Any]]]:
    for i, depot in enumerate(design["depots"]):
        for key in ("acceptRule", "ejectRule"):
            if isinstance(depot.get(key), Mapping):
                yield f"/depots/{i}/{key}", depot[key]


def _prose_language(description: str) -> Language:
    """The language of a description without its TODO lines (those are for the author, in English)."""
    prose = "\n".join(line for line in description.splitlines() if "TODO:" not in line)
    return detect_language(prose).language


def _remove_target(design: Mapping[str, Any], pointer: str) -> bool:
    """Whether ``pointer`` is a depot that a ``remove`` deal rule fills (``to``)."""
    targets = {rule.get("to") for rule in design.get("dealRules", []) if rule.get("kind") == "remove"}
    index = int(pointer.split("/")[2]) if pointer.startswith("/depots/") else -1
    return 0 <= index < len(design["depots"]) and design["depots"][index]["name"] in targets


def structural_problems(design: Mapping[str, Any]) -> list[str]:
    """Everything ``cardz lint`` reports about a design except its TODOs (CZ601)."""
    build_design(design)
    found = lint_text(json.dumps(design, ensure_ascii=False, indent=2), "template.cardz")
    return [
        f"{d.code} {d.pointer}: {d.message}"
        for d in found
        if d.code != "CZ601"
        # checks.py does not yet count a remove rule's `to` as filling a depot (reported to the lint owner)
        and not (d.code == "CZ305" and _remove_target(design, d.pointer))
    ]


def placeholders_without_todo(design: Mapping[str, Any]) -> list[str]:
    """Placeholder expressions that are not explained by a TODO (a silent guess)."""
    missing = []
    for pointer, rule in _rule_objects(design):
        if rule.get("when") == PLACEHOLDER and "TODO:" not in str(rule.get("reason", "")):
            missing.append(pointer)
    win = design.get("winCondition", {})
    if win.get("when") == NEVER and "winCondition.when" not in design["description"]:
        missing.append("/winCondition")
    return missing


# ------------------------------------------------------------------ the three seed texts


def test_monte_carlo_english_pairing_grid() -> None:
    result = _convert_file("monte-carlo-rules-en.txt")
    design = result.design
    assert result.analysis.language.language is Language.EN and result.analysis.language.detected
    assert design["family"] == "Pyramid"  # a pairing grid is filed as Pyramid, like the seed
    cell = _spec(design, "cell")
    assert (cell["repeat"], cell["perRow"]) == (25, 5)
    stock = result.analysis.values(Quantity.STOCK)
    assert stock and stock[0].value == 27 and "27" in result.analysis.sentence(stock[0].sentence).text
    assert design["name"] == "Monte Carlo"
    assert design["description"].startswith("**Goal:** remove all 52 cards")
    assert _prose_language(design["description"]) is Language.EN
    # the pairing and consolidation rules were stated, so the seed's expressions are used
    assert cell["acceptRule"]["when"] == "adjacent(source, depot) && !empty(depot) && card.rank == top.rank"
    assert _spec(design, "stock")["actions"][0]["do"][0]["kind"] == "compact"
    # the "see also" list at the end (Accordion, Montana, Clock) must not leak into the design
    assert all("Montana" not in line for line in design["description"].splitlines())


def test_montana_russian_gaps() -> None:
    result = _convert_file("montana-rules-ru.txt")
    design = result.design
    assert result.analysis.language.language is Language.RU
    assert "Cyrillic" in result.analysis.language.evidence
    assert design["family"] == "Gaps"
    cell = _spec(design, "cell")
    assert (cell["repeat"], cell["perRow"]) == (52, 13)
    redeals = result.analysis.values(Quantity.REDEALS)
    assert redeals and redeals[0].value == 2
    assert "дважды" in result.analysis.sentence(redeals[0].sentence).text
    redeal = _spec(design, "aces")["actions"][0]
    assert redeal["limit"] == 2 and redeal["do"][0]["kind"] == "redeal"
    assert {"kind": "remove", "ranks": ["Ace"], "to": "aces"} in design["dealRules"]
    assert redeal["do"][0]["keep"] != NEVER and redeal["do"][0]["count"] != 1  # Montana's usual redeal, written out
    assert design["description"].startswith("**Цель:** ")
    assert _prose_language(design["description"]) is Language.RU


def test_chateau_de_cartes_french_castle() -> None:
    result = _convert_file("chateau-de-cartes-rules-fr.txt")
    design = result.design
    assert result.analysis.language.language is Language.FR
    assert design["family"] == "Castle"
    assert (design["decks"], design["jokers"]) == (2, 2)
    assert _spec(design, "hand")["repeat"] == 5
    triangles, floors = _spec(design, "tri")["perRow"], _spec(design, "floor")["perRow"]
    assert triangles == [1, 2, 3, 4, 5, 6] and floors == [1, 2, 3, 4, 5]
    # the text's own totals: 57 cards in a complete castle, 15 of them floors
    assert 2 * sum(triangles) + sum(floors) == 57 and sum(floors) == 15
    assert design["description"].startswith("**But :** construire un château de cartes")
    assert _prose_language(design["description"]) is Language.FR


@pytest.mark.parametrize("name", ["monte-carlo-rules-en.txt", "montana-rules-ru.txt", "chateau-de-cartes-rules-fr.txt"])
def test_seed_texts_give_valid_designs_and_honest_todos(name: str) -> None:
    result = _convert_file(name)
    assert structural_problems(result.design) == []
    assert placeholders_without_todo(result.design) == []
    for extraction in result.analysis.extractions:
        assert result.analysis.sentence(extraction.sentence).kind is SentenceKind.SENTENCE


# ------------------------------------------------------------------ texts it has never seen


def test_german_klondike() -> None:
    result = convert(GERMAN_KLONDIKE, "klondike.txt")
    design = result.design
    assert result.analysis.language.language is Language.DE
    assert design["family"] == "Klondike"
    tab = _spec(design, "tab")
    assert tab["repeat"] == 7
    shipped = json.loads((Path(__file__).parent.parent / "games" / "klondike.cardz").read_text(encoding="utf-8"))
    assert tab["acceptRule"]["when"] == _spec(shipped, "tab")["acceptRule"]["when"]
    draw = _spec(design, "stock")["draw"]
    assert (draw["count"], draw["redeals"]) == (3, "unlimited")
    assert design["description"].startswith("**Ziel:** ")
    assert _prose_language(design["description"]) is Language.DE


def test_english_freecell() -> None:
    result = convert(ENGLISH_FREECELL, "freecell.txt")
    design = result.design
    assert design["family"] == "FreeCell"
    assert _spec(design, "cell")["repeat"] == 4
    assert _spec(design, "tab")["repeat"] == 8
    assert not any(depot["type"] == "Stock" for depot in design["depots"])
    shipped = json.loads((Path(__file__).parent.parent / "games" / "freecell.cardz").read_text(encoding="utf-8"))
    assert _spec(design, "tab")["acceptRule"]["when"] == _spec(shipped, "tab")["acceptRule"]["when"]


@pytest.mark.parametrize("text", [GIBBERISH, "", "\n\n  \n"], ids=["gibberish", "empty", "blank"])
def test_gibberish_and_empty_text_give_clear_todos(text: str) -> None:
    result = convert(text, "mystery-game.txt")
    design = result.design
    assert design["family"] == "Other"
    assert design["name"] == "Mystery game"
    assert not result.analysis.language.detected
    messages = " ".join(message for _, message in result.todos)
    assert "choose the family" in messages and "win condition" in messages
    assert "Xqv" not in design["description"]  # nothing unreadable is passed off as a rule
    assert structural_problems(design) == []
    assert placeholders_without_todo(design) == []


@pytest.mark.parametrize("text", [GERMAN_KLONDIKE, ENGLISH_FREECELL], ids=["de-klondike", "en-freecell"])
def test_unseen_texts_give_valid_designs(text: str) -> None:
    design = convert(text, "x.txt").design
    assert structural_problems(design) == []
    assert placeholders_without_todo(design) == []


def test_lang_option_overrides_detection() -> None:
    result = convert(ENGLISH_FREECELL, "freecell.txt", Language.FR)
    assert result.analysis.language.language is Language.FR
    assert result.analysis.language.evidence == "given with --lang"
    assert result.design["description"].startswith("**But :**")


def test_conversion_is_deterministic() -> None:
    text = (RULES / "montana-rules-ru.txt").read_text(encoding="utf-8")
    assert convert(text, "a.txt").to_json() == convert(text, "a.txt").to_json()


# ------------------------------------------------------------------ numbers


@pytest.mark.parametrize(
    ("text", "language", "expected"),
    [
        ("выложить четырьмя рядами по тринадцать", Language.RU, "выложить 4 рядами по 13"),
        ("убрать четырёх тузов", Language.RU, "убрать 4 тузов"),
        ("одна колода и двумя джокерами", Language.RU, "1 колода и 2 джокерами"),
        ("cinq sur cinq, treize cartes", Language.FR, "5 sur 5, 13 cartes"),
        ("vingt-cinq cartes", Language.FR, "25 cartes"),
        ("eins, zwei, dreizehn, fünfundzwanzig", Language.DE, "1, 2, 13, 25"),
        ("a five-by-five grid, twenty-seven in stock", Language.EN, "a 5 by 5 grid, 27 in stock"),
        ("redeal twice", Language.EN, "redeal 2 times"),
        ("a 5x5 grid or 5×5", Language.EN, "a 5 × 5 grid or 5 × 5"),
    ],
)
def test_number_words_become_digits(text: str, language: Language, expected: str) -> None:
    assert numberise(text, language) == expected


@pytest.mark.parametrize(
    ("text", "language", "expected"),
    [
        ("Deal the cards five by five.", Language.EN, {Quantity.GRID_ROWS: 5, Quantity.GRID_COLUMNS: 5}),
        ("Distribuez les cartes cinq sur cinq.", Language.FR, {Quantity.GRID_ROWS: 5, Quantity.GRID_COLUMNS: 5}),
        ("Lay out a 4x13 grid.", Language.EN, {Quantity.GRID_ROWS: 4, Quantity.GRID_COLUMNS: 13}),
        ("Выложить четыре ряда по 13.", Language.RU, {Quantity.GRID_ROWS: 4, Quantity.GRID_COLUMNS: 13}),
        ("Play with two decks and four jokers.", Language.EN, {Quantity.DECKS: 2, Quantity.JOKERS: 4}),
        ("Deux paquets, chaque paquet contient un joker.", Language.FR, {Quantity.DECKS: 2, Quantity.JOKERS_PER_DECK: 1}),
        ("On joue avec un seul paquet et quatre jokers.", Language.FR, {Quantity.DECKS: 1, Quantity.JOKERS: 4}),
        ("Gespielt wird mit nur einem Kartenspiel und zwei Jokern.", Language.DE, {Quantity.DECKS: 1, Quantity.JOKERS: 2}),
        ("Die Karten werden in sieben Stapeln ausgelegt.", Language.DE, {Quantity.TABLEAU_COLUMNS: 7}),
        ("Deal 28 cards in seven columns with 6 cards face down.", Language.EN, {Quantity.TABLEAU_COLUMNS: 7, Quantity.FACE_DOWN: 6}),
        ("Keep the remaining 24 cards in the stock.", Language.EN, {Quantity.STOCK: 24, Quantity.DECKS: None}),
        ("Пересдавать можно дважды.", Language.RU, {Quantity.REDEALS: 2}),
        ("On peut redistribuer trois fois.", Language.FR, {Quantity.REDEALS: 3}),
        ("Remplacez vos 5 cartes découvertes.", Language.FR, {Quantity.OPEN_CARDS: 5}),
        ("Тузов убирают.", Language.RU, {Quantity.REMOVED_RANK: "Ace"}),
        ("Si vous recevez un joker, tout tombe.", Language.FR, {Quantity.JOKERS: None, Quantity.JOKERS_PER_DECK: None}),
    ],
)
def test_extraction(text: str, language: Language, expected: dict[Quantity, object]) -> None:
    sentence = split_sentences(text)[0]
    found = {e.quantity: e.value for e in extract(sentence, language)}
    for quantity, value in expected.items():
        assert found.get(quantity) == value, (quantity, found)


def test_arithmetic_is_not_a_grid() -> None:
    sentence = split_sentences("Score maximum = 426 + (49 x 2) = 524.")[0]
    assert not [e for e in extract(sentence, Language.FR) if e.quantity is Quantity.GRID_ROWS]


# ------------------------------------------------------------------ TODO markers


def test_find_todos_points_at_each_marker() -> None:
    design = {
        "name": "x",
        "description": "**Goal:** win.\n\n- a rule\n- TODO: decide the deal\n- TODO: write the win",
        "depots": [{"name": "a/b", "acceptRule": {"when": "true", "reason": "TODO: say when"}}],
    }
    assert find_todos(design) == [
        ("/description", "TODO: decide the deal"),
        ("/description", "TODO: write the win"),
        ("/depots/0/acceptRule/reason", "TODO: say when"),
    ]
    assert find_todos({"name": "todo: lower case is not a marker", "note": "TODOS"}) == []


def test_todos_of_a_conversion_resolve_to_their_strings() -> None:
    result = convert(GIBBERISH, "mystery.txt")
    assert any(pointer.startswith("/depots/") for pointer, _ in result.todos)
    for pointer, message in result.todos:
        value: Any = result.design
        for token in pointer.strip("/").split("/"):
            value = value[int(token)] if isinstance(value, list) else value[token]
        assert message in value


# ------------------------------------------------------------------ report


def test_report_lists_every_sentence_and_what_it_became() -> None:
    result = _convert_file("montana-rules-ru.txt")
    report = format_report(result, "montana-rules-ru.txt")
    assert "language: ru (detected;" in report and "family: Gaps (confidence" in report
    for sentence in result.analysis.sentences:
        assert f"[{sentence.index}] line {sentence.line}:" in report
    assert "grid columns = 13" in report and "not understood" in report
    assert f"TODO ({len(result.todos)})" in report


# ------------------------------------------------------------------ command behaviour


def _run(*args: Any, **kwargs: Any) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = run_from_rules(*args, stdout=out, stderr=err, **kwargs)
    return code, out.getvalue(), err.getvalue()


def test_run_prints_design_and_report(tmp_path: Path) -> None:
    code, out, err = _run(RULES / "monte-carlo-rules-en.txt")
    assert code == 0
    assert json.loads(out)["family"] == "Pyramid"
    assert "sentences:" in err


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (None, "no such file"),
        (b"\x89PNG\r\n\x1a\n\x00\x00", "binary"),
        ("Règles".encode("latin-1"), "not valid UTF-8"),
        ("Règles".encode("utf-16"), "UTF-16"),
    ],
)
def test_bad_input_exits_2_with_a_message(tmp_path: Path, content: bytes | None, message: str) -> None:
    path = tmp_path / "rules.txt"
    if content is not None:
        path.write_bytes(content)
    code, out, err = _run(path)
    assert code == 2 and out == ""
    assert message in err and "Traceback" not in err


def test_a_directory_is_not_a_rules_text(tmp_path: Path) -> None:
    code, _, err = _run(tmp_path)
    assert code == 2 and "directory" in err


def test_a_byte_order_mark_is_dropped(tmp_path: Path) -> None:
    path = tmp_path / "rules.txt"
    path.write_bytes(ENGLISH_FREECELL.encode("utf-8-sig"))
    code, out, _ = _run(path)
    assert code == 0 and json.loads(out)["name"] == "FreeCell"


def test_bad_lang_exits_2() -> None:
    code, _, err = _run(RULES / "monte-carlo-rules-en.txt", lang="xx")
    assert code == 2 and "--lang" in err


def test_output_file_is_written(tmp_path: Path) -> None:
    target = tmp_path / "mc.cardz"
    code, out, _ = _run(RULES / "monte-carlo-rules-en.txt", target)
    assert code == 0 and f"wrote {target}" in out
    assert json.loads(target.read_text(encoding="utf-8"))["name"] == "Monte Carlo"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["mc.cardz"]


def test_a_failed_write_leaves_the_old_file_and_no_temporary(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "mc.cardz"
    target.write_text("old", encoding="utf-8")

    def fail(*_: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(fmt.os, "replace", fail)
    code, _, err = _run(RULES / "monte-carlo-rules-en.txt", target)
    assert code == 2 and "No space left" in err
    assert target.read_text(encoding="utf-8") == "old"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["mc.cardz"]


def test_output_into_a_missing_directory_exits_2(tmp_path: Path) -> None:
    code, _, err = _run(RULES / "monte-carlo-rules-en.txt", tmp_path / "no" / "such" / "dir.cardz")
    assert code == 2 and "cannot write" in err


def test_seed_copies_match_the_shared_seeds() -> None:
    shared = Path(__file__).resolve().parent.parent.parent / "shared" / "seeds"
    if not shared.is_dir():
        pytest.skip("the shared seeds are not on this machine")
    for copy in RULES.glob("*.txt"):
        assert copy.read_bytes() == (shared / copy.name).read_bytes()


def test_families_detected_from_keywords_in_all_languages() -> None:
    cases = {
        "Le château de cartes se construit étage par étage.": Family.CASTLE,
        "Монтана: в пробел кладут карту той же масти.": Family.GAPS,
        "House of cards: build floors on triangles.": Family.CASTLE,
        "Utilisez la cellule libre et les fondations. Chaque cellule libre prend une carte.": Family.FREECELL,
        "Remove pairs of cards that touch; pairs go to the discard.": Family.PYRAMID,
    }
    for text, family in cases.items():
        assert analyse(text).family.family is family, text


FAMILY_TEXTS = {
    Family.GOLF: "Golf\n\nDeal seven columns of five cards face up. Play a card one rank higher or lower onto the foundation.",
    Family.SPIDER: "Spider\n\nPlay with two decks. Deal ten columns; the stock deals a row.",
    Family.CANFIELD: "Canfield\n\nDeal a reserve of thirteen cards and four tableau piles. Turn three cards at a time.",
    Family.ACCORDION: "Accordion\n\nDeal all the cards in a line. Move a pile onto the pile one or three places to its left.",
    Family.PYRAMID: "Pyramid\n\nDeal 28 cards in a pyramid of seven rows. Remove pairs of cards that add up to thirteen.",
    Family.KLONDIKE: "Klondike\n\nDeal seven columns. Build down in alternating colours on the tableau.",
}


@pytest.mark.parametrize("family", list(FAMILY_TEXTS), ids=[f.value for f in FAMILY_TEXTS])
def test_every_family_skeleton_is_valid(family: Family) -> None:
    result = convert(FAMILY_TEXTS[family], "game.txt")
    assert result.design["family"] == family.value
    assert structural_problems(result.design) == []
    assert placeholders_without_todo(result.design) == []
    # a short text leaves open what it does not say, except Accordion, whose rules it states in full
    assert result.todos or family is Family.ACCORDION


# Every family's usual rules are written out when the text is silent; a pairing grid whose text does not say how
# cards pair is the one placeholder left, and it suggests the seed's expression.
ALL_TEXTS = {"pairing grid": "Monte Carlo\n\nDeal twenty-five cards face up in a five by five grid."}


@pytest.mark.parametrize("key", list(ALL_TEXTS))
def test_suggested_expressions_check_in_place(key: str) -> None:
    """Every expression the report suggests for a placeholder passes the expression checker where it goes."""
    result = convert(ALL_TEXTS[key], "game.txt")
    assert result.examples
    design = json.loads(result.to_json())
    for example in result.examples:
        match = re.fullmatch(r"(acceptRule|ejectRule)\.when of '(\w+)': `(.+)`", example)
        assert match, example
        _spec(design, match[2])[match[1]]["when"] = match[3]
    found = lint_text(json.dumps(design), "game.cardz")
    assert [f"{d.code} {d.pointer} {d.message}" for d in found if d.code.startswith("CZ4")] == []


WORDS = st.sampled_from(
    "deal decks jokers rows columns stock redeal twice five by 5x5 13 0 99 1000 free cells pairs touch "
    "Montana пробел четырьмя рядами по дважды château de cartes étage paquets Stapeln verdeckt zweimal "
    "Goal: Цель: . ! ? \n - • 1. x × = aces тузов убирают remove".split(" ")
    + [
        "Klondike", "FreeCell", "Golf", "Black Hole", "Spider", "Canfield", "Pyramid", "Accordion", "one suit",
        "two suits", "two decks", "three decks", "eight decks", "two rows", "eight columns", "build down in suit",
        "alternating colours", "an empty column",
        "any card", "a King", "ranks wrap", "nothing on a King", "a Queen on a King", "three cards at a time",
        "through the stock three times", "no redeal", "reserve of 13 cards", "score", "cards left", "lost",
    ]
)


@settings(max_examples=60, deadline=None)
@given(st.lists(WORDS, max_size=60).map(" ".join))
def test_any_text_gives_a_valid_design_and_honest_todos(text: str) -> None:
    result = convert(text, "fuzz.txt")
    assert structural_problems(result.design) == []
    Game(build_design(result.design)).new_initial_state(seed=0)  # every card has a pile to go to
    assert placeholders_without_todo(result.design) == []
    assert format_report(result, "fuzz.txt")


def test_cli_command(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from cardz_tools import cli

    runner = CliRunner()
    target = tmp_path / "montana.cardz"
    result = runner.invoke(cli.app, ["from-rules", str(RULES / "montana-rules-ru.txt"), "-o", str(target), "--lang", "ru"])
    assert result.exit_code == 0, result.output
    assert json.loads(target.read_text(encoding="utf-8"))["family"] == "Gaps"
    missing = runner.invoke(cli.app, ["from-rules", str(tmp_path / "none.txt")])
    assert missing.exit_code == 2 and "Traceback" not in missing.output


@pytest.mark.parametrize(
    "text", ["two suits rows Pyramid", "Black Hole with two decks.", "Spider with one suit and three decks."]
)
def test_odd_counts_still_give_a_playable_design(text: str) -> None:
    """Texts the fuzz test found: a two-row pyramid, a Black Hole with two decks, a one-suit Spider of three decks."""
    result = convert(text, "odd.txt")
    assert structural_problems(result.design) == []
    Game(build_design(result.design)).new_initial_state(seed=0)
