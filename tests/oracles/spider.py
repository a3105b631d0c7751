"""Spider with one suit from its usual rules (games/spider-one-suit.cardz: 104 Spades, ten
columns, build down regardless of suit, a run in one suit moves, any card or run goes into an
empty column, the stock deals a card to every column only when none is empty, and a run from
King to Ace leaves the tableau at once)."""

from __future__ import annotations

from collections.abc import Iterator

from . import FACE_UP, Board, MoveKey, Oracle, drag, names, rank, suit, tap, up

TABLEAU = names("tab", 10)


def follows(lower: int, upper: int) -> bool:
    """``upper`` may lie on ``lower`` in a run that moves: one suit, one rank down, face up."""
    return up(lower) and up(upper) and suit(lower) == suit(upper) and rank(upper) == rank(lower) - 1


class SpiderOneSuit(Oracle):
    design = "spider-one-suit.cardz"
    milestones = frozenset({"empty column", "run leaves", "empty stock", "run of 8"})

    def legal_moves(self) -> Iterator[MoveKey]:
        if self.won():
            return
        board = self.board
        for name in TABLEAU:
            pile = board[name]
            if not pile or not up(pile[-1]):
                continue
            count = 1
            while True:
                card = pile[-count]
                for column in TABLEAU:
                    if column != name and (not board[column] or rank(card) == rank(board[column][-1]) - 1):
                        yield drag(name, count, column)
                if count == len(pile) or not follows(pile[-count - 1], pile[-count]):
                    break
                count += 1
        if board["stock"] and all(board[t] for t in TABLEAU):
            yield tap("stock", "deal")

    def play(self, move: MoveKey) -> None:
        kind, source, count, target = move
        board = self.board
        if kind == "tap":
            for column in TABLEAU:
                if board["stock"]:
                    board[column].append(board["stock"].pop() | FACE_UP)
        else:
            self.move_cards(source, count, target)
            self.turn_up_top(source)
        for column in TABLEAU:
            pile = board[column]
            if len(pile) >= 13 and rank(pile[-1]) == 1 and all(follows(pile[-k - 1], pile[-k]) for k in range(1, 13)):
                self.move_cards(column, 13, "done")
                self.turn_up_top(column)

    def won(self) -> bool:
        return len(self.board["done"]) == 104

    @staticmethod
    def progress(board: Board) -> int:
        home = len(board["done"])
        hidden = sum(1 for t in TABLEAU for c in board[t] if not up(c))
        in_runs = sum(
            1 for t in TABLEAU for lower, upper in zip(board[t], board[t][1:], strict=False) if follows(lower, upper)
        )
        return 10 * home - 3 * hidden + in_runs

    def reached(self) -> set[str]:
        board = self.board
        seen = set()
        if any(not board[t] for t in TABLEAU):
            seen.add("empty column")
        if board["done"]:
            seen.add("run leaves")
        if not board["stock"]:
            seen.add("empty stock")
        for t in TABLEAU:
            pile = board[t]
            run = 1
            while run < len(pile) and follows(pile[-run - 1], pile[-run]):
                run += 1
            if pile and run >= 8:
                seen.add("run of 8")
        return seen
