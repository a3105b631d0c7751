"""A cheap proof of loss for the search over engine states: cards that can never reach a sink.

A *sink* is a win depot whose cards never leave (win ``allCardsIn``). Two facts are read
off the compiled rules once per game, both over-approximations (a rule part the card table
of :func:`~.dominance.build_table` cannot evaluate is taken to allow everything):

* the *route graph* of the sinks: an edge ``t -> c`` when a sink's accept rule could take
  card ``c`` on top ``t``, and ``START -> c`` when it could take ``c`` on an empty sink (or
  ``c`` is a sink's top when the search starts). When ``c`` enters a sink, that sink's pile
  is a path of this graph ending at ``c``, so every *dominator* of ``c`` (a card on every
  path from ``START`` to ``c``) must have a copy in a sink first; a card with no path can
  never enter one;
* the *mobile* cards: those some accept rule of a depot other than the sinks could take
  on an empty depot or on a card that still has a copy outside the sinks.

A position is then lost when a card outside the sinks has no route, when a locked depot that
no effect empties holds a card, or when a card is not *settled* at the least fixed point of:
a card is settled when it lies in a sink or in a *free* depot (a stock, a waste, or any depot
an effect takes cards from: nothing is assumed about those); in a pile that gives up runs,
when it or a card below it is mobile; and when every card above it in its pile is settled or
mobile and, besides, it is mobile or every dominator of it has a settled copy.

Why that is sound (never "lost" for a won position): order the cards by when a winning line
first moves them, and show each is settled. Every card above a card's pile position must
leave before it can leave as a top: to a sink (settled, by induction), or to another depot
(mobile, or carried there in a run by a mobile card below it: settled). A card that moves to
another depot is mobile, or rides there on a mobile card below it in a run. A card that moves
straight to a sink does so as its pile's top (the sinks take single cards), after a copy of
each of its dominators entered a sink (settled, by induction).

*Before any depot is empty.* When an empty depot takes cards (Beleaguered Castle's columns),
every card is mobile and the test above seldom fires. A second test then applies to a position
in which nothing lies outside the columns and the sinks (no stock, waste or depot an effect
takes from) and no depot that takes cards is empty: it is lost when the fixed point above,
computed with *no* card mobile by way of an empty depot, leaves a card unsettled in every depot
that takes cards. Why that is sound: a winning line ends with those depots empty, so it has a
first position with one of them empty, and every move before it is made with none empty: the
argument above, applied to the moves before that position (a card that moves there goes onto a
top, never into an empty depot), settles every card that moves before it, among them every card
of the depot it empties.

*Only onto a top.* Where no depot gives up runs and nothing lies outside the columns and the
sinks, a third fixed point counts a card as able to go onto another only when that one is or can
become a top: a card is settled when it lies in a sink, or every card above it is settled and it
can go onto a settled card or onto the topmost unsettled card of some column (which is then a
top), or into a depot that takes it on an empty pile (:func:`.dominance.depot_takes`) and is empty
now or holds only settled cards, or every dominator of it has a settled copy. A position is lost
when that leaves a card unsettled (Baker's Dozen: no empty depot takes a card; Fan: the Kings, once
a column's cards are settled; Beleaguered Castle: every card, once a column's are, so there it
proves a board lost only when every column holds a card that cannot leave while none is empty).
Why that is sound: order the cards by when a winning line first moves them. When a card first
moves, it is its pile's top, so each card first above it has moved before (settled, by
induction); it goes to a sink after its dominators (settled), into an empty depot (every card
that depot held has moved before: settled), or onto a top: a card that moved before (settled),
or one that has not moved yet, and then every card first above it has moved (settled), so it is
its column's topmost unsettled card or above. A card never moves onto one below it in its own
pile, which it covers.

*A single cell.* Where exactly one depot takes cards on an empty pile and it takes none on a card
(Alina's cell: its columns stay empty once emptied), a *trapped* card, one that no depot takes on
a card of the game (Alina's Kings), leaves the cell only for a sink, and nothing else goes into
the cell meanwhile. So the trapped cards take turns there: the fixed point above lets only the
other cards into the cell, and, while the cell is free (empty, or its card settled), a trapped
card that is its column's topmost unsettled card settles by way of the cell when the fixed point
without the cell, from the settled cards and that card, settles every dominator of it; then the
fixed point goes on from there. Why that is sound: cut a winning line where a trapped card ``z``
enters the cell (at ``t``) and where it goes to a sink (at ``t'``). By induction over these
phases, every card that first moves before ``t`` is settled, so ``z``, a top at ``t``, is its
column's topmost unsettled card or settled; every card that first moves between ``t`` and ``t'``
goes onto a top or to a sink, so it is settled by the fixed point without the cell from the
settled cards and ``z``, and ``z``'s dominators reach the sinks before ``t'``. The settled cards
only grow, and a trapped card that may go into the cell from some settled cards may from more,
so the order in which the fixed point lets them in does not matter.

*Given back.* A sink whose top card may be dragged back off it (King Albert's foundations) keeps
the facts above true with two changes: a sink's pile, as it shrinks and grows again, is still a
path of the route graph, now from ``START`` or from any card in a sink when the search starts
(every one of them starts routes), and a card in a sink may come back onto a column, so it counts
as a card to go on (a target of the mobile cards, and a top in the test on tops).

The shape it needs, or :func:`card_flow` says why not (and the search goes without):
win ``allCardsIn`` depots that are locked or give up only their top card, take single cards, are no draw's and never
receive cards from an effect; no effect takes cards from a sink; no jokers; every effect
of a kind this module knows (an unknown one might move anything).
"""

from __future__ import annotations

import dataclasses
import functools
from typing import Any

from ..cards import FACE_UP, Card, identity, standard_deck
from ..engine.effects import Compact, Deal, Flip, MoveCards, MoveFromGroup, Redeal
from ..engine.rules import RuleError
from ..model import EjectKind
from .dead_cards import DeadCheck, dead_card_check
from .dominance import build_table, card_bits, depot_takes


def _effect_depots(game: Any) -> tuple[set[int], set[int]] | str:
    """(the depots effects may take cards from, the depots they may put cards on), or why not known."""
    taken: set[int] = set()
    given: set[int] = set()
    owned = [(t.depot, e) for t in game.triggers for e in t.effects]
    owned += [(a.depot, e) for a in game.actions for e in a.effects]
    for owner, effect in owned:
        if isinstance(effect, MoveCards):
            taken.add(owner if effect.source < 0 else effect.source)
            given.add(owner if effect.target < 0 else effect.target)
        elif isinstance(effect, MoveFromGroup):
            taken.update(effect.members)
            given.add(owner if effect.target < 0 else effect.target)
        elif isinstance(effect, Compact):
            taken.update(effect.members)
            given.update(effect.members)
            if effect.source is not None:  # without `from`, the members only slide together
                taken.add(owner if effect.source < 0 else effect.source)
        elif isinstance(effect, Deal):
            taken.add(owner if effect.source < 0 else effect.source)
            given.update(effect.targets)
        elif isinstance(effect, Redeal):
            taken.update(effect.members)
            given.update(effect.members)
            if effect.stock is not None:
                given.add(owner if effect.stock < 0 else effect.stock)
        elif not isinstance(effect, Flip):
            return f"an effect of a kind the relaxation does not know ({type(effect).__name__})"
    return taken, given


def _dominators(starts: int, edges: dict[Card, int], bit: dict[Card, int]) -> dict[Card, int]:
    """Per card, the mask of the cards on every path from ``START`` to it, itself left out
    (all bits when it has no path): the route graph has ``START -> c`` for ``c`` in ``starts``."""
    everything = (1 << len(bit)) - 1
    preds: dict[Card, list[Card]] = {card: [] for card in bit}
    for top, mask in edges.items():
        for card, b in bit.items():
            if mask & b and card != top:
                preds[card].append(top)
    dom = {card: everything for card in bit}
    changed = True
    while changed:
        changed = False
        for card, b in bit.items():
            meet = 0 if starts & b else everything
            for top in preds[card]:
                meet &= dom[top]
            new = meet | b
            if new != dom[card]:
                dom[card] = new
                changed = True
    return {card: everything if dom[card] == everything else dom[card] & ~bit[card] for card in bit}


@dataclasses.dataclass(frozen=True)
class CardFlow:
    """What :func:`card_flow` reads off one game (module doc)."""

    sinks: tuple[int, ...]
    sinks_give_back: bool
    """Whether a sink's top card may be dragged back off it (King Albert): module doc, "given back"."""
    free: frozenset[int]
    runs: tuple[bool, ...]
    """Per depot, whether it may give up more than its top card."""
    bit: dict[Card, int]
    on_empty_sink: int
    sink_edges: dict[Card, int]
    moves_onto: dict[Card, int]
    """``moves_onto[t]``: the cards a depot other than the sinks could take on top ``t``."""
    moves_onto_empty: int
    locked: frozenset[int]
    """The depots other than the sinks that give up no card by drag and none by effect."""
    takers: frozenset[int] = frozenset()
    """The depots other than the sinks and the free depots whose accept rule is not ``never``."""
    takes: tuple[tuple[int, int], ...] = ()
    """Per depot, the cards it could take on an empty pile and on a card (:func:`.dominance.depot_takes`)."""

    @functools.cached_property
    def accepted_on(self) -> dict[int, int]:
        """Per card bit, the cards that could take it on top in a depot other than the sinks (a card is mobile
        with no depot empty when one of those is outside the sinks)."""
        accepted: dict[int, int] = dict.fromkeys(self.bit.values(), 0)
        for top, mask in self.moves_onto.items():
            for b in accepted:
                if mask & b:
                    accepted[b] |= self.bit[top]
        return accepted

    def check_for(self, root: Any) -> DeadCheck:
        """The check for the positions reachable from ``root`` (its sink tops start routes)."""
        bit = self.bit
        starts = self.on_empty_sink
        give_back = self.sinks_give_back
        for sink in self.sinks:
            pile = root.piles[sink]
            for card in pile if give_back else pile[-1:]:
                starts |= bit[card & ~FACE_UP]
        everything = (1 << len(bit)) - 1
        required = {bit[card]: mask for card, mask in _dominators(starts, self.sink_edges, bit).items()}
        no_route = 0
        for b, mask in required.items():
            if mask == everything:
                no_route |= b
        sinks, free, runs, locked = self.sinks, self.free, self.runs, self.locked
        pending = tuple(d for d in range(len(root.piles)) if d not in free and d not in sinks)
        onto = tuple((bit[top], mask) for top, mask in self.moves_onto.items() if mask)
        empty_mask = self.moves_onto_empty
        # The tests run on nearly every position: their tables are lists indexed by the card as it lies
        # (either face), to look up only the cards they reach.
        bit_of = [0] * (2 * FACE_UP)
        for card, b in bit.items():
            bit_of[card] = bit_of[card | FACE_UP] = b

        def unsettled_piles(state: Any, empty: int, each_of: frozenset[int] = frozenset()) -> list[int] | None:
            """The depots holding a card not settled when an empty depot takes the cards ``empty``
            (module doc); None when a card has no route or a locked depot holds one. With ``each_of``
            (non-empty depots) the caller asks only whether each of them holds an unsettled card: the
            answer is [] as soon as one of them is all settled (settling more cards settles no fewer)."""
            piles = state.piles
            alive = 0  # identities with a copy known alive
            for d in sinks:
                for card in piles[d]:
                    alive |= bit_of[card]
            outside = 0
            for d in free:
                for card in piles[d]:
                    outside |= bit_of[card]
            alive |= outside
            unsettled: list[tuple[int, list[int], list[bool]]] = []
            carries: list[bool] = []
            for d in pending:
                pile = piles[d]
                if not pile:
                    continue
                if d in locked:
                    return None  # no drag and no effect ever takes these cards
                cards = [bit_of[card] for card in pile]
                for b in cards:
                    outside |= b
                unsettled.append((d, cards, [False] * len(cards)))
                carries.append(runs[d])
            if outside & no_route:
                return None
            mobile = empty
            targets = outside | (alive if give_back else 0)  # a card given back is a card to go on
            for top_bit, mask in onto:
                if targets & top_bit:
                    mobile |= mask
            for (_, cards, settled), gives_runs in zip(unsettled, carries, strict=True):
                if not gives_runs:
                    continue
                carried = False  # in a pile that gives up runs, a mobile card carries the cards above it
                for i, b in enumerate(cards):
                    carried = carried or bool(b & mobile)
                    if carried:
                        settled[i] = True
                        alive |= b
            unsettled = [entry for entry in unsettled if not all(entry[2])]
            if each_of and sum(d in each_of for d, _, _ in unsettled) < len(each_of):
                return []
            changed = True
            while changed and unsettled:
                changed = False
                for _, cards, settled in unsettled:
                    clear = True  # every card above this one is alive or mobile
                    for i in range(len(cards) - 1, -1, -1):
                        b = cards[i]
                        if not settled[i] and clear and (b & mobile or not required[b] & ~alive):
                            settled[i] = True
                            alive |= b
                            changed = True
                        clear = clear and (settled[i] or bool(b & mobile))
                        if not clear:
                            break
                unsettled = [entry for entry in unsettled if not all(entry[2])]
                if each_of and sum(d in each_of for d, _, _ in unsettled) < len(each_of):
                    return []
            return [d for d, _, _ in unsettled]

        takers = self.takers
        # Only when nothing but the columns holds cards: a stock or an effect might empty a depot.
        never_emptied = bool(empty_mask) and not free and bool(takers)
        # The test on tops (module doc, "only onto a top"): single cards only, nothing outside the columns.
        on_tops = not free and not any(runs[d] for d in pending)
        onto_of: dict[int, int] = {b: 0 for b in bit.values()}
        for top_bit, mask in onto:
            for b in onto_of:
                if mask & b:
                    onto_of[b] |= top_bit
        onto_of_card = [0] * (2 * FACE_UP)
        required_of_card = [0] * (2 * FACE_UP)
        for card, b in bit.items():
            for lying in (card, card | FACE_UP):
                onto_of_card[lying], required_of_card[lying] = onto_of[b], required[b]

        takes = self.takes
        opened_by = tuple((d, takes[d][0]) for d in pending if takes[d][0])
        # A single cell (module doc): the one depot that takes cards on an empty pile, taking none on a card; the
        # trapped cards, which go onto no card of the game (Alina's Kings), leave it only for a sink.
        cell = opened_by[0][0] if len(opened_by) == 1 and not takes[opened_by[0][0]][1] else None
        dealt = 0  # the cards of the game (a deal may remove some)
        for pile in root.piles:
            for card in pile:
                dealt |= bit_of[card]
        trapped = sum(b for b, onto in onto_of.items() if not onto & dealt) if cell is not None else 0

        def settle(columns: list[tuple[int, ...]], first_unsettled: list[int], depots: list[int], alive: int,
                   tops: int, opened: int) -> tuple[int, int, int]:
            """The fixed point of the test on tops from ``alive`` (the settled cards), ``tops`` and ``opened`` (the
            cards an empty depot takes now): (alive, tops, opened) then, ``first_unsettled`` updated in place. A
            depot all of whose cards settle takes the cards it takes on an empty pile (those ``trapped`` aside)."""
            changed = True
            while changed:
                changed = False
                for number, cards in enumerate(columns):
                    at = first_unsettled[number]
                    if at < 0:
                        continue
                    while at >= 0:
                        card = cards[at]
                        b = bit_of[card]
                        if not b & opened and not onto_of_card[card] & tops and required_of_card[card] & ~alive:
                            break
                        alive |= b
                        at -= 1
                        if at >= 0:
                            tops |= bit_of[cards[at]]
                        changed = True
                    first_unsettled[number] = at
                    if at < 0:
                        opened |= takes[depots[number]][0] & ~trapped
                        if opened == everything:  # every card goes there once the cards above it have gone
                            first_unsettled[:] = [-1] * len(first_unsettled)
                            return everything, everything, opened
            return alive, tops, opened

        def left_unsettled(state: Any) -> bool:
            """Whether a card can never leave its depot when every move goes onto a top, to a sink, or into a
            depot that takes it on an empty pile once every card that depot holds now has left; with a single
            cell, a trapped card goes there only where its dominators then settle with the cell taken (module doc,
            "only onto a top", "a single cell")."""
            piles = state.piles
            alive = 0
            for d in sinks:
                for card in piles[d]:
                    alive |= bit_of[card]
            opened = 0  # the cards an empty depot may take: one that is empty now, or all of whose cards settled
            for d, into_empty in opened_by:
                if not piles[d]:
                    opened |= into_empty & ~trapped
            if opened == everything:
                return False  # every card goes there once the cards above it have gone
            depots: list[int] = []
            columns: list[tuple[int, ...]] = []
            first_unsettled: list[int] = []  # per column, the index of its topmost unsettled card
            # Cards that are or can become a top: the settled ones, each column's first unsettled one,
            # and those in the sinks when a sink gives its top back.
            tops = alive if give_back else 0
            for d in pending:
                pile = piles[d]
                if pile:
                    depots.append(d)
                    columns.append(pile)
                    first_unsettled.append(len(pile) - 1)
                    tops |= bit_of[pile[-1]]
            if not columns:
                return False
            alive, tops, opened = settle(columns, first_unsettled, depots, alive, tops, opened)
            held = depots.index(cell) if cell is not None and piles[cell] else None  # the cell's column
            while cell is not None and (held is None or first_unsettled[held] < 0) and max(first_unsettled) >= 0:
                # The cell is free: a trapped card that is its column's topmost unsettled one may go there where its
                # dominators then settle with the cell taken.
                for number, cards in enumerate(columns):
                    at = first_unsettled[number]
                    if at < 0 or not bit_of[cards[at]] & trapped:
                        continue
                    tried = first_unsettled.copy()
                    tried[number] = at - 1
                    settled = alive | bit_of[cards[at]]
                    raised = tops | (bit_of[cards[at - 1]] if at else 0)
                    settled, raised, _ = settle(columns, tried, depots, settled, raised, 0)
                    if not required_of_card[cards[at]] & ~settled:
                        first_unsettled[:] = tried
                        alive, tops, opened = settle(columns, first_unsettled, depots, settled, raised, opened)
                        break
                else:
                    break
            return max(first_unsettled) >= 0

        def stuck_on_tops(state: Any) -> bool:
            """Whether the test on tops proves ``state`` lost (module doc, "only onto a top")."""
            return on_tops and left_unsettled(state)

        accepted_on = self.accepted_on if never_emptied else {}
        # A depot whose bottom card is mobile is all settled (a single card, or a run it carries).
        bottom_settles = tuple((d, runs[d]) for d in sorted(takers))

        trial = [0, 0]  # the boards with no depot empty this test was asked about, and how many it proved lost

        def no_depot_emptied(state: Any) -> bool:
            """Whether no depot that takes cards is empty or can be emptied (module doc, "before
            any depot is empty"); asked about :data:`EMPTY_TRIAL_CHECKS` such boards in vain, it stops looking."""
            piles = state.piles
            if not never_emptied or any(not piles[d] for d in takers):
                return False
            if trial[0] >= EMPTY_TRIAL_CHECKS and not trial[1]:
                return False
            trial[0] += 1
            if not any(piles[d] for d in locked):
                # Most positions have a depot that the fixed point settles at its first step: look for one first.
                outside = 0
                for d in pending:
                    for card in piles[d]:
                        outside |= bit_of[card]
                if not outside & no_route:
                    for d, gives_runs in bottom_settles:
                        pile = piles[d]
                        if (gives_runs or len(pile) == 1) and accepted_on[bit[pile[0] & ~FACE_UP]] & outside:
                            return False
            stuck = unsettled_piles(state, 0, takers)
            lost = stuck is None or all(d in stuck for d in takers)
            trial[1] += lost
            return lost

        # Where the test on tops applies it proves every board the test "before any depot is empty" does
        # (it settles no more cards: a card goes onto fewer places), so that one is not asked.
        beyond_tops = stuck_on_tops if on_tops else no_depot_emptied

        if empty_mask & everything == everything:
            # every card is mobile (an empty depot takes it): only the two first tests can fire
            def quick(state: Any) -> bool:
                piles = state.piles
                if any(piles[d] for d in locked):
                    return True
                if no_route:
                    for d in pending:
                        for card in piles[d]:
                            if bit_of[card] & no_route:
                                return True
                    for d in free:
                        for card in piles[d]:
                            if bit_of[card] & no_route:
                                return True
                return beyond_tops(state)

            return quick

        def dead(state: Any) -> bool:
            stuck = unsettled_piles(state, empty_mask)
            return stuck is None or bool(stuck) or beyond_tops(state)

        return dead


def effect_filled_sinks(game: Any) -> frozenset[int]:
    """The win depots of an ``allCardsIn`` win that a trigger's or action's effect puts cards on
    (Spider's completed runs), or every win depot when the effects are of a kind not known here."""
    if game.win_kind != "allCardsIn":
        return frozenset()
    effects = _effect_depots(game)
    if isinstance(effects, str):
        return frozenset(game.win_depots)
    return frozenset(game.win_depots) & frozenset(effects[1])


def card_flow(game: Any) -> CardFlow | str:
    """The relaxation of ``game``, or why its design is not of the shape it needs (module doc)."""
    design = game.design
    if design.jokers:
        return "it plays with jokers"
    if game.win_kind != "allCardsIn" or not game.win_depots:
        return "its win is not allCardsIn"
    sinks = tuple(sorted(game.win_depots))
    effects = _effect_depots(game)
    if isinstance(effects, str):
        return effects
    taken, given = effects
    draw_depots = {d for draw in game.draws for d in (draw.depot, draw.to)}
    for sink in sinks:
        rule = game.accept_rules[sink]
        if game.eject_kind[sink] not in (EjectKind.LOCKED, EjectKind.TOP_ONLY) or sink in taken or sink in draw_depots:
            return f"its win depot {game.names[sink]} gives cards back"
        if sink in given:
            return f"an effect puts cards on its win depot {game.names[sink]}"
        if not rule.never and not rule.single:
            return f"its win depot {game.names[sink]} takes runs"
    try:
        home = build_table(game, home=True)
        elsewhere = build_table(game)
    except (RuleError, ValueError) as exc:
        return f"a rule could not be analysed ({exc})"
    if home is None or elsewhere is None:
        return "a rule could not be evaluated on two cards"
    bit = card_bits()
    cards = tuple(identity(c) for c in standard_deck())
    free = frozenset(taken | draw_depots)
    runs = tuple(kind not in (EjectKind.TOP_ONLY, EjectKind.LOCKED) for kind in game.eject_kind)
    locked = frozenset(
        d for d in range(len(game.names))
        if d not in free and d not in sinks and game.eject_kind[d] is EjectKind.LOCKED
    )
    return CardFlow(
        sinks=sinks,
        sinks_give_back=any(game.eject_kind[sink] is not EjectKind.LOCKED for sink in sinks),
        free=free,
        runs=runs,
        bit=bit,
        on_empty_sink=home.get(-1, 0),
        sink_edges={card: home.get(card, 0) for card in cards},
        moves_onto={card: elsewhere.get(card, 0) for card in cards},
        moves_onto_empty=elsewhere.get(-1, 0),
        locked=locked,
        takers=frozenset(
            d for d in range(len(game.names))
            if d not in free and d not in sinks and not game.accept_rules[d].never
        ),
        takes=depot_takes(game),
    )


_FLOWS: dict[int, tuple[Any, CardFlow | str]] = {}


def dead_check(root: Any, relaxation: bool = True) -> DeadCheck | None:
    """The proof-of-loss test for the positions reachable from ``root``: the sink games' own
    (:mod:`.dead_cards`) and, with ``relaxation``, this module's (when the design has its shape)."""
    game = root.game
    sink_test = dead_card_check(game)
    if not relaxation:
        return sink_test
    entry = _FLOWS.get(id(game))
    if entry is None or entry[0] is not game:
        if len(_FLOWS) >= 8:
            _FLOWS.pop(next(iter(_FLOWS)))
        entry = _FLOWS[id(game)] = (game, card_flow(game))
    flow = entry[1]
    if isinstance(flow, str):
        return sink_test
    relaxed = _WhileItPays(flow.check_for(root))
    if sink_test is None:
        return relaxed
    return lambda state: sink_test(state) or relaxed(state)


EMPTY_TRIAL_CHECKS = 100
"""How many boards with no depot empty the test "before any depot is empty" (module doc) is asked about in one
search without proving one lost before it stops looking (less pruning, never a wrong answer). It proves no loss on
the shipped designs it applies to (``bench/bench_relaxation.py``: the same positions with it and without), where,
asked about every such board of the first :data:`TRIAL_CHECKS` positions, it cost 4% to 28% more CPU at 20,000
positions a deal."""

TRIAL_CHECKS = 500
"""How many positions the relaxation checks before a search that it never pruned stops asking it."""


class _WhileItPays:
    """The check, until it has checked :data:`TRIAL_CHECKS` positions without calling one lost;
    from then on it answers "not proved lost" without looking (less pruning, never a wrong answer):
    on Baker's Dozen, whose Kings lie at the bottom, it never fires, and it cost 40% more CPU at a
    fixed number of positions; with the trial, 6%)."""

    def __init__(self, check: DeadCheck) -> None:
        self.check: DeadCheck | None = check
        self.checked = 0
        self.fired = 0

    def __call__(self, state: Any) -> bool:
        check = self.check
        if check is None:
            return False
        dead = check(state)
        self.checked += 1
        self.fired += dead
        if self.checked >= TRIAL_CHECKS and not self.fired:
            self.check = None
        return dead
