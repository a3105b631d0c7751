"""Golf from its usual rules (games/golf.cardz: seven columns of five, one card starts the pile,
a column's top card goes on the pile one rank higher or lower without wrapping, nothing on a
King, the stock turns one card onto the pile, one pass)."""

from __future__ import annotations

from collections.abc import Iterator

from . import FACE_UP, Board, MoveKey, Oracle, drag, names, rank, tap

TABLEAU = names("tab", 7)


class Golf(Oracle):
    design = "golf.cardz"
    milestones = frozenset({"empty column", "empty stock", "King on the pile"})

    def legal_moves(self) -> Iterator[MoveKey]:
        if self.won():
            return
        pile = self.board["pile"]
        top = rank(pile[-1])
        for column in TABLEAU:
            cards = self.board[column]
            if cards and top != 13 and abs(rank(cards[-1]) - top) == 1:
                yield drag(column, 1, "pile")
        if self.board["stock"]:
            yield tap("stock")

    def play(self, move: MoveKey) -> None:
        kind, source, count, target = move
        if kind == "tap":
            self.board["pile"].append(self.board["stock"].pop() | FACE_UP)
        else:
            self.move_cards(source, count, target)

    def won(self) -> bool:
        return not any(self.board[t] for t in TABLEAU)

    @staticmethod
    def progress(board: Board) -> int:
        return -sum(len(board[t]) for t in TABLEAU)

    def reached(self) -> set[str]:
        seen = set()
        if any(not self.board[t] for t in TABLEAU):
            seen.add("empty column")
        if not self.board["stock"]:
            seen.add("empty stock")
        if rank(self.board["pile"][-1]) == 13:
            seen.add("King on the pile")
        if self.won():
            seen.add("won")
        return seen
