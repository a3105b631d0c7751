"""Whether a random playout has come back to a position: what CZ505 counts, at little cost.

CZ505 (``forced-play``) counts the positions a playout meets before it first returns to one it
has met. Keeping every position's key and looking each new one up costs a key, a hash and a set
insertion a move, about a fifth of a random playout in a game whose play never repeats.

A *progress measure* makes most of that unnecessary. It is the number of cards in the depots no
card ever leaves (their eject rule is ``locked``, no effect or draw takes from them) less the
number in the depots no card ever enters (``acceptRule: "none"``, no effect or draw brings cards
to them), read from the compiled game. Two positions with different measures differ. While the
measure never falls along a playout, a position can equal only one of the *run* of consecutive
positions that share its measure, and the first position of a run is new without any key. A
position whose move is predicted to raise the measure is the last of its run, so its key is
never needed; every other position's key is kept for the rest of its run. An action's use count is
part of the position and only grows, so the position after an action is new too, whatever the
measure does: it starts a run, and the one the action was played from ends one (no key for
Monte Carlo's consolidations).

A move is predicted to raise the measure when it takes cards from a depot of lower weight to one
of higher (a drag or a draw), or when it has raised it each of the first :data:`LEARNED` times it
was played (a drag whose trigger sends the pair it makes to the discard). The count does not
rest on the measure or the predictions being right: both are checked as the playout goes. When
the measure falls, or a predicted move does not raise it, the playout is replayed from its deal
with every key kept (the same deal and moves give the same positions) and goes on the plain way;
that move is not predicted again, and after :data:`MISLEADS` such replays (or once the measure
falls) the game's measure is not used again in this process. The counts are therefore those of
:class:`AllPositions` for every design: ``tests/test_analysis_repeats.py`` checks that on every
shipped game and with deliberately wrong measures.

Most often no test is needed at all. No card movement lowers the measure: a card leaves only a depot of
weight 0 or -1 and enters only one of weight 0 or +1, by a move, a draw or an effect alike (that is how
the weights are read). So in a game whose every drag goes from a depot of lower weight to one of higher
and whose every draw does too and never redeals, every move raises the measure or (an action) a use count,
neither of which ever falls, and no playout meets a position twice (:func:`never_repeats`: Golf,
Weathervane, Black Hole); its playouts skip the test and count every position they meet.
"""

from __future__ import annotations

import dataclasses
import weakref
from collections.abc import Callable, Hashable, Sequence
from operator import itemgetter
from typing import TYPE_CHECKING

from ..engine.effects import Compact, Deal, Flip, MoveCards, MoveFromGroup, Redeal
from ..engine.plan import CompiledDraw
from ..model import EjectKind

if TYPE_CHECKING:
    from ..engine import Game, Move, State
    from ..engine.plan import CompiledAction, CompiledTrigger

__all__ = [
    "AllPositions",
    "ProgressMeasure",
    "RunPositions",
    "never_repeats",
    "positions_tracker",
    "progress_measure",
]

Piles = Sequence[tuple[int, ...]]


class AllPositions:
    """Every position's key, kept: the plain test (and the one a ``noProgress`` playout needs throughout)."""

    __slots__ = ("seen",)

    def __init__(self) -> None:
        self.seen: set[Hashable] = set()

    def meet(self, state: State, move: Move) -> bool:
        """Whether ``state`` is a position this playout has not met; ``move`` is about to be played from it."""
        seen = self.seen
        size = len(seen)
        seen.add(state.key())  # one hash of the key, not two (a lookup, then an insertion)
        return len(seen) != size


LEARNED = 2
"""A move not predicted from the weights is predicted to raise the measure once it has raised it this often (and
never failed to)."""
MISLEADS = 3
"""Replays after which a game's measure is given up."""
_NEVER = -1
_ACTION = -2
"""In :attr:`ProgressMeasure.raised`: an action, which raises its use count (so the next position is new)."""
_BELOW_ANY = -(1 << 62)
"""Less than any position's measure (which counts cards)."""


@dataclasses.dataclass
class ProgressMeasure:
    """A game's progress measure (see the module doc), its weight for each depot, and what its moves did."""

    weights: tuple[int, ...]
    """+1: no card ever leaves the depot; -1: no card ever enters it; 0: either may happen."""
    measure: Callable[[Piles], int]
    """The measure of a position's piles."""
    raised: dict[int, int] = dataclasses.field(default_factory=dict)
    """``id(move)`` of an (interned) move -> how often it raised the measure: :data:`LEARNED` or more predicts
    that it does, -1 that it may not, -2 an action."""
    misled: int = 0
    """Replays so far."""

    def first_guess(self, game: Game, move: Move) -> int:
        """The count :attr:`raised` starts ``move`` at: :data:`LEARNED` when it takes cards from a depot of
        lower weight to one of higher, -2 for an action, else 0."""
        weights = self.weights
        drag = game.drag_indexes.get(id(move))
        if drag is not None:
            return LEARNED if weights[drag[1]] > weights[drag[0]] else 0
        tap = game.tap_of.get(id(move))
        if isinstance(tap, CompiledDraw):
            return LEARNED if weights[tap.to] > weights[tap.depot] else 0
        return _ACTION if tap is not None else 0


def progress_measure(game: Game) -> ProgressMeasure | None:
    """The measure of ``game``, or None when it has no depot of non-zero weight (or an effect this module
    does not know)."""
    count = len(game.names)
    entered = [not game.accept_never[d] for d in range(count)]
    left = [game.eject_kind[d] is not EjectKind.LOCKED for d in range(count)]
    rules: list[CompiledTrigger | CompiledAction] = [*game.triggers, *game.actions]
    owners: dict[int, list[int]] = {}
    for rule in rules:
        for effect in rule.effects:
            owners.setdefault(id(effect), []).append(rule.depot)
    for rule in rules:
        for effect in rule.effects:
            sources, targets = _effect_depots(effect, owners[id(effect)])
            if sources is None:
                return None
            for depot in sources:
                left[depot] = True
            for depot in targets:
                entered[depot] = True
    for draw in game.draws:
        left[draw.depot] = entered[draw.to] = True
        if draw.redeals != 0:
            entered[draw.depot] = left[draw.to] = True
    weights = tuple(0 if left[d] == entered[d] else (1 if entered[d] else -1) for d in range(count))
    if not any(weights):
        return None
    return ProgressMeasure(weights, _measure(weights))


def never_repeats(game: Game, progress: ProgressMeasure) -> bool:
    """Whether every drag and draw of ``game`` raises ``progress`` (see the module doc), so that no playout can come
    back to a position: every draw from a depot of lower weight to one of higher with no redeal, and every depot
    cards may be dragged off of lower weight than every other depot that accepts cards (an action raises its
    use count)."""
    weights = progress.weights
    for draw in game.draws:
        if draw.redeals != 0 or draw.count < 1 or weights[draw.to] <= weights[draw.depot]:
            return False
    sources = [d for d, kind in enumerate(game.eject_kind) if kind is not EjectKind.LOCKED]
    targets = [d for d, never in enumerate(game.accept_never) if not never]
    return all(weights[target] > weights[source] for source in sources for target in targets if target != source)


def _effect_depots(effect: object, owners: list[int]) -> tuple[list[int] | None, list[int]]:
    """The depots an effect may take cards from and give cards to (``None``: not known here)."""
    if isinstance(effect, MoveCards):
        return (owners if effect.source < 0 else [effect.source]), (owners if effect.target < 0 else [effect.target])
    if isinstance(effect, MoveFromGroup):
        return list(effect.members), [effect.target]
    if isinstance(effect, Compact):
        members = list(effect.members)
        return members + ([effect.source] if effect.source is not None else []), members
    if isinstance(effect, Deal):
        return (owners if effect.source < 0 else [effect.source]), list(effect.targets)
    if isinstance(effect, Redeal):
        members = list(effect.members)
        return members, members + ([effect.stock] if effect.stock is not None else [])
    if isinstance(effect, Flip):
        return [], []
    return None, []


def _measure(weights: tuple[int, ...]) -> Callable[[Piles], int]:
    """The measure with these weights, reading as few piles as it can.

    Every card lies on some pile, so adding the same number to every weight only shifts the measure by a
    constant: of weights (+1, 0, -1), (+2, +1, 0) and (0, -1, -2), the one with the fewest non-zero
    weights is read.
    """
    up, level, down = ([d for d, w in enumerate(weights) if w == value] for value in (1, 0, -1))
    forms = [(len(up) + len(down), up, 1, down, -1), (len(up) + len(level), up, 2, level, 1)]
    forms.append((len(level) + len(down), level, -1, down, -2))
    _, first, first_weight, second, second_weight = min(forms, key=lambda form: form[0])
    if len(first) == 1 and len(second) == 1:  # (Monte Carlo's stock and discard) one call a move, not three
        one, other = first[0], second[0]
        return lambda piles: first_weight * len(piles[one]) + second_weight * len(piles[other])
    take_first, take_second = _lengths(first), _lengths(second)
    return lambda piles: first_weight * take_first(piles) + second_weight * take_second(piles)


def _lengths(depots: list[int]) -> Callable[[Piles], int]:
    """The number of cards on ``depots`` of a position's piles."""
    if not depots:
        return lambda piles: 0
    if len(depots) == 1:
        only = depots[0]
        return lambda piles: len(piles[only])
    if len(depots) == 2:
        one, other = depots
        return lambda piles: len(piles[one]) + len(piles[other])
    take = itemgetter(*depots)
    return lambda piles: sum(map(len, take(piles)))


class RunPositions:
    """The test with a progress measure: keys only within a run of equal measure (see the module doc)."""

    __slots__ = ("game", "progress", "measure", "raised", "deal_seed", "line", "last", "previous", "kept", "first",
                 "run", "plain")

    def __init__(self, game: Game, progress: ProgressMeasure, deal_seed: int) -> None:
        self.game = game
        self.progress = progress
        self.measure = progress.measure
        self.raised = progress.raised
        self.deal_seed = deal_seed
        self.line: list[Move] = []
        """The moves played so far (to replay the playout when the measure misleads)."""
        self.last = _BELOW_ANY
        """The measure of the previous position (below any measure before the first)."""
        self.previous = 0
        """``id`` of the move played from the previous position."""
        self.kept = False
        """Whether the previous position's key was kept: its move was not predicted to raise the measure."""
        self.first: Hashable = None
        """The key of the current run's first position, when kept (not hashed until the run has a second)."""
        self.run: set[Hashable] | None = None
        """The keys of the current run's positions, once it has a second."""
        self.plain: AllPositions | None = None
        """Once the measure has misled: the plain test, which this one hands every position to."""

    def meet(self, state: State, move: Move) -> bool:
        """Whether ``state`` is a position this playout has not met; ``move`` is about to be played from it."""
        if self.plain is not None:
            return self.plain.meet(state, move)
        value = self.measure(state.piles)
        last = self.last
        if value > last:  # a new run (the previous move raised the measure, or this is the first position)
            if self.kept:  # the previous move, not predicted to raise the measure, did
                count = self.raised[self.previous]
                if count >= 0:
                    self.raised[self.previous] = count + 1
            self.run = None
            new = True
        elif value == last and self.kept:
            self.raised[self.previous] = _NEVER
            run = self.run
            if run is None:
                run = self.run = {self.first}
            size = len(run)
            run.add(state.key())
            new = len(run) != size
        elif value == last and self.raised[self.previous] == _ACTION:  # its use count grew: a position not met
            self.run = None
            new = True
        else:
            return self._replay(state, move, value < last)
        self.last = value
        self.line.append(move)
        self.previous = ident = id(move)
        known = self.raised.get(ident)
        if known is None:
            known = self.raised[ident] = self.progress.first_guess(self.game, move)
        if known >= LEARNED or known == _ACTION:
            self.kept = False
        else:
            self.kept = True
            if self.run is None:  # the first of its run
                self.first = state.key()
        return new

    def _replay(self, state: State, move: Move, fell: bool) -> bool:
        """The measure fell, or a predicted move did not raise it: key every position again from the deal."""
        progress = self.progress
        progress.misled += 1
        if fell or progress.misled >= MISLEADS:
            _MEASURES[self.game] = None
        else:
            self.raised[self.previous] = _NEVER
        plain = self.plain = AllPositions()
        replay = self.game.new_initial_state(seed=self.deal_seed)
        for played in self.line:
            plain.seen.add(replay.key())
            replay.apply(played)
        return plain.meet(state, move)


_MEASURES: weakref.WeakKeyDictionary[Game, ProgressMeasure | None] = weakref.WeakKeyDictionary()
_UNREPEATABLE: weakref.WeakKeyDictionary[Game, bool] = weakref.WeakKeyDictionary()
"""Per game, :func:`never_repeats` of its measure, worked out with it."""


def positions_tracker(game: Game, deal_seed: int, every: bool = False) -> AllPositions | RunPositions | None:
    """The test for one playout of ``game`` dealt with ``deal_seed``, or None when no playout of it can come back to
    a position (:func:`never_repeats`: every position is new); ``every`` asks for the plain test (a ``noProgress``
    playout asks it of every position, not only until the first repeat)."""
    if every:
        return AllPositions()
    if game not in _MEASURES:
        progress = _MEASURES[game] = progress_measure(game)
        _UNREPEATABLE[game] = progress is not None and never_repeats(game, progress)
    if _UNREPEATABLE.get(game, False):
        return None
    progress = _MEASURES[game]
    return AllPositions() if progress is None else RunPositions(game, progress, deal_seed)
