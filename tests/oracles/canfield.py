"""Canfield from its usual rules (games/canfield.cardz states the choices: draw three with
unlimited redeals; a column's top card or the whole column moves; an emptied column is filled
from the reserve at once, and once the reserve is empty takes any card or column, but a whole
column does not move into another empty one; foundation cards stay)."""

from __future__ import annotations

from collections.abc import Iterator

from . import Board, MoveKey, Oracle, drag, names, rank, red, suit, tap, up

FOUNDATIONS = names("found", 4)
TABLEAU = names("tab", 4)


class Canfield(Oracle):
    design = "canfield.cardz"
    milestones = frozenset({"empty reserve", "empty column", "redeal", "whole column moved", "corner turned"})

    def __init__(self, board: Board, seed: int = 0) -> None:
        super().__init__(board, seed)
        self.base = rank(self.board["found[0]"][0])
        self.moved_whole = False

    def on_foundation(self, card: int, foundation: list[int]) -> bool:
        if not foundation:
            return rank(card) == self.base
        return suit(card) == suit(foundation[-1]) and rank(card) == rank(foundation[-1]) % 13 + 1

    @staticmethod
    def on_column(card: int, column: list[int]) -> bool:
        """Down in alternate colours, a King on an Ace."""
        return red(card) != red(column[-1]) and rank(card) % 13 + 1 == rank(column[-1])

    def legal_moves(self) -> Iterator[MoveKey]:
        if self.won():
            return
        board = self.board
        for name in ("waste", "reserve", *TABLEAU):
            pile = board[name]
            if not pile or not up(pile[-1]):
                continue
            counts = [1] if name not in TABLEAU or len(pile) == 1 else [1, len(pile)]
            for count in counts:
                card = pile[-count]
                if count == 1:
                    yield from (drag(name, 1, f) for f in FOUNDATIONS if self.on_foundation(card, board[f]))
                for column in TABLEAU:
                    if column == name:
                        continue
                    if board[column]:
                        if self.on_column(card, board[column]):
                            yield drag(name, count, column)
                    elif not (name in TABLEAU and count == len(pile)):
                        yield drag(name, count, column)
        if board["stock"] or board["waste"]:
            yield tap("stock")

    def play(self, move: MoveKey) -> None:
        kind, source, count, target = move
        board = self.board
        if kind == "tap":
            if board["stock"]:
                for _ in range(min(3, len(board["stock"]))):
                    board["waste"].append(board["stock"].pop() | 0x80)
            else:
                board["stock"].extend(card & ~0x80 for card in reversed(board["waste"]))
                board["waste"].clear()
            return
        if source in TABLEAU and count == len(board[source]) and count > 1:
            self.moved_whole = True
        self.move_cards(source, count, target)
        self.turn_up_top(source)
        for column in TABLEAU:
            if not board[column] and board["reserve"]:
                self.move_cards("reserve", 1, column)
                self.turn_up_top("reserve")

    def won(self) -> bool:
        return sum(len(self.board[f]) for f in FOUNDATIONS) == 52

    @staticmethod
    def progress(board: Board) -> int:
        return 10 * sum(len(board[f]) for f in FOUNDATIONS) - 3 * len(board["reserve"])

    def reached(self) -> set[str]:
        board = self.board
        seen = set()
        if not board["reserve"]:
            seen.add("empty reserve")
        if any(not board[t] for t in TABLEAU):
            seen.add("empty column")
        if not board["stock"] and board["waste"]:
            seen.add("redeal")
        if self.moved_whole:
            seen.add("whole column moved")
        if any(board[f] and rank(board[f][-1]) < rank(board[f][0]) for f in FOUNDATIONS):
            seen.add("corner turned")
        return seen
