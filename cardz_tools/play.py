"""``cardz deal`` and ``cardz play``: a design dealt and played in the terminal.

The play loop reads commands from any text stream and writes to any rich
console, so tests drive it with a script. Commands: a move number, a move typed
as ``from to`` (``cell[3] cell[8]``, ``waste vane hearts``, ``tap stock``), ``u``
to undo, ``r`` to restart, ``q`` to quit. A move the rules refuse prints the
rule's reason.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from .cards import CardSyntaxError, parse_deck
from .engine.deal import DeckError
from .engine.game import Game
from .engine.moves import Move
from .engine.notation import MoveSyntaxError, parse_move
from .engine.render import render_rich, render_text
from .engine.rules import RuleError
from .engine.state import State
from .loading import OpenDesign, open_or_report
from .model import Design
from .reporters import ReportOptions, render

if TYPE_CHECKING:
    from rich.console import Console

HELP = (
    "Type a move number, a move as 'from to' (e.g. cell[3] cell[8], waste vane hearts, tap stock), "
    "u undo, r restart, q quit."
)


class LoadError(Exception):
    """A design or deck file that cannot be played; the message says why (one problem per line)."""


def load_design(path: Path) -> Design:
    """Lint, flatten (``extends``) and model a design file through :func:`cardz_tools.loading.open_or_report`.

    :raises LoadError: with the linter's diagnostics when the design has errors.
    """
    opened = open_or_report(path)
    if isinstance(opened, OpenDesign):
        return opened.design
    if opened.result is None:
        raise LoadError(opened.message)
    raise LoadError(opened.message + "\n" + render(opened.result, "concise", ReportOptions(color=False)).rstrip())


def load_game(path: Path) -> Game:
    """A playable game from a design file.

    :raises LoadError: when the file cannot be read, modelled or its rules compiled.
    """
    design = load_design(path)
    try:
        return Game(design)
    except RuleError as exc:
        raise LoadError(f"{path}: {exc}; run 'cardz lint {path}' for details") from None


def new_state(game: Game, seed: int | None, deck_path: Path | None) -> State:
    """Deal from a deck file (``--deck``) or a seed.

    :raises LoadError: for an unreadable deck file or one that is not the design's deck.
    """
    deck = None
    if deck_path is not None:
        try:
            deck = parse_deck(deck_path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, CardSyntaxError) as exc:
            raise LoadError(f"{deck_path}: {exc}") from None
    try:
        return game.new_initial_state(seed=seed, deck=deck)
    except DeckError as exc:
        raise LoadError(f"{deck_path or 'deal'}: {exc}") from None


def deal_text(path: Path, seed: int | None, deck_path: Path | None) -> str:
    """The board of a fresh deal as plain text (``cardz deal``).

    :raises LoadError: as :func:`load_game` and :func:`new_state`.
    """
    return render_text(new_state(load_game(path), seed, deck_path))


@dataclasses.dataclass
class Session:
    """A game in progress with its undo history."""

    initial: State
    state: State
    history: list[State] = dataclasses.field(default_factory=list)

    def apply(self, move: Move) -> None:
        before = self.state.clone()
        self.state.apply(move)
        self.history.append(before)

    def undo(self) -> bool:
        if not self.history:
            return False
        self.state = self.history.pop()
        return True

    def restart(self) -> None:
        self.history.clear()
        self.state = self.initial.clone()


def play_loop(state: State, commands: TextIO, console: Console) -> State:
    """Play from ``state`` reading commands from ``commands`` until ``q`` or the end of input.

    Returns the state the player left the game in.
    """
    session = Session(initial=state.clone(), state=state)
    names = state.game.names
    echo = not commands.isatty()  # a terminal echoes what is typed; a script does not
    show = True
    console.print(HELP, style="dim")
    while True:
        current = session.state
        moves = current.legal_moves()
        if show:
            console.print()
            console.print(render_rich(current))
            if current.is_terminal():
                _print_outcome(current, console)
            else:
                for number, listed in enumerate(moves, 1):
                    console.print(f"  {number:>3}. {current.describe(listed)}", markup=False)
        show = True
        console.print("move> ", end="")
        line = commands.readline()
        if not line:
            console.print()
            return session.state
        command = line.strip()
        if echo:
            console.print(command, highlight=False, markup=False)
        if not command:
            show = False
            continue
        if command in ("q", "quit"):
            return session.state
        if command in ("u", "undo"):
            if not session.undo():
                console.print("Nothing to undo.", style="yellow")
                show = False
            continue
        if command in ("r", "restart"):
            session.restart()
            continue
        if command in ("h", "?", "help"):
            console.print(HELP, style="dim")
            show = False
            continue
        move = _read_move(command, moves, names, console)
        if move is None:
            show = False
            continue
        reason = current.why_illegal(move)
        if reason is not None:
            console.print(f"Not allowed: {reason}", style="yellow", highlight=False, markup=False)
            show = False
            continue
        session.apply(move)


def _read_move(command: str, moves: list[Move], names: tuple[str, ...], console: Console) -> Move | None:
    if command.isdigit():
        number = int(command)
        if 1 <= number <= len(moves):
            return moves[number - 1]
        console.print(f"There is no move {number}; pick 1..{len(moves)}.", style="yellow")
        return None
    try:
        return parse_move(command, names)
    except MoveSyntaxError as exc:
        console.print(f"{exc}. {HELP}", style="yellow", highlight=False, markup=False)
        return None


def _print_outcome(state: State, console: Console) -> None:
    outcome = state.outcome()
    if outcome.won:
        console.print(f"You won! Score {outcome.score}.", style="bold green")
    else:
        console.print(f"Game over: {outcome.reason}. Score {outcome.score}.", style="bold red", markup=False)
    console.print("u undo, r restart, q quit", style="dim")


def run_play(path: Path, seed: int | None, deck_path: Path | None, commands: TextIO, console: Console) -> int:
    """``cardz play``: load, deal, play; the exit code (1 when the design or deck cannot be played)."""
    try:
        state = new_state(load_game(path), seed, deck_path)
    except LoadError as exc:
        console.print(str(exc), style="red", highlight=False, markup=False)
        return 1
    play_loop(state, commands, console)
    return 0
