"""Klondike from its usual rules (games/klondike.cardz states the choices: draw three, unlimited
redeals, a foundation's top card may come back to a column, a King alone in its column stays)."""

from __future__ import annotations

from collections.abc import Iterator

from . import Board, MoveKey, Oracle, drag, names, rank, red, suit, tap, up

TABLEAU = names("tab", 7)
FOUNDATIONS = names("found", 4)


def builds_on_column(card: int, column: list[int]) -> bool:
    """Down in alternate colours; only a King on an empty column."""
    if not column:
        return rank(card) == 13
    top = column[-1]
    return red(card) != red(top) and rank(card) == rank(top) - 1


def builds_on_foundation(card: int, foundation: list[int]) -> bool:
    """Up by suit from the Ace."""
    if not foundation:
        return rank(card) == 1
    top = foundation[-1]
    return suit(card) == suit(top) and rank(card) == rank(top) + 1


class Klondike(Oracle):
    design = "klondike.cardz"
    milestones = frozenset(
        {"empty column", "empty stock", "redeal", "run of 5", "King moved to an empty column", "won"}
    )

    def legal_moves(self) -> Iterator[MoveKey]:
        if self.won():
            return
        board = self.board
        sources = ["waste", *FOUNDATIONS]  # the top card only
        for name in sources:
            pile = board[name]
            if not pile:
                continue
            card = pile[-1]
            for column in TABLEAU:
                if builds_on_column(card, board[column]):
                    yield drag(name, 1, column)
            if name == "waste":
                for foundation in FOUNDATIONS:
                    if builds_on_foundation(card, board[foundation]):
                        yield drag(name, 1, foundation)
        for name in TABLEAU:
            pile = board[name]
            count = 0
            while count < len(pile) and up(pile[-1 - count]):
                count += 1
                card = pile[-count]
                whole = count == len(pile)
                for column in TABLEAU:
                    if column != name and builds_on_column(card, board[column]) and not (whole and not board[column]):
                        yield drag(name, count, column)
                if count == 1:
                    for foundation in FOUNDATIONS:
                        if builds_on_foundation(card, board[foundation]):
                            yield drag(name, 1, foundation)
        if board["stock"] or board["waste"]:
            yield tap("stock")

    def play(self, move: MoveKey) -> None:
        kind, source, count, target = move
        if kind == "tap":
            stock, waste = self.board["stock"], self.board["waste"]
            if stock:
                for _ in range(min(3, len(stock))):
                    waste.append(stock.pop() | 0x80)
            else:  # turn the waste over: its first card drawn is drawn first again
                stock.extend(card & ~0x80 for card in reversed(waste))
                waste.clear()
            return
        self.move_cards(source, count, target)
        if source in TABLEAU:
            self.turn_up_top(source)

    def won(self) -> bool:
        return sum(len(self.board[f]) for f in FOUNDATIONS) == 52

    @staticmethod
    def progress(board: Board) -> int:
        home = sum(len(board[f]) for f in FOUNDATIONS)
        turned = sum(1 for column in TABLEAU for card in board[column] if up(card))
        hidden = sum(1 for column in TABLEAU for card in board[column] if not up(card))
        return 10 * home - 5 * hidden + turned

    def reached(self) -> set[str]:
        board = self.board
        seen = set()
        if any(not board[c] for c in TABLEAU):
            seen.add("empty column")
        if not board["stock"]:
            seen.add("empty stock")
            if board["waste"]:
                seen.add("redeal")
        if any(sum(1 for c in board[col] if up(c)) >= 5 for col in TABLEAU):
            seen.add("run of 5")
        if any(board[c] and rank(board[c][0]) == 13 and up(board[c][0]) for c in TABLEAU):
            seen.add("King moved to an empty column")
        if self.won():
            seen.add("won")
        return seen
