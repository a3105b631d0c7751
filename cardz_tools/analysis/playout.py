"""Random playouts and their exact, mergeable aggregate.

A playout deals deal ``i`` of a run and picks uniformly among ``legal_moves()``
until the game ends or the step bound is hit. Seeds for deal ``i`` are derived
from the run's seed and ``i`` alone, so a run gives the same numbers whatever the
number of workers or the order in which chunks finish.
"""

from __future__ import annotations

import dataclasses
from collections import Counter, deque
from typing import TYPE_CHECKING, Any

from ..cards import SplitMix64
from ..engine.progress import can_end
from .pointless import PointlessMoves
from .repeats import AllPositions, RunPositions, positions_tracker

__all__ = ["Aggregate", "can_end", "deal_seed", "play_random", "play_range", "play_seed", "position_at_bound"]

if TYPE_CHECKING:
    from ..engine import Game, Move, State

DEFAULT_MAX_MOVES = 5_000
"""A playout that has not ended after this many moves counts as non-terminating."""

ENDLESS_CHECKS = 3
"""How many step-bound playouts (the lowest indexes) :func:`can_end` examines."""

ENDLESS_BUDGET = 5_000
"""Positions :func:`can_end` searches from the end of such a playout (and, for a ``noProgress``
design, to prove that the player gives up there)."""

STUCK_WINDOW = 64
"""A ``noProgress`` playout is searched for a way out (:func:`can_end`) once this many moves in a row
brought at most :data:`STUCK_NEW` positions it had not met: it is going round a few positions."""
STUCK_NEW = 8

_DEAL_STREAM = 0x0DEA1
_PLAY_STREAM = 0x91A7


def derive_seed(base: int, index: int, stream: int) -> int:
    """A 64-bit seed for item ``index`` of a run seeded with ``base`` (one stream per purpose)."""
    mixer = SplitMix64((base * 0x100000001B3) ^ (index << 20) ^ stream)
    mixer.next()
    return mixer.next()


def deal_seed(base: int, index: int) -> int:
    """The deal seed of playout ``index`` in a run seeded with ``base``."""
    return derive_seed(base, index, _DEAL_STREAM)


def play_seed(base: int, index: int) -> int:
    """The move-choice seed of playout ``index`` in a run seeded with ``base``."""
    return derive_seed(base, index, _PLAY_STREAM)


@dataclasses.dataclass
class Aggregate:
    """Integer sums over playouts; :meth:`merge` is associative and commutative."""

    playouts: int = 0
    wins: int = 0
    stuck_at_deal: int = 0
    non_terminating: int = 0
    cascades: int = 0
    """Of the non-terminating playouts, those stopped by a trigger cascade (the rest hit the step bound)."""
    moves_total: int = 0
    moves_squares: int = 0
    score_total: int = 0
    score_squares: int = 0
    positions: int = 0
    branching_total: int = 0
    choice_positions: int = 0
    fresh_positions: int = 0
    """Positions a playout met before it first came back to one it had met (what CZ505 counts)."""
    fresh_choice_positions: int = 0
    """Of those, the positions with more than one legal move."""
    scores: Counter[int] = dataclasses.field(default_factory=Counter)
    moves: Counter[int] = dataclasses.field(default_factory=Counter)
    rule_fires: Counter[str] = dataclasses.field(default_factory=Counter)
    repeating_example: tuple[str, ...] = ()
    bound_indexes: tuple[int, ...] = ()
    """The lowest indexes (at most :data:`ENDLESS_CHECKS`) of playouts that hit the step bound."""
    pointless_moves: Counter[str] = dataclasses.field(default_factory=Counter)
    """Moves that changed nothing (CZ509), by the accept rule that allowed them (``accept:found``)."""
    pointless_playouts: Counter[str] = dataclasses.field(default_factory=Counter)
    """How many playouts made at least one such move, by rule."""
    pointless_examples: dict[str, tuple[int, int, str]] = dataclasses.field(default_factory=dict)
    """Per rule, the first such move: (playout index, move number, the move and its piles)."""

    def merge(self, other: Aggregate) -> Aggregate:
        """Add ``other`` into this aggregate and return it."""
        for field in dataclasses.fields(self):
            name = field.name
            mine, theirs = getattr(self, name), getattr(other, name)
            if isinstance(mine, Counter):
                mine.update(theirs)
            elif name == "repeating_example":
                if not mine and theirs:
                    self.repeating_example = theirs
            elif name == "bound_indexes":
                self.bound_indexes = tuple(sorted(set(mine) | set(theirs)))[:ENDLESS_CHECKS]
            elif name == "pointless_examples":
                for rule, example in theirs.items():
                    if rule not in mine or example < mine[rule]:
                        mine[rule] = example
            else:
                setattr(self, name, mine + theirs)
        return self


def _repeating_moves(history: list[str], window: int = 200) -> tuple[str, ...]:
    """The shortest cycle at the end of a move history, for the non-terminating report."""
    tail = history[-window:]
    for length in range(1, len(tail) // 2 + 1):
        if tail[-length:] == tail[-2 * length : -length]:
            return tuple(tail[-length:])
    return tuple(tail[-8:])


def play_random(
    game: Game, index: int, base_seed: int, aggregate: Aggregate, max_moves: int = DEFAULT_MAX_MOVES
) -> None:
    """Play playout ``index`` of a run and add it to ``aggregate``."""
    dealt = deal_seed(base_seed, index)
    state = game.new_initial_state(seed=dealt)
    state.stats = aggregate.rule_fires
    rng = SplitMix64(play_seed(base_seed, index))
    moves = 0
    history: list[str] = []
    pointless = PointlessMoves.of(game)
    candidates = pointless.candidates if pointless is not None else {}
    met: set[str] = set()
    # A noProgress game is lost where no sequence of moves ends it any more (docs/format.md). A playout
    # going round a few positions is searched there, and ends as soon as the search proves it; a search
    # that does not (a way out, or too many positions) waits twice as long before the next one.
    stuck = _Stuck() if game.loss_no_progress else None
    # CZ505 asks whether the player has choices; once play returns to a position it has met, the
    # rest of the playout (a lost game shuttling one card to and fro) says nothing new about that.
    # (None: no move of this game leads back to a position, so there is nothing to test)
    positions: AllPositions | RunPositions | None = positions_tracker(game, dealt, every=stuck is not None)
    fresh = True
    positions_met = branching = choices = fresh_positions = fresh_choices = 0
    history_from = max_moves - 64
    if not state.non_terminating and not state.playable_moves() and not state.outcome().won:
        aggregate.stuck_at_deal += 1
    while moves < max_moves:
        legal = state.playable_moves()
        count = len(legal)
        if count == 0:  # the game is over
            break
        positions_met += 1
        branching += count
        choice = count > 1
        choices += choice
        move = legal[rng.below(count)]
        if positions is not None:
            new = positions.meet(state, move)
            if not new and fresh:  # the first position met again: CZ505 counts those before it
                fresh = False
                fresh_positions, fresh_choices = positions_met - 1, choices - choice
                if stuck is None:
                    positions = None
            if stuck is not None and stuck.going_round(new, moves) and _give_up(state, max_moves):
                break
        if moves >= history_from:
            history.append(str(move))
        if pointless is not None:
            found = candidates.get(id(move), _UNKNOWN)
            if found is _UNKNOWN:
                found = pointless.classify(move)
            # a swap of two piles needs the target to hold what the source keeps: test the sizes first
            if found is not None and len(state.piles[found[0]]) - found[2] == len(state.piles[found[1]]):
                changed_nothing = pointless.apply(state, move, found)
                if changed_nothing is not None:
                    rule, text = changed_nothing
                    where = f"{text}; the deal is `cardz play --seed {state.seed}`"
                    _count_pointless(aggregate, rule, where, index, moves, met)
                moves += 1
                continue
        state.apply(move, checked=True)  # one of its moves: no need to find it in the list again
        moves += 1
    if moves >= max_moves and not state.is_terminal():
        # A noProgress design: lost if nothing ends it. The search is bounded by the playout's own
        # step bound too, so that it costs about what the playout did, whatever the design.
        _give_up(state, max_moves)
    outcome = state.outcome()
    hit_bound = moves >= max_moves and not state.is_terminal()
    cascade = bool(getattr(state, "non_terminating", False))
    if hit_bound and not cascade and len(aggregate.bound_indexes) < ENDLESS_CHECKS:
        aggregate.bound_indexes += (index,)
    if hit_bound or cascade:
        aggregate.non_terminating += 1
        aggregate.cascades += int(cascade)
        if not aggregate.repeating_example:
            aggregate.repeating_example = _repeating_moves(history) if history else (outcome.reason,)
    aggregate.positions += positions_met
    aggregate.branching_total += branching
    aggregate.choice_positions += choices
    if fresh:
        fresh_positions, fresh_choices = positions_met, choices
    aggregate.fresh_positions += fresh_positions
    aggregate.fresh_choice_positions += fresh_choices
    aggregate.playouts += 1
    aggregate.wins += int(outcome.won)
    aggregate.moves_total += moves
    aggregate.moves_squares += moves * moves
    aggregate.score_total += outcome.score
    aggregate.score_squares += outcome.score * outcome.score
    aggregate.scores[outcome.score] += 1
    aggregate.moves[moves] += 1
    state.stats = None


_UNKNOWN: Any = object()


def _give_up(state: Any, max_moves: int) -> bool:
    """``state.give_up_if_no_progress`` within the playout's bounds; the search's moves are not the playout's
    (they would count as rule uses: the positions it tries share the stats counter)."""
    stats, state.stats = state.stats, None
    try:
        return bool(state.give_up_if_no_progress(min(ENDLESS_BUDGET, max_moves)))
    finally:
        state.stats = stats


class _Stuck:
    """Whether a ``noProgress`` playout is going round a few positions (see :data:`STUCK_WINDOW`)."""

    __slots__ = ("recent", "new_in_window", "next_search", "wait")

    def __init__(self) -> None:
        self.recent: deque[bool] = deque(maxlen=STUCK_WINDOW)
        self.new_in_window = 0
        self.next_search = STUCK_WINDOW
        self.wait = STUCK_WINDOW

    def going_round(self, new: bool, moves: int) -> bool:
        """Note whether move ``moves`` reached a new position; True when it is time to search."""
        recent = self.recent
        if len(recent) == STUCK_WINDOW:
            self.new_in_window -= recent[0]
        recent.append(new)
        self.new_in_window += new
        if moves < self.next_search or len(recent) < STUCK_WINDOW or self.new_in_window > STUCK_NEW:
            return False
        self.next_search = moves + self.wait
        self.wait *= 2
        return True


def _count_pointless(aggregate: Aggregate, rule: str, text: str, index: int, step: int, met: set[str]) -> None:
    aggregate.pointless_moves[rule] += 1
    if rule not in met:
        met.add(rule)
        aggregate.pointless_playouts[rule] += 1
        example = (index, step, text)
        if rule not in aggregate.pointless_examples or example < aggregate.pointless_examples[rule]:
            aggregate.pointless_examples[rule] = example


def position_at_bound(game: Game, index: int, base_seed: int, max_moves: int = DEFAULT_MAX_MOVES) -> State:
    """The position where playout ``index`` of a run stopped (replayed: the same deal, the same choices)."""
    state = game.new_initial_state(seed=deal_seed(base_seed, index))
    play_randomly(state, SplitMix64(play_seed(base_seed, index)), max_moves)
    return state


def play_randomly(state: State, rng: SplitMix64, max_moves: int) -> list[Move]:
    """Play uniformly random legal moves on ``state`` until it ends, has none, or ``max_moves``; the moves played."""
    played: list[Move] = []
    while len(played) < max_moves and not state.is_terminal():
        legal = state.legal_moves()
        if not legal:
            break
        move = legal[rng.below(len(legal))]
        state.apply(move)
        played.append(move)
    return played


def play_range(game: Game, start: int, stop: int, base_seed: int, max_moves: int = DEFAULT_MAX_MOVES) -> Aggregate:
    """Playouts ``start`` .. ``stop - 1`` of a run, aggregated."""
    aggregate = Aggregate()
    for index in range(start, stop):
        play_random(game, index, base_seed, aggregate, max_moves)
    return aggregate
