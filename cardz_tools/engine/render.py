"""Text boards: a state drawn as depots laid out by their ``col``/``row``.

The board is built once as lines of styled segments; :func:`render_text` joins
the text (golden files, ``cardz deal``) and :func:`render_rich` keeps the styles
(``cardz play``). Face-down cards are ``##``, fanned piles are drawn as a trail of
cards, stacked piles as their top card and a count (``##×27``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Protocol

from ..cards import FACE_UP, SUIT_SYMBOLS, Card, Suit, card_suit, card_symbol_str
from ..model import Fan
from .moves import Drag, Move
from .plan import GamePlan

if TYPE_CHECKING:
    from rich.text import Text

CELL_WIDTH = 9
"""Characters per board column (one card width)."""

Segment = tuple[str, str]
"""Text and a rich style name ("" for none)."""


class Standing(Protocol):
    """How a game stands, as the status line shows it (:class:`~cardz_tools.engine.state.Outcome` is one)."""

    @property
    def won(self) -> bool: ...
    @property
    def lost(self) -> bool: ...
    @property
    def reason(self) -> str: ...


class Shown(Protocol):
    """A state as the board shows it (:class:`~cardz_tools.engine.state.State` is one)."""

    @property
    def game(self) -> GamePlan: ...
    @property
    def piles(self) -> Sequence[tuple[Card, ...]]: ...
    @property
    def declared(self) -> Sequence[int]: ...
    @property
    def redeals(self) -> Sequence[int]: ...
    @property
    def uses(self) -> Sequence[int]: ...
    @property
    def seed(self) -> int | None: ...
    @property
    def move_count(self) -> int: ...

    def score(self) -> int: ...

    def outcome(self) -> Standing: ...

    def is_terminal(self) -> bool: ...


def _card_segment(card: Card) -> Segment:
    if not card & FACE_UP:
        return ("##", "blue")
    suit = card_suit(card)
    return (card_symbol_str(card), "red" if suit in (Suit.DIAMONDS, Suit.HEARTS) else "bold")


def describe_move(state: Shown, move: Move) -> str:
    """``move`` with the cards it moves: ``waste → vane (8♣, naming Hearts)``."""
    if not isinstance(move, Drag):
        return str(move)
    depot = state.game.index.get(move.source)
    pile = state.piles[depot] if depot is not None else ()
    if not pile or move.count > len(pile):
        return str(move)
    cards = pile[-move.count:]
    shown = (
        card_symbol_str(cards[0]) if len(cards) == 1 else f"{card_symbol_str(cards[0])}..{card_symbol_str(cards[-1])}"
    )
    naming = f", naming {move.declare.title}" if move.declare is not None else ""
    return f"{move.source} → {move.target} ({shown}{naming})"


def _pile_lines(pile: tuple[Card, ...], fan: Fan) -> list[list[Segment]]:
    """The pile as lines of segments, each line at most ``CELL_WIDTH - 1`` characters."""
    if not pile:
        return [[("[ ]", "dim")]]
    if fan in (Fan.DOWN, Fan.UP):
        lines = [[_card_segment(c)] for c in pile]
        return lines[::-1] if fan is Fan.UP else lines
    if fan in (Fan.RIGHT, Fan.LEFT):
        shown: list[Segment] = []
        width = 0
        for card in reversed(pile):
            segment = _card_segment(card)
            if width + len(segment[0]) + 1 > CELL_WIDTH - 2:
                shown.append(("…", "dim"))
                break
            shown.append(segment)
            width += len(segment[0]) + 1
        ordered = shown if fan is Fan.LEFT else shown[::-1]
        line: list[Segment] = []
        for i, segment in enumerate(ordered):
            if i:
                line.append((" ", ""))
            line.append(segment)
        return [line]
    top = [_card_segment(pile[-1])]
    if len(pile) > 1:
        top.append((f"×{len(pile)}", "dim"))
    return [top]


def board_lines(state: Shown) -> list[list[Segment]]:
    """The whole board (title, depots by row and column, then the small state) as styled lines."""
    game = state.game
    design = game.design
    title = design.name + (f" · seed {state.seed}" if state.seed is not None else "")
    lines: list[list[Segment]] = [[(title, "bold")]]
    bands: dict[int, list[int]] = {}
    for depot in design.depots:
        bands.setdefault(int(depot.row), []).append(depot.index)
    for band in sorted(bands):
        members = sorted(bands[band], key=lambda i: design.depots[i].col)
        blocks = []
        for index in members:
            depot = design.depots[index]
            label = depot.name
            if game.has_declarations and state.declared[index] >= 0:
                label += "=" + SUIT_SYMBOLS[Suit(state.declared[index])]
            pile_lines = _pile_lines(state.piles[index], depot.spec.fan)
            blocks.append((round(depot.col * CELL_WIDTH), [[(label, "dim")], *pile_lines]))
        height = max(len(block) for _, block in blocks)
        for row in range(height):
            line: list[Segment] = []
            width = 0
            for x, block in blocks:
                if row >= len(block):
                    continue
                if x > width:
                    line.append((" " * (x - width), ""))
                    width = x
                elif width and x <= width:
                    line.append((" ", ""))
                    width += 1
                for text, style in block[row]:
                    line.append((text, style))
                    width += len(text)
            lines.append(line)
    lines.append([(_status_line(state), "")])
    return lines


def _status_line(state: Shown) -> str:
    game = state.game
    parts = [f"move {state.move_count}", f"score {state.score()}"]
    for index, named in enumerate(state.declared):
        if named >= 0:
            parts.append(f"{game.names[index]} names {Suit(named).title}")
    for draw in game.draws:
        if draw.redeals != 0:
            left = "unlimited" if draw.redeals < 0 else str(state.redeals[draw.depot])
            parts.append(f"{game.names[draw.depot]} redeals left {left}")
    for action in game.actions:
        if action.limit is not None:
            parts.append(f"{game.names[action.depot]}: {action.name} used {state.uses[action.slot]}/{action.limit}")
    outcome = state.outcome()
    if outcome.won:
        parts.append("WON")
    elif outcome.lost:
        parts.append(f"LOST ({outcome.reason})")
    elif state.is_terminal():
        parts.append(f"ENDED ({outcome.reason})")
    return " · ".join(parts)


def render_text(state: Shown) -> str:
    """The board as plain text (no trailing spaces)."""
    return "\n".join("".join(text for text, _ in line).rstrip() for line in board_lines(state))


def render_rich(state: Shown) -> Text:
    """The board as a rich :class:`~rich.text.Text` with red suits and blue backs."""
    from rich.text import Text

    text = Text()
    for i, line in enumerate(board_lines(state)):
        if i:
            text.append("\n")
        for segment, style in line:
            text.append(segment, style=style or None)
    return text
