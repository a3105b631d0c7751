"""The search over engine states, with each pruning piece named and separately switchable.

:func:`search` is a depth-first search with a transposition table, like Solvitaire's,
over positions of the engine. The pieces, each a field of :class:`Pruning`:

``symmetry``
    interchangeable depots are sorted in the position key (:mod:`.symmetry`);
``safe_moves``
    a safe move onto a sink is played at once, as a forced step (:mod:`.dominance`; twins: :mod:`.two_deck`);
``forced``
    a position with a single legal move is not a choice: that move is played as a forced
    step (a trigger that must fire is already settled by the engine). Forced steps are
    played in one chain after each move, and the positions inside a chain are not stored;
``stock``
    "draw k times, then play from the waste" is one move (:mod:`.stock_moves`);
``ordering``
    children are searched best first by :meth:`Progress.heuristic`, a score read off the
    design; off, by the cards in the win depots, the game's score and the number of moves
    (the search before these pieces);
``relaxation``
    a position in which some card can provably never reach a sink is not searched
    (:mod:`.relaxation`; the sink games' own test, :mod:`.dead_cards`, applies either way);
``quick``
    a portfolio of three searches taking turns, each resumed where it stopped: a greedy
    best-first pass (always the stored position with the best :meth:`Progress.heuristic`, at
    most :data:`QUICK_POSITIONS`; one share, two without stock moves: :data:`QUICK_WEIGHTS`),
    the depth-first search with these pieces (two shares), and
    the depth-first search with ``ordering`` and ``stock`` off (one share: on some deals the
    plain order finds a win in hundreds of positions where the others wander). Where a waste is
    never turned back (:func:`.dominance.fixed_wastes`: the Forty Thieves family), a fourth
    member (:data:`RESTART_WEIGHT` shares; the depth-first search then has one) runs depth-first
    searches one after another, each with a budget of
    :data:`RESTART_POSITIONS` × the Luby sequence and its child order perturbed by a seeded
    random term (:func:`_restarts`): there a deal's win is found in a few thousand positions or,
    after a wrong early turn, not in a hundred thousand, and restarts leave the wrong turns
    behind. A turn is :data:`TURN` new positions per share. The first to decide
    decides; only a complete search answers "lost": a depth-first one (a restart only when it
    ends without running out of positions), or the best-first pass when it runs out of
    positions to expand.

Never moving a card straight back where it came from needs no rule of its own: the
position it would lead to is the parent, which is always in the transposition table.

Every win is replayed through the engine from the deal before it is reported.
"""

from __future__ import annotations

import collections
import dataclasses
import heapq
import itertools
import random
import time
from collections.abc import Generator, Hashable, Iterator
from typing import Any

from ..cards import FACE_UP
from .dominance import SafeSinkMoves, build_table, card_bits, fixed_wastes
from .joints import joint_table
from .relaxation import card_flow, dead_check
from .stock_moves import StockMoves, stock_moves
from .symmetry import canonical_key_function
from .two_deck import safe_moves

KEPT_CHILDREN = 64
"""A position with more moves than this keeps only the moves on the search stack, not the
positions they lead to (replayed when visited): a hostile design with thousands of moves per
position cannot fill the memory with copies of its board."""

MAX_LINE = 10_000
"""The deepest line the solver follows; a deal whose search was cut there is "unknown", never "lost"."""

TURN = 1_000
"""The new positions of each turn of a portfolio member (× its weight). The searches are resumed,
not restarted, so short turns cost nothing: a deal one member decides in ``n`` positions costs
about ``n`` × (the total weight / its weight)."""

PILE_TERMS_KEPT = 100_000
"""The most piles whose :meth:`Progress.heuristic` terms are kept (then they are forgotten at once)."""

QUICK_WEIGHTS = (2, 1)
"""The best-first pass's share of the turns without stock moves and with them. Positions to decide
the deals of seed 101 with two shares against one: FreeCell (20 deals) 47k against 65k, Baker's Game
(20) 44k against 48k; Klondike's 7 decided deals of 10, 22k against 17k (its wins are mostly found by
the depth-first search, which also proves the losses)."""

QUICK_POSITIONS = 200_000
"""The most positions the quick pass stores: it keeps every position it has not expanded yet."""

RESTART_POSITIONS = 1_000
"""The positions of a restarted depth-first search (:func:`_restarts`), times the Luby term of its number."""

RESTART_WEIGHT = 3
"""The restarts' shares, against one each for the other three members then. Deals decided of 6 (seed
101, 30,000 positions each) with the restarts' shares 1 / 2 / 3 (the last with one share for the
depth-first search): Limited 4 / 4 / 5, Forty Thieves 0 / 1 / 1, Duchess 2 / 2 / 2 (in 15k, 11k and 8k
positions), Lucas 6 / 6 / 6 (in 6.6k, 7.6k and 11.7k positions a deal)."""

RESTART_NOISE = 8
"""The random term of a restarted search's child order ranges over 0 .. this - 1 (a card to the
foundations is worth 10 in :attr:`Progress.WEIGHTS`: the noise reorders close children only)."""



@dataclasses.dataclass(frozen=True)
class Pruning:
    """Which pruning pieces the search uses (module doc); all on by default."""

    symmetry: bool = True
    safe_moves: bool = True
    forced: bool = True
    stock: bool = True
    ordering: bool = True
    quick: bool = True
    relaxation: bool = True

    @classmethod
    def none(cls) -> Pruning:
        """The plain exhaustive search: every piece off (the search as it was before them)."""
        return cls(
            symmetry=False, safe_moves=False, forced=False, stock=False, ordering=False, quick=False, relaxation=False
        )


@dataclasses.dataclass(frozen=True)
class SearchResult:
    """What a search found: ``result`` is "won", "lost" or "unknown"; ``stage`` says which part decided."""

    result: str
    line: list[Any]
    nodes: int
    stage: str | None


class Progress:
    """Orders children by a score read off the design (:attr:`WEIGHTS`), then by the game's score
    (no move is listed: a child is listed only when it is searched)."""

    WEIGHTS = (10, 3, -4, -2, -3)
    """Of: cards in the win depots (minus, for a ``depotsEmpty`` win, cards left in them); empty
    depots that take cards; cards lying on a card no rule builds them on, or that their pile
    does not let go of together with it (:mod:`.joints`); face-down cards; and cards lying
    above a card that a win depot takes now. The piles counted are those of the depots other
    than the win depots and the stocks; a waste that is never turned back
    (:func:`.dominance.fixed_wastes`) counts as a pile, since its cards come back only from its top."""

    def __init__(self, game: Any, heuristic: bool = True) -> None:
        design = game.design
        self._heuristic = heuristic
        self._targets: tuple[int, ...] = ()
        self._sign = 0
        win = design.win
        if win.kind in ("allCardsIn", "depotsEmpty") and win.depots:
            self._targets = design.resolve(win.depots) or ()
            self._sign = 1 if win.kind == "allCardsIn" else -1
        self._score_sign = -1 if design.scoring.better.value == "Low" else 1
        # A waste never turned back is scored as a pile: its cards come back only from its top.
        stocks = {d for draw in game.draws for d in (draw.depot, draw.to)} - fixed_wastes(game)
        sinks = set(self._targets) if self._sign > 0 else set()
        self._homes = tuple(sorted(sinks))
        self._open = tuple(d for d in range(len(game.names)) if d not in sinks and d not in stocks)
        self._takers = tuple(d for d in self._open if not game.accept_never[d])
        everything = -1
        self._table = build_table(game) or collections.defaultdict(lambda: everything)
        joints = joint_table(game, self._open)
        if joints is not None:  # a card built on another that cannot move with it counts as loose too
            built = build_table(game)
            self._table = joints if built is None else {b: m & joints.get(b, everything) for b, m in built.items()}
        self._home_table = (build_table(game, home=True) if sinks else None) or {}
        self._bit = card_bits()
        self._terms: dict[tuple[tuple[int, ...], int], tuple[int, int, int]] = {}

    def heuristic(self, state: Any) -> int:
        """The weighted sum of :attr:`WEIGHTS` (higher is better)."""
        piles = state.piles
        progress = self._sign * sum(len(piles[i]) for i in self._targets)
        empty = sum(1 for d in self._takers if not piles[d])
        home = self._home_table
        wanted = 0
        if home:
            for d in self._homes:
                pile = piles[d]
                wanted |= home.get(pile[-1] & ~FACE_UP if pile else -1, 0)
        loose = hidden = buried = 0
        terms, cache = self._pile_terms, self._terms
        for d in self._open:
            # a move changes one or two piles: the terms of the others are looked up, not counted again
            pile = piles[d]
            key = (pile, wanted)
            found = cache.get(key)
            if found is None:
                if len(cache) >= PILE_TERMS_KEPT:
                    cache.clear()
                found = cache[key] = terms(pile, wanted)
            loose += found[0]
            hidden += found[1]
            buried += found[2]
        w = self.WEIGHTS
        return w[0] * progress + w[1] * empty + w[2] * loose + w[3] * hidden + w[4] * buried

    def _pile_terms(self, pile: tuple[int, ...], wanted: int) -> tuple[int, int, int]:
        """(loose, face-down, buried) cards of one pile, for :meth:`heuristic`."""
        table, bit = self._table, self._bit
        loose = hidden = buried = 0
        below = None
        for depth, card in enumerate(pile):
            plain = card & ~FACE_UP
            if wanted and bit.get(plain, 0) & wanted:
                buried += len(pile) - 1 - depth
            if not card & FACE_UP:
                hidden += 1
            elif below is not None and not table.get(below, -1) & bit.get(plain, 0):
                loose += 1
            below = plain if card & FACE_UP else None
        return loose, hidden, buried

    def __call__(self, state: Any) -> tuple[int, int, int]:
        if not self._heuristic:
            home = self._sign * sum(len(state.piles[i]) for i in self._targets)
            return (home, self._score_sign * state.score(), len(state.legal_moves()))
        return (self.heuristic(state), self._score_sign * state.score(), 0)


@dataclasses.dataclass
class Plan:
    """What one game's search uses, worked out once per game and pruning."""

    key_of: Any
    chain_key: Any
    """The key without the stock's place on its cycle of taps: a chain of single moves that
    repeats it goes round in a circle (taps alone keep :attr:`key_of`)."""
    safe: SafeSinkMoves | None
    stock: StockMoves | None
    notes: tuple[str, ...]
    """Why a piece does not apply to this design (for ``--verbose``)."""


_PLANS: dict[tuple[int, Pruning], tuple[Any, Plan]] = {}


def plan_for(game: Any, pruning: Pruning) -> Plan:
    """The :class:`Plan` of ``game`` (kept for the last few games)."""
    entry = _PLANS.get((id(game), pruning))
    if entry is not None and entry[0] is game:
        return entry[1]
    notes = []
    safe: SafeSinkMoves | None = None
    if pruning.safe_moves:
        found = safe_moves(game)
        if isinstance(found, str):
            notes.append(f"no safe moves: {found}")
        else:
            safe = found
    if pruning.relaxation:
        flow = card_flow(game)
        if isinstance(flow, str):
            notes.append(f"no dead-card relaxation: {flow}")
    stock: StockMoves | None = None
    if pruning.stock:
        draws = stock_moves(game)
        if isinstance(draws, str):
            notes.append(f"no stock moves: {draws}")
        else:
            stock = draws
    chain_key = canonical_key_function(game, pruning.symmetry)
    key_of = canonical_key_function(game, pruning.symmetry, stock.normalize) if stock is not None else chain_key
    plan = Plan(key_of, chain_key, safe, stock, tuple(notes))
    if len(_PLANS) >= 8:
        _PLANS.pop(next(iter(_PLANS)))
    _PLANS[(id(game), pruning)] = (game, plan)
    return plan


def ended(state: Any) -> str | None:
    """"won" or "lost" when ``state`` ended other than by having no moves, else None.

    The engine's own order (:meth:`State.status`) without listing the moves: a child is
    listed only when it is searched, and one with no moves then simply has no successors.
    """
    if state.non_terminating:
        return "lost"
    game = state.game
    if game.won(state.piles, state):
        return "won"
    if game.loss_when is not None and game.loss_when(state.piles, state):
        return "lost"
    return None


Outcome = tuple[str, list[Any]]
"""What a search generator returns: ("won", line), ("lost", []) or ("unknown", [])."""


class _Budget(Exception):
    """The position budget or the deadline ran out."""


class _Search:
    """One search from one position: depth-first (:meth:`run`) or best-first (:meth:`best_first`)."""

    def __init__(self, root: Any, plan: Plan, pruning: Pruning, budget: int, deadline: float | None) -> None:
        self.root = root
        self.plan = plan
        self.pruning = pruning
        self.budget = budget
        self.deadline = deadline
        self.progress = Progress(root.game, pruning.ordering)
        self.dead = dead_check(root, pruning.relaxation)
        self.taps = plan.stock.taps() if plan.stock is not None else frozenset()
        self.seen: set[Hashable] = set()
        self.cut = False

    def forced(self, state: Any, moves: list[Any]) -> None:
        """Play the safe moves of ``state`` one after another, appending them to ``moves``."""
        safe = self.plan.safe
        if safe is None:
            return
        while len(moves) < MAX_LINE and ended(state) is None:
            move = safe.safe_move(state)
            if move is None:
                return
            state.apply(move, checked=True)  # safe_move found it legal
            moves.append(move)
            self.tick()
        if ended(state) is None:
            self.cut = True

    def single_moves(self, state: Any) -> tuple[Any, list[Any]] | None:
        """``state`` (a copy, if it moved) after the single moves it is forced into, and those
        moves; None when they go round in a cycle (then the position cannot be won)."""
        if not self.pruning.forced:
            return state, []
        moves: list[Any] = []
        chain: set[Hashable] = set()
        while len(moves) < MAX_LINE and not state.is_terminal():
            legal = state.legal_moves()
            if len(legal) != 1:
                return state, moves
            key = self.plan.chain_key(state)
            if key in chain:
                return None
            chain.add(key)
            if not moves:
                state = state.clone()
            state.apply(legal[0])
            moves.append(legal[0])
            self.forced(state, moves)
            self.tick()
        if not state.is_terminal():
            self.cut = True
        return state, moves

    def successors(self, state: Any) -> Iterator[tuple[tuple[Any, ...], Any]]:
        """Every (moves, position) one choice away from ``state``, before forced steps (lazily:
        the caller reads the clock between two)."""
        taps = self.taps
        legal = state.legal_moves()
        for move in legal:
            if move in taps:
                continue
            child = state.clone()
            child.apply(move)
            yield (move,), child
        if taps and any(tap in taps for tap in legal):
            assert self.plan.stock is not None
            for moves, child, complete in self.plan.stock.plays(state):
                if not complete:
                    self.cut = True
                    continue
                yield moves, child

    def tick(self) -> None:
        """Raise :class:`_Budget` past the deadline."""
        if self.deadline is not None and time.monotonic() > self.deadline:
            raise _Budget

    def expand(self, state: Any) -> tuple[list[Any] | None, list[tuple[tuple[Any, ...], Any]]]:
        """(the moves of a win one choice away, or None; the new children worth searching, best
        first, each with the moves that lead to it from ``state``)."""
        forced = self.single_moves(state)
        if forced is None:
            return None, []
        state, prefix = forced
        if state.is_terminal():
            return (prefix, []) if state.outcome().won else (None, [])
        keep = len(state.legal_moves()) <= KEPT_CHILDREN
        fresh = []
        seen, key_of, budget = self.seen, self.plan.key_of, self.budget
        for number, (moves, child) in enumerate(self.successors(state)):
            self.tick()  # one position of a hostile design can take long
            line = prefix + list(moves)
            key = key_of(child)
            if key in seen:
                continue  # stored positions are searched: whatever their safe moves lead to is searched too
            if self.plan.safe is not None:
                before = len(line)
                self.forced(child, line)
                if len(line) > before:
                    key = key_of(child)
                    if key in seen:
                        continue
            seen.add(key)
            if len(seen) > budget:
                raise _Budget
            end = ended(child)
            if end is not None:
                if end == "won":
                    return line, []
                continue
            if self.dead is not None and self.dead(child):
                continue
            fresh.append((self.progress(child), -number, tuple(line), child if keep else None))
        fresh.sort(key=lambda entry: (entry[0], entry[1]), reverse=True)
        return None, [(moves, child) for _, _, moves, child in fresh]

    def run(self) -> Generator[None, None, tuple[str, list[Any]]]:
        """The depth-first search, yielding between two expansions (so that a portfolio can take
        turns); returns ("won", line) / ("lost", []) / ("unknown", []); raises :class:`_Budget`."""
        root = self.root.clone()
        prefix: list[Any] = []
        self.forced(root, prefix)
        self.seen.add(self.plan.key_of(root))
        if root.is_terminal():
            return ("won", prefix) if root.outcome().won else ("unknown" if self.cut else "lost", [])
        won, options = self.expand(root)
        if won is not None:
            return "won", prefix + won
        stack = [(root, iter(options))]
        path: list[tuple[Any, ...]] = []
        while stack:
            parent, pending = stack[-1]
            step = next(pending, None)
            if step is None:
                stack.pop()
                if path:
                    path.pop()
                continue
            moves, child = step
            if len(stack) >= MAX_LINE:
                self.cut = True
                continue
            if child is None:
                child = parent.clone()
                for move in moves:
                    child.apply(move)
            won, options = self.expand(child)
            if won is not None:
                return "won", prefix + [m for part in path for m in part] + list(moves) + won
            if options:
                stack.append((child, iter(options)))
                path.append(moves)
            yield
        return ("unknown" if self.cut else "lost"), []


    def best_first(self) -> Generator[None, None, tuple[str, list[Any]]]:
        """A greedy best-first pass: always expand the stored position with the best score,
        yielding between two expansions. Returns ("won", line), or ("lost", []) when no position
        is left to expand (then every reachable position was searched, as in :meth:`run`), or
        ("unknown", []); raises :class:`_Budget`."""
        root = self.root.clone()
        prefix: list[Any] = []
        self.forced(root, prefix)
        self.seen.add(self.plan.key_of(root))
        if ended(root) == "won":
            return "won", prefix
        counter = itertools.count()
        # A line is kept as a link to its parent's (moves, parent link): no copies of long lines.
        Link = tuple[tuple[Any, ...], Any]
        start: Link = (tuple(prefix), None)
        frontier: list[tuple[Any, int, Any, Link]] = [((0,), 0, root, start)]
        while frontier:
            _, _, state, link = heapq.heappop(frontier)
            won, options = self.expand(state)
            if won is not None:
                parts = [tuple(won)]
                while link is not None:
                    parts.append(link[0])
                    link = link[1]
                return "won", [move for part in reversed(parts) for move in part]
            for moves, child in options:
                if child is None:
                    child = state.clone()
                    for move in moves:
                        child.apply(move)
                score = self.progress(child)
                heapq.heappush(frontier, (tuple(-v for v in score), next(counter), child, (moves, link)))
            yield
        return ("unknown" if self.cut else "lost"), []


def replays_to_a_win(root: Any, line: list[Any]) -> bool:
    """Whether ``line`` played through the engine from ``root`` wins."""
    state = root.clone()
    try:
        for move in line:
            state.apply(move)
    except Exception:  # an illegal move: the line is wrong
        return False
    return bool(state.is_terminal() and state.outcome().won)


@dataclasses.dataclass
class _Member:
    """One search of the portfolio: its turns are :data:`TURN` × ``weight`` new positions."""

    stage: str
    weight: int
    search: _Search
    steps: Generator[None, None, tuple[str, list[Any]]]
    complete: bool
    """Whether its "lost" is a proof (a depth-first search, or a best-first pass that ran out)."""
    spent: int = 0
    """The positions of its earlier searches (:func:`_restarts` replaces ``search`` with a new one)."""

    def stored(self) -> int:
        """The positions it has stored so far, over all its searches."""
        return self.spent + len(self.search.seen)


def _portfolio(root: Any, pruning: Pruning, budget: int, deadline: float | None) -> list[_Member]:
    """The searches :func:`search` takes turns between (module doc, ``quick``)."""
    game = root.game

    def member(stage: str, weight: int, use: Pruning, first: bool, cap: int = budget) -> _Member:
        found = _Search(root, plan_for(game, use), use, max(1, cap), deadline)
        return _Member(stage, weight, found, found.best_first() if first else found.run(), True)

    if not pruning.quick:
        return [member("search", 1, pruning, first=False)]
    # Without stock moves the best-first pass earns a second share (module doc, QUICK_WEIGHTS).
    quick = QUICK_WEIGHTS[plan_for(game, pruning).stock is not None]
    members = [
        member("quick", quick, pruning, first=True, cap=min(budget, QUICK_POSITIONS)),
        member("search", 2, pruning, first=False),
    ]
    plain_order = dataclasses.replace(pruning, ordering=False, stock=False)
    if plain_order != pruning:
        members.append(member("search", 1, plain_order, first=False))
    if pruning.ordering and fixed_wastes(game):
        # The restarts take the depth-first search's second share and two more (RESTART_WEIGHT).
        members[1].weight = 1
        restarting = member("restarts", RESTART_WEIGHT, pruning, first=False, cap=RESTART_POSITIONS)
        restarting.steps = _restarts(root, pruning, deadline, restarting)
        members.append(restarting)
    return members


def luby(number: int) -> int:
    """The ``number``-th term (from 1) of the Luby sequence 1, 1, 2, 1, 1, 2, 4, 1, ...: restart
    budgets in these proportions are within a log factor of the best fixed budget (Luby et al., 1993)."""
    while True:
        k = number.bit_length()
        if number == (1 << k) - 1:
            return 1 << (k - 1)
        number -= (1 << (k - 1)) - 1


def _restarts(root: Any, pruning: Pruning, deadline: float | None, member: _Member) -> Generator[None, None, Outcome]:
    """Depth-first searches from ``root`` one after another, each with :data:`RESTART_POSITIONS` ×
    :func:`luby` positions and its children's order perturbed by a seeded random term
    (:data:`RESTART_NOISE`), until one decides (module doc, ``quick``). Each replaces
    ``member.search``; a search that runs out of positions adds them to ``member.spent``. One that
    ends without running out searched every position, so its "lost" is a proof."""
    plan = plan_for(root.game, pruning)
    for attempt in itertools.count(1):
        found = _Search(root, plan, pruning, RESTART_POSITIONS * luby(attempt), deadline)
        found.progress = _Perturbed(found.progress, random.Random(attempt))
        member.search = found
        try:
            outcome = yield from found.run()
        except _Budget:
            if deadline is not None and time.monotonic() > deadline:
                raise
            member.spent += len(found.seen)
            continue
        return outcome
    raise AssertionError("unreachable")


class _Perturbed(Progress):
    """``progress`` with a random term of up to :data:`RESTART_NOISE` added to its heuristic."""

    def __init__(self, progress: Progress, rng: random.Random) -> None:  # a copy of progress: no Progress.__init__
        self.__dict__.update(progress.__dict__)
        self._rng = rng

    def heuristic(self, state: Any) -> int:
        return super().heuristic(state) + self._rng.randrange(RESTART_NOISE)


def search(root: Any, budget: int, deadline: float | None = None, pruning: Pruning = Pruning()) -> SearchResult:
    """Search from ``root`` with ``pruning``: with ``quick``, a portfolio taking turns; else the
    depth-first search alone.

    ``nodes`` counts the distinct positions stored by all the searches (forced steps in between
    are not stored). A win is replayed through the engine before it is reported; only a
    complete search proves "lost".
    """
    if root.is_terminal():
        return SearchResult("won" if root.outcome().won else "lost", [], 1, "search")
    dead = dead_check(root, pruning.relaxation)
    if dead is not None and dead(root):
        return SearchResult("lost", [], 1, "proof")
    members = _portfolio(root, pruning, budget, deadline)

    def nodes() -> int:
        return sum(m.stored() for m in everyone)

    everyone = list(members)
    turn = TURN if len(members) > 1 else budget
    while members:
        for entry in list(members):
            stop = entry.stored() + turn * entry.weight
            try:
                while entry.stored() < stop:
                    next(entry.steps)
                    if nodes() > budget:
                        return SearchResult("unknown", [], nodes(), None)
                continue
            except StopIteration as finished:
                result, line = finished.value
            except _Budget:
                if nodes() > budget or deadline is not None and time.monotonic() > deadline:
                    return SearchResult("unknown", [], nodes(), None)
                result, line = "unknown", []  # the best-first pass stored all it may
            members.remove(entry)
            if result == "won" and replays_to_a_win(root, line):
                return SearchResult("won", line, nodes(), entry.stage)
            if result == "lost" and entry.complete:
                return SearchResult("lost", [], nodes(), "search")
    return SearchResult("unknown", [], nodes(), None)
