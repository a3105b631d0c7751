"""FreeCell from its usual rules (games/freecell.cardz states the choices: a run moves as a unit
within the supermove limit (free cells + 1) × 2^(empty columns not counting the target); no
card moves from one free cell to another, nor a whole column into an empty one)."""

from __future__ import annotations

from collections.abc import Iterator

from . import Board, MoveKey, Oracle, drag, names, rank, red, suit

CELLS = names("cell", 4)
FOUNDATIONS = names("found", 4)
TABLEAU = names("tab", 8)


def on_foundation(card: int, foundation: list[int]) -> bool:
    if not foundation:
        return rank(card) == 1
    return suit(card) == suit(foundation[-1]) and rank(card) == rank(foundation[-1]) + 1


def on_column(card: int, column: list[int]) -> bool:
    return red(card) != red(column[-1]) and rank(card) == rank(column[-1]) - 1


class FreeCell(Oracle):
    design = "freecell.cardz"
    milestones = frozenset({"empty column", "two empty columns", "all cells full", "run of 5 moved"})

    def __init__(self, board: Board, seed: int = 0) -> None:
        super().__init__(board, seed)
        self.longest_move = 0

    def legal_moves(self) -> Iterator[MoveKey]:
        if self.won():
            return
        board = self.board
        free_cells = [c for c in CELLS if not board[c]]
        empty_columns = [t for t in TABLEAU if not board[t]]
        for cell in CELLS:
            if board[cell]:
                card = board[cell][-1]
                yield from (drag(cell, 1, f) for f in FOUNDATIONS if on_foundation(card, board[f]))
                for column in TABLEAU:
                    if not board[column] or on_column(card, board[column]):
                        yield drag(cell, 1, column)
        for name in TABLEAU:
            pile = board[name]
            if not pile:
                continue
            card = pile[-1]
            yield from (drag(name, 1, f) for f in FOUNDATIONS if on_foundation(card, board[f]))
            yield from (drag(name, 1, c) for c in free_cells)
            count = 1
            while True:
                card = pile[-count]
                for column in TABLEAU:
                    if column == name:
                        continue
                    target = board[column]
                    if target:
                        fits = on_column(card, target)
                        limit = (len(free_cells) + 1) * 2 ** len(empty_columns)
                    else:
                        fits = count < len(pile)
                        limit = (len(free_cells) + 1) * 2 ** (len(empty_columns) - 1)
                    if fits and count <= limit:
                        yield drag(name, count, column)
                if count == len(pile) or not on_column(pile[-count], [pile[-count - 1]]):
                    break
                count += 1

    def play(self, move: MoveKey) -> None:
        _, source, count, target = move
        self.move_cards(source, count, target)
        self.longest_move = max(self.longest_move, count)

    def won(self) -> bool:
        return sum(len(self.board[f]) for f in FOUNDATIONS) == 52

    @staticmethod
    def progress(board: Board) -> int:
        home = sum(len(board[f]) for f in FOUNDATIONS)
        free = sum(1 for c in CELLS if not board[c]) + 2 * sum(1 for t in TABLEAU if not board[t])
        return 10 * home + free

    def reached(self) -> set[str]:
        board = self.board
        seen = set()
        empty = sum(1 for t in TABLEAU if not board[t])
        if empty:
            seen.add("empty column")
        if empty >= 2:
            seen.add("two empty columns")
        if all(board[c] for c in CELLS):
            seen.add("all cells full")
        if self.longest_move >= 5:
            seen.add("run of 5 moved")
        if self.won():
            seen.add("won")
        return seen
