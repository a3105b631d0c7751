"""A position of a game: the piles and the little state beside them.

Piles are a list of tuples of card ints (bottom first), so :meth:`State.clone`
is a shallow list copy and :meth:`State.key` a tuple of tuples. Besides the
piles a state keeps the suit each depot's wild card named (``declared``, -1 for
none), the redeals each stock has left, how often each action was used and how
many ``redeal`` effects have reshuffled (the next reshuffle's seed depends on it).
"""

from __future__ import annotations

import collections
import dataclasses
import enum
from collections.abc import Hashable, Iterable, Sequence

from ..cards import FACE_UP, RANK_OF, SUITS, Card, Suit, card_symbol_str
from ..model import EjectKind
from .moves import Drag, IllegalMoveError, Move, Tap
from .plan import CompiledAction, CompiledDraw, CompiledTap, GamePlan
from .render import describe_move, render_text

MAX_TRIGGER_FIRINGS = 10_000
"""More trigger firings than this in one settle: the design loops, the game ends."""


class Termination(enum.Enum):
    """Why a game ended (or that it has not)."""

    ONGOING = "in play"
    WON = "won"
    LOST_NO_MOVES = "no legal moves"
    LOST_CONDITION = "the loss condition holds"
    LOST_NO_PROGRESS = "no sequence of moves ends the game any more"
    CASCADE = "trigger cascade did not settle"


_ONGOING = Termination.ONGOING


@dataclasses.dataclass(frozen=True, slots=True)
class Outcome:
    """How a game stands: won, lost (or neither while in play), its score and why."""

    won: bool
    lost: bool
    score: int
    reason: str
    termination: Termination = Termination.ONGOING


class State:
    """A position. Get one from :meth:`Game.new_initial_state`."""

    __slots__ = (
        "game",
        "piles",
        "declared",
        "redeals",
        "uses",
        "reshuffles",
        "move_count",
        "seed",
        "stats",
        "cascade",
        "cards_in_play",
        "touched",
        "_legal",
        "_status",
    )

    def __init__(self, game: GamePlan, piles: list[tuple[Card, ...]], seed: int | None = None) -> None:
        self.game = game
        self.piles = piles
        self.declared: list[int] = [-1] * len(piles)
        self.redeals: list[int] = [0] * len(piles)
        for draw in game.draws:
            self.redeals[draw.depot] = draw.redeals
        self.uses: list[int] = [0] * len(game.actions)
        self.reshuffles = 0
        """``redeal`` effects run so far (k of docs/format.md's reshuffle seeds)."""
        self.move_count = 0
        self.seed = seed
        self.stats: collections.Counter[str] | None = None
        """Rule firings (``accept:cell``, ``trigger:cell#0``, ...), counted only when set to a Counter."""
        self.cascade = False
        self.cards_in_play = sum(map(len, piles))
        self.touched: set[int] = set(range(len(piles)))
        """Depots whose pile changed since triggers last settled."""
        self._legal: list[Move] | None = None
        self._status: Termination | None = None

    @classmethod
    def deal(cls, game: GamePlan, deck: Sequence[Card], seed: int | None = None) -> State:
        """Deal ``deck`` by the game's deal rules, then let triggers settle."""
        state = cls(game, [()] * len(game.names), seed)
        state.piles[:] = game.deal_plan.deal(deck, state)
        state.cards_in_play = sum(map(len, state.piles))
        state._settle()
        return state

    # ------------------------------------------------------------ copying

    def clone(self) -> State:
        """An independent copy (the stats counter, if any, is shared)."""
        other = State.__new__(State)
        other.game = self.game
        other.piles = self.piles.copy()
        other.declared = self.declared.copy()
        other.redeals = self.redeals.copy()
        other.uses = self.uses.copy()
        other.reshuffles = self.reshuffles
        other.move_count = self.move_count
        other.seed = self.seed
        other.stats = self.stats
        other.cascade = self.cascade
        other.cards_in_play = self.cards_in_play
        other.touched = set()
        other._legal = self._legal
        other._status = self._status
        return other

    def dragged(self, source: int, source_pile: tuple[Card, ...], target: int, target_pile: tuple[Card, ...]) -> State:
        """A copy after a drag of this state's moves that names no suit and fires no trigger, the drag's piles
        given (:meth:`apply` without the work: the caller knows all that, :mod:`..analysis.child_keys`)."""
        other = self.clone()
        piles = other.piles
        piles[source] = source_pile
        piles[target] = target_pile
        other.move_count += 1
        other._legal = other._status = None
        if other.stats is not None:
            other.stats[self.game.accept_stat[target]] += 1
        return other

    def key(self) -> Hashable:
        """A hashable key equal for states that play the same from here on (not the move count)."""
        return (
            tuple(self.piles),
            tuple(self.declared),
            tuple(self.redeals),
            tuple(self.uses),
            self.reshuffles,
            self.cascade,
        )

    # ------------------------------------------------------------ card primitives

    def transfer(self, source: int, target: int, count: int, face_up: bool | None = None) -> None:
        """Move the top ``count`` cards of ``source`` onto ``target`` (for effects and moves).

        ``face_up`` True/False turns the moved cards; None keeps how they lie.
        A wild card's named suit ends on both depots; ``autoFlipTop`` applies.
        """
        piles = self.piles
        pile = piles[source]
        rest: tuple[int, ...]
        if count >= len(pile):
            moved, rest = pile, ()
        else:
            cut = len(pile) - count
            moved, rest = pile[cut:], pile[:cut]
        if face_up is not None:
            if len(moved) == 1:  # a draw or a refill: no generator (1.06-1.08x random play of Golf, Weathervane)
                card = moved[0]
                moved = (card | FACE_UP if face_up else card & ~FACE_UP,)
            elif face_up:
                moved = tuple([c | FACE_UP for c in moved])
            else:
                moved = tuple([c & ~FACE_UP for c in moved])
        if rest and self.game.auto_flip[source] and not rest[-1] & FACE_UP:
            rest = rest[:-1] + (rest[-1] | FACE_UP,)
        piles[source] = rest
        piles[target] += moved
        declared = self.declared
        declared[source] = declared[target] = -1
        touched = self.touched
        touched.add(source)
        touched.add(target)

    def set_pile(self, depot: int, pile: tuple[Card, ...]) -> None:
        """Replace a pile (for effects that rearrange cards); a wild card's named suit there ends."""
        self.piles[depot] = pile
        self.declared[depot] = -1
        self.touched.add(depot)

    def changed(self, depots: Iterable[int]) -> None:
        """Note that effects wrote new piles on ``depots`` themselves: a wild card's named suit there ends."""
        if self.game.has_declarations:
            depots = tuple(depots)
            declared = self.declared
            for depot in depots:
                declared[depot] = -1
        self.touched.update(depots)

    # ------------------------------------------------------------ legal moves

    def legal_moves(self) -> list[Move]:
        """Every legal move: drags first (by source, count, target, suit named), then taps by depot
        (a depot's draw before its actions).

        A terminal state has none.
        """
        return list(self.playable_moves())

    def playable_moves(self) -> list[Move]:
        """:meth:`legal_moves` without the copy: the list this state keeps, for a caller that only reads it (the
        random player, which asks once a move); empty exactly when the game is over."""
        legal = self._legal
        if legal is None:
            ended = self._early_status() is not _ONGOING
            legal = self._legal = [] if ended else self.game.move_lister(self.piles, self)
        return legal

    def run_lengths(self, source: int, pile: tuple[Card, ...]) -> range | list[int]:
        """The run lengths that may be dragged off ``source`` (holding ``pile``, not empty) by its eject rule."""
        kind = self.game.eject_kind[source]
        if kind is EjectKind.LOCKED or not pile[-1] & FACE_UP:
            return range(0)
        if kind is EjectKind.TOP_ONLY:
            return range(1, 2)
        up, size = 1, len(pile)
        while up < size and pile[-1 - up] & FACE_UP:
            up += 1
        if kind is EjectKind.FACE_UP:
            return range(1, up + 1)
        when = self.game.eject_when[source]
        if when is None:
            return range(1, up + 1)
        return [k for k in range(1, up + 1) if when(self.piles, self, pile[-k], pile[-k:], source)]

    def tap_refusal(self, tap: CompiledTap) -> str | None:
        """Why the rules refuse the draw or action ``tap`` now, or None."""
        game = self.game
        name = game.names[tap.depot]
        if isinstance(tap, CompiledDraw):
            if self.piles[tap.depot]:
                return None
            if self.redeals[tap.depot] == 0:
                return f"{name} is empty and has no redeals left"
            if not self.piles[tap.to]:
                return f"{name} and {game.names[tap.to]} are both empty"
            return None
        action = tap
        if action.limit is not None and self.uses[action.slot] >= action.limit:
            return f"{action.name} may be used {action.limit} times; it has been"
        if action.when is not None and not action.when(self.piles, self, action.depot):
            return f"{name}: {action.name} is not possible now"
        return None

    # ------------------------------------------------------------ checking a move

    def why_illegal(self, move: Move) -> str | None:
        """Why the rules refuse ``move`` here (the rule's ``reason`` when it has one), or None if legal."""
        if self.is_terminal():
            return f"the game is over: {self.outcome().reason}"
        if isinstance(move, Tap):
            return self._tap_move_refusal(move)
        if isinstance(move, Drag):
            return self._drag_refusal(move)
        return f"{move!r} is not a move"

    def _tap_move_refusal(self, move: Tap) -> str | None:
        game = self.game
        depot = game.index.get(move.depot)
        if depot is None:
            return f"there is no depot named {move.depot!r}"
        if move.action is None:
            draw = game.draw_of.get(depot)
            if draw is None:
                names = [a.name for a in game.actions if a.depot == depot]
                hint = f" (its actions: {', '.join(names)})" if names else ""
                return f"tapping {move.depot} draws nothing{hint}"
            return self.tap_refusal(draw)
        action = game.action_of.get((depot, move.action))
        if action is None:
            return f"{move.depot} has no action named {move.action!r}"
        return self.tap_refusal(action)

    def drag_refusal(self, move: Drag) -> str | None:
        """:meth:`why_illegal` of a drag without the game-over test (which lists every move), for a
        caller that knows the game goes on."""
        return self._drag_refusal(move)

    def _drag_refusal(self, move: Drag) -> str | None:
        game = self.game
        source, target = game.index.get(move.source), game.index.get(move.target)
        if source is None:
            return f"there is no depot named {move.source!r}"
        if target is None:
            return f"there is no depot named {move.target!r}"
        if source == target:
            return "the cards are already there"
        pile = self.piles[source]
        if not pile:
            return f"{move.source} is empty"
        eject = game.eject_rules[source]
        if eject.kind is EjectKind.LOCKED:
            return eject.reason or f"cards cannot be taken from {move.source}"
        if move.count < 1 or move.count > len(pile):
            return f"{move.source} holds {len(pile)} cards; {move.count} cannot be moved"
        if move.count not in self.run_lengths(source, pile):
            if not all(c & FACE_UP for c in pile[-move.count :]):
                return eject.reason or f"face-down cards cannot be moved from {move.source}"
            if eject.kind is EjectKind.TOP_ONLY:
                return eject.reason or f"only the top card of {move.source} can be moved"
            return eject.reason or f"{move.source} does not let these cards go"
        cards = pile[-move.count :]
        card = cards[0]
        rule = game.accept_rules[target]
        if rule.never:
            return f"{move.target} accepts no cards"
        refusal = self.accept_refusal(source, target, card, cards)
        if refusal is not None:
            return rule.reason or refusal
        wild = game.wild_declares[target]
        if wild == RANK_OF[card]:
            if move.declare is None or move.declare not in SUITS:
                names = ", ".join(s.title for s in SUITS)
                return f"playing {card_symbol_str(card)} on {move.target} names a suit: choose one of {names}"
        elif move.declare is not None:
            return f"only a wild card names a suit on {move.target}"
        return None

    def accept_refusal(self, source: int, target: int, card: Card, cards: Sequence[Card]) -> str | None:
        """Why ``target``'s accept rule refuses ``cards`` (lowest ``card``) from ``source``, or None."""
        game = self.game
        rule = game.accept_rules[target]
        name = game.names[target]
        if rule.single and len(cards) > 1:
            return f"{name} takes one card at a time"
        pile = self.piles[target]
        wild = int(rule.wild_rank) if rule.wild_rank is not None else -1
        if pile and RANK_OF[card] != wild:
            named = self.declared[target] if game.wild_declares[target] >= 0 else -1
            if named >= 0:
                if (card >> 4) & 7 != named:
                    suit = Suit(named).title
                    wild_name = rule.wild_rank.title if rule.wild_rank is not None else "wild card"
                    return f"{name} takes only {suit} or an {wild_name} after a wild card named {suit}"
            elif rule.follow:
                top = pile[-1]
                if RANK_OF[card] != RANK_OF[top] and (card >> 4) & 7 != (top >> 4) & 7:
                    return (
                        f"{card_symbol_str(card)} does not follow {card_symbol_str(top)}: it must match in rank or suit"
                    )
        when = game.accept_when[target]
        if when is not None and not when(self.piles, self, card, cards, source, target):
            return f"{name} does not accept {card_symbol_str(card)} here"
        return None

    # ------------------------------------------------------------ playing

    def apply(self, move: Move, checked: bool = False) -> None:
        """Play ``move``, then let triggers settle; ``checked``: the caller knows the move is legal (it found the
        drag legal with :meth:`drag_refusal`, or took the move from this state's moves), so it is not checked again.

        :raises IllegalMoveError: with the reason the rules give, when ``move`` is not legal.
        """
        legal = self._legal
        game = self.game
        stats = self.stats
        if type(move) is Drag:
            indexes = None
            if checked:
                indexes = game.drag_indexes.get(id(move))  # None for a move the lister did not intern
            elif legal is not None:
                for candidate in legal:
                    if candidate is move:  # listed here, so legal: its depot indexes were kept when interned
                        indexes = game.drag_indexes.get(id(move))
                        break
            if indexes is None:
                if not checked:
                    self._refuse_illegal(move)
                source, target = game.index[move.source], game.index[move.target]
                self.transfer(source, target, move.count)
                if move.declare is not None:
                    self.declared[target] = int(move.declare)
            else:
                source, target, count, named = indexes
                self.transfer(source, target, count)
                if named >= 0:
                    self.declared[target] = named
            if stats is not None:
                stats[game.accept_stat[target]] += 1
        else:
            tap = None
            if checked:
                tap = game.tap_of.get(id(move))
            elif legal is not None:
                for candidate in reversed(legal):  # taps come last
                    if candidate is move:
                        tap = game.tap_of.get(id(move))
                        break
            if tap is None:
                self._refuse_illegal(move)
                assert isinstance(move, Tap)  # (cheap: an illegal or not yet listed move)
                depot = game.index[move.depot]
                tap = game.draw_of[depot] if move.action is None else game.action_of[(depot, move.action)]
            if isinstance(tap, CompiledAction):
                self.uses[tap.slot] += 1
                depot = tap.depot
                for effect in tap.effects:
                    effect.run(self, depot)
                if stats is not None:
                    stats[tap.stat] += 1
            else:
                self._draw(tap)
        self.move_count += 1
        self._legal = None
        self._status = None
        game.settle(self.piles, self)

    def _refuse_illegal(self, move: Move) -> None:
        reason = self.why_illegal(move)
        if reason is not None:
            raise IllegalMoveError(reason)

    def _draw(self, draw: CompiledDraw) -> None:
        piles = self.piles
        stock = piles[draw.depot]
        if stock:
            for _ in range(min(draw.count, len(stock))):
                self.transfer(draw.depot, draw.to, 1, draw.face_up)
            if self.stats is not None:
                self.stats[draw.stat] += 1
            return
        waste = piles[draw.to]
        self.set_pile(draw.depot, tuple(c & ~FACE_UP for c in reversed(waste)))
        self.set_pile(draw.to, ())
        if self.redeals[draw.depot] > 0:
            self.redeals[draw.depot] -= 1
        if self.stats is not None:
            self.stats["redeal:" + draw.stat[5:]] += 1

    def _settle(self) -> None:
        """Fire triggers until none holds; mark a runaway cascade.

        Each pass scans the triggers in depot order and fires every one whose
        rule holds, as ``docs/format.md`` says. A trigger that reads only its
        own pile is skipped while that pile is unchanged since the trigger last
        found its rule false: skipping it changes nothing but the time taken.
        So a pass visits, in depot order, only the depots with a trigger that
        must be checked: those changed before the pass or earlier in it (or
        that fired in the pass before), and those with a trigger that is not
        local. With none to visit nothing can fire, and settling stops at once;
        else the generated passes run (``triggers.py``).
        """
        self.game.settle(self.piles, self)

    # ------------------------------------------------------------ the end

    def _early_status(self) -> Termination:
        """The reason the game is over without looking at its moves, or ONGOING."""
        game = self.game
        if self.cascade:
            return Termination.CASCADE
        if game.won(self.piles, self):
            return Termination.WON
        if game.loss_when is not None and game.loss_when(self.piles, self):
            return Termination.LOST_CONDITION
        return _ONGOING

    @property
    def non_terminating(self) -> bool:
        """Whether a trigger cascade did not settle (the game ended there)."""
        return self.cascade

    def is_won(self) -> bool:
        """Whether the win condition holds."""
        return bool(self.game.won(self.piles, self))

    def status(self) -> Termination:
        """Why the game ended, or :attr:`Termination.ONGOING`."""
        status = self._status
        if status is None:
            status = self._early_status()
            if status is _ONGOING:
                legal = self._legal
                if legal is None:
                    legal = self._legal = self.game.move_lister(self.piles, self)
                if not legal:
                    status = Termination.LOST_NO_MOVES
            self._status = status
        return status

    def is_terminal(self) -> bool:
        """Whether the game is over: won, lost, or stopped by a runaway trigger cascade."""
        status = self._status
        if status is None:
            status = self.status()
        return status is not _ONGOING

    def give_up_if_no_progress(self, budget: int | None = None) -> bool:
        """End the game as lost when the design's loss is ``noProgress`` and nothing ends it any more.

        Searches the positions reachable from here (at most ``budget``, default
        :data:`~.progress.NO_PROGRESS_BUDGET`); only a complete search ends the game, so a
        position that might still lead somewhere is never called lost. Whether it ended.
        """
        from .progress import NO_PROGRESS_BUDGET, can_end

        if not self.game.loss_no_progress or self.is_terminal():
            return False
        if can_end(self, NO_PROGRESS_BUDGET if budget is None else budget) is not False:
            return False
        self._status = Termination.LOST_NO_PROGRESS
        return True

    def score(self) -> int:
        """The scoring rule's value now."""
        return int(self.game.score_rule(self.piles, self))

    def outcome(self) -> Outcome:
        """Won or lost, the score, and the reason."""
        status = self.status()
        won = status is Termination.WON
        lost = status in (Termination.LOST_NO_MOVES, Termination.LOST_CONDITION, Termination.LOST_NO_PROGRESS)
        return Outcome(won=won, lost=lost, score=self.score(), reason=status.value, termination=status)

    def returns(self) -> list[float]:
        """OpenSpiel-style returns for the one player: 1.0 for a win, 0.0 otherwise."""
        return [1.0 if self.status() is Termination.WON else 0.0]

    # ------------------------------------------------------------ text

    def describe(self, move: Move) -> str:
        """``move`` with the cards it moves: ``waste → vane (8♣, naming Hearts)``."""
        return describe_move(self, move)

    def __str__(self) -> str:
        return render_text(self)

    def __repr__(self) -> str:
        return f"<State of {self.game.design.name!r} after {self.move_count} moves>"
