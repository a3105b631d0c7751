"""`cardz deals`: deals the solver proves winnable, each with a difficulty.

A player who asks for "winnable deals only" wants deals with a known win; one who
asks for "easy" or "hard" wants them ordered as a player would find them. Both come
from the analysis already here:

* **winnable** — the solver found a winning line, and the line was replayed through the
  engine from the deal's deck (a claim, checked, not a guess);
* **difficulty** — how a player without foresight fares on *that* deal: random play on
  the deal (:data:`PLAYOUTS_PER_DEAL` playouts, its own move streams), scored by

      difficulty = 100 × (1 − (win + progress) / 2)

  where *win* is the random win rate (Laplace-smoothed, ``(wins + 1) / (playouts + 2)``)
  and *progress* the mean share of the way to the win condition where those playouts
  stopped (cards in the win's depots for ``allCardsIn``, cards gone from them for
  ``depotsEmpty``; for other win conditions the win rate alone). So a deal that random
  play often wins or nearly wins scores low, one where it stalls early scores high.
  The solver's effort (positions searched) is reported beside it, not mixed in: it
  measures the search, not the player.

The **bands** are the game's own thirds: easy, medium and hard split the scores of the
run's first :data:`CALIBRATION` winnable deals at their tertiles, so an "easy" Golf deal
is easy *for Golf* (random play wins almost no Golf deal, so on an absolute scale every
Golf deal would be hard).

``docs/explore.md`` shows that the score orders deals as fresh random play finds them.
"""

from __future__ import annotations

import dataclasses
import enum
import json
import time
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from ..cards import SplitMix64, card_str
from ..engine.deal import deck_for
from .playout import deal_seed, derive_seed, play_randomly
from .runner import game_for, run
from .solve import DEFAULT_BUDGET, solve_state

if TYPE_CHECKING:
    from ..engine import Game, Move, State

PLAYOUTS_PER_DEAL = 60
"""Random playouts of one deal that its difficulty is measured from."""

MAX_MOVES = 2_000
"""The step bound of those playouts."""

MAX_TRIES = 100_000
"""The most deals one request looks at before it answers with what it found."""

_DIFFICULTY_STREAM = 0xD1FF


class Difficulty(enum.Enum):
    """The difficulty bands of :func:`band`."""

    EASY = "easy"
    MEDIUM = "medium"
    HARD = "hard"


CALIBRATION = 24
"""Winnable deals whose scores set a game's band thresholds (the first ones of the run)."""


@dataclasses.dataclass(frozen=True, slots=True)
class Bands:
    """The score thresholds between easy and medium, and medium and hard."""

    medium_from: float
    hard_from: float

    @classmethod
    def from_scores(cls, scores: Sequence[float]) -> Bands:
        """The tertiles of ``scores`` (all deals medium when there are none)."""
        ordered = sorted(scores)
        if not ordered:
            return cls(float("-inf"), float("inf"))
        return cls(ordered[len(ordered) // 3], ordered[(2 * len(ordered)) // 3])

    def of(self, score: float) -> Difficulty:
        """The band of a difficulty score."""
        if score < self.medium_from:
            return Difficulty.EASY
        return Difficulty.MEDIUM if score < self.hard_from else Difficulty.HARD


@dataclasses.dataclass(frozen=True, slots=True)
class WinnableDeal:
    """One deal with a proven win."""

    index: int
    seed: int
    deck: str
    line: tuple[str, ...]
    difficulty: float
    random_win_rate: float
    random_progress: float
    solver_positions: int
    solver_seconds: float

    def to_dict(self, bands: Bands) -> dict[str, Any]:
        return {
            "seed": self.seed,
            "deck": self.deck,
            "line": list(self.line),
            "difficulty": bands.of(self.difficulty).value,
            "difficulty_score": round(self.difficulty, 1),
            "random_win_rate": round(self.random_win_rate, 4),
            "random_progress": round(self.random_progress, 4),
            "moves": len(self.line),
            "solver_positions": self.solver_positions,
            "solver_seconds": round(self.solver_seconds, 3),
        }


Progress = Callable[["State", "State"], float]
"""``progress(state, start)``: how far ``state`` is toward the win, 0..1 (``start``: the deal)."""


def progress_measure(game: Game) -> Progress | None:
    """The progress toward the design's win condition, or None when the win has no such measure."""
    win = game.design.win
    targets = tuple(game.design.resolve(win.depots) or ()) if win.depots else ()
    if not targets:
        return None
    if win.kind == "allCardsIn":
        return lambda state, start: sum(len(state.piles[i]) for i in targets) / max(1, state.cards_in_play)
    if win.kind == "depotsEmpty":

        def emptied(state: State, start: State) -> float:
            dealt = sum(len(start.piles[i]) for i in targets)
            return 1.0 - sum(len(state.piles[i]) for i in targets) / dealt if dealt else 1.0

        return emptied
    return None


def random_play_on(
    game: Game, deck: Sequence[int], seed: int, playouts: int = PLAYOUTS_PER_DEAL
) -> tuple[float, float]:
    """(smoothed win rate, mean progress) of ``playouts`` random playouts of one deal."""
    measure = progress_measure(game)
    start = game.new_initial_state(deck=deck)
    wins = 0
    progress = 0.0
    for number in range(playouts):
        state = start.clone()
        play_randomly(state, SplitMix64(derive_seed(seed, number, _DIFFICULTY_STREAM)), MAX_MOVES)
        won = state.is_terminal() and state.outcome().won
        wins += int(won)
        if won:
            progress += 1.0
        elif measure is not None:
            progress += measure(state, start)
    return (wins + 1) / (playouts + 2), progress / playouts


def difficulty_of(win_rate: float, progress: float) -> float:
    """The documented difficulty score, 0..100."""
    return 100.0 * (1.0 - (win_rate + progress) / 2.0)


def _deals_task(game: Game, start: int, stop: int, seed: int, options: Mapping[str, Any]) -> list[WinnableDeal]:
    budget = int(options.get("budget", DEFAULT_BUDGET))
    deal_seconds = options.get("deal_seconds")
    playouts = int(options.get("playouts", PLAYOUTS_PER_DEAL))
    found = []
    for index in range(start, stop):
        deal = deal_seed(seed, index)
        deck = deck_for(game.design, deal)
        began = time.perf_counter()
        deadline = time.monotonic() + float(deal_seconds) if deal_seconds else None
        result, line, nodes = solve_state(game.new_initial_state(deck=deck), budget, deadline)
        seconds = time.perf_counter() - began
        if result != "won" or not _replays(game, deck, line):
            continue
        rate, progress = random_play_on(game, deck, deal, playouts)
        found.append(
            WinnableDeal(
                index, deal, " ".join(card_str(card) for card in deck), tuple(str(m) for m in line),
                difficulty_of(rate, progress), rate, progress, nodes, seconds,
            )
        )
    return found


def _replays(game: Game, deck: Sequence[int], line: Sequence[Move]) -> bool:
    """Whether ``line`` wins the deal dealt from ``deck`` (every claimed win is checked)."""
    state = game.new_initial_state(deck=deck)
    for move in line:
        if state.is_terminal() or state.why_illegal(move) is not None:
            return False
        state.apply(move)
    return state.is_terminal() and state.outcome().won


@dataclasses.dataclass(frozen=True)
class DealsReport:
    """The result of ``cardz deals``."""

    game: str
    seed: int
    wanted: int
    difficulty: Difficulty | None
    deals: tuple[WinnableDeal, ...]
    tried: int
    bands: Bands
    calibrated_on: int

    def to_dict(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "seed": self.seed,
            "wanted": self.wanted,
            "difficulty": None if self.difficulty is None else self.difficulty.value,
            "tried": self.tried,
            "bands": {"medium_from": self.bands.medium_from, "hard_from": self.bands.hard_from,
                      "calibrated_on": self.calibrated_on},
            "deals": [deal.to_dict(self.bands) for deal in self.deals],
        }

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), indent=2, ensure_ascii=False)

    def to_text(self) -> str:
        wanted = f"{self.wanted} {self.difficulty.value + ' ' if self.difficulty else ''}winnable"
        lines = [f"{self.game}: {len(self.deals)} of {wanted} deals found in {self.tried} tried (seed {self.seed})"]
        for deal in self.deals:
            lines.append(
                f"  --seed {deal.seed}  {self.bands.of(deal.difficulty).value:<6} {deal.difficulty:5.1f}  "
                f"random wins {100 * deal.random_win_rate:.0f}%, progress {100 * deal.random_progress:.0f}%, "
                f"{len(deal.line)} moves to win"
            )
        return "\n".join(lines) + "\n"


def winnable_deals(
    design_json: str,
    count: int,
    seed: int = 0,
    difficulty: Difficulty | None = None,
    budget: int = DEFAULT_BUDGET,
    deal_seconds: float | None = None,
    playouts: int = PLAYOUTS_PER_DEAL,
    max_tries: int = MAX_TRIES,
    calibration: int = CALIBRATION,
    workers: int | None = None,
    scheduler: str | None = None,
    on_progress: Callable[[int], None] | None = None,
) -> DealsReport:
    """The first ``count`` deals (in deal order) that the solver wins, of the wanted band if any.

    Deals are tried in rounds; the answer depends on the seed alone, not on the workers. The
    bands are set by the first ``calibration`` winnable deals of the run.
    """
    options = {"budget": budget, "deal_seconds": deal_seconds, "playouts": playouts}
    winnable: list[WinnableDeal] = []
    tried = 0
    round_size = max(8, 2 * count)

    def wanted(bands: Bands) -> list[WinnableDeal]:
        return [deal for deal in winnable if difficulty is None or bands.of(deal.difficulty) is difficulty]

    bands = Bands.from_scores([])
    while tried < max_tries:
        size = min(round_size, max_tries - tried)
        batch: list[WinnableDeal] = []
        for _, part in run(_offset_task, design_json, size, seed, {**options, "offset": tried}, workers, scheduler):
            batch.extend(part)
        winnable.extend(sorted(batch, key=lambda deal: deal.index))
        tried += size
        bands = Bands.from_scores([deal.difficulty for deal in winnable[:calibration]])
        done = len(winnable) >= calibration and len(wanted(bands)) >= count
        if on_progress:
            on_progress(min(count, len(wanted(bands))))
        if done:
            break
        round_size = min(4 * round_size, 4096)
    found = tuple(wanted(bands)[:count])
    calibrated_on = min(calibration, len(winnable))
    return DealsReport(game_for(design_json).design.name, seed, count, difficulty, found, tried, bands, calibrated_on)


def _offset_task(game: Game, start: int, stop: int, seed: int, options: Mapping[str, Any]) -> list[WinnableDeal]:
    offset = int(options["offset"])
    return _deals_task(game, start + offset, stop + offset, seed, options)
