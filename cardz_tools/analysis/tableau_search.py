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
``tap_cover``
    with ``stock``, a position that taps from a stored one reach, everything but the stock and
    waste the same, is not stored (:class:`.stock_moves.TapCover`). A complete search stays
    complete: let ``m(p)`` be the fewest moves other than taps in a winning line from ``p``; the
    positions taps lead to from ``p`` have ``m`` no smaller. Once a search has expanded every
    position it stored without a win, take a stored one with a winning line and the least ``m``: the
    first move of its line, with the taps before it, leads to one of its children, which is stored
    or covered by a stored position, with ``m`` one less: a contradiction;
``splits``
    a drag that only carries a run from one card of its column to another column (a *split*) is
    searched only together with a move right after it that uses the column it left: puts cards on it,
    or takes cards from it to the split's target or out of the columns (:mod:`.split_moves`, which
    has the argument: any winning line can be reordered so that each split comes right before its use);
``home_splits``
    where the splits apply (the Klondike family), one more depth-first member with every piece whose splits are
    searched only together with a use that takes cards from the column they leave out of the columns (Solvitaire's
    Klondike rule: part of a run moves only when the card it uncovers goes to a foundation;
    :data:`HOME_SPLITS_WEIGHTS`). Incomplete: its wins are wins, its "lost" is never reported;
``idle``
    a move of the only card of an idle depot (one that takes no card while empty: King Albert's reserve, Flower
    Garden's bouquet, Duchess' reserve, Alina's columns) onto a depot other than the win depots is searched only
    where the position after it has a move that puts a card onto its target (a stock move's waste card included),
    or that carries the card on with cards under it or where it could not go straight, in a design whose rules
    read only their move's piles and cards (:mod:`.idle_moves`, which has the argument); where it meets the stock
    moves, the restarts leave the stock's plays out and are incomplete (:data:`EAGER_IDLE`);
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
    most :data:`QUICK_POSITIONS`; one share, two without stock moves: :data:`QUICK_WEIGHTS`; none with
    two decks and one pass through the stock: :func:`best_first_pass`),
    the depth-first search with these pieces (two shares, eight in Klondike draw three: :data:`SEARCH_WEIGHTS`; three
    with two decks and one pass: :data:`ONE_PASS_TWINS_WEIGHT`; one, and one more for the same search in the order
    without the filled groups where a ``when`` win fills groups: :data:`UNFILLED_WEIGHT`; four more for one that takes
    its first tie the other way where Canfield's columns are kept full: :data:`FLIPPED_TIE_WEIGHT`), and
    the depth-first search with ``ordering`` and ``stock`` off (one share, two where its positions are
    cheap: :data:`PLAIN_WEIGHTS`; on some deals the
    plain order finds a win in hundreds of positions where the others wander). A turn is
    :data:`TURN` new positions per share. The first to decide
    decides; only a complete search answers "lost": a depth-first one, or the best-first pass
    when it runs out of positions to expand. Where the waste is never turned back (one pass
    through the stock), the member that has got :data:`LEAD_MARGIN` cards home more than every
    other takes :data:`LEAD_WEIGHT` times its share (Rank and File's deals are won by the depth-first
    member alone, in a quarter of the positions its fixed share would need).
``restarts``
    on a design whose win depots are filled by a trigger or an action (Spider's completed runs: no
    safe move applies, so no forced chains shorten its lines of hundreds of moves), or whose waste
    is never turned back (:func:`.dominance.fixed_wastes`: the Forty Thieves family, where a deal is
    won in a few thousand positions or, after a wrong early turn, not in a hundred thousand), or
    whose emptied depots a trigger refills (:func:`.dominance.refilled_depots`: the Canfield family,
    whose columns take the reserve's top card, a step no move undoes; its safe moves apply only to
    cards played up from the columns), or whose stock the tap cover serves with two or more decks
    (:data:`COVERED_TWINS_RESTART_WEIGHT`: Ultra Klondike, whose slow deals the restarts win), or where no move
    can be undone (:func:`one_way`: Château de cartes, where then a beam over every move joins too,
    :data:`ONE_WAY_BEAM_WEIGHT`), the portfolio has a fourth member: depth-first searches started
    afresh with the order of the children jittered (:meth:`Progress.jitter`), the ``n``-th given
    :data:`RESTART_UNIT` × the ``n``-th term of the Luby sequence positions. Depth-first search
    times are heavy-tailed there: on 16 deals of Spider (one suit), seed 101, 30,000 positions each,
    one search won 10, restarts of 5,000 jittered positions 15. On an open board
    (:func:`open_board`: FreeCell, Beleaguered Castle) the member joins once a share of the budget
    is spent (:data:`LATE_SHARE`), taking its turns from the depth-first searches, not from the
    best-first pass (:data:`LATE_WEIGHTS`); with it joins a second best-first pass that scores a card
    lying above one a win depot takes now :data:`LATE_PASS_BURIED` times as heavily (:data:`LATE_PASS_WEIGHT`):
    the two passes' times are heavy-tailed on different deals. Restarts do not change what is a proof: the
    order of the children does not make a depth-first search less complete, so a restart that ends uncut
    answers "lost" soundly.
``runs``
    on a design with the ``restarts`` member whose columns build runs that do not all move
    together (the multi-suit Spider family), three more members: restarts of the depth-first search
    and of the best-first pass (:data:`RUNS_BEST_FIRST_UNIT` × ``luby(n)`` positions), and the best-first
    restarts again with face-down cards weighted :data:`RUNS_HIDDEN_WEIGHT` (:data:`RUNS_WEIGHTS`), over a
    narrowed move set that drops the drags which only split a suited run or move a run from one
    build onto another (:mod:`.run_moves`). They are incomplete: their wins are wins (replayed like
    every other), their "lost" is never reported. But a "lost" from one of them (a search of theirs
    that ended uncut) says that no line of the narrowed set from the deal wins, so the portfolio drops
    every narrowed member then (the ``beams`` too): they search within that set and can only fail.
    Not where a trigger refills emptied depots (the Canfield family, whose restarts come from the
    refills, not from sinks an effect fills): there they and the ``beams`` took 104 of 113 shares from
    the complete members (:data:`RUNS_WEIGHTS`). There, with the tap cover and the safe moves, one
    depth-first search over the narrowed set joins instead (:data:`REFILL_NARROWED_WEIGHT`: Canfield with
    runs, whose columns move any run; a "lost" of it drops it).
``beams``
    with ``runs``, unless every card is dealt face up and nothing is drawn (:func:`open_board`), two
    more narrowed members: beam searches (:mod:`.beam_search`), the ``n``-th :data:`BEAM_UNIT` ×
    ``luby(n)`` positions wide, their scores jittered, the second scoring face-down cards
    as the third ``runs`` member does (:data:`BEAM_WEIGHTS`); the portfolio then takes turns of
    :data:`RUNS_TURN`. A beam deals the stock only once its kept positions have no better child left;
    the best-first passes never get past the first deal, the depth-first searches deal it all at
    once. Incomplete too. With two or more decks the three ``runs`` members are left out and their turns go
    to the beams (:data:`TWIN_BEAMS`: Spider, where the beams win what they win sooner). In a design of two or
    more decks whose waste is never turned back (no best-first pass there: :func:`best_first_pass`), one beam over
    every move (no narrowed set) joins the complete members (:data:`ONE_PASS_BEAM_WEIGHT`); incomplete too.
``shared_losses``
    the portfolio's complete searches that key positions alike share one set of positions proved lost, where two of
    them prove losses (:func:`shares_losses`): without stock moves all of them; with stock moves the two depth-first
    members of the designs whose columns the safe moves keep full, and the best-first pass beside them (the
    plain-order member keys the stock otherwise, and the restarts keep their own draw). Each depth-first search (the
    restarts too, and a restart stopped by its budget) adds a position once it and everything it depends on are
    searched without a win (:mod:`.loss_proofs`: Tarjan's components, so a position that leads back to one still on
    the stack waits for it), and every sharing member skips a position in the set as if stored (a sharing restart's
    jitter is then keyed by the position, :func:`keyed_noise`, so that the set reorders nothing). Every pruning
    piece is sound alone, so a position proved lost by one search is lost for the others. With the tap cover
    (``tap_cover``) a child it skips depends on the stored position whose taps lead to it (every line of the child is
    a line of that one, after the taps), and the set also holds what the taps of a proved position lead to
    (:class:`.stock_moves.CoveredLosses`). The three complete members of an open board otherwise prove the same loss
    separately (FreeCell with three cells, seed 0, deal 17: the best-first pass runs out of its 17,686 positions after
    44,698 stored by all four members; with the set, 30,928), as the two depth-first members of Canfield whose
    columns are kept full did (Canfield (spaces from the waste), seed 0, deal 2, proved lost at 81,583 positions
    instead of past 100,000).

Never moving a card straight back where it came from needs no rule of its own: the
position it would lead to is the parent, which is always in the transposition table.

Every win is replayed through the engine from the deal before it is reported.
"""

from __future__ import annotations

import collections
import dataclasses
import heapq
import itertools
import operator
import random
import time
from collections.abc import Callable, Generator, Hashable, Iterator
from typing import Any, TypeVar

from ..cards import FACE_UP
from ..engine.moves import Drag
from ..expr import ast as expr_ast
from ..expr import parse
from ..model import EjectKind
from .beam_search import beam
from .child_keys import ChildKeys, child_keys
from .dominance import SafeMoves, bottom_cards, build_table, card_bits, fixed_wastes, probe_table, refilled_depots
from .idle_moves import IdleMoves, idle_moves
from .joints import joint_table
from .loss_proofs import LossProofs
from .relaxation import card_flow, dead_check, effect_filled_sinks
from .run_moves import RunMoves, run_moves
from .split_moves import SplitMoves, split_moves
from .stock_moves import CoveredLosses, StockMoves, TapCover, stock_moves
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

PILE_TERMS_KEPT = 25_000
"""The most piles whose :meth:`Progress.heuristic` terms are kept per sink tops (then they are forgotten at once)."""

WANTED_KEPT = 8
"""The most sets of sink tops for which :meth:`Progress.heuristic` keeps pile terms (then all are forgotten)."""

QUICK_WEIGHTS = (2, 1)
"""The best-first pass's share of the turns without stock moves and with them. Positions to decide
the deals of seed 101 with two shares against one: FreeCell (20 deals) 47k against 65k, Baker's Game
(20) 44k against 48k; Klondike's 7 decided deals of 10, 22k against 17k (its wins are mostly found by
the depth-first search, which also proves the losses)."""

RESTART_UNIT = 2_500
"""The positions of the shortest restart of the ``restarts`` member (module doc)."""

RESTART_WEIGHT = 4
"""The ``restarts`` member's share of the turns."""

LATE_SHARE = 0.1
"""On a design where every card is dealt face up and nothing is drawn (FreeCell, Beleaguered Castle,
Streets and Alleys, Fan), the share of the deal's budget after which a deal still undecided gets the
``restarts`` member too (module doc): of its positions, or of its seconds when it has a deadline,
whichever is spent first. Most deals are decided before, at the cost they had without it; a share
rather than a fixed count of positions, so that a short budget is not split with restarts too short
to win anything (:func:`_late_join`)."""

LATE_WEIGHTS = (4, 1, 5)
"""The shares of the turns of the best-first pass, of each depth-first search and of the restarts once the late
restarts have joined (:data:`LATE_SHARE`): the pass keeps most of its share (4 of 11 against 2 of 5) and the
restarts take theirs from the depth-first searches. The pass decides most deals of Baker's Game, its losses too (it
runs out of positions where the depth-first searches do), and restarts taking 4 of 9 of the turns from it cost the
deals a 2 s deal decides just in time. Replayed from each member's decision points (``bench/bench_late_restarts.py
--late``, seed 0, the restarts joining after 5,000 positions, as they do on a 2 s deal), deals decided with these
shares against the weights as they were (2, 2 and 1, then 4 for the restarts): Baker's Game 80 of 80 against 74 at
20,000 positions (about 2 s); Beleaguered Castle 16 of 20 against 14 at 28,000; Streets and Alleys 18 against 17 at
34,000; King Albert 13 against 11 at 20,000; and FreeCell 20 against 19 at 110,000 (about 10 s; the restarts
joining after 10,000), whose deal 17 the restarts alone win in 44,272 positions."""

LATE_PASS_WEIGHT = 4
"""The share of the turns of the second best-first pass that joins an open board's portfolio with the late restarts
(:data:`LATE_SHARE`): a pass that scores a card lying above one a win depot takes now :data:`LATE_PASS_BURIED`
times as :attr:`Progress.WEIGHTS` does (module doc, ``restarts``)."""

LATE_PASS_BURIED = 2
"""The factor on the buried-card term of the late second pass (:data:`LATE_PASS_WEIGHT`)."""

RUNS_WEIGHTS = (8, 16, 16)
"""The shares of the turns of the three ``runs`` members: the depth-first restarts, the best-first restarts, and the
best-first restarts that score a face-down card as :data:`RUNS_HIDDEN_WEIGHT` (module doc). Spiderette, each member
alone (seed 0 to 150,000 positions, seed 101 to 100,000): the complete members win nothing (seed 0, deals 0-3), the
depth-first restarts 6 and 4 deals of 10, the best-first restarts 6 and 6, with the hidden weight 8 and 5. The
portfolio replayed from those figures (:data:`TURN` × weight), seed 0: 9 deals won from 60,000 positions on (every
win within 48k), against 8 at 100,000 and 180,000 with the first two members (8 and 16 shares) and 7 at 100,000 with
8 shares each; seed 101: 4 won at 100,000 and 6 at 180,000 (5 and 6 with the first two). None of these members
(nor the ``beams``) where a trigger refills emptied depots (the Canfield family): Canfield (strict), seed 0, 25,000
positions a deal (about its 1.5 s), decides 7 of 10 without them against 2 with them."""

RUNS_HIDDEN_WEIGHT = -3
"""The weight of a face-down card (:attr:`Progress.WEIGHTS`: -2; the stock's cards count too) in the third ``runs``
member's score: uncovering a card, or dealing one, is worth more than one loose card less. Spiderette, the
best-first restarts alone, seed 0: 8 of 10 won at 100,000 positions (each within 16k; deal 8 only with -3) against 6
with -2 at 150,000 (deal 7 only with -2) and 6 with -4; seed 101, 100,000 positions: 5 won against 6 with -2 (deal 5
in 1,225 positions against 55,020; deal 4 only with -2) and 2 with -4."""

RUNS_TURN = TURN // 4
"""The new positions of each turn (× its weight) of a portfolio with the ``beams`` members: the shares sum to
113, so with :data:`TURN` a round took 113,000 positions, the beams' first turn came after 49,000, and a deal one
member wins in ``n`` positions alone took up to a round more than ``n`` × (the total weight / its weight)."""

BEAM_UNIT = 32
"""The width of the narrowest beam of the ``beams`` members (module doc): the ``n``-th is ``luby(n)`` times as
wide. Each beam member alone to 100,000 positions, face-down cards at -2, 32 wide against 16: Spider seed 0 won 6
of 10 deals against 2 of the first 6; Spiderette seed 0 8 of 10 against 7, seed 101 the same 6 (deal 0 in 33.5k
positions against 68.5k)."""

BEAM_WEIGHTS = (32, 32)
"""The shares of the turns of the two ``beams`` members: face-down cards scored as :attr:`Progress.WEIGHTS` does,
and as :data:`RUNS_HIDDEN_WEIGHT` (module doc). Spider (four suits), seed 0, each alone 32 wide to 100,000
positions: the first won deals 1, 2, 4, 5, 6 and 7, the second all but 0 and 2 (deals 5 and 6 in 56k and 43k positions,
against 29k and 60k). With 16 and 48 shares the second alone would win at 170,000 positions what it wins within
72,000 (8 deals, against 7 with 32 and 32), but the first's Spiderette wins (seed 101: 6 of 10, deals 0 and 8 in 68k
and 17k positions alone) would take 7 times their positions; the second was not measured there."""

TWIN_BEAMS = True
"""Whether, in a design of two or more decks whose portfolio has the ``beams``, the three ``runs`` members are left
out (their turns go to the beams). Spider (four suits), seed 0, each member alone (``bench/bench_member_shares.py``,
the beams to 180,000 positions, the ``runs`` members to 30,000 and 60,000): every deal any member wins, a beam wins
too, and the ``runs`` members' three (deals 3, 7, 9 by the third, in 46,329, 12,646 and 53,623) the second beam wins
in 16,066, 16,462 and 59,010; the portfolio's turns replayed over those trajectories at 180,000 positions a deal
(about what the results run's 10 s store) decide 9 deals without them (the last at 151,700) against 7 with them
(deals 0, 2 and 9 open: 2 and 9 need 238k and 208k). Of the shipped designs with the beams only Spider has two decks
(Spiderette and Will o' the Wisp one; Mrs Mop, two decks, is an open board: no beams)."""

ONE_PASS_BEAM_WEIGHT = 6
"""The share of the beam search over every move (:meth:`_Search.beams`, :data:`BEAM_UNIT` × ``luby(n)`` wide) in a
design of two or more decks whose waste is never turned back (module doc, ``beams``; the Forty Thieves family,
American Toad, Gargantua). Alone, seed 0, it wins Forty Thieves' deals 2, 3, 4, 6 and 7 within 100,000 positions
(22,961 to 95,741; before, no member won any but 1 and 7), Maria's 2 and 7, Streets' 0 and 5 (98,801 and 134,648).
In the portfolio at 140,000 positions a deal (about a 10 s deal of the results run): Forty Thieves 4 decided
against 2 (deals 2 and 3 at 80k and 119k), Streets the same 6; 4 shares of 12 slow the depth-first member's wins
(Rank and File deal 3 at 80,868 against 56,738; Limited deal 6, the restarts', at 102,214 against 82,170); 8
shares decide Forty Thieves 5 and 16 shares 6, but put Rank and File's deal 3 at 105k and keep it open at 90,000
(docs/analysis.md). Session 14, with a card home at 20 in the beam (:data:`ONE_PASS_BEAM_HOMES`), 150,000
positions a deal, 6 shares against 4: Streets 7 decided against 6 (deal 5 at 144,632), Forty Thieves 6 either way;
Rank and File 9 either way (deal 3 at 108,831), Limited 10 at 120,000 (deal 6 at 82,237), Lucas, Limited and Rank
and File at 60,000 the same verdicts (Rank and File's deal 4 at 59,377 against 53,348)."""

ONE_PASS_BEAM_HOMES: tuple[int, ...] = (20,)
"""The weights of a card home (instead of :attr:`Progress.WEIGHTS`' 10) the one-pass beam's tries take in turn
(:meth:`_Search.beams`). Alone, seed 0, 150,000 positions a deal, 20: Forty Thieves deals 0, 2, 3, 4, 6, 7 and 9
won (at 10, sessions 10 and 11: the same but 9, which no member won), Streets 0 and 5 in 52k and 58k (at 10: 99k
and 135k), Maria 6 (no member before; but 2 and 7 no more); 30 loses most of those. In the portfolio at
150,000 (4 beam shares): Forty Thieves 6 decided against 5, Streets 6 and Maria 2 either way. Taking turns
between 10 and 20 halves each and decided no more (docs/analysis.md, session 14)."""

RUNS_BEST_FIRST_UNIT = 5_000
"""The positions of the shortest best-first pass of the ``runs`` members (module doc)."""

SEARCH_WEIGHTS = (2, 8)
"""The share of the turns of the depth-first member with every piece: two, and eight where the tap cover applies
(:attr:`Plan.tap_cover`: one stock that redeals without limit, drawing more than one card) in a design of one deck
without triggers (of the shipped games only Klondike draw three). There that member decides what the others do not,
late: Klondike draw three, seed 0, each member alone, deals 0 and 6 are won by it in 191,216 and 260,065 positions
and deal 3 is proved lost in 154,648, while the best-first pass wins deal 5 in 19,827 and the plain order deal 2 in
5,904. The portfolio's turns replayed over those trajectories (the members share nothing with stock moves): with
five shares (session 7) deal 0 is won at 268,276 positions, just past what the row's 30 s store in the results
run, and deal 3 proved at 215,717; with eight, at 238k and 193k, while deal 5 moves from 133k to 190k (the last
deal decided is 238k instead of 268k); with ten, deal 5 at 228k. Seed 101, deals 0 to 9: the same deals decided.
With two decks (Klondike with nine columns, 20,000 positions a deal, seed 0) five shares cost a deal the other
members won: 9 decided instead of 10."""

ONE_PASS_TWINS_WEIGHT = 3
"""The share of the depth-first member with every piece in a design of two or more decks whose waste is never
turned back (no best-first pass there: :func:`best_first_pass`), instead of :data:`SEARCH_WEIGHTS`' two. Each
member alone (seed 0, the results rows' deals, 60,000 positions), Rank and File: the depth-first member wins 9 of
10 within 26,483 positions, the plain order 4 (20,568 to 51,153), the restarts 1; so with two of seven shares
deal 3 took 95,873 positions in the portfolio, above the 90,000 or so a 10 s deal gets in the results run (and
the lead share comes late there: the restarts have as many cards home or more for the first 40,000 positions).
Replaying the portfolio's turns over those trajectories (the members share nothing with stock moves) at 90,000
positions a deal, two, three, four and five shares decide 8, 9, 9 and 9 of Rank and File's deals (deal 3 at 56,483 with
three); Streets 5 each (its deals 1 and 4 are the restarts'); Lucas 10 each; Limited 10, 10, 9 and 9 (deal 6,
the restarts' win, at 64,141, 82,141 and past 90,000): so three."""

COVERED_TWINS_RESTART_WEIGHT = 8
"""The share of the ``restarts`` member where the tap cover applies in a design of two or more decks (Ultra
Klondike, Klondike with nine columns: a stock drawing three, redealt without limit), beside the best-first pass's
one, the depth-first member's two and the plain order's one. Ultra Klondike, seed 0, each member alone to 100,000
positions: deals 5 and 9 are open for the depth-first member, the plain order and the best-first pass, and the
restarts win them in 68,688 and 8,109 (and every other deal but 3 within 53,743). The portfolio at 150,000
positions a deal (what the row's 10 s stand for): 9 of 10 decided (deal 5 at 104,843, deal 9 at 16,135) against 8
without the member, 9 with 4 shares but deal 5 at 140,992; deal 3, which the others won at 139,855, is open. Seed
101, 150,000 positions: 7 won against 5 without and 6 with 4 shares (at 60,000 positions 3 against 5: the others'
late wins come later). Klondike with nine columns, seed 0, 60,000 positions: 10 won either way (59,781 positions
in all before, 95,106 now)."""

COVERED_REFILL_WEIGHTS = (4, 2)
"""The shares of the depth-first member with every piece and of the restarts where the tap cover applies and a
trigger refills emptied depots (Canfield draw three, redealt without limit), instead of 2 and 4; there the plain
order takes its turn before the depth-first member (the narrowed ``runs`` members, for the Spiders, are left out
of every design whose emptied depots a trigger refills: :data:`RUNS_WEIGHTS`). With the tap cover the depth-first
member alone proves Canfield with runs' seed-0 deal 2 lost in 58,233 positions; the portfolio did not within
185,000 (what a 30 s deal stores), with 2 of 49 shares; now it does at 131,288, and deals 0, 3, 4, 5, 7, 8, 9 stay
won (70,489 positions at most)."""

KEPT_FULL_DEEP_WEIGHT = 8
"""The share of the depth-first member with every piece instead of :data:`COVERED_REFILL_WEIGHTS`' four where the
safe moves keep a group of depots full (:attr:`.dominance.SafeSinkMoves.kept_full`: the Canfield variants whose
columns take only the waste's card while one is empty). There no narrowed member joins (:func:`refill_narrowed`)
and the deals the others leave open are losses, which only the depth-first member proves, or wins deep in its
tree: seed 0, Canfield (strict) deal 2 proven lost at 84k positions instead of 114k, Canfield (spaces from the
waste) deal 2 at 96k instead of 131k; at 150,000 positions a deal 9 of 10 strict deals decided against 8, 8 of 10
with spaces against 7, the same wins. Deal 6 of both, open, is a win the depth-first member alone finds at
951,811 positions (tests/test_canfield_open_deals.py)."""

FILLED_WEIGHT = 5
"""The score (:meth:`Progress.heuristic`, on top of a card home's 10 each) of a depot of a ``when`` win's filled
groups that holds the cards the win asks of it (:func:`filled_counts`: a finished triangle or floor of Château de
cartes): a line that finishes what it began before it begins more. Château de cartes, seed 0, the one-way beam
alone (:data:`ONE_WAY_BEAM_WEIGHT`, 32 wide): deal 9 won at 94,849 positions without, 25,679 / 30,145 / 30,086 /
30,176 with 3 / 5 / 10 / 20; deal 0 at 200,150 without, 30,096 with 5 or 10; deals 1 to 8 with 5 at 26,868 to
57,686. The portfolio (8 beam shares then), 150,000 positions a deal: 8 of 10 won without (0 and 9 open), 9 with 3
(6 open), 10 with 5 or 10 (deal 9 at 57,542 both). Seed 101: 10 of 10 (8 or 32 beam shares) against 9 before
(deal 5 open)."""

FLIPPED_TIE_WEIGHT = 4
"""The share of a second depth-first member with every piece that searches the second child first at the first
position whose two best children tie (:attr:`_Search.flip_tie`), beside the depth-first member where that one has
:data:`KEPT_FULL_DEEP_WEIGHT` (Canfield draw three whose columns are kept full). The nearer the root an arbitrary
choice, the larger the subtree a wrong one costs: Canfield (spaces from the waste), seed 0, deal 1 is a win the
depth-first member alone finds in 481,609 positions, 480,842 of them under the first of two children of equal score
(2♥ onto 3♣ or 4♠ onto 5♦, its first tie); this member alone wins it in 16,239 and deal 0 in 6,277 (open at
100,000 for the other). Flipping the second or third tie instead: deal 1 open at 150,000. The portfolio, seed 0, 10
deals at 150,000 positions: 9 decided against 8 (deal 0 won at 30,288 instead of 91,000, deal 1 at 79,255, deal 2
lost at 122,264 instead of 96,262). Canfield and Canfield with runs are left out: with the member, at 60,000
positions, runs loses deal 5 (57,259 before), Canfield decides the same 8."""

UNFILLED_WEIGHT = 1
"""The share of a second depth-first member with every piece whose order does not count the groups a ``when`` win
fills as cards home (:func:`fills_groups`: Château de cartes' house), taken from the depth-first member's two
shares (one each). The filled-groups order (session 11) won deals the old order did not and lost deal 8, which the
old order won at 13,741 positions. Château de cartes, seed 0, 10 deals at 150,000 positions a deal: 6 won against
5 (deal 8 at 28,750; deal 7 at 149,604 against 149,584; the other wins, 1, 2, 3 and 5, within 2,732 both ways)."""

ONE_WAY_RESTARTS = True
"""Whether a design where no move can be undone (:func:`one_way`) gets the ``restarts`` member. Château de cartes,
seed 0, 10 deals at 150,000 positions a deal, with the :data:`UNFILLED_WEIGHT` member: 6 won either way, deal 4
won at 8,112 and deal 8 at 15,615 (28,750 without), deal 7 open (149,604 without, at the budget's edge); with
the :data:`ONE_WAY_BEAM_WEIGHT` beam as well, 8 (docs/analysis.md)."""

ONE_WAY_BEAM_WEIGHT = 32
"""The share of a beam search over every move (:meth:`_Search.beams`, :data:`BEAM_UNIT` × ``luby(n)`` wide, jittered)
in a design where no move can be undone (:func:`one_way`) and the waste is turned back or there is none (not where
the plan has the lead share: the Weathervanes, seed 0, 20 deals at 60,000 positions, decide the same deals with it
but more slowly, six hidden deal 11 at 39,743 against 23,743). Incomplete: its wins are wins, its "lost" is never
reported. Château de cartes, seed 0, 150,000 positions a deal, with the :data:`UNFILLED_WEIGHT` member and the
restarts: deals 6 and 7 (open without it) won at 47,073 and 48,090 (with 4 shares: 74,099 and 75,104), deals 4
and 8 at 8,112 and 23,617 (15,615 with 4); deal 9 is won by it with 40 shares at 121,883, deal 0 not within
150,000 (session 14, 8 shares). Session 15, with :data:`FILLED_WEIGHT` (which the beam alone wins every deal of the
row with, 25,000 to 58,000 positions of its own): 10 of 10 won with 8, 16 or 32 shares; the five deals the beam
wins at 57,542 to 64,276 positions at most with 8, 48,163 with 16, 39,151 with 32 (kept; of 41: the other members'
wins, 1,786 to 8,331, came at the same counts); seed 101, 10 of 10 with 8 and 32, at most 60,259 and 38,266.
Golf and Black Hole have this member too, but their rows are searched by :mod:`.sink_search`."""

PLAIN_WEIGHTS = (1, 2)
"""The share of the turns of the depth-first member in the plain order without stock moves (module doc,
``quick``): one, and two in a design with stock moves whose emptied depots a trigger refills (the Canfield
family, :func:`.dominance.refilled_depots`). There its positions cost a third of the CPU of the other
members' (no plays after each tap are followed: 15k positions a CPU-second against 5k to 6k), and it wins
deals the others wander on: Canfield, seed 0, 30,000 positions a deal, 8 decided against 7 (deal 0 won
at 22,759, deal 1 at 17,496); deal 6, which it alone wins in 35,914, is won at 157,957 instead of not
within 200,000; seed 101, the same 9."""

LEAD_WEIGHT = 4
"""In a design whose waste is never turned back (:func:`.dominance.fixed_wastes`: one pass through the
stock), the factor on the share of the portfolio member that has got more cards into the win depots than
every other (:func:`_share`; module doc, ``quick``)."""

LEAD_MARGIN = 4
"""How many cards home more than every other member make a member ahead (:data:`LEAD_WEIGHT`): on
Weathervane (six hidden), seed 0, deal 5, the restarts ahead by one card took a turn of 16,000
positions, and the deal was not won within 25,000 (it was in 19,166 without)."""

UNSEARCHED = -(1 << 30)
"""The :attr:`_Search.home` of a search that has expanded nothing yet."""

STALL_UNIT = 10_000
"""In a design whose waste is never turned back, the shares of the members that do not follow one line (the
``restarts``, and the one-pass beam, :data:`ONE_PASS_BEAM_WEIGHT`, with two decks or more, the best-first pass with
one) grow by themselves once for every this many positions the portfolio has stored since its complete members last
got a card further home (the most of any of them: :class:`_Stall`), up to :data:`STALL_MOST` times: a depth-first
line stuck under a stock played badly early gets no card further home however long it searches, while a fresh
start, or a pass that keeps every point of the stock, can play the stock otherwise. Seed 0, the rows' 10 s figures
in positions (docs/analysis.md, ``bench/bench_stall.py``): Forty Thieves 5 of 10 against 4 (deal 6), Limited's
slowest win (deal 6, the restarts') at 72k instead of 102k, Rank and File, Streets and Lucas the same deals. With one
deck (session 19), 120,000 positions a deal: Duchess 10 of 20 against 7 (seed 0; ``bench/bench_stall.py --games
duchess --deals 20``, about the same CPU) and 13 against 11 (seed 101); Chameleon 2 and 2 either way; Fortune's
Favor, Thirty-Six and both Weathervanes (60,000) the same deals, seeds 0 and 101."""

STALL_MOST = 8
"""The most times their own share the stalling members (:attr:`_Member.stalls`) take while the line stalls
(:data:`STALL_UNIT`)."""

REFILL_NARROWED_WEIGHT = 16
"""The share of the depth-first search over the narrowed move set (:mod:`.run_moves`: no drag that splits a run or
moves it from one build onto another) in a design where the tap cover applies and a trigger refills emptied depots,
which the other ``runs`` members leave out (:data:`RUNS_WEIGHTS`), where the safe moves apply and the set narrows
anything (:func:`refill_narrowed`: Canfield with runs). Incomplete: its wins are wins, its "lost" drops it. Canfield
with runs, seed 0, deal 1: the depth-first member alone wins it in 482,817 positions (4 shares of 9: about 1.1
million in the portfolio), the narrowed search alone in 123,741; its line moves runs between three columns for a
hundred choices. With 16 shares of 25 the portfolio wins it at 195,774 (a 30 s deal stores about 270,000; with 12
of 21, 222,783) and still decides deals 0, 2 (lost), 3, 4, 5, 7, 8, 9 (at most 146,519 positions, against 131,288
without; deal 6 stays open): 9 of 10 decided against 8. The narrowed search alone wins deals 0 and 7 in 631
and 3,690 and runs out of lines on 2, 4, 8 and 9 within 19,135 (then it is dropped); seed 101, 10 deals at 60,000:
the same verdicts and positions (9 decided within the first round, before its turn)."""

EAGER_IDLE = True
"""Whether, in a design with both stock moves and idle moves (Duchess, Chameleon), the restarts are *eager*: an
idle move is searched only where a drag of the position after it uses its target, not where only a waste card
turned up by later taps would (:attr:`.idle_moves.IdleMoves.eager`). That drops winning lines, so they are
incomplete (the pass, the depth-first member and the plain order stay complete). Duchess, seed 0, 20 deals at
150,000 positions: 7 won without, 11 with (2,316,053 and 2,146,772 positions); the depth-first member eager too:
the same 11 (2,123,044), with one complete member fewer (docs/analysis.md, session 14)."""

HOME_SPLITS_WEIGHTS = (8, 2)
"""The share of a depth-first search with every piece whose splits (``splits``) are searched only together with a
use that takes the card they uncover, or a run from it, out of the columns (:attr:`.split_moves.SplitMoves.home_only`:
Solvitaire's Klondike rule, which moves part of a run only when the card it uncovers goes to a foundation), where
the splits apply (the Klondike family). Incomplete: a winning line may need a split used otherwise (a card put on
the uncovered one), so its wins are wins and its "lost" proves nothing. Eight shares; two in Klondike draw three
(where the depth-first member has :data:`SEARCH_WEIGHTS`' eight). Seed 0 at 10 s a deal: Ultra Klondike 9 of 10
decided against 8 (deal 3 won; deal 8 won at 13,835 positions instead of 62,326), Klondike (open reserve) the same 9
(deal 6 at 18,756 instead of 41,452); Klondike draw one, seed 101, 15 s: 7 of 10 against 6 (deal 7 won at 19,514,
open at 100,000 before: Solvitaire wins it too), seed 0 the same. Alone, seed 101, the depth-first member against
this one: Klondike draw three deals 10 and 11 open at 60,000 against won at 40,041 and 1,567, deal 27 open at
300,000 against won at 206,874; draw one deal 7 open at 60,000 against won at 11,503. With eight shares in
Klondike draw three the same 33 of 40 deals of seed 101 were decided at 30 s, but its one slow proof of loss
(deal 36) took 41,496 positions instead of 27,072."""

QUICK_POSITIONS = 200_000
"""The most positions the quick pass stores: it keeps every position it has not expanded yet."""


@dataclasses.dataclass(frozen=True)
class Pruning:
    """Which pruning pieces the search uses (module doc); all on by default."""

    symmetry: bool = True
    safe_moves: bool = True
    forced: bool = True
    stock: bool = True
    tap_cover: bool = True
    ordering: bool = True
    quick: bool = True
    relaxation: bool = True
    restarts: bool = True
    runs: bool = True
    beams: bool = True
    shared_losses: bool = True
    splits: bool = True
    idle: bool = True
    home_splits: bool = True

    @classmethod
    def none(cls) -> Pruning:
        """The plain exhaustive search: every piece off (the search as it was before them)."""
        return cls(
            symmetry=False,
            safe_moves=False,
            forced=False,
            stock=False,
            tap_cover=False,
            ordering=False,
            quick=False,
            relaxation=False,
            restarts=False,
            runs=False,
            beams=False,
            shared_losses=False,
            splits=False,
            idle=False,
            home_splits=False,
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

    def __init__(
        self, game: Any, heuristic: bool = True, bottoms: tuple[tuple[int, int], ...] = (), groups: bool = True
    ) -> None:
        """``groups`` off: a ``when`` win's filled groups (:func:`filled_groups`) are not counted as cards home
        (the order of the :data:`UNFILLED_WEIGHT` member)."""
        design = game.design
        self.weights: tuple[int, ...] = self.WEIGHTS
        """The weights :meth:`heuristic` uses (:attr:`WEIGHTS` unless a portfolio member sets its own)."""
        self._heuristic = heuristic
        self._targets: tuple[int, ...] = ()
        self._filled: tuple[tuple[int, int], ...] = ()
        """(depot, cards) of a ``when`` win's filled groups (:func:`filled_counts`): a full one scores
        :data:`FILLED_WEIGHT`."""
        self._sign = 0
        win = design.win
        if win.kind in ("allCardsIn", "depotsEmpty") and win.depots:
            self._targets = design.resolve(win.depots) or ()
            self._sign = 1 if win.kind == "allCardsIn" else -1
        elif heuristic and groups and win.kind == "when" and win.when is not None:
            self._filled = filled_counts(game, win.when.text)
            self._targets = tuple(sorted({depot for depot, _ in self._filled}))
            self._sign = 1 if self._targets else 0
        self._score_sign = -1 if design.scoring.better.value == "Low" else 1
        # A waste never turned back is scored as a pile: its cards come back only from its top.
        stocks = {d for draw in game.draws for d in (draw.depot, draw.to)} - fixed_wastes(game)
        sinks = set(self._targets) if self._sign > 0 else set()
        self._homes = tuple(sorted(sinks))
        self._open = tuple(d for d in range(len(game.names)) if d not in sinks and d not in stocks)
        self._takers = tuple(d for d in self._open if not game.accept_never[d])
        self._target_piles, self._taker_piles, self._open_piles = (
            piles_of(self._targets), piles_of(self._takers), piles_of(self._open)
        )
        everything = -1
        # With the bottom cards of the locked depots the rules read (Canfield's base rank), the tables
        # read those as constants (:func:`.dominance.probe_table`): else they allow every card there.
        built = probe_table(game, False, bottoms) if bottoms else build_table(game)
        self._table = built or collections.defaultdict(lambda: everything)
        joints = joint_table(game, self._open)
        if joints is not None:  # a card built on another that cannot move with it counts as loose too
            self._table = joints if built is None else {b: m & joints.get(b, everything) for b, m in built.items()}
        home_built = probe_table(game, True, bottoms) if bottoms else build_table(game, home=True)
        self._home_table = (home_built if sinks else None) or {}
        self._bit = card_bits()
        # The same as lists indexed by card (the face bit set or clear): no dict look-ups per card.
        self._bit_of = [self._bit.get(card & ~FACE_UP, 0) for card in range(2 * FACE_UP)]
        self._table_of = [self._table.get(card, -1) for card in range(FACE_UP)]
        self._terms: dict[int, dict[tuple[int, ...], int]] = {}
        self._noise: random.Random | None = None
        self._keyed: int | None = None
        """The seed of the keyed jitter (:meth:`jitter`), if on."""

    def home(self, state: Any) -> int:
        """The cards in the win depots of ``state`` (minus those left in them, for a ``depotsEmpty`` win)."""
        piles = state.piles
        return self._sign * sum(map(len, self._target_piles(piles)))

    def weigh_face_down(self, weight: int) -> None:
        """From now on score a face-down card ``weight`` (instead of its :attr:`WEIGHTS` term)."""
        w = self.weights
        self.weights = (*w[:3], weight, *w[4:])

    def jitter(self, seed: int, keyed: bool = False) -> None:
        """From now on add to each :meth:`heuristic` a random 0 .. (the weight of one loose card),
        drawn from a generator seeded with ``seed`` (the ``restarts`` member of the search); with ``keyed``,
        a hash of ``seed`` and the position's key instead (:func:`keyed_noise`), so that a position's
        children come in one order whatever was scored before."""
        self._noise = random.Random(seed)
        self._keyed = seed if keyed else None

    def heuristic(self, state: Any) -> int:
        """The weighted sum of :attr:`weights` (higher is better)."""
        piles = state.piles
        progress = self._sign * sum(map(len, self._target_piles(piles)))
        empty = self._taker_piles(piles).count(())
        home = self._home_table
        wanted = 0
        if home:
            for d in self._homes:
                pile = piles[d]
                wanted |= home.get(pile[-1] & ~FACE_UP if pile else -1, 0)
        piled = 0  # the weighted sum of the piles' terms
        terms = self._pile_terms
        # Kept per ``wanted`` (the sinks' tops): siblings that play to a sink and siblings that do
        # not alternate between two of them, and would otherwise evict each other's terms.
        cache = self._terms.get(wanted)
        if cache is None:
            if len(self._terms) >= WANTED_KEPT:
                self._terms.clear()
            cache = self._terms[wanted] = {}
        w = self.weights
        for pile in self._open_piles(piles):
            # Kept by the pile's cards: a move changes one or two piles, and a changed pile is often one
            # seen before (a card put back, a sibling's pile).
            term = cache.get(pile)
            if term is None:
                if len(cache) >= PILE_TERMS_KEPT:
                    cache.clear()
                loose, hidden, buried = terms(pile, wanted)
                term = cache[pile] = w[2] * loose + w[3] * hidden + w[4] * buried
            piled += term
        if self._filled:
            piled += FILLED_WEIGHT * sum(len(piles[d]) == n for d, n in self._filled)
        return w[0] * progress + w[1] * empty + piled

    def _pile_terms(self, pile: tuple[int, ...], wanted: int) -> tuple[int, int, int]:
        """(loose, face-down, buried) cards of one pile, for :meth:`heuristic`."""
        table, bit = self._table_of, self._bit_of
        loose = hidden = 0
        below = -1  # the face-up card below, face bit clear, or -1
        for card in pile:
            if card & FACE_UP:
                if below >= 0 and not table[below] & bit[card]:
                    loose += 1
                below = card & ~FACE_UP
            else:
                hidden += 1
                below = -1
        buried = 0
        if wanted:
            last = len(pile) - 1
            for depth, card in enumerate(pile):
                if bit[card] & wanted:
                    buried += last - depth
        return loose, hidden, buried

    def __call__(self, state: Any, key: Hashable = None) -> tuple[int, int, int]:
        """The score of ``state`` (of position key ``key``, which the keyed jitter reads), higher first."""
        if not self._heuristic:
            home = self._sign * sum(len(state.piles[i]) for i in self._targets)
            return (home, self._score_sign * state.score(), len(state.legal_moves()))
        score = self.heuristic(state)
        if self._keyed is not None:
            score += keyed_noise(self._keyed, key, -self.WEIGHTS[2])
        elif self._noise is not None:
            score += self._noise.randint(0, -self.WEIGHTS[2])
        return (score, self._score_sign * state.score(), 0)


@dataclasses.dataclass
class Plan:
    """What one game's search uses, worked out once per game and pruning."""

    key_of: Any
    chain_key: Any
    """The key without the stock's place on its cycle of taps: a chain of single moves that
    repeats it goes round in a circle (taps alone keep :attr:`key_of`)."""
    safe: SafeMoves | None
    stock: StockMoves | None
    notes: tuple[str, ...]
    """Why a piece does not apply to this design (for ``--verbose``)."""
    restarts: bool = False
    """Whether the portfolio has the ``restarts`` member (module doc)."""
    runs: RunMoves | None = None
    """The narrowed move set of the ``runs`` member, if the portfolio has it (module doc)."""
    lead: bool = False
    """Whether the member ahead gets more turns (:data:`LEAD_WEIGHT`)."""
    tap_cover: bool = False
    """Whether :attr:`key_of` gives (rest, stock and waste) pairs, and each search keeps a
    :class:`.stock_moves.TapCover` (module doc, ``tap_cover``)."""
    child_key: ChildKeys | None = None
    """:attr:`key_of` of a drag's child without building it, where the design lets (:mod:`.child_keys`)."""
    splits: SplitMoves | None = None
    """Which drags are searched only together with a use (module doc, ``splits``)."""
    idle: IdleMoves | None = None
    """Which moves out of idle depots are searched only where a move could use their target (module doc, ``idle``)."""


_PLANS: dict[tuple[int, Pruning], tuple[Any, Plan]] = {}

_Piece = TypeVar("_Piece")


def _piece(found: _Piece | str, notes: list[str], missing: str) -> _Piece | None:
    """``found``, a pruning piece worked out for a game, or None with ``missing: reason`` added to ``notes``
    when it is the reason the piece does not apply."""
    if isinstance(found, str):
        notes.append(f"{missing}: {found}")
        return None
    return found


def plan_for(game: Any, pruning: Pruning) -> Plan:
    """The :class:`Plan` of ``game`` (kept for the last few games)."""
    entry = _PLANS.get((id(game), pruning))
    if entry is not None and entry[0] is game:
        return entry[1]
    notes: list[str] = []
    safe: SafeMoves | None = None
    if pruning.safe_moves:  # a union of two kinds, which _piece's type variable cannot carry
        found = safe_moves(game)
        if isinstance(found, str):
            notes.append(f"no safe moves: {found}")
        else:
            safe = found
    if pruning.relaxation:
        flow = card_flow(game)
        if isinstance(flow, str):
            notes.append(f"no dead-card relaxation: {flow}")
    stock = _piece(stock_moves(game), notes, "no stock moves") if pruning.stock else None
    chain_key = canonical_key_function(game, pruning.symmetry)
    key_of = canonical_key_function(game, pruning.symmetry, stock.normalize) if stock is not None else chain_key
    split = stock.split_key(game, pruning.symmetry) if stock is not None and pruning.tap_cover else None
    if split is not None:
        key_of = split
    elif stock is not None and pruning.tap_cover:
        notes.append(
            "no tap cover: it needs exactly one stock that redeals without limit and draws more than one card,"
            " in no interchangeable class"
        )
    covered_twins = _covered_twins(game, split is not None)
    restarts = pruning.restarts and bool(
        effect_filled_sinks(game) or fixed_wastes(game) or refilled_depots(game) or covered_twins
        or ONE_WAY_RESTARTS and one_way(game)
    )
    if pruning.restarts and not restarts:
        notes.append(
            "no restarts: no trigger or action fills its win depots, no waste stays unturned, no trigger refills"
            " an emptied depot, it is not a tap-covered stock of two or more decks, and some depot both takes"
            " cards and lets them go"
            f" (on an open board they join after {LATE_SHARE:.0%} of the budget)"
        )
    runs: RunMoves | None = None
    if pruning.runs and restarts and covered_twins:
        notes.append("no narrowed run moves: the restarts come from a tap-covered stock of twins")
    elif pruning.runs and restarts and refilled_depots(game):
        notes.append("no narrowed run moves: a trigger refills emptied depots (RUNS_WEIGHTS)")
    elif pruning.runs and restarts:
        narrowed = run_moves(game, tuple(d for d in range(len(game.names)) if d not in game.win_depots))
        runs = _piece(narrowed, notes, "no narrowed run moves")
    splits = _piece(split_moves(game), notes, "no split pairing") if pruning.splits else None
    idle = _piece(idle_moves(game), notes, "no idle moves") if pruning.idle else None
    if idle is not None and split is not None:  # its argument is about lines, not about covered positions
        idle = None
        notes.append("no idle moves: the tap cover skips positions")
    plan = Plan(
        key_of, chain_key, safe, stock, tuple(notes), restarts, runs, bool(fixed_wastes(game)),
        tap_cover=split is not None, child_key=child_keys(game, key_of), splits=splits, idle=idle,
    )
    if len(_PLANS) >= 8:
        _PLANS.pop(next(iter(_PLANS)))
    _PLANS[(id(game), pruning)] = (game, plan)
    return plan


def _covered_twins(game: Any, tap_cover: bool) -> bool:
    """Whether the tap cover serves the stock of a design of two or more decks: then the portfolio has the
    ``restarts`` with :data:`COVERED_TWINS_RESTART_WEIGHT` shares, and no narrowed run moves."""
    return tap_cover and game.design.decks > 1


def one_way(game: Any) -> bool:
    """Whether no move of ``game`` can be undone: every depot that takes cards never lets them go (eject
    ``locked``), so a card once played stays (Château de cartes' house; Golf's and Black Hole's foundation).
    Then a depth-first search never gets back from a wrong early play, and the portfolio has the ``restarts``
    member (module doc; :data:`ONE_WAY_RESTARTS`) and a beam (:data:`ONE_WAY_BEAM_WEIGHT`)."""
    return all(
        game.accept_never[d] or game.eject_kind[d] is EjectKind.LOCKED for d in range(len(game.names))
    )


def filled_groups(game: Any, when: str) -> tuple[int, ...]:
    """The depots a ``when`` win fills: those of each group it asks, as one part of a conjunction, to hold a
    number of cards in every depot (``all(tri, count(it) == 2)``; Château de cartes' house). Only an order of
    the search (:class:`Progress` counts their cards as cards home), so it needs no proof."""
    return tuple(sorted({depot for depot, _ in filled_counts(game, when)}))


def filled_counts(game: Any, when: str) -> tuple[tuple[int, int], ...]:
    """(depot, the number of cards it holds in a win) for each depot of :func:`filled_groups` (the first number
    the win asks of it): :class:`Progress` scores a depot that holds it :data:`FILLED_WEIGHT`."""
    counts: dict[int, int] = {}
    for part in expr_ast.conjuncts(parse(when)):
        if not (isinstance(part, expr_ast.Call) and part.func == "all" and len(part.args) == 2):
            continue
        group, test = part.args
        if not isinstance(group, expr_ast.Name) or group.name not in game.members:
            continue
        if not (isinstance(test, expr_ast.Binary) and test.op == "==" and isinstance(test.right, expr_ast.IntLit)):
            continue
        counted = test.left
        if (
            isinstance(counted, expr_ast.Call) and counted.func == "count" and len(counted.args) == 1
            and counted.args[0] == expr_ast.Name("it") and test.right.value > 0
        ):
            for depot in game.members[group.name]:
                counts.setdefault(depot, test.right.value)
    return tuple(sorted(counts.items()))


def fills_groups(game: Any) -> bool:
    """Whether the win of ``game`` is a ``when`` rule that fills groups of depots (:func:`filled_groups`), which
    the ordered members count as cards home: then the portfolio has the :data:`UNFILLED_WEIGHT` member."""
    win = game.design.win
    return win.kind == "when" and win.when is not None and bool(filled_groups(game, win.when.text))


def piles_of(depots: tuple[int, ...]) -> Callable[[list[Any]], tuple[Any, ...]]:
    """``get(piles)``: the piles of ``depots`` as a tuple (also for one depot or none), read at once."""
    if len(depots) > 1:
        return operator.itemgetter(*depots)
    if depots:
        only = depots[0]
        return lambda piles: (piles[only],)
    return lambda piles: ()


def built(base: Any, move: Any) -> Any:
    """A copy of ``base`` with ``move`` (one of its moves) played."""
    child = base.clone()
    child.apply(move, checked=True)
    return child


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

    def __init__(
        self,
        root: Any,
        plan: Plan,
        pruning: Pruning,
        budget: int,
        deadline: float | None,
        narrow: bool = False,
        lost: set[Hashable] | None = None,
    ) -> None:
        self.root = root
        self.runs = plan.runs if narrow else None
        """The narrowed move set this search keeps to (:mod:`.run_moves`), if any: then it is incomplete."""
        self.plan = plan
        self.pruning = pruning
        self.budget = budget
        self.deadline = deadline
        self.progress = Progress(root.game, pruning.ordering, bottom_cards(root))
        self.dead = dead_check(root, pruning.relaxation)
        self.taps = plan.stock.taps() if plan.stock is not None else frozenset()
        self.stocks = tuple(d for draw in plan.stock.draws for d in (draw.depot, draw.to)) if plan.stock else ()
        """The stocks and wastes of the stock moves (:meth:`used`)."""
        self.seen: set[Hashable] = set()
        self.cover = TapCover(plan.stock, root.game) if plan.tap_cover and plan.stock is not None else None
        self.lost: set[Hashable] = set() if lost is None else lost
        """The positions proved lost, shared with the portfolio's other searches that key positions alike
        (``shared_losses``): skipped like stored ones."""
        self.sharing = lost is not None
        self.proving = self.sharing and self.runs is None
        """Whether its depth-first searches add what they prove lost to :attr:`lost` (:mod:`.loss_proofs`)."""
        self.skipped: list[Hashable] | None = None
        """While proving: the stored children the last :meth:`expand` left out."""
        self.spent = 0
        """Positions stored by the earlier searches of :meth:`restarts` (their tables are dropped)."""
        self.cut = False
        self.flip_tie = False
        """Whether the next position expanded whose two best children tie searches the second first (then it is
        cleared: :data:`FLIPPED_TIE_WEIGHT`)."""
        self.home = UNSEARCHED
        """The most cards in the win depots (fewest left, for a ``depotsEmpty`` win) of a position
        this search has expanded, over all its restarts, kept where the plan has the lead share
        (:data:`LEAD_WEIGHT`)."""

    def start_afresh(self) -> None:
        """Drop the table of stored positions (and the tap cover) for a search starting again from the deal;
        the positions it held count in :attr:`spent`."""
        self.spent += len(self.seen)
        self.seen = set()
        if self.cover is not None:
            self.cover.clear()

    def store(self, key: Hashable) -> None:
        """Store the position of ``key`` (as searched or to be searched)."""
        self.seen.add(key)
        if self.cover is not None:
            self.cover.add(key)

    def positions(self) -> int:
        """The positions this search has stored, over all its restarts."""
        return self.spent + len(self.seen)

    def forced(self, state: Any, moves: list[Any]) -> str | None:
        """Play the safe moves of ``state`` one after another, appending them to ``moves``; returns
        :func:`ended` of ``state`` then (worked out on the way: the caller need not ask again)."""
        safe = self.plan.safe
        if safe is None:
            return ended(state)
        while len(moves) < MAX_LINE:
            end = ended(state)
            if end is not None:
                return end
            move = safe.safe_move(state)
            if move is None:
                return None
            if type(move) is not Drag:  # a tap of a stock turned one card at a time: round to its safe card
                taps = safe.turn_round(state, move)
                assert taps, "safe_move tapped a stock that holds no safe card"  # else this loop would not end
                moves.extend([move] * taps)
                continue
            state.apply(move, checked=True)  # safe_move found it legal
            moves.append(move)
            self.tick()
        end = ended(state)
        if end is None:
            self.cut = True
        return end

    def single_moves(self, state: Any) -> tuple[Any, list[Any]] | None:
        """``state`` (a copy, if it moved) after the single moves it is forced into, and those
        moves; None when they go round in a cycle (then the position cannot be won)."""
        if not self.pruning.forced:
            return state, []
        moves: list[Any] = []
        chain: set[Hashable] = set()
        while len(moves) < MAX_LINE and not state.is_terminal():
            legal = state.playable_moves()  # read only: the clone below is applied, never this list
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

    def successors(self, state: Any) -> Iterator[tuple[tuple[Any, ...], Any, Any]]:
        """Every (moves, base, move) one choice away from ``state``, before forced steps (lazily:
        the caller reads the clock between two): the position is ``base`` after ``move``, to be
        built (:func:`built`) before the next item, or ``base`` itself when ``move`` is None."""
        taps, runs, splits, idle = self.taps, self.runs, self.plan.splits, self.plan.idle
        tapped = False
        legal = state.playable_moves()  # read only
        where: dict[Any, list[tuple[int, int]]] | None = None
        for move in legal:
            if type(move) is not Drag and move in taps:  # a drag is never a tap (no hash needed)
                tapped = True
                continue
            if runs is not None and not runs.keeps(state.piles, move):
                continue
            if idle is not None and idle.idle_move(state.piles, move):  # only with a use of its target (``idle``)
                child = built(state, move)
                if idle.keeps(legal, move, child, self.plan.stock):  # eager: IdleMoves.eager
                    yield (move,), child, None
                continue
            if splits is not None and splits.split_source(state, move) is not None:  # with a use (``splits``)
                if where is None:
                    where = splits.runs_by_card(state)
                    # the taps come after the drags; a split changes none of them (no actions: split_moves)
                    has_taps = any(type(m) is not Drag and m in taps for m in reversed(legal))
                    # a split undone is this position: expand() would skip it, stored or proved lost, and
                    # note nothing unless proving (then it is listed, for the skipped children)
                    key = self.plan.key_of(state) if self.skipped is None else None
                    undone = key is not None and (key in self.seen or bool(self.lost) and key in self.lost)
                yield from self.used(move, state, has_taps, where, undone)
                continue
            yield (move,), state, move
        if tapped:
            assert self.plan.stock is not None
            for moves, base, move, complete in self.plan.stock.unbuilt_plays(state):
                if not complete:
                    self.cut = True
                    continue
                yield moves, base, move

    def used(
        self, split: Any, parent: Any, tapped: bool, where: dict[Any, list[tuple[int, int]]], undone: bool = False
    ) -> Iterator[tuple[tuple[Any, ...], Any, Any]]:
        """(moves, base, move) as :meth:`successors` gives them, for ``split``, one of the moves of ``parent``
        (which has taps when ``tapped``; ``where``: :meth:`.SplitMoves.runs_by_card` of it), then each of its
        uses (:mod:`.split_moves`), without the move back when ``undone``; the child of the split is built
        only when it has one."""
        splits = self.plan.splits
        assert splits is not None
        drags = splits.use_drags(parent, split, where)
        if undone:
            drags = [m for m in drags if not (m.target == split.source and m.source == split.target
                                              and m.count == split.count)]
        # a play from the waste is a use only by going onto the card the split left (the card table)
        plays = tapped and splits.may_take(parent, split, self.stocks)
        if not drags and not plays:
            return
        state = built(parent, split)
        for move in drags:
            yield (split, move), state, move
        if plays:
            assert self.plan.stock is not None
            for moves, child, complete in self.plan.stock.plays(state, splits.play_targets(split)):  # the uses
                if not complete:
                    self.cut = True
                    continue
                yield (split, *moves), child, None

    def tick(self) -> None:
        """Raise :class:`_Budget` past the deadline."""
        if self.deadline is not None and time.monotonic() > self.deadline:
            raise _Budget

    def expand(self, state: Any) -> tuple[list[Any] | None, list[tuple[tuple[Any, ...], Any, Any, Hashable]]]:
        """(the moves of a win one choice away, or None; the new children worth searching, best
        first, each with the moves that lead to it from ``state``, its :class:`Progress` score and its key)."""
        if self.plan.lead:  # only the lead share reads it (_share): no count on the hot path elsewhere
            home = self.progress.home(state)
            if home > self.home:
                self.home = home
        forced = self.single_moves(state)
        if forced is None:
            return None, []
        state, prefix = forced
        if state.is_terminal():
            return (prefix, []) if state.outcome().won else (None, [])
        keep = len(state.playable_moves()) <= KEPT_CHILDREN
        fresh = []
        seen, key_of, budget, cover = self.seen, self.plan.key_of, self.budget, self.cover
        lost, skipped, deadline, safe = self.lost, self.skipped, self.deadline, self.plan.safe
        child_keys = self.plan.child_key
        child_key, build = (child_keys.key, child_keys.build) if child_keys is not None else (None, built)
        for number, (moves, child, move) in enumerate(self.successors(state)):
            if deadline is not None and time.monotonic() > deadline:  # tick(): one position of a hostile design
                raise _Budget  # can take long
            key = None
            if move is not None:
                # Most children are stored already: key them without building them where the design lets.
                key = child_key(child, move) if child_key is not None else None
                if key is None:
                    child, move = built(child, move), None
            if key is None:
                key = key_of(child)
            if key in seen or lost and key in lost:  # a key is hashed at each look-up: none in an empty set
                if skipped is not None:
                    skipped.append(key)
                continue  # stored positions are searched: whatever their safe moves lead to is searched too
            if move is not None:
                child = build(child, move)
            line = [*prefix, *moves]
            end: str | None = None
            if safe is not None:
                before = len(line)
                end = self.forced(child, line)  # ended(child), after its safe moves
                if len(line) > before:
                    key = key_of(child)
                    if key in seen or lost and key in lost:
                        if skipped is not None:
                            skipped.append(key)
                        continue
            if cover is not None:
                covering = cover.covers_else_add(key)
                if covering is not None:  # taps from a stored position lead here (module doc, tap_cover)
                    if skipped is not None:  # lost once the position covering it is (:mod:`.loss_proofs`)
                        skipped.append(covering)
                    continue
            seen.add(key)
            if len(seen) > budget:
                raise _Budget
            if safe is None:
                end = ended(child)
            if end is not None:
                if end == "won":
                    return line, []
                if self.sharing:
                    lost.add(key)
                continue
            if self.dead is not None and self.dead(child):
                if self.sharing:
                    lost.add(key)
                continue
            fresh.append((self.progress(child, key), -number, tuple(line), child if keep else None, key))
        fresh.sort(key=lambda entry: (entry[0], entry[1]), reverse=True)
        if self.flip_tie and len(fresh) > 1 and fresh[0][0] == fresh[1][0]:
            self.flip_tie = False
            fresh[0], fresh[1] = fresh[1], fresh[0]
        return None, [(moves, child, score, key) for score, _, moves, child, key in fresh]

    def run(self) -> Generator[None, None, tuple[str, list[Any]]]:
        """The depth-first search, yielding between two expansions (so that a portfolio can take
        turns); returns ("won", line) / ("lost", []) / ("unknown", []); raises :class:`_Budget`."""
        root = self.root.clone()
        prefix: list[Any] = []
        self.forced(root, prefix)
        root_key = self.plan.key_of(root)
        self.store(root_key)
        if root.is_terminal():
            return ("won", prefix) if root.outcome().won else ("unknown" if self.cut else "lost", [])
        if root_key in self.lost:
            return "lost", []
        # While proving, marks[i] is the LossProofs mark of stack[i]; a cut ends the proving (module doc).
        proofs = LossProofs(self.lost) if self.proving else None
        skipped = self.skipped = [] if proofs is not None else None
        won, options = self.expand(root)
        if won is not None:
            return "won", prefix + won
        marks = []
        if proofs is not None and skipped is not None:
            if self.cut:
                proofs = skipped = self.skipped = None
            else:
                marks.append(proofs.searched(root_key, skipped, [option[3] for option in options]))
        stack = [(root, iter(options))]
        path: list[tuple[Any, ...]] = []
        lost = self.lost
        while stack:
            parent, pending = stack[-1]
            step = next(pending, None)
            if step is None:
                stack.pop()
                if path:
                    path.pop()
                if proofs is not None:
                    mark = marks.pop()
                    proofs.done(mark, marks[-1] if marks else None)
                continue
            moves, child, _, key = step
            if lost and key in lost:  # another search proved it lost after this one stored it
                if proofs is not None:
                    proofs.drop(key)
                continue
            if len(stack) >= MAX_LINE:
                self.cut = True
                proofs = skipped = self.skipped = None
                continue
            if child is None:
                child = parent.clone()
                for move in moves:
                    child.apply(move)
            if skipped is not None:
                skipped.clear()
            won, options = self.expand(child)
            if won is not None:
                return "won", prefix + [m for part in path for m in part] + list(moves) + won
            if proofs is not None and skipped is not None:
                if self.cut:
                    proofs = skipped = self.skipped = None
                else:
                    mark = proofs.searched(key, skipped, [option[3] for option in options])
                    if options:
                        marks.append(mark)
                    else:
                        proofs.done(mark, marks[-1])
            if options:
                stack.append((child, iter(options)))
                path.append(moves)
            yield
        return ("unknown" if self.cut else "lost"), []


    def restarts(self, first: bool = False, unit: int | None = None) -> Generator[None, None, tuple[str, list[Any]]]:
        """Depth-first searches (:meth:`run`; with ``first``, best-first passes: :meth:`best_first`)
        started afresh, the children's order jittered by a new seed each time, the ``n``-th given
        ``unit`` (by default :data:`RESTART_UNIT`) × ``luby(n)`` positions (module doc, ``restarts``),
        until the budget is spent; returns as :meth:`run` does."""
        total = self.budget
        unit = RESTART_UNIT if unit is None else unit
        for number in itertools.count(1):
            self.start_afresh()
            self.cut = False
            self.budget = min(unit * luby(number), total - self.spent)
            if self.budget <= 0:
                return "unknown", []
            self.progress.jitter(number, keyed=self.sharing)  # keyed_noise: what others prove changes no order
            try:
                result, line = yield from (self.best_first() if first else self.run())
            except _Budget:
                if self.deadline is not None and time.monotonic() > self.deadline:
                    raise
                continue
            if result != "unknown":
                return result, line
        raise AssertionError("unreachable")

    def beams(self, unit: int, homes: tuple[int, ...] = ()) -> Generator[None, None, tuple[str, list[Any]]]:
        """Beam searches (:func:`.beam_search.beam`) started afresh, the ``n``-th of width ``unit`` ×
        ``luby(n)`` and its scores jittered by a new seed, until the budget is spent; returns ("won", line)
        or ("unknown", []) (a beam proves nothing). With ``homes``, a card home weighs each of them in turn
        instead of its :attr:`Progress.weights` term (:data:`ONE_PASS_BEAM_HOMES`), each kind of try widening
        as ``luby`` of its own count."""
        total = self.budget
        kinds = homes or (self.progress.weights[0],)
        for number in itertools.count(1):
            self.start_afresh()
            self.budget = total - self.spent
            if self.budget <= 0:
                return "unknown", []
            self.progress.jitter(number)
            self.progress.weights = (kinds[(number - 1) % len(kinds)], *self.progress.weights[1:])
            width = unit * luby((number - 1) // len(kinds) + 1)
            root = self.root.clone()
            prefix: list[Any] = []
            self.forced(root, prefix)
            self.store(self.plan.key_of(root))
            if ended(root) == "won":
                return "won", prefix
            result, line = yield from beam(root, prefix, self.expand, width)
            if result == "won":
                return result, line
        raise AssertionError("unreachable")

    def best_first(self) -> Generator[None, None, tuple[str, list[Any]]]:
        """A greedy best-first pass: always expand the stored position with the best score,
        yielding between two expansions. Returns ("won", line), or ("lost", []) when no position
        is left to expand (then every reachable position was searched, as in :meth:`run`), or
        ("unknown", []); raises :class:`_Budget`."""
        root = self.root.clone()
        prefix: list[Any] = []
        self.forced(root, prefix)
        self.store(self.plan.key_of(root))
        if ended(root) == "won":
            return "won", prefix
        counter = itertools.count()
        # A line is kept as a link to its parent's (moves, parent link): no copies of long lines.
        Link = tuple[tuple[Any, ...], Any]
        start: Link = (tuple(prefix), None)
        frontier: list[tuple[Any, int, Any, Link, Hashable]] = [((0,), 0, root, start, None)]
        lost = self.lost
        while frontier:
            _, _, state, link, key = heapq.heappop(frontier)
            if lost and key in lost:  # a depth-first search proved it lost after this pass stored it
                continue
            won, options = self.expand(state)
            if won is not None:
                parts = [tuple(won)]
                while link is not None:
                    parts.append(link[0])
                    link = link[1]
                return "won", [move for part in reversed(parts) for move in part]
            for moves, child, score, key in options:  # the score expand() gave it
                if child is None:
                    child = state.clone()
                    for move in moves:
                        child.apply(move)
                heapq.heappush(frontier, (tuple(-v for v in score), next(counter), child, (moves, link), key))
            yield
        return ("unknown" if self.cut else "lost"), []


_MASK = (1 << 64) - 1


def keyed_noise(seed: int, key: Hashable, most: int) -> int:
    """A number 0 .. ``most`` fixed by ``seed`` and the position key ``key`` (a splitmix64 finish of their hash).

    The jitter of a restart that skips the positions other searches proved lost (``shared_losses``): drawn from
    one stream, a position's noise would depend on how many children were scored before it, so what the others
    proved would reorder everything after (FreeCell, seed 0, deal 17: the restart that wins it in 1,772 positions
    without the set wandered with it). Keyed, each position's children come in one order, so a search meets the
    positions not proved lost in the same order with the set as without it (a position proved lost leads only to
    positions that are lost), storing fewer: it decides no later. A key holds ints only, whose hash is the same in
    every process."""
    mixed = (hash(key) ^ (seed * 0x9E3779B97F4A7C15)) & _MASK
    mixed = ((mixed ^ (mixed >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    mixed = ((mixed ^ (mixed >> 27)) * 0x94D049BB133111EB) & _MASK
    return (mixed ^ (mixed >> 31)) % (most + 1)


def luby(number: int) -> int:
    """The ``number``-th term (from 1) of the Luby sequence 1, 1, 2, 1, 1, 2, 4, 1, ...: the restart
    lengths that are within a log factor of the best fixed length on any run-time distribution."""
    while True:
        size = 1
        while (1 << size) - 1 < number:
            size += 1
        if number == (1 << size) - 1:
            return 1 << (size - 1)
        number -= (1 << (size - 1)) - 1


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
    best_first: bool = False
    """Whether it is the portfolio's best-first pass (the ``quick`` member: :data:`LATE_WEIGHTS`)."""
    beam: bool = False
    """Whether it is a ``beams`` member (then the portfolio takes turns of :data:`RUNS_TURN`)."""
    stalls: bool = False
    """Whether its share grows while the complete members get no card further home (:data:`STALL_UNIT`: with
    one pass, the restarts and the best-first pass or the one-pass beam)."""


def shares_losses(game: Any, pruning: Pruning) -> bool:
    """Whether the portfolio's complete searches share the positions they prove lost (``shared_losses``): where two
    of them that prove losses key positions alike. Without stock moves they all do. With them the plain-order member
    keys the stock otherwise (it taps one card at a time), and the restarts keep to themselves: sharing, their jitter
    is keyed by the position (:func:`keyed_noise`), a new draw of their gamble, which lost deals the old draw won
    (Ultra Klondike, seed 0, deal 5, won by them at 104,843 positions, open at 300,000 keyed; Rank and File, seed 0,
    60,000 positions a deal, 6 won against 8, the keyed restarts taking the lead share). So there the pair is a
    second depth-first member beside the first: the flipped tie of a design whose columns the safe moves keep full
    (:func:`kept_full`, :data:`FLIPPED_TIE_WEIGHT`), the best-first pass reading their proofs too. Where the
    depth-first member's proofs would only be read by the pass (every other design with the tap cover: Canfield,
    Canfield with runs, Klondike, Klondike with nine columns, Ultra Klondike; 10 deals of seeds 0 and 101 at 100,000
    positions, the two Canfields' 300,000), the same deals are decided, at the same positions but for Canfield's
    seed-0 deal 4 (won at 9,724 instead of 15,171): there the members keep apart."""
    if not (pruning.quick and pruning.shared_losses):
        return False
    plan = plan_for(game, pruning)
    return plan.stock is None or bool(FLIPPED_TIE_WEIGHT) and kept_full(game, plan)


def kept_full(game: Any, plan: Plan) -> bool:
    """Whether ``game``'s portfolio has Canfield's shape (:func:`_canfield_like`) and its safe moves keep a group of
    depots full (:data:`KEPT_FULL_DEEP_WEIGHT`)."""
    return _canfield_like(game, plan) and plan.safe is not None and bool(plan.safe.kept_full)


def _canfield_like(game: Any, plan: Plan) -> bool:
    """Whether the tap cover applies and a trigger refills the emptied depots of ``game``
    (:data:`COVERED_REFILL_WEIGHTS`)."""
    return plan.tap_cover and plan.restarts and bool(refilled_depots(game))


def _portfolio(
    root: Any, pruning: Pruning, budget: int, deadline: float | None, lost: set[Hashable] | None = None
) -> list[_Member]:
    """The searches :func:`search` takes turns between (module doc, ``quick``); the complete ones share ``lost``
    (``shared_losses``), if given."""
    game = root.game
    plan = plan_for(game, pruning)

    def member(
        stage: str, weight: int, use: Pruning, first: bool, cap: int = budget, again: bool = False, eager: bool = False
    ) -> _Member:
        own = plan_for(game, use)
        eager = eager and own.idle is not None  # incomplete (EAGER_IDLE): its "lost" proves nothing, nor is shared
        if own.idle is not None and eager:
            own = dataclasses.replace(own, idle=dataclasses.replace(own.idle, eager=True))
        # it keys positions as the others do, and with stock moves it is no restarts (shares_losses)
        alike = (own.stock is None) == (plan.stock is None) and not (again and plan.stock is not None)
        found = _Search(root, own, use, max(1, cap), deadline, lost=None if eager or not alike else lost)
        steps = found.best_first() if first else found.restarts() if again else found.run()
        return _Member(stage, weight, found, steps, not eager, best_first=first)

    if not pruning.quick:
        return [member("search", 1, pruning, first=False)]
    # Without stock moves the best-first pass earns a second share (module doc, QUICK_WEIGHTS).
    quick = QUICK_WEIGHTS[plan.stock is not None]
    klondike_like = plan.tap_cover and not game.triggers and game.design.decks == 1  # SEARCH_WEIGHTS
    canfield_like = _canfield_like(game, plan)  # COVERED_REFILL_WEIGHTS
    full = kept_full(game, plan)  # KEPT_FULL_DEEP_WEIGHT
    deep = COVERED_REFILL_WEIGHTS[0] if canfield_like else SEARCH_WEIGHTS[klondike_like]
    if full:
        deep = KEPT_FULL_DEEP_WEIGHT
    if not best_first_pass(game, plan):
        deep = ONE_PASS_TWINS_WEIGHT
    # Where the stock moves and the idle moves meet, the restarts ignore the stock's plays as uses (EAGER_IDLE)
    eager = EAGER_IDLE and plan.idle is not None and plan.stock is not None
    unfilled = pruning.ordering and fills_groups(game)  # UNFILLED_WEIGHT
    members = [member("search", max(1, deep - UNFILLED_WEIGHT) if unfilled else deep, pruning, first=False)]
    if unfilled:
        members.append(member("search", UNFILLED_WEIGHT, pruning, first=False))
        members[-1].search.progress = Progress(game, True, bottom_cards(root), groups=False)
    if full and FLIPPED_TIE_WEIGHT:  # the first tie the other way (FLIPPED_TIE_WEIGHT)
        members.append(member("search", FLIPPED_TIE_WEIGHT, pruning, first=False))
        members[-1].search.flip_tie = True
    breadth = None  # the member that does not follow one line: the best-first pass, or the one-pass beam
    if best_first_pass(game, plan):
        breadth = member("quick", quick, pruning, first=True, cap=min(budget, QUICK_POSITIONS))
        members.insert(0, breadth)
    plain_order = dataclasses.replace(pruning, ordering=False, stock=False)
    if plain_order != pruning:
        cheap = plan.stock is not None and bool(refilled_depots(game))  # its positions cost less (PLAIN_WEIGHTS)
        plain = member("search", PLAIN_WEIGHTS[cheap], plain_order, first=False)
        # before the depth-first member's long turns there: its wins come early (PLAIN_WEIGHTS)
        members.insert(len(members) - 1 if canfield_like else len(members), plain)
    afresh = []  # the members that start again from the deal
    if plan.restarts:
        again = COVERED_REFILL_WEIGHTS[1] if canfield_like else RESTART_WEIGHT
        if _covered_twins(game, plan.tap_cover) and not canfield_like:
            again = COVERED_TWINS_RESTART_WEIGHT
        afresh.append(member("search", again, pruning, first=False, again=True, eager=eager))
        members.append(afresh[-1])
    if pruning.beams and not best_first_pass(game, plan):  # two decks, one pass: incomplete (ONE_PASS_BEAM_WEIGHT)
        found = _Search(root, plan, pruning, max(1, budget), deadline)
        steps = found.beams(BEAM_UNIT, ONE_PASS_BEAM_HOMES)
        breadth = _Member("quick", ONE_PASS_BEAM_WEIGHT, found, steps, False)
        members.append(breadth)
    if plan.lead and breadth is not None:  # one pass: they take the turns of a stalled line (STALL_UNIT)
        for entry in [*afresh, breadth]:
            entry.stalls = True
    if pruning.beams and ONE_WAY_BEAM_WEIGHT and one_way(game) and not plan.lead:  # incomplete (ONE_WAY_BEAM_WEIGHT)
        found = _Search(root, plan, pruning, max(1, budget), deadline)
        members.append(_Member("quick", ONE_WAY_BEAM_WEIGHT, found, found.beams(BEAM_UNIT), False))
    home_splits = HOME_SPLITS_WEIGHTS[klondike_like]
    if pruning.home_splits and home_splits and plan.splits is not None:  # incomplete (HOME_SPLITS_WEIGHTS)
        homeward = dataclasses.replace(plan, splits=plan.splits.homeward())
        found = _Search(root, homeward, pruning, max(1, budget), deadline)
        members.append(_Member("quick", home_splits, found, found.run(), False))
    narrowed = refill_narrowed(game, plan) if canfield_like and pruning.runs else None
    if narrowed is not None:  # incomplete: its "lost" proves nothing (REFILL_NARROWED_WEIGHT)
        found = _Search(root, dataclasses.replace(plan, runs=narrowed), pruning, max(1, budget), deadline, narrow=True)
        members.append(_Member("quick", REFILL_NARROWED_WEIGHT, found, found.run(), False))
    if plan.runs is not None:  # incomplete: their "lost" proves nothing
        # Not on an open board: nothing is dealt later, and there the beams' shares only slowed the others down.
        with_beams = pruning.beams and not open_board(root)
        kinds = ((False, None), (True, None), (True, RUNS_HIDDEN_WEIGHT))  # (best-first, face-down weight)
        twins = with_beams and TWIN_BEAMS and game.design.decks > 1  # their turns go to the beams (TWIN_BEAMS)
        for (first, hidden), weight in () if twins else zip(kinds, RUNS_WEIGHTS, strict=True):
            found = _Search(root, plan, pruning, max(1, budget), deadline, narrow=True)
            if hidden is not None:
                found.progress.weigh_face_down(hidden)
            steps = found.restarts(first, RUNS_BEST_FIRST_UNIT if first else None)
            members.append(_Member("quick", weight, found, steps, False))
        beams = list(zip((None, RUNS_HIDDEN_WEIGHT), BEAM_WEIGHTS, strict=True))  # (face-down weight, share)
        for hidden, weight in beams if with_beams else ():
            found = _Search(root, plan, pruning, max(1, budget), deadline, narrow=True)
            if hidden is not None:
                found.progress.weigh_face_down(hidden)
            members.append(_Member("quick", weight, found, found.beams(BEAM_UNIT), False, beam=True))
    return members


def refill_narrowed(game: Any, plan: Plan) -> RunMoves | None:
    """The narrowed move set (:mod:`.run_moves`) of the one depth-first member a design whose emptied depots a
    trigger refills gets (:data:`REFILL_NARROWED_WEIGHT`): only where the safe moves apply, keep no group full
    (:attr:`.dominance.SafeSinkMoves.kept_full`: the Canfield variants whose columns take only the waste's card
    while one is empty, where the narrowed set has no winning line or runs out within a few hundred positions, and
    with it Canfield (strict) decides 8 of 10 deals at 140,000 positions against 9 without; docs/analysis.md), and
    the set narrows anything."""
    if plan.safe is None or plan.safe.kept_full:
        return None
    narrowed = run_moves(game, tuple(d for d in range(len(game.names)) if d not in game.win_depots))
    return None if isinstance(narrowed, str) else narrowed


def best_first_pass(game: Any, plan: Plan) -> bool:
    """Whether the portfolio of ``game`` has the greedy best-first pass: not where the waste is never
    turned back (the plan has the lead share) and the design plays with more than one deck.

    With one pass through the stock the pass keeps the positions of every point of the stock and
    expands whichever scores best, so it stays among the first stock cards, the more so the longer
    the stock (64 to 75 cards with two decks): alone for 30,000 positions (seed 0, deal 0) it got 19
    of 104 cards home on Forty Thieves against 33 and 46 for the depth-first search and its restarts,
    12 on American Toad (18, 18), and it decided no deal of the two-deck one-pass rows (Forty Thieves,
    Lucas, Limited, Streets, Rank and File, Maria, American Toad, Gargantua; seed 0, 30,000 to 100,000
    positions a deal). With one deck and a shorter stock it does win deals early (Fortune's Favor,
    Thirty-Six, Weathervane, Duchess), so it stays there (docs/analysis.md)."""
    return not (plan.lead and game.design.decks > 1)


def _share(entry: _Member, members: list[_Member], lead: bool, stalled: int = 0) -> int:
    """The weight of ``entry``'s next turn: its own, times :data:`LEAD_WEIGHT` when ``lead`` and it has
    got :data:`LEAD_MARGIN` cards home more than every other member still searching (each of which has had
    a turn); a member that :attr:`~_Member.stalls` takes it ``1 + stalled // STALL_UNIT`` times more (at most
    :data:`STALL_MOST`), ``stalled`` the positions stored since the complete members last got a card further home."""
    weight = entry.weight
    if entry.stalls:
        weight *= min(STALL_MOST, 1 + stalled // STALL_UNIT)
    if lead:
        others = [m.search.home for m in members if m is not entry]
        if others and min(others) > UNSEARCHED and entry.search.home >= max(others) + LEAD_MARGIN:
            return weight * LEAD_WEIGHT
    return weight


class _Stall:
    """The positions a portfolio has stored since its complete members last got a card further home (the most of
    any of them: :attr:`_Search.home`), read at the start of each turn (:data:`STALL_UNIT`)."""

    def __init__(self) -> None:
        self.best = UNSEARCHED
        self.since = 0

    def stalled(self, members: list[_Member], nodes: int) -> int:
        """The positions stored since the best of the complete ``members`` last rose, ``nodes`` stored in all."""
        best = max((m.search.home for m in members if m.complete), default=UNSEARCHED)
        if best > self.best:
            self.best, self.since = best, nodes
        return nodes - self.since


def _restarts_from_the_start(game: Any, pruning: Pruning) -> bool:
    """Whether the portfolio has the ``restarts`` member from the start (module doc)."""
    return pruning.quick and plan_for(game, pruning).restarts


def _restarts_member(
    root: Any, pruning: Pruning, budget: int, deadline: float | None, lost: set[Hashable] | None = None
) -> _Member:
    """The ``restarts`` member joining late (:data:`LATE_SHARE`), sharing ``lost`` with the others, if given."""
    found = _Search(root, plan_for(root.game, pruning), pruning, max(1, budget), deadline, lost=lost)
    return _Member("search", RESTART_WEIGHT, found, found.restarts(), True)


def _late_pass_member(
    root: Any, pruning: Pruning, budget: int, deadline: float | None, lost: set[Hashable] | None = None
) -> _Member:
    """The second best-first pass joining late (:data:`LATE_PASS_WEIGHT`), sharing ``lost`` with the others."""
    found = _Search(root, plan_for(root.game, pruning), pruning, max(1, min(budget, QUICK_POSITIONS)), deadline,
                    lost=lost)
    weights = found.progress.weights
    found.progress.weights = (*weights[:4], weights[4] * LATE_PASS_BURIED)
    return _Member("quick", LATE_PASS_WEIGHT, found, found.best_first(), True)


def _late_join(budget: int, deadline: float | None) -> tuple[float, float | None]:
    """(the positions, the :func:`time.monotonic` time) after which the late restarts join a search
    starting now with ``budget`` positions and ``deadline`` (:data:`LATE_SHARE`: whichever comes first)."""
    now = time.monotonic()
    return LATE_SHARE * budget, None if deadline is None else now + LATE_SHARE * max(0.0, deadline - now)


def open_board(root: Any) -> bool:
    """Whether every card of ``root`` is face up and its design draws nothing (:data:`LATE_SHARE`)."""
    if root.game.draws:
        return False
    return all(card & FACE_UP for pile in root.piles for card in pile)


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
    lost: set[Hashable] | None = None
    if shares_losses(root.game, pruning):
        plan = plan_for(root.game, pruning)
        lost = CoveredLosses(plan.stock, root.game) if plan.tap_cover and plan.stock is not None else set()
    members = _portfolio(root, pruning, budget, deadline, lost)

    def nodes() -> int:
        return sum(m.search.positions() for m in everyone)

    everyone = list(members)
    turn = TURN if len(members) > 1 else budget
    if any(entry.beam for entry in members):
        turn = RUNS_TURN
    # Late restarts only where the portfolio has none (module doc, ``restarts``; LATE_SHARE).
    late = (
        pruning.restarts and pruning.quick and not _restarts_from_the_start(root.game, pruning)
        and open_board(root)
    )
    join_nodes, join_time = _late_join(budget, deadline)
    lead = pruning.quick and plan_for(root.game, pruning).lead
    stall = _Stall() if any(entry.stalls for entry in members) else None
    while members:
        if late and (nodes() >= join_nodes or join_time is not None and time.monotonic() >= join_time):
            late = False
            for entry in members:  # the restarts' turns come from the depth-first searches (LATE_WEIGHTS)
                entry.weight = LATE_WEIGHTS[0] if entry.best_first else LATE_WEIGHTS[1]
            members.append(_restarts_member(root, pruning, budget, deadline, lost))
            members[-1].weight = LATE_WEIGHTS[2]
            everyone.append(members[-1])
            if LATE_PASS_WEIGHT and any(entry.best_first for entry in members):
                members.append(_late_pass_member(root, pruning, budget, deadline, lost))
                everyone.append(members[-1])
        for entry in list(members):
            if entry not in members:  # dropped this round (below)
                continue
            stalled = 0 if stall is None else stall.stalled(members, nodes())
            stop = entry.search.positions() + turn * _share(entry, members, lead, stalled)
            # Only this member's count changes during its turn: the others' is summed once (hot loop).
            others = nodes() - entry.search.positions()
            positions = entry.search.positions
            try:
                while positions() < stop:
                    next(entry.steps)
                    if positions() + others > budget:
                        return SearchResult("unknown", [], nodes(), None)
                continue
            except StopIteration as finished:
                result, line = finished.value
            except _Budget:
                if nodes() > budget or deadline is not None and time.monotonic() > deadline:
                    return SearchResult("unknown", [], nodes(), None)
                result, line = "unknown", []  # the best-first pass stored all it may
            members.remove(entry)
            if result == "lost" and entry.search.runs is not None:
                # It searched every line of the narrowed move set: no narrowed member can find a win (module doc).
                members[:] = [m for m in members if m.search.runs is None]
            if result == "won" and replays_to_a_win(root, line):
                return SearchResult("won", line, nodes(), entry.stage)
            if result == "lost" and entry.complete:
                return SearchResult("lost", [], nodes(), "search")
    return SearchResult("unknown", [], nodes(), None)
