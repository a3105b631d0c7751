"""Pyramid from its usual rules (games/pyramid.cardz: 28 cards in seven rows, each covered by
the two below it; two free cards, or the waste's top card and a free card, adding up to 13
(Jack 11, Queen 12) are discarded; a free King or the waste's King is discarded alone; the
stock turns one card onto the waste, three passes in all)."""

from __future__ import annotations

from collections.abc import Iterator

from . import FACE_UP, Board, MoveKey, Oracle, drag, rank, tap

ROWS = 7
POSITIONS = [(row, place) for row in range(ROWS) for place in range(row + 1)]
NAME = {spot: f"pyr[{i}]" for i, spot in enumerate(POSITIONS)}


def covered(board: Board, row: int, place: int) -> bool:
    if row == ROWS - 1:
        return False
    return bool(board[NAME[row + 1, place]] or board[NAME[row + 1, place + 1]])


class Pyramid(Oracle):
    design = "pyramid.cardz"
    milestones = frozenset({"top row cleared", "second pass", "last pass", "empty stock"})

    def __init__(self, board: Board, seed: int = 0) -> None:
        super().__init__(board, seed)
        self.redeals_left = 2

    def free_cards(self) -> list[str]:
        return [NAME[spot] for spot in POSITIONS if self.board[NAME[spot]] and not covered(self.board, *spot)]

    def legal_moves(self) -> Iterator[MoveKey]:
        if self.won():
            return
        board = self.board
        free = self.free_cards()
        sources = [*free, "waste"] if board["waste"] else free
        for source in sources:
            card = board[source][-1]
            for target in free:
                if target != source and rank(card) + rank(board[target][-1]) == 13:
                    yield drag(source, 1, target)
            if rank(card) == 13:
                yield drag(source, 1, "discard")
        if board["stock"] or (board["waste"] and self.redeals_left):
            yield tap("stock")

    def play(self, move: MoveKey) -> None:
        kind, source, count, target = move
        board = self.board
        if kind == "tap":
            if board["stock"]:
                board["waste"].append(board["stock"].pop() | FACE_UP)
            else:
                board["stock"].extend(card & ~FACE_UP for card in reversed(board["waste"]))
                board["waste"].clear()
                self.redeals_left -= 1
            return
        self.move_cards(source, count, target)
        if target != "discard":
            self.move_cards(target, 2, "discard")

    def won(self) -> bool:
        return not any(self.board[name] for name in NAME.values())

    @staticmethod
    def progress(board: Board) -> int:
        return len(board["discard"])

    def reached(self) -> set[str]:
        seen = set()
        if not self.board[NAME[0, 0]]:
            seen.add("top row cleared")
        if self.redeals_left < 2:
            seen.add("second pass")
        if self.redeals_left == 0:
            seen.add("last pass")
        if not self.board["stock"]:
            seen.add("empty stock")
        return seen
