"""Board snapshots drawn as SVG and as terminal text, checked on the two seed designs."""

from __future__ import annotations

import io
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from rich.console import Console

from cardz_tools.cards import Rank, Suit, card_str, face_up, is_face_up, make_card
from cardz_tools.model import Design
from cardz_tools.preview.board import (
    CARD_H,
    PITCH_X,
    PITCH_Y,
    Board,
    board_renderable,
    board_svg,
    is_red,
    rank_label,
    suit_symbol,
)
from cardz_tools.preview.sources import check_file, sample_board

GAMES = Path(__file__).resolve().parent.parent / "games"
SVG = "{http://www.w3.org/2000/svg}"


def load(name: str) -> Design:
    design = check_file(GAMES / name).design
    assert design is not None
    return design


def piles_of(svg: str) -> dict[str, ET.Element]:
    root = ET.fromstring(svg)  # well-formed XML, or this raises
    return {g.get("data-depot", ""): g for g in root.iter(f"{SVG}g") if g.get("class") == "cz-pile"}


def card_positions(pile: ET.Element) -> list[tuple[str, float, float]]:
    out = []
    for card in pile.iter(f"{SVG}g"):
        if card.get("class") == "cz-card":
            rect = card.find(f"{SVG}rect")
            assert rect is not None
            out.append((card.get("data-card", ""), float(rect.get("x", 0)), float(rect.get("y", 0))))
    return out


def test_card_faces() -> None:
    ten_hearts = face_up(make_card(Rank.TEN, Suit.HEARTS))
    ace_spades = face_up(make_card(Rank.ACE, Suit.SPADES))
    assert (rank_label(ten_hearts), suit_symbol(ten_hearts), is_red(ten_hearts)) == ("10", "♥", True)
    assert (rank_label(ace_spades), suit_symbol(ace_spades), is_red(ace_spades)) == ("A", "♠", False)
    assert is_red(make_card(Rank.KING, Suit.DIAMONDS)) and not is_red(make_card(Rank.KING, Suit.CLUBS))


def test_monte_carlo_svg_is_a_five_by_five_grid_with_stock_and_discard_beside_it() -> None:
    design = load("monte-carlo.cardz")
    board = Board(design, sample_board(design, 11))
    piles = piles_of(board_svg(board))
    assert set(piles) == {f"cell[{i}]" for i in range(25)} | {"stock", "discard"}
    xs = sorted({card_positions(piles[f"cell[{i}]"])[0][1] for i in range(25)})
    ys = sorted({card_positions(piles[f"cell[{i}]"])[0][2] for i in range(25)})
    assert xs == [c * PITCH_X for c in range(5)] and ys == [r * PITCH_Y for r in range(5)]
    for i in range(25):
        (shown, _, _), = card_positions(piles[f"cell[{i}]"])
        assert shown == card_str(board.piles[i][0])  # the dealt card, face up and legible
    stock = piles["stock"]
    assert stock.get("data-count") == "27"
    assert [c for c, _, _ in card_positions(stock)] == ["back"]  # a stack shows its top card only
    assert card_positions(stock)[0][1] == 5.5 * PITCH_X
    discard = piles["discard"]
    assert discard.get("data-count") == "0" and card_positions(discard) == []
    labels = {g.get("data-depot"): "".join(g.itertext()) for g in piles.values()}
    assert "stock · 27" in labels["stock"] and "discard · 0" in labels["discard"]


def test_weathervane_svg_fans_the_seven_columns_downward_as_trails() -> None:
    design = load("weathervane.cardz")
    board = Board(design, sample_board(design, 2))
    piles = piles_of(board_svg(board))
    assert set(piles) == {f"tab[{i}]" for i in range(7)} | {"stock", "waste", "vane"}
    for i in range(7):
        cards = card_positions(piles[f"tab[{i}]"])
        assert [c for c, _, _ in cards[:5]] == ["back"] * 5
        assert cards[5][0] == card_str(board.piles[design.depot_named(f"tab[{i}]").index][-1])
        xs = {x for _, x, _ in cards}
        ys = [y for _, _, y in cards]
        assert xs == {i * PITCH_X} and ys == sorted(ys) and len(set(ys)) == 6  # a trail going down
        assert ys[0] == PITCH_Y and ys[-1] - ys[0] < CARD_H  # face-down cards overlap closely
    top_row = {name: card_positions(piles[name]) for name in ("stock", "waste", "vane")}
    assert top_row["stock"][0][1:] == (0.0, 0.0) and top_row["vane"][0][1:] == (3 * PITCH_X, 0.0)
    assert top_row["waste"] == []  # empty: drawn as a slot


def test_red_cards_are_red_and_text_is_escaped() -> None:
    design = load("weathervane.cardz")
    hearts = tuple(face_up(make_card(r, Suit.HEARTS)) for r in (Rank.TWO, Rank.THREE))
    piles = [()] * len(design.depots)
    piles[design.depot_named("vane").index] = hearts
    svg = board_svg(Board(design, tuple(piles)))
    vane = piles_of(svg)["vane"]
    texts = [t for t in vane.iter(f"{SVG}text") if "cz-index" in (t.get("class") or "")]
    assert texts and all("cz-red" in (t.get("class") or "") for t in texts)


def test_piles_must_match_the_depots() -> None:
    design = load("monte-carlo.cardz")
    with pytest.raises(ValueError):
        Board(design, ((),))


@pytest.mark.parametrize(
    "name, expected",
    [("monte-carlo.cardz", ["cell[0] 1", "cell[24] 1", "stock 27", "discard 0"]),
     ("weathervane.cardz", ["stock 9", "waste 0", "vane 1", "tab[6] 6"])],
)
def test_terminal_board_shows_every_pile_with_its_count(name: str, expected: list[str]) -> None:
    design = load(name)
    board = Board(design, sample_board(design, 4))
    console = Console(file=io.StringIO(), width=100, color_system=None)
    console.print(board_renderable(board))
    text = console.file.getvalue()  # type: ignore[attr-defined]
    for label in expected:
        assert label in text
    tops = [pile[-1] for pile in board.piles if pile and is_face_up(pile[-1])]
    for card in tops:
        assert f"{rank_label(card)}{suit_symbol(card)}" in text


def test_terminal_layout_puts_fans_below_the_top_row_and_keeps_columns_apart() -> None:
    design = load("weathervane.cardz")
    board = Board(design, sample_board(design, 4))
    console = Console(file=io.StringIO(), width=100, color_system=None)
    console.print(board_renderable(board))
    lines = console.file.getvalue().splitlines()  # type: ignore[attr-defined]
    stock_line = next(i for i, line in enumerate(lines) if "stock 9" in line)
    first_back = next(i for i, line in enumerate(lines) if line.count("░░░") == 7)
    assert first_back > stock_line
    assert sum(1 for line in lines if line.count("░░░") == 7) == 5
    assert len(re.findall(r"tab\[\d\] 6", "\n".join(lines))) == 7
