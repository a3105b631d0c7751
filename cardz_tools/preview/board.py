"""Drawing a board snapshot: SVG for the page, a rich renderable for the terminal.

A snapshot is a :class:`~cardz_tools.model.Design` plus one pile per depot (card
ints, bottom first). Depots sit at their ``col``/``row`` (in card widths and
heights); fanned piles are drawn as a trail of cards; every pile is labelled
with its depot name and card count.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from html import escape

from rich.console import Group, RenderableType
from rich.text import Text

from ..cards import SUIT_SYMBOLS, Card, Color, Suit, card_rank, card_str, card_suit, is_face_up
from ..model import Depot, Design, Fan

_RANK_LABELS = {0: "JK", 1: "A", 11: "J", 12: "Q", 13: "K"}


@dataclasses.dataclass(frozen=True)
class Board:
    """A board snapshot: a design and its piles by depot index, bottom card first."""

    design: Design
    piles: tuple[tuple[Card, ...], ...]

    def __post_init__(self) -> None:
        if len(self.piles) != len(self.design.depots):
            raise ValueError(f"{len(self.piles)} piles for {len(self.design.depots)} depots")


def rank_label(card: Card) -> str:
    """``A``, ``2`` .. ``10``, ``J``, ``Q``, ``K``; ``JK`` for a joker."""
    rank = card_rank(card)
    return _RANK_LABELS.get(rank, str(rank))


def suit_symbol(card: Card) -> str:
    """The suit's symbol (``★`` for a joker)."""
    return SUIT_SYMBOLS.get(Suit(card_suit(card)), "?") if card_suit(card) <= Suit.JOKER else "?"


def is_red(card: Card) -> bool:
    """Whether the card is a diamond or a heart."""
    suit = card_suit(card)
    return suit <= Suit.JOKER and Suit(suit).color is Color.RED


MAX_POSITION = 200.0
"""Columns and rows beyond this are drawn at it: a far-off depot must not make a board of gigapixels."""


def board_position(depot: Depot) -> tuple[float, float]:
    """The depot's (col, row), clamped to ``0 .. MAX_POSITION``."""
    return (min(max(depot.col, 0.0), MAX_POSITION), min(max(depot.row, 0.0), MAX_POSITION))


def depot_label(depot: Depot, pile: Sequence[Card]) -> str:
    """``name · count``, the caption under a pile."""
    return f"{depot.name} · {len(pile)}"


# ---------------------------------------------------------------- SVG

CARD_W = 64
CARD_H = 90
GAP_X = 14
LABEL_H = 26
GAP_Y = 12
MARGIN = 16
PITCH_X = CARD_W + GAP_X
PITCH_Y = CARD_H + LABEL_H + GAP_Y
FAN_UP_STEP = 24
"""How much of a face-up card shows under the next card of a fan."""
FAN_DOWN_STEP = 10
"""How much of a face-down card shows under the next card of a fan."""
MAX_TRAIL = 3 * CARD_H
"""A fan longer than this is squeezed."""
STACK_EDGES = 3
"""A stacked pile shows at most this many card edges under its top card."""

_CSS = """
.cz-board{font-family:system-ui,-apple-system,'Segoe UI',sans-serif}
.cz-face{fill:#fff;stroke:#555;stroke-width:1}
.cz-back{fill:url(#cz-back);stroke:#1d2f5c;stroke-width:1}
.cz-edge{fill:#f4f4f4;stroke:#777;stroke-width:1}
.cz-slot{fill:rgba(255,255,255,.08);stroke:#cfe3cf;stroke-width:1.5;stroke-dasharray:5 4}
.cz-slot-text{fill:#cfe3cf;font-size:9.5px;text-anchor:middle}
.cz-red{fill:#c8102e}
.cz-black{fill:#111}
.cz-index{font-size:16px;font-weight:700}
.cz-pip{font-size:34px;text-anchor:middle}
.cz-label{fill:#f2f2f2;font-size:11px;text-anchor:middle}
"""


def _offsets(fan: Fan, cards: Sequence[Card]) -> list[tuple[float, float]]:
    """Where each card of a pile is drawn, relative to the depot's position."""
    if fan is Fan.NONE or len(cards) < 2:
        return [(0.0, 0.0)] * len(cards)
    steps = [FAN_UP_STEP if is_face_up(c) else FAN_DOWN_STEP for c in cards[:-1]]
    scale = min(1.0, MAX_TRAIL / sum(steps))
    dx, dy = {Fan.DOWN: (0, 1), Fan.UP: (0, -1), Fan.RIGHT: (1, 0), Fan.LEFT: (-1, 0)}[fan]
    out = [(0.0, 0.0)]
    travelled = 0.0
    for step in steps:
        travelled += step * scale
        out.append((dx * travelled, dy * travelled))
    return out


def _card_svg(card: Card, x: float, y: float) -> str:
    if not is_face_up(card):
        return (
            f'<g class="cz-card" data-card="back">'
            f'<rect class="cz-back" x="{x:.1f}" y="{y:.1f}" width="{CARD_W}" height="{CARD_H}" rx="6"/>'
            f'<rect x="{x + 5:.1f}" y="{y + 5:.1f}" width="{CARD_W - 10}" height="{CARD_H - 10}" rx="3" '
            f'fill="none" stroke="#c9d6f2" stroke-width="1"/></g>'
        )
    colour = "cz-red" if is_red(card) else "cz-black"
    rank, suit = escape(rank_label(card)), suit_symbol(card)
    return (
        f'<g class="cz-card" data-card="{escape(card_str(card))}">'
        f'<title>{escape(card_str(card))}</title>'
        f'<rect class="cz-face" x="{x:.1f}" y="{y:.1f}" width="{CARD_W}" height="{CARD_H}" rx="6"/>'
        f'<text class="cz-index {colour}" x="{x + 5:.1f}" y="{y + 18:.1f}">{rank}{suit}</text>'
        f'<text class="cz-pip {colour}" x="{x + CARD_W / 2:.1f}" y="{y + CARD_H / 2 + 16:.1f}">{suit}</text>'
        f'<text class="cz-index {colour}" x="{x + CARD_W - 5:.1f}" y="{y + CARD_H - 8:.1f}" '
        f'text-anchor="end">{rank}{suit}</text></g>'
    )


def _pile_svg(depot: Depot, pile: Sequence[Card], x: float, y: float) -> tuple[str, float, float, float, float]:
    """SVG of one pile and the box it covers (x0, y0, x1, y1), label included."""
    parts = [f'<g class="cz-pile" data-depot="{escape(depot.name)}" data-count="{len(pile)}">']
    if not pile:
        parts.append(f'<rect class="cz-slot" x="{x:.1f}" y="{y:.1f}" width="{CARD_W}" height="{CARD_H}" rx="6"/>')
        parts.append(f'<text class="cz-slot-text" x="{x + CARD_W / 2:.1f}" y="{y + CARD_H / 2 + 4:.1f}">'
                     f'{escape(depot.type.value)}</text>')
        boxes = [(x, y)]
    elif depot.spec.fan is Fan.NONE:
        edges = min(STACK_EDGES, len(pile) - 1)
        for i in range(edges, 0, -1):
            parts.append(f'<rect class="cz-edge" x="{x + 1.5 * i:.1f}" y="{y + 1.5 * i:.1f}" '
                         f'width="{CARD_W}" height="{CARD_H}" rx="6"/>')
        parts.append(_card_svg(pile[-1], x, y))
        boxes = [(x, y), (x + 1.5 * edges, y + 1.5 * edges)]
    else:
        boxes = []
        for card, (dx, dy) in zip(pile, _offsets(depot.spec.fan, pile), strict=True):
            parts.append(_card_svg(card, x + dx, y + dy))
            boxes.append((x + dx, y + dy))
    x0 = min(bx for bx, _ in boxes)
    y0 = min(by for _, by in boxes)
    x1 = max(bx for bx, _ in boxes) + CARD_W
    y1 = max(by for _, by in boxes) + CARD_H
    label_y = y1 + 15
    parts.append(f'<text class="cz-label" x="{(x0 + x1) / 2:.1f}" y="{label_y:.1f}">'
                 f'{escape(depot_label(depot, pile))}</text>')
    parts.append("</g>")
    return "".join(parts), x0, y0, x1, label_y + 6


def placed_piles(design: Design, piles: Sequence[Sequence[Card]]) -> list[tuple[str, float, float, float, float]]:
    """Each depot's pile as SVG at its board position, with the box it covers (x0, y0, x1, y1)."""
    out = []
    for depot, pile in zip(design.depots, piles, strict=True):
        col, row = board_position(depot)
        out.append(_pile_svg(depot, pile, col * PITCH_X, row * PITCH_Y))
    return out


def board_box(boxes: Sequence[tuple[float, float, float, float]]) -> tuple[float, float, float, float]:
    """(left, top, width, height) of a board that holds every box, with its margin."""
    x_min = min([0.0, *(b[0] for b in boxes)])
    y_min = min([0.0, *(b[1] for b in boxes)])
    x_max = max([0.0, *(b[2] for b in boxes)])
    y_max = max([0.0, *(b[3] for b in boxes)])
    return x_min - MARGIN, y_min - MARGIN, x_max - x_min + 2 * MARGIN, y_max - y_min + 2 * MARGIN


def svg_open(title: str, box: tuple[float, float, float, float]) -> str:
    """The start of a board's ``<svg>``: its size, styles, card back pattern and green cloth."""
    left, top, width, height = box
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" class="cz-board" role="img" '
        f'viewBox="{left:.1f} {top:.1f} {width:.1f} {height:.1f}" width="{width:.0f}" height="{height:.0f}">'
        f"<title>{escape(title or 'board')}</title>"
        f"<defs><style>{_CSS}</style>"
        '<pattern id="cz-back" width="8" height="8" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">'
        '<rect width="8" height="8" fill="#2f4f9a"/><rect width="4" height="8" fill="#27427f"/></pattern></defs>'
        f'<rect x="{left:.1f}" y="{top:.1f}" width="{width:.1f}" height="{height:.1f}" fill="#1f6b3a" rx="10"/>'
    )


def board_svg(board: Board) -> str:
    """The board as a standalone ``<svg>`` element (sized to fit every pile and label)."""
    placed = placed_piles(board.design, board.piles)
    box = board_box([(x0, y0, x1, y1) for _, x0, y0, x1, y1 in placed])
    return svg_open(board.design.name, box) + "".join(svg for svg, *_ in placed) + "</svg>"


# ---------------------------------------------------------------- terminal

TERM_COL = 12
"""Terminal characters per board column."""
TERM_ROW = 3
"""Terminal lines per board row when nothing is fanned."""
TERM_MAX_FAN = 8
"""A fan shows at most this many cards in the terminal (the hidden ones as ``⋮``)."""


def _card_text(card: Card) -> Text:
    if not is_face_up(card):
        return Text("░░░", style="blue")
    label = f"{rank_label(card):>2}{suit_symbol(card)}"
    return Text(label, style="bold red" if is_red(card) else "bold")


def _pile_lines(depot: Depot, pile: Sequence[Card]) -> list[Text]:
    """The terminal lines of one pile (cards, then the label)."""
    label = Text(f"{depot.name} {len(pile)}"[: TERM_COL - 1], style="dim")
    if not pile:
        return [Text("[ ]", style="dim"), label]
    fan = depot.spec.fan
    if fan is Fan.NONE:
        return [_card_text(pile[-1]), label]
    if fan in (Fan.RIGHT, Fan.LEFT):
        shown = list(pile[-((TERM_COL - 1) // 3):])
        if fan is Fan.LEFT:
            shown.reverse()
        return [Text("").join(_card_text(c) for c in shown), label]
    cards = [_card_text(c) for c in pile]
    if len(cards) > TERM_MAX_FAN:
        cards = [Text(" ⋮", style="dim")] + cards[-(TERM_MAX_FAN - 1):]
    if fan is Fan.UP:
        cards.reverse()
    return cards + [label]


def _text_rows(board: Board) -> list[tuple[int, list[Text]]]:
    """(x, lines) of every pile with each pile's top line placed: rows move down past fans above them."""
    placed: list[tuple[int, int, list[Text]]] = []  # (x, y, lines)
    by_row: dict[float, list[tuple[int, Depot]]] = {}
    for depot in board.design.depots:
        col, row = board_position(depot)
        by_row.setdefault(row, []).append((round(col * TERM_COL), depot))
    previous_row, previous_y = 0.0, 0
    for row in sorted(by_row):
        y = previous_y + round((row - previous_row) * TERM_ROW) if placed else round(row * TERM_ROW)
        members = by_row[row]
        for x0, y0, lines in placed:
            if any(abs(x0 - x) < TERM_COL for x, _ in members):
                y = max(y, y0 + len(lines) + 1)
        for x, depot in members:
            placed.append((x, y, _pile_lines(depot, board.piles[depot.index])))
        previous_row, previous_y = row, y
    return [(x, [Text()] * y + lines) for x, y, lines in placed]


def board_renderable(board: Board) -> RenderableType:
    """The board as lines of text for the terminal."""
    piles = _text_rows(board)
    height = max((len(lines) for _, lines in piles), default=0)
    canvas: list[list[tuple[int, Text]]] = [[] for _ in range(height)]
    for x, lines in piles:
        for y, line in enumerate(lines):
            if line.plain:
                canvas[y].append((x, line))
    out: list[Text] = []
    for row in canvas:
        line = Text()
        for x, piece in sorted(row, key=lambda item: item[0]):
            if x > len(line.plain):
                line.append(" " * (x - len(line.plain)))
            line.append_text(piece)
        out.append(line)
    return Group(*out)
