"""Gaps (Montana without its redeal) from its usual rules (games/gaps-no-redeal.cardz, which
states the choices: the Aces are taken out, a gap takes the card of the same suit one rank
higher than the card on its left, the leftmost gap takes any Two, one at another row's left edge
too, as Solvitaire's gaps-one-deal and PySol's Montana have it; a gap after a King stays shut, no
redeal)."""

from __future__ import annotations

from collections.abc import Iterator

from cardz_tools.cards import shuffle

from . import FACE_UP, Board, MoveKey, Oracle, drag, rank, suit, tap

ROWS, COLUMNS = 4, 13
CELL = [[f"cell[{row * COLUMNS + col}]" for col in range(COLUMNS)] for row in range(ROWS)]


def in_order(board: Board, row: int) -> int:
    """How many cards of ``row`` are in order from a Two at its left edge."""
    count = 0
    for col in range(COLUMNS - 1):
        pile = board[CELL[row][col]]
        if not pile or rank(pile[0]) != col + 2 or (col and suit(pile[0]) != suit(board[CELL[row][col - 1]][0])):
            break
        count += 1
    return count


class GapsNoRedeal(Oracle):
    design = "gaps-no-redeal.cardz"
    milestones = frozenset({"a row half in order", "a King's gap", "lost"})

    def __init__(self, board: Board, seed: int = 0) -> None:
        super().__init__(board, seed)
        self.where = {pile[0] & 0x7F: name for name, pile in self.board.items() if name.startswith("cell") and pile}

    def legal_moves(self) -> Iterator[MoveKey]:
        if self.won():
            return
        board = self.board
        for row in range(ROWS):
            for col in range(COLUMNS):
                gap = CELL[row][col]
                if board[gap]:
                    continue
                if col == 0:
                    for two in (2 | (s << 4) for s in range(4)):
                        yield drag(self.where[two], 1, gap)
                    continue
                left = board[CELL[row][col - 1]]
                if left and rank(left[0]) != 13:
                    yield drag(self.where[(left[0] & 0x7F) + 1], 1, gap)

    def drags(self) -> list[MoveKey]:
        return list(GapsNoRedeal.legal_moves(self))

    def play(self, move: MoveKey) -> None:
        _, source, count, target = move
        self.move_cards(source, count, target)
        self.where[self.board[target][0] & 0x7F] = target

    def won(self) -> bool:
        return all(in_order(self.board, row) == COLUMNS - 1 for row in range(ROWS))

    @staticmethod
    def progress(board: Board) -> int:
        return sum(in_order(board, row) for row in range(ROWS))

    def reached(self) -> set[str]:
        seen = set()
        if any(in_order(self.board, row) >= 6 for row in range(ROWS)):
            seen.add("a row half in order")
        for row in range(ROWS):
            for col in range(1, COLUMNS):
                left = self.board[CELL[row][col - 1]]
                if not self.board[CELL[row][col]] and left and rank(left[0]) == 13:
                    seen.add("a King's gap")
        if not self.won() and not any(True for _ in self.legal_moves()):
            seen.add("lost")
        return seen


RESHUFFLE = 0xD1B54A32D192ED03


class Montana(GapsNoRedeal):
    """Montana (games/montana.cardz): Gaps with two redeals, offered when no gap can be filled.

    A redeal keeps each row's cards in order from a Two at its left edge, gathers the others
    (cells in reading order), shuffles them with the k-th reshuffle seed of docs/format.md and
    deals them face up across the grid in reading order, one per cell, leaving the cell just
    after each row's ordered part empty.
    """

    design = "montana.cardz"
    milestones = frozenset({"a row half in order", "a King's gap", "redeal", "both redeals used", "lost"})

    def __init__(self, board: Board, seed: int = 0) -> None:
        super().__init__(board, seed)
        self.redeals = 0

    def legal_moves(self) -> Iterator[MoveKey]:
        moves = self.drags()
        yield from moves
        if not moves and not self.won() and self.redeals < 2:
            yield tap("aces", "redeal")

    def play(self, move: MoveKey) -> None:
        if move[0] == "drag":
            super().play(move)
            return
        board = self.board
        self.redeals += 1
        ordered = [in_order(board, row) for row in range(ROWS)]
        gathered = [
            card for row in range(ROWS) for col in range(ordered[row], COLUMNS) for card in board[CELL[row][col]]
        ]
        dealt = iter(shuffle(gathered, (self.seed + self.redeals * RESHUFFLE) % 2**64))
        for row in range(ROWS):
            for col in range(ordered[row], COLUMNS):
                board[CELL[row][col]] = [] if col == ordered[row] else [next(dealt) | FACE_UP]
        self.where = {pile[0] & 0x7F: name for name, pile in board.items() if name.startswith("cell") and pile}

    def reached(self) -> set[str]:
        seen = super().reached()
        if self.redeals:
            seen.add("redeal")
        if self.redeals == 2:
            seen.add("both redeals used")
        return seen
