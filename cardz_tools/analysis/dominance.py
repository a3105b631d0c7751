"""Dominances from the rules: moves onto a sink that no winning line needs to delay.

A *sink* is a win depot whose cards never leave (:func:`~.position_key.order_blind_sinks`
without the order condition). Moving card ``c`` onto a sink is *safe* when every card that
any other depot's accept rule could ever place on ``c`` is already in a sink: then ``c``
can never again carry a card, so keeping it out of the sinks only takes room (the
"potentially safely buildable" argument of Blake & Gent, JAIR 2026, App. B). The solver
plays safe moves as one forced chain, without branching and without storing the
positions in between.

The argument holds only for designs of a shape this module recognises from the compiled
:class:`~cardz_tools.engine.Game`; for any other design :func:`safe_sink_moves` returns a
reason instead and the solver uses no dominance. The shape, and why each part matters
(``L`` is a winning line from the position, ``L'`` is "``c`` to its sink, then ``L``
without the moves of ``c``"; the conditions make ``L'`` a winning line too):

1. one deck, no jokers, no actions, no triggers but refills (below); the loss is ``noLegalMoves``,
   ``noProgress`` or ``never``; the win is ``allCardsIn`` depots that are all sinks and all
   interchangeable but those whose bottom card is a constant (below) (:mod:`.symmetry`): an Ace
   may go to any empty one, and the lines are relabelled;
2. each sink's accept rule takes single cards, reads only ``card``, ``top`` and
   ``empty(depot)`` (evaluated exactly, once per card pair), gives each top at most one
   successor and each card at most one predecessor, and no card is taken both on an empty
   sink and on a top: so ``c`` can only ever go where it goes now, and nothing else can
   go there first;
3. every other accept rule is a conjunction whose parts read only ``card``, ``top`` and
   ``empty(depot)`` (the card table: evaluated exactly) or only the emptiness of groups
   without sinks and ``count(cards)`` (the board part): the board part is checked, by
   evaluating it on every count of empty members, never to refuse a move when more depots
   are empty or fewer cards are dragged (``L'`` has the same piles but ``c`` gone, and
   drags one card fewer where ``L`` dragged a run topped by ``c``); a part may also read the
   move's ``source`` in sub-parts that keep their value when the run and the source both lose
   their top card (:func:`_source_atom_is_invariant`: ``source in Cell``, ``count(cards) ==
   count(source)``), since ``c`` is always a top and so leaves the run and its pile together;
   for the card table those sub-parts are set both ways;
4. every eject rule lets any run a smaller run of: ``topOnly``, ``faceUp``, ``locked`` or a
   conjunction of ``descending``, ``ascending``, ``alternating``, ``sameSuit`` and ``chain``
   of ``cards``;
5. the moved card does not come from a stock or from a draw's target (the waste is turned
   back into the stock, so the card's absence would shift every later draw), unless that
   waste is never turned back (:func:`fixed_wastes`: a draw with no redeal, onto a waste that
   takes no dragged cards and no other draw touches) and the sinks are locked. Then a tap puts
   the same card on the waste in ``L'`` as in ``L``, and the waste of ``L'`` is that of ``L``
   without ``c``: whenever ``L`` plays another card from the waste's top, that card is the top
   in ``L'`` too, and a tap's legality reads only the stock.

A stock turned one card at a time (Klondike drawing one, :func:`stock_cycles`) is the exception to 5: a draw of
one face-up card, as often as the player likes, onto a waste that takes no card and gives only its top, with
nothing else touching the two piles, no triggers or actions, and no rule reading them but as a move's source, and
then not the length of its pile. Taps bring the cards of the two piles to the waste's top one after another, round
and round, in one cyclic order (the waste from the bottom, then the stock from the top). A safe card ``c`` of that
cycle is tapped to the top and moved (:meth:`SafeSinkMoves.safe_move`: each tap is a forced step, then the move).
``L'`` is then: those taps and ``c``'s move, then ``L`` without the moves of ``c`` (and of the rest of ``K`` below),
each play of ``L`` from the waste preceded by the taps that bring that card to the top. The cycle of ``L'`` is that
of ``L`` without ``c``, in the same order, so every card ``L`` plays from the waste can be brought to the top, and
no rule tells the two piles apart otherwise. ``L'`` has more taps than ``L`` perhaps, never more other moves: the
searches' inductions count the moves other than taps of a winning line, then its taps (a tap child keeps the first
count and lowers the second; a chain with ``c``'s move lowers the first; the splits' reordering changes neither).

Sinks that give cards back (Klondike's foundations, whose top card may return to a column:
eject ``topOnly``) need a stronger condition, since a card of a sink can come back and be
built on ``c``. Let ``K`` be the smallest set holding ``c`` that is closed under "a card some
non-sink accept rule could place on it" and under "its sink predecessor". Moving ``c`` is
safe when every card of ``K`` but ``c`` is in a sink. Then ``L'`` is ``L`` with every card of
``K`` kept in the sinks: in ``L`` a card of ``K`` outside the sinks only ever has cards of
``K`` above it (whatever is built on it is in ``K``), so dropping them drops only the top
part of piles (shorter runs, more empty depots: conditions 3 and 4); a card outside ``K`` is
never built on one of ``K`` and never lies below one in a sink (``K`` holds the
predecessors of its cards), so every move of a card outside ``K`` is legal in ``L'`` too.
The stock and the waste must then take no dragged cards, and the sinks' own accept rule may
read the move's source (the source of every kept move is the same pile in ``L'``).

Triggers (Canfield's columns, refilled from the reserve): every trigger's rule is
``empty(depot) && !empty(R)`` and it moves cards from ``R`` onto its own depot, where ``R`` takes no
cards, is no stock or waste, and is neither a sink nor refilled (:func:`refill_shape`). After every
move the engine settles the triggers, so while ``R`` has cards no refilled depot is empty, and once
``R`` is empty it stays empty and no trigger fires again. ``c`` is not taken from ``R``, and while
``R`` has cards not from a refilled depot where it lies alone (:meth:`SafeSinkMoves.safe_move`).
Then in ``L`` a pile is exactly ``[c]`` while ``R`` has cards only if it was so at the start, which
is excluded: ``c`` never comes from ``R`` and goes onto an empty refilled depot only when ``R`` is
empty. So every pile that a trigger reads is empty in ``L'`` exactly when it is in ``L``, the same
triggers fire at the same moves, and they move the same cards (``R`` is the same pile in both).

Constant bottoms (Canfield's foundations start at the rank of ``bottom(found[0])``): the bottom
card of a locked depot never changes once it has one. Where the rules read ``bottom(X)`` of such
depots (:func:`constant_bottoms`), ``exists(bottom(X))`` and ``bottom(X).rank`` / ``.suit`` /
``.color`` / ``.value`` are folded into constants per bottom card (:func:`_folded`), and the
dominance is worked out for each set of bottom cards a position has (:class:`BottomSafeMoves`;
none while such a depot is empty). A sink with a constant bottom is never empty, so only the
others need to be interchangeable. An edge ``top -> card`` of the sinks' rule where ``card`` is one
an empty sink takes, and is the first such card walking down from ``top`` by predecessors, is never
used (:func:`_edges_never_used`: the King onto the Queen that ends a foundation begun at the King;
every sink begins with a card an empty one takes, which is checked for the dealt bottoms). Eject
rules may also read ``count(cards)`` and ``count(depot)`` when they let a run go without its top
card from its pile without its top card, checked by evaluation (:func:`_drops_the_top`: Canfield's
"the top card or the whole column").

Rules that read a full group (Canfield (strict) and (spaces from the waste): an empty column takes only
the waste's card, and while a column is empty only the waste's card plays to the columns,
``source == waste || all(Tableau, !empty(it))``): a board part that refuses a move when more depots
of a group ``G`` are empty is allowed when ``L'`` has exactly the same depots of ``G`` empty as ``L``
at every step (:attr:`SafeSinkMoves.kept_full`). The piles of ``L'`` are those of ``L`` without
``c``, and no sink is in ``G`` (checked), so they differ in emptiness only where ``c`` lies alone
in ``L``. ``c`` is never taken from a depot of ``G`` where it lies alone (so its pile keeps a
card), and it never goes alone onto an empty depot of ``G``: the card-and-top parts of every
``G`` depot's rule, source atoms kept, refuse every single card from every pile of every depot
``c`` can lie in (the sources and the depots that take cards) while it is empty, checked by
evaluation (:func:`_takes_a_lone_card`: ``empty(depot) ? source == waste : ...``, and the waste
is no source). In ``L`` nothing is built on ``c``, and the cards under it move only with it (it
is its pile's top), so ``c`` has a card under it until it moves alone; alone, it goes onto a top
or a sink. So the depots of ``G`` are empty in ``L'`` exactly when in ``L``, and the part reads
the same (the refills fire alike too). Sinks that give cards back are not handled so.

Cards a deal rule removes are never built on anything (:attr:`SafeSinkMoves.absent`).

Rules the card table cannot evaluate exactly are taken to allow everything (dropped
conjuncts), so the table only ever over-approximates what can be built: conservative.
"""

from __future__ import annotations

import dataclasses
import functools
import itertools
import operator
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from ..cards import (
    COLOR_NAMES,
    FACE_UP,
    RANK_NAMES_WITH_JOKER,
    SUIT_NAMES,
    Card,
    Color,
    Rank,
    Suit,
    card_rank,
    card_suit,
    identity,
    standard_deck,
)
from ..engine.accept_gate import bottom_of
from ..engine.effects import MoveCards
from ..engine.rules import RuleError, Site, compile_rule
from ..expr import ast as expr_ast
from ..expr import parse, to_source
from ..model import EjectKind, Expr
from .deal_actions import dealt_depots, moving_pairs
from .symmetry import interchangeable_classes

_CONSTANTS = frozenset(RANK_NAMES_WITH_JOKER) | frozenset(SUIT_NAMES) | frozenset(COLOR_NAMES) | {"true", "false"}
_CARD_NAMES = frozenset({"card", "top", "rank", "suit", "color", "value", "empty", "depot"}) | _CONSTANTS
_BOARD_NAMES = frozenset({"count", "empty", "all", "any", "it", "cards", "depot", "pow"}) | _CONSTANTS
"""The board part is checked by evaluation (:func:`_board_part_is_monotone`): arithmetic on counts (``pow``) is fine."""
_RUN_PREDICATES = frozenset({"descending", "ascending", "alternating", "sameSuit", "chain"})
_EMPTINESS = frozenset({"empty", "it"})
HOMES_KEPT = 10_000
"""The most contents of the sinks whose :meth:`SafeSinkMoves._homes` a dominance keeps (then it forgets them all)."""
MAX_BOARD_CASES = 20_000
"""The most evaluations the board-part check may spend on one rule; past that the design is not classified."""


@dataclasses.dataclass(frozen=True)
class SafeSinkMoves:
    """The safe-move dominance of one game.

    ``buildable[c]`` is the mask of the cards that some accept rule could ever place on card
    ``c`` (bits of :func:`card_bits`); ``required[c]`` the cards that must be in sinks for a
    move of ``c`` onto a sink to be safe: ``buildable[c]`` when the sinks are locked, the set
    ``K`` minus ``c`` of the module doc when they give cards back. ``predecessor[c]`` is the
    one sink top that takes ``c``; ``on_empty`` the cards an empty sink takes.
    """

    sinks: tuple[int, ...]
    sources: tuple[int, ...]
    bit: dict[Card, int]
    buildable: dict[Card, int]
    predecessor: dict[Card, Card]
    on_empty: frozenset[Card]
    required: dict[Card, int]
    gives_back: bool = False
    refilled: frozenset[int] = frozenset()
    """The depots a trigger refills from one of :attr:`refill_sources` once they are empty
    (:func:`refill_shape`): while a source has cards, emptying one would fire its trigger now."""
    refill_sources: tuple[int, ...] = ()
    absent: int = 0
    """The cards the design does not play with (a deal rule removes them): never built on anything."""
    kept_full: frozenset[int] = frozenset()
    """The depots of groups whose emptiness a rule refuses moves on (module doc, "Rules that read a full
    group"): a lone card is never moved from one, so ``L'`` has the same of them empty as ``L``."""
    cycles: tuple[tuple[int, int, Any], ...] = ()
    """(stock, waste, tap) of each stock that taps bring round one card at a time (:func:`stock_cycles`): a safe
    card in it is tapped to the waste's top and moved from there (module doc, "A stock turned one card at a time")."""

    @functools.cached_property
    def homes(self) -> dict[tuple[tuple[Card, ...], ...], dict[Card, int]]:
        """Per contents of the sinks, :meth:`_homes` of them (the sinks change seldom and their contents recur: kept,
        not worked out again); each object keeps its own (not a field: a copy starts afresh)."""
        return {}

    @functools.cached_property
    def successor(self) -> dict[Card, Card]:
        """The one card each sink top takes (:attr:`predecessor` turned round)."""
        return {top: card for card, top in self.predecessor.items()}

    @functools.cached_property
    def sink_piles(self) -> Callable[[Sequence[Any]], tuple[tuple[Card, ...], ...]]:
        """``get(piles)``: the piles of the sinks, as a tuple."""
        if len(self.sinks) == 1:
            only = self.sinks[0]
            return lambda piles: (piles[only],)
        return operator.itemgetter(*self.sinks)

    def safe_move(self, state: Any) -> Any:
        """A safe move of ``state`` onto a sink (legal there), or None; ``state`` must not have
        ended (:func:`.tableau_search.ended`: then it is over only if it has no moves at all)."""
        piles = state.piles
        homes = self.kept_homes(piles)
        if not homes:
            return None
        refilling = self.refilled and any(piles[r] for r in self.refill_sources)
        for source in self.sources:
            pile = piles[source]
            if not pile:
                continue
            target = homes.get(pile[-1])  # a face-down card is no key
            if target is None or len(pile) == 1 and (
                source in self.kept_full or refilling and source in self.refilled
            ):
                continue
            move = state.game.drag_move(source, 1, target, None)
            if state.drag_refusal(move) is None:  # not why_illegal: its game-over test lists every move
                return move
        for stock, waste, tap in self.cycles:
            waste_pile = piles[waste]
            target = homes.get(waste_pile[-1]) if waste_pile else None
            if target is not None:
                move = state.game.drag_move(waste, 1, target, None)
                return move if state.drag_refusal(move) is None else None
            # taps bring each card of the stock and the waste to the waste's top in turn (face up: the draw's); the
            # safe cards are few, the piles many
            stock_pile = piles[stock]
            if any(card in waste_pile or card & ~FACE_UP in stock_pile or card in stock_pile for card in homes):
                return tap
        return None

    def turn_round(self, state: Any, tap: Any) -> int:
        """Play on ``state`` the taps of ``tap`` (one of :attr:`cycles`) that bring the first safe card of its cycle to
        the waste's top, as the engine would play them, but as one step; returns how many taps that is (0: no safe
        card in the cycle). The caller (:meth:`.tableau_search._Search.forced`) appends that many taps to its line."""
        stock, waste = next((s, w) for s, w, t in self.cycles if t == tap)
        homes = self.kept_homes(state.piles)
        stock_pile, waste_pile = state.piles[stock], state.piles[waste]
        cycle = waste_pile + stock_pile[::-1]  # the order taps bring the cards to the waste's top
        shown = len(waste_pile)
        for index in itertools.chain(range(shown, len(cycle)), range(shown)):
            if cycle[index] | FACE_UP in homes:
                break
        else:
            return 0
        if index >= shown:  # drawn from the stock, the rest of the stock as it was
            taps = index - shown + 1
            state.set_pile(stock, stock_pile[: len(stock_pile) - taps])
        else:  # through the stock, the waste turned over (face down), then drawn up to the card
            taps = len(stock_pile) + 1 + index + 1
            state.set_pile(stock, tuple([card & ~FACE_UP for card in reversed(cycle[index + 1 :])]))
        state.set_pile(waste, tuple([card | FACE_UP for card in cycle[: index + 1]]))
        state.move_count += taps
        return taps

    def kept_homes(self, piles: Sequence[Any]) -> dict[Card, int]:
        """:meth:`_homes` of the sinks of ``piles``, kept per their contents (:attr:`homes`, at most
        :data:`HOMES_KEPT` of them)."""
        sinks = self.sink_piles(piles)
        homes = self.homes
        found = homes.get(sinks)
        if found is None:
            if len(homes) >= HOMES_KEPT:
                homes.clear()
            found = homes[sinks] = self._homes(sinks)
        return found

    def _homes(self, sinks: tuple[tuple[Card, ...], ...]) -> dict[Card, int]:
        """Each card (face up) that may go safely onto a sink as far as the sinks of contents ``sinks`` tell, with
        the sink it goes onto (:meth:`_takers`): those whose :attr:`required` cards are all in them."""
        bit, required = self.bit, self.required
        in_sinks = self.absent
        for pile in sinks:
            for card in pile:
                in_sinks |= bit[card & ~FACE_UP]
        return {card | FACE_UP: sink for card, sink in self._takers(sinks) if not required[card] & ~in_sinks}

    def _takers(self, sinks: tuple[tuple[Card, ...], ...]) -> Iterator[tuple[Card, int]]:
        """Each card the sinks of contents ``sinks`` take now, with the sink that takes it: the last whose top it
        goes on, else the first empty one for a card an empty sink takes. A card yielded twice is yielded with the
        sink it goes on last, so that a dict made of these prefers that sink."""
        tops: dict[Card, int] = {}
        empty_sink = -1
        for sink, pile in zip(self.sinks, sinks, strict=True):
            if pile:
                tops[pile[-1] & ~FACE_UP] = sink
            elif empty_sink < 0:
                empty_sink = sink
        if empty_sink >= 0:
            for card in self.on_empty:
                yield card, empty_sink
        successor = self.successor
        for top, sink in tops.items():
            if top in successor:
                yield successor[top], sink


def _source_atoms(node: expr_ast.Node) -> list[expr_ast.Node]:
    """The smallest boolean parts of ``node`` that read the move's ``source`` (below ``!``, ``&&``,
    ``||`` and the test and branches of ``?:``)."""
    if "source" not in expr_ast.names(node):
        return []
    if isinstance(node, expr_ast.Binary) and node.op in ("&&", "||"):
        return _source_atoms(node.left) + _source_atoms(node.right)
    if isinstance(node, expr_ast.Unary) and node.op == "!":
        return _source_atoms(node.operand)
    if isinstance(node, expr_ast.Conditional):
        return _source_atoms(node.test) + _source_atoms(node.then) + _source_atoms(node.otherwise)
    return [node]


def _replaced(node: expr_ast.Node, values: dict[int, bool]) -> expr_ast.Node:
    """``node`` with each part whose ``id`` is in ``values`` replaced by that boolean."""
    if id(node) in values:
        return expr_ast.BoolLit(value=values[id(node)])
    if isinstance(node, expr_ast.Binary) and node.op in ("&&", "||"):
        return dataclasses.replace(node, left=_replaced(node.left, values), right=_replaced(node.right, values))
    if isinstance(node, expr_ast.Unary):
        return dataclasses.replace(node, operand=_replaced(node.operand, values))
    if isinstance(node, expr_ast.Conditional):
        return dataclasses.replace(
            node,
            test=_replaced(node.test, values),
            then=_replaced(node.then, values),
            otherwise=_replaced(node.otherwise, values),
        )
    return node


def _source_variants(part: expr_ast.Node) -> list[expr_ast.Node]:
    """``part`` with its source atoms (:func:`_source_atoms`) set every way (one variant when it
    reads no source): whatever an atom's value, one variant equals ``part``, so the disjunction
    of the variants allows at least what ``part`` allows."""
    atoms = _source_atoms(part)
    if len(atoms) > 4:
        raise ValueError("a rule part reads the move's source in too many places")
    return [
        _replaced(part, dict(zip(map(id, atoms), values, strict=True)))
        for values in itertools.product((False, True), repeat=len(atoms))
    ]


def _any_of(variants: Sequence[expr_ast.Node]) -> str:
    return " || ".join(f"({to_source(v)})" for v in variants)


_SOURCE_ATOM_NAMES = frozenset({"source", "count", "cards"}) | _CONSTANTS


def _source_atom_is_invariant(game: Any, target: int, atom: expr_ast.Node) -> str | None:
    """None when ``atom`` has the same value for a move as for that move without its dragged
    run's top card (``L'`` of the module doc: the safely moved card is always a pile's top, so it
    is taken from the source and the run together), else why not. Such an atom reads the source
    depot itself (``source in Cell``) and ``count(source)`` only through ``count(source) -
    count(cards)``; checked by evaluating it on every source depot, run and pile length."""
    names = expr_ast.names(atom)
    if not names <= _SOURCE_ATOM_NAMES | set(game.members) | set(game.names):
        return "it reads the move's source together with more than the dragged cards"
    rule = compile_rule(Expr(to_source(atom), game.design.depots[target].spec.pointer), Site.ACCEPT, game.design)
    root = game.new_initial_state(seed=0)  # the state argument rules get; these read none of it
    filler = standard_deck()[0] | FACE_UP
    total = len(standard_deck()) * game.design.decks
    piles: list[tuple[Card, ...]] = [()] * len(game.names)
    specific = any(isinstance(node, expr_ast.Index) for node in expr_ast.walk(atom)) or names & set(game.names)
    # the depots of one entry share their type, name and groups: one of them stands for all, unless one is named
    sources = range(len(game.names)) if specific else {id(d.spec): i for i, d in enumerate(game.design.depots)}.values()
    for source in sources:
        before: list[bool] = []
        for length in range(1, total + 1):
            piles[source] = (filler,) * length
            now = [bool(rule(piles, root, filler, (filler,) * run, source, target)) for run in range(1, length + 1)]
            # a run of ``run + 1`` from ``length + 1`` cards must read as a run of ``run`` from ``length``
            if before and any(now[run] != before[run - 1] for run in range(1, length)):
                return "its value changes when the dragged run and the source lose their top card"
            before = now
        piles[source] = ()
    return None



def _bottom_depot(game: Any, node: expr_ast.Node) -> int | None:
    """The depot of ``node`` when it is ``bottom(X)`` and ``X`` names one depot whose cards never
    leave (eject ``locked``): once that depot has a card, its bottom is the same for the rest of the game."""
    depot = bottom_of(node, game.members)
    if depot is None or game.eject_kind[depot] is not EjectKind.LOCKED:
        return None
    return depot


def constant_bottoms(game: Any) -> tuple[int, ...]:
    """The locked depots whose bottom card a rule of ``game`` reads (Canfield's ``bottom(found[0])``,
    the foundations' base rank): the dominance is worked out for their bottom cards (:func:`_folded`)."""
    texts = [r.when.text for r in game.accept_rules if r.when is not None]
    texts += [r.when.text for r in game.eject_rules if getattr(r, "when", None) is not None]
    found: set[int] = set()
    for text in texts:
        for node in expr_ast.walk(parse(text)):
            depot = _bottom_depot(game, node)
            if depot is not None:
                found.add(depot)
    return tuple(sorted(found))


def _folded(game: Any, node: expr_ast.Node, bottoms: dict[int, Card]) -> expr_ast.Node:
    """``node`` with ``exists(bottom(X))`` and ``bottom(X).rank`` / ``.suit`` / ``.color`` / ``.value``
    replaced by their values, for the depots ``X`` of ``bottoms`` (:func:`_bottom_depot`: constants
    once ``X`` has a card). Any other use of ``bottom(X)`` is left as it is (and then not classified)."""
    if isinstance(node, expr_ast.Call) and node.func == "exists" and len(node.args) == 1:
        if _bottom_depot(game, node.args[0]) in bottoms:
            return expr_ast.BoolLit(value=True)
    if isinstance(node, expr_ast.Field):
        depot = _bottom_depot(game, node.value)
        if depot in bottoms:
            card = bottoms[depot]
            suit = Suit(card_suit(card))
            if node.name == "rank":
                return expr_ast.Name(name=Rank(card_rank(card)).title)
            if node.name == "value":
                return expr_ast.IntLit(value=card_rank(card))
            if node.name == "suit":
                return expr_ast.Name(name=suit.title)
            if node.name == "color":
                return expr_ast.Name(name="Red" if suit.color is Color.RED else "Black")
    changes: dict[str, Any] = {}
    for name in node.fields:
        value = getattr(node, name)
        if isinstance(value, expr_ast.Node):
            changes[name] = _folded(game, value, bottoms)
        elif isinstance(value, tuple):
            changes[name] = tuple(_folded(game, v, bottoms) if isinstance(v, expr_ast.Node) else v for v in value)
    return dataclasses.replace(node, **changes) if changes else node


def refill_shape(game: Any) -> tuple[frozenset[int], tuple[int, ...]] | str:
    """(the depots triggers refill, the depots they refill from), or why the triggers are not of the
    one shape the dominance allows: every trigger's rule is ``empty(depot) && !empty(R)`` and its
    effects move cards from ``R`` onto its own depot, where ``R`` takes no cards (its accept rule is
    ``never``), is no stock or waste and no effect puts cards on it; and there are no actions.
    Then while ``R`` has cards no refilled depot is ever empty after a move, and once ``R`` is empty
    the triggers never fire again (module doc, "Triggers")."""
    if game.actions:
        return "it has actions"
    refilled: set[int] = set()
    sources: set[int] = set()
    draw_depots = {d for draw in game.draws for d in (draw.depot, draw.to)}
    # the engine compiles the triggers depot by depot, each depot's in the order written
    written = [t for d in game.design.depots for t in d.spec.triggers]
    for trigger, spec in zip(game.triggers, written, strict=True):
        parts = expr_ast.conjuncts(parse(spec.when.text))
        effects = trigger.effects
        if len(effects) != 1 or not isinstance(effects[0], MoveCards) or effects[0].target >= 0:
            return "a trigger does more than move cards onto its own depot"
        source = effects[0].source
        if source < 0 or source == trigger.depot:
            return "a trigger does more than move cards onto its own depot"
        wanted = {"empty(depot)", f"!empty({game.names[source]})"}
        if len(parts) != 2 or {to_source(part) for part in parts} != wanted:
            return "a trigger fires on more than its own depot being empty while its source has cards"
        if not game.accept_never[source] or source in draw_depots:
            return f"a trigger refills from {game.names[source]}, which takes cards"
        refilled.add(trigger.depot)
        sources.add(source)
    if refilled & sources:
        return "a trigger refills a depot that another trigger takes from"
    return frozenset(refilled), tuple(sorted(sources))


def _pair_table(game: Any, target: int, text: str, cards: Sequence[Card]) -> dict[Card, set[Card]]:
    """``table[top]``: the cards the rule ``text`` (card and top only) accepts on ``top`` at ``target``."""
    rule = compile_rule(Expr(text, game.design.depots[target].spec.pointer), Site.ACCEPT, game.design)
    root = game.new_initial_state(seed=0)  # the state argument rules get; these read none of it
    piles: list[tuple[Card, ...]] = [()] * len(game.names)
    table: dict[Card, set[Card]] = {}
    for top in (*cards, None):
        piles[target] = () if top is None else (top | FACE_UP,)
        table[top if top is not None else -1] = {
            card
            for card in cards
            if card != top and rule(piles, root, card | FACE_UP, (card | FACE_UP,), target, target)
        }
    return table


def _board_part_is_monotone(
    game: Any, target: int, text: str, sinks: frozenset[int], kept_full: set[str] | None = None
) -> str | None:
    """None when the board part ``text`` never refuses with more empty depots or a shorter run, else why not.
    With ``kept_full``, a group on whose more empty members it refuses is added to it instead (the caller
    then keeps those depots' emptiness the same in ``L'``: module doc, "Rules that read a full group")."""
    tree = parse(text)
    groups = [name for name in expr_ast.names(tree) if name in game.members and name not in _BOARD_NAMES]
    for node in expr_ast.walk(tree):
        if isinstance(node, expr_ast.Index):
            return "it reads one member of a group"
        if isinstance(node, expr_ast.Call) and node.func == "count" and node.args and not (
            (isinstance(node.args[0], expr_ast.Name) and node.args[0].name == "cards")
            or len(node.args) == 2 and expr_ast.names(node.args[1]) <= _EMPTINESS
        ):
            return "it counts something other than empty depots or the dragged cards"
        if isinstance(node, expr_ast.Call) and node.func in ("all", "any"):
            if not expr_ast.names(node.args[-1]) <= _EMPTINESS:
                return "it tests members for something other than emptiness"
        if isinstance(node, expr_ast.Call) and node.func == "empty" and not (
            isinstance(node.args[0], expr_ast.Name) and node.args[0].name in ("depot", "it")
        ):
            return "it reads whether one named depot is empty"
    members = [game.members[g] for g in groups]
    if any(set(m) & sinks for m in members):
        return "it reads the emptiness of the sinks"
    rule = compile_rule(Expr(text, game.design.depots[target].spec.pointer), Site.ACCEPT, game.design)
    depots = sorted({d for m in members for d in m} | {target})
    total = len(standard_deck()) * game.design.decks  # no jokers: no run is longer
    counts = [range(len(m) + 1) for m in members]
    cases = 1
    for r in counts:
        cases *= len(r)
    if cases * 2 * total * (len(members) + 2) > MAX_BOARD_CASES * 10:
        return "it reads too many groups to check"
    root = game.new_initial_state(seed=0)  # the state argument rules get; these read none of it
    filler = (standard_deck()[0] | FACE_UP,)

    known: dict[tuple[tuple[int, ...], bool, int], bool | None] = {}

    def value(empty_counts: tuple[int, ...], target_empty: bool, run: int) -> bool | None:
        case = (empty_counts, target_empty, run)
        if case not in known:
            known[case] = evaluate(empty_counts, target_empty, run)
        return known[case]

    def evaluate(empty_counts: tuple[int, ...], target_empty: bool, run: int) -> bool | None:
        piles: list[tuple[Card, ...]] = [filler] * len(game.names)
        empties = {target} if target_empty else set()
        for group, wanted in zip(members, empty_counts, strict=True):
            have = sum(1 for d in group if d in empties)
            for d in group:
                if have >= wanted:
                    break
                if d != target and d not in empties:
                    empties.add(d)
                    have += 1
            if sum(1 for d in group if d in empties) != wanted:
                return None  # this count cannot go with the target's emptiness
        for d in depots:
            if d in empties:
                piles[d] = ()
        cards = filler * run
        return bool(rule(piles, root, cards[0], cards, target, target))

    for target_empty in (False, True):
        for vector in itertools.product(*counts):
            for run in range(1, total + 1):
                now = value(vector, target_empty, run)
                if not now:
                    continue
                if run > 1 and value(vector, target_empty, run - 1) is False:
                    return "it refuses a shorter run where it takes a longer one"
                for g in range(len(vector)):
                    if vector[g] < len(members[g]):
                        more = value(vector[:g] + (vector[g] + 1,) + vector[g + 1 :], target_empty, run)
                        if more is False:
                            if kept_full is None:
                                return "it refuses a move when more depots are empty"
                            kept_full.add(groups[g])
    return None


def build_table(game: Any, home: bool = False) -> dict[Card, int] | None:
    """``table[top]``: the mask (bits of :func:`card_bits`) of the cards that the card-and-top
    parts of the accept rules of the depots other than the win depots (with ``home``: of the
    win depots) could place on ``top``; ``table[-1]``: the cards they take when empty. A rule
    with no such part allows every card, so the table over-approximates; None when a rule
    cannot be evaluated so.

    The table depends on the game alone, so it is made once per game (the last few are kept)
    and shared by every deal and search: read it, never change it."""
    return _game_table(game, home)


@functools.lru_cache(maxsize=16)
def _game_table(game: Any, home: bool) -> dict[Card, int] | None:
    """:func:`build_table`, made once per (game, home): probing the rules on every pair of cards
    costs about a fifth of a short solve when each search of each deal repeats it."""
    cards = tuple(identity(c) for c in standard_deck())
    bit = card_bits()
    everything = (1 << len(cards)) - 1
    table = {card: 0 for card in (*cards, -1)}
    for depot, rule in _table_rules(game, home):
        try:
            pairs = _card_pairs(game, depot, rule, cards)
        except (RuleError, ValueError):
            return None
        if pairs is None:
            return {card: everything for card in table}
        _add_pairs(table, pairs, bit)
    return table


def _card_pairs(game: Any, depot: int, rule: Any, cards: Sequence[Card]) -> dict[Card, set[Card]] | None:
    """:func:`_pair_table` of the parts of ``rule`` (the accept rule of ``depot``) that read only the card, the
    top and ``empty(depot)``, their source atoms set every way; None when it has no such part (it may take
    anything). Raises ValueError or RuleError when a part cannot be evaluated so."""
    if rule.when is None or rule.follow or rule.wild_rank is not None:
        return None
    exact = [
        _any_of(variants)
        for variants in map(_source_variants, expr_ast.conjuncts(parse(rule.when.text)))
        if set().union(*map(expr_ast.names, variants)) <= _CARD_NAMES
    ]
    if not exact:
        return None
    return _pair_table(game, depot, " && ".join(f"({text})" for text in exact), cards)


@functools.lru_cache(maxsize=16)
def depot_takes(game: Any) -> tuple[tuple[int, int], ...]:
    """Per depot, the cards (bits of :func:`card_bits`) its accept rule could take on an empty pile and those it
    could take on some card: its parts that read only the card, the top and ``empty(depot)`` evaluated on every
    pair, every card where it has no such part or one cannot be evaluated, none for ``never`` (over-approximations,
    like the card table). A depot that takes none on an empty pile stays empty once emptied (Alina's columns); one
    that takes none on a card holds one card at a time (a cell). Made once per game, once per depot spec."""
    cards = tuple(identity(c) for c in standard_deck())
    bit = card_bits()
    everything = (1 << len(cards)) - 1
    by_spec: dict[int, tuple[int, int]] = {}
    takes = []
    for depot, rule in enumerate(game.accept_rules):
        spec = id(game.design.depots[depot].spec)
        if spec not in by_spec:
            if rule.never:
                by_spec[spec] = (0, 0)
            else:
                try:
                    pairs = _card_pairs(game, depot, rule, cards)
                except (RuleError, ValueError):
                    pairs = None
                if pairs is None:
                    by_spec[spec] = (everything, everything)
                else:
                    on_cards = set().union(*(accepted for top, accepted in pairs.items() if top != -1))
                    by_spec[spec] = (sum(bit[card] for card in pairs[-1]), sum(bit[card] for card in on_cards))
        takes.append(by_spec[spec])
    return tuple(takes)


def _table_rules(game: Any, home: bool) -> Iterator[tuple[int, Any]]:
    """The depots a card table reads, each with its accept rule: one depot for each depot spec, the win
    depots' (``home``) or the others', leaving out rules that never accept."""
    done: set[int] = set()
    for depot in range(len(game.names)):
        spec = id(game.design.depots[depot].spec)
        rule = game.accept_rules[depot]
        if (depot in game.win_depots) != home or rule.never or spec in done:
            continue
        done.add(spec)
        yield depot, rule


def _add_pairs(table: dict[Card, int], pairs: dict[Card, set[Card]], bit: dict[Card, int]) -> None:
    """Add to ``table`` (a mask of cards for each top) the cards ``pairs`` lets onto each top."""
    for top, accepted in pairs.items():
        for card in accepted:
            table[top] |= bit[card]


def card_bits() -> dict[Card, int]:
    """The bit of each card identity (face bit clear) in the masks of this module."""
    return {identity(card): 1 << i for i, card in enumerate(standard_deck())}


def _eject_keeps_smaller_runs(game: Any, depot: int, bottoms: dict[int, Card] | None = None) -> bool:
    """Whether the eject rule of ``depot`` lets a run go without its top card whenever it lets the run
    go (module doc, condition 4): each conjunct is a run test of ``cards``, a constant, or reads only
    ``count(cards)`` and ``count(depot)`` and is checked so by evaluation (:func:`_drops_the_top`)."""
    kind = game.eject_kind[depot]
    if kind is not EjectKind.WHEN:
        return True
    when = game.eject_rules[depot].when
    if when is None:
        return True
    for part in expr_ast.conjuncts(_folded(game, parse(when.text), bottoms or {})):
        if isinstance(part, expr_ast.BoolLit) and part.value:
            continue
        if not (
            isinstance(part, expr_ast.Call)
            and part.func in _RUN_PREDICATES
            and isinstance(part.args[0], expr_ast.Name)
            and part.args[0].name == "cards"
            and (part.func == "chain" or len(part.args) == 1)
        ) and not _drops_the_top(game, depot, part):
            return False
    return True


_COUNT_NAMES = frozenset({"count", "cards", "depot"}) | _CONSTANTS


def _drops_the_top(game: Any, depot: int, part: expr_ast.Node) -> bool:
    """Whether the eject part ``part``, reading only ``count(cards)`` and ``count(depot)``, lets a run
    of ``r - 1`` cards go from ``n - 1`` whenever it lets ``r`` go from ``n`` (``r >= 2``): checked on
    every pile length (Canfield's ``count(cards) == 1 || count(cards) == count(depot)``)."""
    if not expr_ast.names(part) <= _COUNT_NAMES:
        return False
    rule = compile_rule(Expr(to_source(part), game.design.depots[depot].spec.pointer), Site.EJECT, game.design)
    root = game.new_initial_state(seed=0)  # the state argument rules get; this reads none of it
    filler = standard_deck()[0] | FACE_UP
    total = len(standard_deck()) * game.design.decks
    piles: list[tuple[Card, ...]] = [()] * len(game.names)
    known: dict[tuple[int, int], bool] = {}

    def lets_go(run: int, length: int) -> bool:
        if (run, length) not in known:
            piles[depot] = (filler,) * length
            cards = piles[depot][-run:]
            known[run, length] = bool(rule(piles, root, cards[0], cards, depot))
        return known[run, length]

    return all(
        not lets_go(run, length) or lets_go(run - 1, length - 1)
        for length in range(2, total + 1)
        for run in range(2, length + 1)
    )


def safe_sink_moves(game: Any, twins: bool = False) -> SafeMoves | str:
    """The safe-move dominance of ``game``, or why the design is not of the shape it needs (module doc).

    A design of more than one deck is classified only with ``twins``, by :func:`.two_deck.safe_moves`,
    which adds the conditions twins need.
    """
    if game.design.decks != 1 and not twins:
        return "it plays with more than one deck"
    depots = constant_bottoms(game)
    if not depots:
        return _classified(game, {})
    # the shape is judged on one deal; each deal's own bottom cards get their own tables
    root = game.new_initial_state(seed=0)
    if any(root.piles[d] for d in game.win_depots if d not in depots) or not all(root.piles[d] for d in depots):
        return "its rules read the bottom card of a depot the deal may leave empty"
    found = _classified(game, {d: identity(root.piles[d][0]) for d in depots})
    return found if isinstance(found, str) else BottomSafeMoves(game, depots, kept_full=found.kept_full)


def _classified(game: Any, bottoms: dict[int, Card]) -> SafeSinkMoves | str:
    try:
        return _classify(game, bottoms)
    except (RuleError, ValueError) as exc:  # a rule part that does not compile on its own
        return f"a rule could not be analysed ({exc})"


@dataclasses.dataclass
class BottomSafeMoves:
    """The safe moves of a design whose rules read the bottom card of locked depots
    (:func:`constant_bottoms`: Canfield's base rank): the dominance of each set of bottom cards,
    worked out when a position with them is first asked about (at most 52 per depot read so)."""

    game: Any
    depots: tuple[int, ...]
    by_bottoms: dict[tuple[Card, ...], SafeSinkMoves | None] = dataclasses.field(default_factory=dict, repr=False)
    kept_full: frozenset[int] = frozenset()
    """:attr:`SafeSinkMoves.kept_full` (the bottom cards do not change which rules read a full group)."""

    def safe_move(self, state: Any) -> Any:
        """:meth:`SafeSinkMoves.safe_move` with the tables of ``state``'s bottom cards; None while
        one of those depots is empty, or where those cards make a design of another shape."""
        piles = state.piles
        if not all(piles[d] for d in self.depots):
            return None
        key = tuple(identity(piles[d][0]) for d in self.depots)
        if key not in self.by_bottoms:
            found = _classified(self.game, dict(zip(self.depots, key, strict=True)))
            self.by_bottoms[key] = None if isinstance(found, str) else found
        safe = self.by_bottoms[key]
        return None if safe is None else safe.safe_move(state)

    def turn_round(self, state: Any, tap: Any) -> int:
        """:meth:`SafeSinkMoves.turn_round` with the tables of ``state``'s bottom cards (called only after
        :meth:`safe_move` gave ``tap``: they are known then)."""
        safe = self.by_bottoms[tuple(identity(state.piles[d][0]) for d in self.depots)]
        assert safe is not None
        return safe.turn_round(state, tap)


def _classify(game: Any, bottoms: dict[int, Card] | None = None) -> SafeSinkMoves | str:
    """The dominance of ``game`` (module doc), the bottom cards of the depots of ``bottoms`` taken as
    constants (:func:`_folded`; the caller knows those depots have these cards for good)."""
    design = game.design
    bottoms = bottoms or {}

    def parsed(text: str) -> expr_ast.Node:
        return _folded(game, parse(text), bottoms)

    if design.jokers:
        return "it plays with jokers"
    refilled: frozenset[int] = frozenset()
    refill_sources: tuple[int, ...] = ()
    dealt: frozenset[int] = frozenset()
    if game.actions and not game.triggers and design.decks == 1:  # a stock dealt out (East Haven): deal_actions
        deals = dealt_depots(game)
        if isinstance(deals, str):
            return f"it has actions ({deals})"
        dealt = deals
    elif game.triggers or game.actions:
        shape = refill_shape(game)
        if isinstance(shape, str):
            return f"it has triggers or actions ({shape})"
        refilled, refill_sources = shape
    if game.loss_when is not None:
        return "it has a loss condition"
    if game.win_kind != "allCardsIn":
        return "its win is not allCardsIn"
    sinks = frozenset(game.win_depots)
    gives_back = False
    for sink in sinks:
        if any(d.depot == sink or d.to == sink for d in game.draws):
            return f"its win depot {game.names[sink]} is a stock or a waste"
        if game.eject_kind[sink] is EjectKind.TOP_ONLY:
            gives_back = True
        elif game.eject_kind[sink] is not EjectKind.LOCKED:
            return f"its win depot {game.names[sink]} gives back more than its top card"
    if gives_back and any(not game.accept_never[d] for draw in game.draws for d in (draw.depot, draw.to)):
        return "its win depots give cards back and a stock or a waste takes cards"
    if gives_back and refilled:
        return "its win depots give cards back and it has triggers"
    if sinks & (refilled | set(refill_sources)):
        return "a trigger fills or takes from its win depots"
    # a sink whose bottom is a constant is never empty again: only the others are ever relabelled
    relabelled = sinks - set(bottoms)
    if not any(set(members) == relabelled for members in interchangeable_classes(game)) and len(relabelled) > 1:
        return "its win depots are not interchangeable"
    cards = tuple(identity(c) for c in standard_deck())
    edges: set[tuple[Card, Card]] = set()
    empty_takes: set[Card] = set()
    for sink in sinks:
        rule = game.accept_rules[sink]
        if not rule.single or rule.follow or rule.wild_rank is not None:
            return "its win depots take runs, follow or wild cards"
        if rule.when is None:
            return "its win depots' rule reads more than the card and the top"
        # parts that read the move's source keep their value in ``L'`` (the same source pile): both ways
        parts = expr_ast.conjuncts(parsed(rule.when.text))
        source_names = _SOURCE_ATOM_NAMES | set(game.members) | set(game.names)
        if not all(expr_ast.names(atom) <= source_names for part in parts for atom in _source_atoms(part)):
            return "its win depots' rule reads more than the card, the top and the move's source"
        both_ways = [_source_variants(part) for part in parts]
        if not set().union(*(expr_ast.names(v) for part in both_ways for v in part)) <= _CARD_NAMES:
            return "its win depots' rule reads more than the card and the top"
        text = " && ".join(f"({_any_of(part)})" for part in both_ways)
        table = _pair_table(game, sink, text, cards)
        empty_takes.update(table.pop(-1))
        edges.update((top, card) for top, accepted in table.items() for card in accepted)
    edges -= _edges_never_used(edges, empty_takes)
    predecessors: dict[Card, set[Card]] = {c: set() for c in cards}
    for top, card in edges:
        predecessors[card].add(top)
        if card in empty_takes:
            return "a card goes both on an empty win depot and on a top"
    if any(sum(1 for t, _ in edges if t == top) > 1 for top in cards):
        return "a win depot's top takes more than one card"
    if any(len(p) > 1 for p in predecessors.values()):
        return "a card goes on more than one top of a win depot"
    if any(bottom not in empty_takes for bottom in bottoms.values()):
        return "a win depot's bottom card is not one an empty win depot takes"
    bit = {card: 1 << i for i, card in enumerate(cards)}
    buildable = {card: 0 for card in cards}
    full_groups: set[str] = set()
    done: set[int] = set()  # the depots of one entry with ``repeat`` share their rules and groups
    for depot in range(len(game.names)):
        spec = id(design.depots[depot].spec)
        if depot in sinks or spec in done:
            continue
        done.add(spec)
        if not _eject_keeps_smaller_runs(game, depot, bottoms):
            return f"the eject rule of {game.names[depot]} is not known to let smaller runs go"
        rule = game.accept_rules[depot]
        if rule.never:
            continue
        if rule.follow or rule.wild_rank is not None:
            return f"{game.names[depot]} follows or takes wild cards"
        if rule.when is None:
            for card in cards:
                buildable[card] = (1 << len(cards)) - 1
            continue
        exact: list[str] = []
        for part in expr_ast.conjuncts(parsed(rule.when.text)):
            for atom in _source_atoms(part):
                why = _source_atom_is_invariant(game, depot, atom)
                if why is not None:
                    return f"the accept rule of {game.names[depot]}: {to_source(atom)}: {why}"
            variants = _source_variants(part)
            names = set().union(*map(expr_ast.names, variants))
            if names <= _CARD_NAMES:
                exact.append(_any_of(variants))
            elif names <= _BOARD_NAMES | set(game.members):
                # the atoms keep their value in ``L'``: the part must be monotone for each value of them
                for variant in variants:
                    why = _board_part_is_monotone(game, depot, to_source(variant), sinks, full_groups)
                    if why is not None:
                        return f"the accept rule of {game.names[depot]}: {why}"
            else:
                return f"the accept rule of {game.names[depot]} reads more than emptiness and the two cards"
        if not exact:
            for card in cards:
                buildable[card] = (1 << len(cards)) - 1
            continue
        table = _pair_table(game, depot, " && ".join(f"({text})" for text in exact), cards)
        for top in cards:
            for card in table[top]:
                buildable[top] |= bit[card]
    for depot in sorted(dealt):  # a card dealt onto c never moves together with it (deal_actions)
        pairs = moving_pairs(game, depot)
        if pairs is None or any(bit[card] & ~buildable[below] for below, above in pairs.items() for card in above):
            return f"a card dealt onto {game.names[depot]} may move together with a card no rule builds it on"
    excluded = {d for draw in game.draws for d in (draw.depot, draw.to)} - (set() if gives_back else fixed_wastes(game))
    excluded |= set(refill_sources)  # a trigger may take the card: the refills would differ
    sources = tuple(
        d for d in range(len(game.names))
        if d not in sinks and d not in excluded and game.eject_kind[d] is not EjectKind.LOCKED
    )
    kept_full = frozenset(d for group in full_groups for d in game.members[group])
    if kept_full:
        if gives_back:
            return "its win depots give cards back and a rule refuses moves while a group has an empty member"
        holders = set(sources) | {d for d in range(len(game.names)) if d not in sinks and not game.accept_never[d]}
        for depot in sorted(kept_full):
            rule = parsed(game.accept_rules[depot].when.text)
            why = _takes_a_lone_card(game, depot, rule, frozenset(holders - {depot}))
            if why is not None:
                return f"the accept rule of {game.names[depot]} refuses moves while a depot is empty, and {why}"
    predecessor = {card: next(iter(tops)) for card, tops in predecessors.items() if tops}
    required = _closures(cards, bit, buildable, predecessor) if gives_back else dict(buildable)
    return SafeSinkMoves(
        tuple(sorted(sinks)), sources, bit, buildable, predecessor, frozenset(empty_takes), required, gives_back,
        refilled, refill_sources, _absent(game, bit), kept_full, stock_cycles(game),
    )


@functools.lru_cache(maxsize=64)
def _takes_a_lone_card(game: Any, target: int, rule: expr_ast.Node, holders: frozenset[int]) -> str | None:
    """None when the card-and-top parts of ``rule`` (the accept rule of ``target``, source atoms kept)
    refuse every single card, from every pile of every depot of ``holders``, while ``target`` is empty;
    else why not. Then a safely moved card, which only those depots ever hold, never lies alone on a
    depot of a full group (module doc, "Rules that read a full group"). Cached: each set of bottom cards
    (:class:`BottomSafeMoves`) asks again, and the rule folded with them is mostly the same."""
    if game.accept_rules[target].never:
        return None
    exact = [
        to_source(part)
        for part in expr_ast.conjuncts(rule)
        if set().union(*map(expr_ast.names, _source_variants(part))) <= _CARD_NAMES
    ]
    if not exact:
        return f"{game.names[target]} may take any card when empty"
    compiled = compile_rule(
        Expr(" && ".join(f"({text})" for text in exact), game.design.depots[target].spec.pointer), Site.ACCEPT,
        game.design,
    )
    root = game.new_initial_state(seed=0)  # the state argument rules get; these read none of it
    filler = standard_deck()[0] | FACE_UP
    total = len(standard_deck()) * game.design.decks
    piles: list[tuple[Card, ...]] = [()] * len(game.names)
    for source in sorted(holders):
        for length in range(1, total + 1):
            for card in standard_deck():
                piles[source] = (filler,) * (length - 1) + (card | FACE_UP,)
                if compiled(piles, root, card | FACE_UP, (card | FACE_UP,), source, target):
                    return f"it may take a lone card from {game.names[source]} when empty"
        piles[source] = ()
    return None


def _absent(game: Any, bit: dict[Card, int]) -> int:
    """The mask of the cards no deal of ``game`` has (one deck: the deal has every card there is)."""
    dealt = game.new_initial_state(seed=0).piles
    present = {identity(card) for pile in dealt for card in pile}
    return sum(b for card, b in bit.items() if card not in present)


def _edges_never_used(edges: set[tuple[Card, Card]], on_empty: set[Card]) -> set[tuple[Card, Card]]:
    """The edges ``top -> card`` of the win depots' rule that no position can use: ``card`` is one an
    empty win depot takes and the first such card met walking down from ``top`` by the one
    predecessor each card has (Canfield's King onto the Queen that ends a foundation begun at the
    King). Every win depot begins with a card an empty one takes (checked for the dealt ones) and
    its cards are that walk, so a depot whose top is ``top`` already holds ``card``: one deck."""
    below: dict[Card, list[Card]] = {}
    for top, card in edges:
        below.setdefault(card, []).append(top)
    unused = set()
    for top, card in edges:
        if card not in on_empty:
            continue
        walk, seen = top, {top}
        while walk not in on_empty:
            tops = below.get(walk, [])
            if len(tops) != 1 or tops[0] in seen:
                break
            walk = tops[0]
            seen.add(walk)
        if walk == card:
            unused.add((top, card))
    return unused


def fixed_wastes(game: Any) -> set[int]:
    """The draw targets of ``game`` that are never turned back into their stock: the draw has no
    redeal, the waste takes no dragged cards, and no other draw starts or ends on it (the order of
    its cards is then fixed by the taps, and taking its top card away shifts no later draw)."""
    found = set()
    for draw in game.draws:
        others = [d for d in game.draws if d is not draw and draw.to in (d.depot, d.to)]
        if draw.redeals == 0 and game.accept_never[draw.to] and not others:
            found.add(draw.to)
    return found


def stock_cycles(game: Any) -> tuple[tuple[int, int, Any], ...]:
    """(stock, waste, tap) of each draw of ``game`` whose cards taps bring round to the waste's top one at a time,
    in an order that taking one of them away leaves as it is (module doc, "A stock turned one card at a time"): it
    turns one card face up onto its waste, as often as the player likes, and turns no stock card up by itself
    (:meth:`SafeSinkMoves.turn_round` plays the taps so); nothing else starts or ends on the two, no
    card is dragged onto them, the waste gives only its top card; no trigger or action reads or moves them, and no
    rule reads them but for a move's source, and then neither the rest of its pile nor its length."""
    if game.triggers or game.actions or game.design.decks > 1:  # two decks: copies the twin argument relabels
        return ()
    found = []
    for draw in game.draws:
        pair = {draw.depot, draw.to}
        if (
            draw.count != 1
            or draw.redeals >= 0
            or not draw.face_up
            or draw.depot == draw.to
            or any(d is not draw and pair & {d.depot, d.to} for d in game.draws)
            or not (game.accept_never[draw.depot] and game.accept_never[draw.to])
            or game.eject_kind[draw.depot] is not EjectKind.LOCKED
            or game.eject_kind[draw.to] is not EjectKind.TOP_ONLY
            or game.auto_flip[draw.depot]
            or _reads_the_piles(game, pair)
        ):
            continue
        found.append((draw.depot, draw.to, draw.move))
    return tuple(found)


def _reads_the_piles(game: Any, depots: set[int]) -> bool:
    """Whether a rule of ``game`` may tell the piles of ``depots`` apart from those piles with other cards or
    another length: an accept rule that names them (or a group of them) outside its parts on the move's source, or a
    part on the move's source whose value changes with the length of its pile when that pile is one of them."""
    names = {game.names[d] for d in depots} | {g for g, members in game.members.items() if depots & set(members)}
    # the depots of one entry with ``repeat`` share their rule, and the piles read are those of ``depots`` alone
    rules = {id(game.design.depots[d].spec): (d, r.when.text) for d, r in enumerate(game.accept_rules)
             if r.when is not None}
    allowed = _SOURCE_ATOM_NAMES | set(game.members) | set(game.names)
    for depot, text in rules.values():
        tree = parse(text)
        blocks = _source_blocks(tree, allowed)
        known = [block for block in blocks if block is not None]
        if len(known) < len(blocks):
            return True
        if names & expr_ast.names(_replaced(tree, {id(block): True for block in known})):
            return True
        if any(not _same_for_every_length(game, depot, block, source) for block in known for source in depots):
            return True
    return False


def _source_blocks(node: expr_ast.Node, allowed: set[str] | frozenset[str]) -> list[expr_ast.Node | None]:
    """The largest parts of ``node`` that read the move's ``source`` and only names of ``allowed`` (below ``!``,
    ``&&``, ``||`` and ``?:``); None for a part that reads the source together with other names."""
    names = expr_ast.names(node)
    if "source" not in names:
        return []
    if names <= allowed:
        return [node]
    if isinstance(node, expr_ast.Binary) and node.op in ("&&", "||"):
        return _source_blocks(node.left, allowed) + _source_blocks(node.right, allowed)
    if isinstance(node, expr_ast.Unary) and node.op == "!":
        return _source_blocks(node.operand, allowed)
    if isinstance(node, expr_ast.Conditional):
        return [block for part in (node.test, node.then, node.otherwise) for block in _source_blocks(part, allowed)]
    return [None]


def _same_for_every_length(game: Any, target: int, part: expr_ast.Node, source: int) -> bool:
    """Whether ``part`` (of the accept rule of ``target``) reads the same for a single card from ``source``
    whatever the length of ``source``'s pile."""
    rule = compile_rule(Expr(to_source(part), game.design.depots[target].spec.pointer), Site.ACCEPT, game.design)
    root = game.new_initial_state(seed=0)  # the state argument rules get; these read none of it
    filler = standard_deck()[0] | FACE_UP
    piles: list[tuple[Card, ...]] = [()] * len(game.names)
    values = set()
    for length in range(1, len(standard_deck()) * game.design.decks + 1):
        piles[source] = (filler,) * length
        values.add(bool(rule(piles, root, filler, (filler,), source, target)))
    return len(values) == 1


def _closures(
    cards: Sequence[Card], bit: dict[Card, int], buildable: dict[Card, int], predecessor: dict[Card, Card]
) -> dict[Card, int]:
    """For each card ``c``, the mask of ``K`` minus ``c`` (module doc): the cards reached from ``c``
    by "could be built on it" and "its sink predecessor", any number of times."""
    step = {card: buildable[card] | (bit[predecessor[card]] if card in predecessor else 0) for card in cards}
    by_bit = {bit[card]: card for card in cards}
    required = {}
    for card in cards:
        reached = 0
        frontier = step[card]
        while frontier & ~reached:
            new = frontier & ~reached
            reached |= new
            frontier = 0
            while new:
                low = new & -new
                frontier |= step[by_bit[low]]
                new ^= low
        required[card] = reached & ~bit[card]
    return required


def refilled_depots(game: Any) -> frozenset[int]:
    """The depots that a trigger refills once they are empty (Canfield's columns, from the reserve:
    :func:`refill_shape`), or none. Such a refill is a step no move can undo, and a depth-first
    search's times are heavy-tailed there (:mod:`.tableau_search`, ``restarts``)."""
    if not game.triggers:
        return frozenset()
    shape = refill_shape(game)
    return frozenset() if isinstance(shape, str) else shape[0]


SafeMoves = SafeSinkMoves | BottomSafeMoves
"""What :func:`safe_sink_moves` finds: one dominance, or one per set of bottom cards."""


def probe_table(game: Any, home: bool, bottoms: tuple[tuple[int, Card], ...] = ()) -> dict[Card, int] | None:
    """A :func:`build_table` that also reads the branches of ``?:``: a rule part ``t ? a : b`` whose test
    reads only the card, the top and ``empty(depot)`` stands for ``t ? (a's card-and-top parts) : (b's)``
    (each branch over-approximated as the whole rule is), and ``bottom(X)`` of the depots of ``bottoms``
    is read as the card given (:func:`_folded`), so Canfield's foundations, whose empty branch reads the
    first foundation's bottom card, still tell which cards go on a top. Still an over-approximation of
    what the rules accept on a board where those depots have those bottom cards: for filtering the
    targets a move is asked of the engine (:mod:`.stock_moves`), not for the dominance."""
    return _probe_table(game, home, bottoms)


@functools.lru_cache(maxsize=128)
def _probe_table(game: Any, home: bool, bottoms: tuple[tuple[int, Card], ...]) -> dict[Card, int] | None:
    cards = tuple(identity(c) for c in standard_deck())
    bit = card_bits()
    everything = (1 << len(cards)) - 1
    table = {card: 0 for card in (*cards, -1)}
    for depot, rule in _table_rules(game, home):
        if rule.when is None or rule.follow or rule.wild_rank is not None:
            return {card: everything for card in table}
        try:
            text = _card_part(_folded(game, parse(rule.when.text), dict(bottoms)))
            pairs = _pair_table(game, depot, text, cards)
        except (RuleError, ValueError):
            return None
        _add_pairs(table, pairs, bit)
    return table


def _card_part(node: expr_ast.Node) -> str:
    """The text of a rule that reads only the card, the top and ``empty(depot)`` and allows at least
    what ``node`` allows (:func:`probe_table`): its card-and-top conjuncts, a ``?:`` on such a test
    narrowed branch by branch, and ``true`` for nothing."""
    parts = []
    for part in expr_ast.conjuncts(node):
        if isinstance(part, expr_ast.Conditional) and expr_ast.names(part.test) <= _CARD_NAMES:
            test, then, otherwise = to_source(part.test), _card_part(part.then), _card_part(part.otherwise)
            parts.append(f"(({test}) ? ({then}) : ({otherwise}))")
            continue
        variants = _source_variants(part)
        if set().union(*map(expr_ast.names, variants)) <= _CARD_NAMES:
            parts.append(f"({_any_of(variants)})")
    return " && ".join(parts) or "true"


@functools.lru_cache(maxsize=16)
def bottom_depots(game: Any) -> tuple[int, ...]:
    """:func:`constant_bottoms`, worked out once per game."""
    return constant_bottoms(game)


def bottom_cards(state: Any) -> tuple[tuple[int, Card], ...]:
    """The bottom card of each depot of :func:`bottom_depots` that has one in ``state``, as ``(depot, card)``
    (face bit clear): constants from then on, which :func:`probe_table` reads so."""
    depots = bottom_depots(state.game)
    if not depots:  # most designs: no generator per call (the stock moves ask once per position)
        return ()
    piles = state.piles
    return tuple((d, piles[d][0] & ~FACE_UP) for d in depots if piles[d])
