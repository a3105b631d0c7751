"""Independent move generators for the classics, and the harness that holds the engine to them.

An *oracle* is a game's rules written from its published text (and the decisions its
design's description states) in plain Python: no expression language and no engine code.
It keeps its own position, a :data:`Board` of piles named as the design names its depots
(``tab[3]``), with the engine's card ints (``cards.py`` decodes them). The harness deals
with the engine, hands the oracle the dealt board once, then on every position of seeded
playouts compares the two sets of legal moves, plays the same move on both and compares
the next boards. The oracle never reads the engine's position again after the deal, so a
rule the design gets wrong shows up at the first position where the two disagree.

Adding an oracle: subclass :class:`Oracle` in ``tests/oracles/<game>.py`` (set ``design``,
``milestones``; write ``legal_moves``, ``play``, ``won`` and ``progress``), then add the class
to ``ORACLES`` in ``tests/test_oracles.py``. Write it from the rules text and the design's
description, never from the design's expressions; where the rules leave a choice, the
description must say which, and the oracle follows it.
"""

from __future__ import annotations

import abc
import json
from collections.abc import Iterable
from pathlib import Path
from typing import ClassVar

from cardz_tools.cards import FACE_UP, SplitMix64, card_str
from cardz_tools.engine import Drag, Game, Tap
from cardz_tools.model import build_design
from cardz_tools.variants import flatten

GAMES = Path(__file__).resolve().parent.parent.parent / "games"

Board = dict[str, list[int]]
"""Piles by depot name, bottom card first, as engine card ints (face-up bit included)."""

MoveKey = tuple[str, str, int, str]
"""``("drag", source, count, target)`` or ``("tap", depot, 0, action or "")``."""

RED_SUITS = frozenset({1, 2})  # Diamonds, Hearts (cards.py suit numbers)


def rank(card: int) -> int:
    """Ace 1 .. King 13."""
    return card & 0x0F


def suit(card: int) -> int:
    """Clubs 0, Diamonds 1, Hearts 2, Spades 3."""
    return (card >> 4) & 0x07


def red(card: int) -> bool:
    return suit(card) in RED_SUITS


def up(card: int) -> bool:
    return bool(card & FACE_UP)


def drag(source: str, count: int, target: str) -> MoveKey:
    return ("drag", source, count, target)


def tap(depot: str, action: str = "") -> MoveKey:
    return ("tap", depot, 0, action)


def names(group: str, count: int) -> list[str]:
    """The member names of a ``repeat`` group: ``tab[0]`` .. ``tab[count - 1]``."""
    return [f"{group}[{i}]" for i in range(count)]


class Oracle(abc.ABC):
    """One game's rules, independent of the engine. The board is the oracle's own."""

    design: ClassVar[str]
    """The file under ``games/`` this oracle referees."""
    milestones: ClassVar[frozenset[str]] = frozenset()
    """Kinds of late position the playouts must reach (names :meth:`reached` returns)."""

    def __init__(self, board: Board, seed: int = 0) -> None:
        self.board: Board = {name: list(pile) for name, pile in board.items()}
        self.seed = seed
        """The deal's seed, for a game whose rules reshuffle (docs/format.md, Reshuffles)."""

    @abc.abstractmethod
    def legal_moves(self) -> Iterable[MoveKey]:
        """Every legal move in this position (none once the game is won)."""

    @abc.abstractmethod
    def play(self, move: MoveKey) -> None:
        """Play a legal move on the oracle's board, with everything that follows from it."""

    @abc.abstractmethod
    def won(self) -> bool:
        """Whether the game is won."""

    @staticmethod
    @abc.abstractmethod
    def progress(board: Board) -> int:
        """How far along a board is (higher is better): the playouts prefer moves that raise it."""

    def reached(self) -> set[str]:
        """Which :attr:`milestones` this position shows."""
        return set()

    # helpers for subclasses
    def move_cards(self, source: str, count: int, target: str) -> None:
        pile = self.board[source]
        moved = pile[len(pile) - count :]
        del pile[len(pile) - count :]
        self.board[target].extend(moved)

    def turn_up_top(self, name: str) -> None:
        pile = self.board[name]
        if pile and not up(pile[-1]):
            pile[-1] |= FACE_UP


def load_game(design: str) -> Game:
    return Game(build_design(design_data(design)))


def design_data(design: str) -> dict:
    """The JSON of a file under ``games/``, a variant flattened (a test may alter it to show a slip is caught)."""
    data = json.loads((GAMES / design).read_text(encoding="utf-8"))
    if "extends" in data:
        data, _ = flatten(GAMES / design)
    return data  # type: ignore[no-any-return]


def engine_board(game: Game, state: object) -> Board:
    return {name: list(pile) for name, pile in zip(game.names, state.piles, strict=True)}  # type: ignore[attr-defined]


def engine_move_key(move: Drag | Tap) -> MoveKey:
    if isinstance(move, Drag):
        return drag(move.source, move.count, move.target)
    return tap(move.depot, move.action or "")


def _show(board: Board) -> str:
    def text(card: int) -> str:
        return card_str(card) if up(card) else f"[{card_str(card)}]"

    return "\n".join(f"  {name:>9}: {' '.join(map(text, pile))}" for name, pile in board.items())


def _moves_text(moves: Iterable[MoveKey]) -> str:
    return ", ".join(f"{m[1]}→{m[3]}×{m[2]}" if m[0] == "drag" else f"tap {m[1]} {m[3]}".rstrip()
                     for m in sorted(moves))


class Disagreement(AssertionError):
    """The engine and the oracle disagree on a position."""


def compare(
    oracle_class: type[Oracle],
    playouts: int,
    seed: int = 0,
    max_moves: int = 400,
    greed: float = 0.8,
    data: dict | None = None,
) -> tuple[int, set[str]]:
    """Play ``playouts`` seeded playouts on both; raise :class:`Disagreement` at the first difference.

    Each move is, with probability ``greed``, one of the moves whose next board has the best
    :meth:`Oracle.progress` (ties broken at random), otherwise any legal move. Returns the
    number of positions compared and the milestones reached. ``data`` replaces the design's JSON.
    """
    game = load_game(oracle_class.design) if data is None else Game(build_design(data))
    positions = 0
    reached: set[str] = set()
    for index in range(playouts):
        rng = SplitMix64(seed * 1_000_003 + index)
        state = game.new_initial_state(seed=seed * 1_000_003 + index)
        oracle = oracle_class(engine_board(game, state), seed * 1_000_003 + index)
        for step in range(max_moves + 1):
            where = f"{oracle_class.design}, playout {index}, move {step}"
            ours = engine_board(game, state)
            if ours != oracle.board:
                raise Disagreement(
                    f"{where}: the boards differ\nengine:\n{_show(ours)}\noracle:\n{_show(oracle.board)}"
                )
            legal = state.legal_moves()
            engine_moves = {engine_move_key(m) for m in legal}
            oracle_moves = set(oracle.legal_moves())
            positions += 1
            reached |= oracle.reached()
            if engine_moves != oracle_moves:
                raise Disagreement(
                    f"{where}: the legal moves differ\n"
                    f"  only the engine: {_moves_text(engine_moves - oracle_moves)}\n"
                    f"  only the oracle: {_moves_text(oracle_moves - engine_moves)}\n{_show(ours)}"
                )
            if oracle.won() != state.outcome().won:
                raise Disagreement(
                    f"{where}: won is {state.outcome().won} for the engine, {oracle.won()} for the oracle"
                )
            if not legal or step == max_moves:
                break
            move = _choose(game, state, legal, oracle_class, rng, greed)
            state.apply(move)
            oracle.play(engine_move_key(move))
    return positions, reached


def _choose(
    game: Game, state: object, legal: list, oracle_class: type[Oracle], rng: SplitMix64, greed: float
) -> Drag | Tap:
    if len(legal) == 1 or rng.below(1000) >= greed * 1000:
        return legal[rng.below(len(legal))]  # type: ignore[no-any-return]
    best: list[Drag | Tap] = []
    best_value = None
    for move in legal:
        child = state.clone()  # type: ignore[attr-defined]
        child.apply(move)
        value = oracle_class.progress(engine_board(game, child))
        if best_value is None or value > best_value:
            best, best_value = [move], value
        elif value == best_value:
            best.append(move)
    return best[rng.below(len(best))]
