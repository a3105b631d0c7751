"""One generated function per game that lists every legal move, the rules written inline.

Calling a compiled rule for each candidate ``(source, target)`` pair costs more than the
test itself, so :func:`build_move_lister` writes the whole drag listing as Python source:
per source its eject rule inline (``topOnly``, ``faceUp``, ``when``), per candidate target
(those the static filter left, see :class:`~cardz_tools.engine.game.Game`) the accept rule
inline (``single``, ``follow``, wild cards and named suits, the residual ``when``), and
appending interned moves.

Up to :data:`_UNROLL_LIMIT` pairs every (source, target) pair is written out as one ``if``,
and the parts of the accept rules that read only the target (``top.rank``, ``!empty(depot)``,
the top's rank and suit for ``follow``) are locals worked out once per call per target, so a
pair tests locals. Beyond it the lister loops over runs of sources with the same eject code
and over each source's targets, which keeps the source (audited and compiled when the game
is built) small. Either way the parts of the accept rules that read no site argument (FreeCell's
counts of the empty cells and columns) are worked out once per call, at the top.

Written out, a gate (:mod:`.accept_gate`) first skips each card that no target's accept rule could take on its
top, before the card's eject test and its targets' tests; a suffix-closed eject test is then asked about the lengths
the gate skipped only when a longer one passes (:meth:`_Writer.gated_run_cards`). Designs where most cards pass the
gate (:data:`GATE_COVERAGE`) or sources have few targets (:data:`GATE_TARGETS`) keep the lister without it.

The text comes from the expression compiler (:mod:`cardz_tools.engine.rules`,
:class:`cardz_tools.expr.inline.InlineCode`) and from this module's own tokens; the
sources, targets and moves are closure constants. The lister returns the drags in the
documented order: by source, run length, target, named suit; then the taps by depot,
a depot's draw before its actions, each action's ``when`` inline too.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from ..cards import FACE_UP, NO_CARD, RANK_OF, SUIT_OF
from ..expr import ast as expr_ast
from ..expr import parse
from ..expr.codegen import Block
from ..model import Design, EjectKind, Expr
from .accept_gate import EMPTY, AcceptGate, accept_gate
from .moves import Move
from .plan import CompiledDraw, DragSource, GamePlan, MoveLister
from .rules import Hoisted, InlineCode, Site, inline_code, inline_rule, inline_rule_by_side

_ACCEPT_NAMES = {"card": "_card", "cards": "_cards", "source": "_source", "depot": "_depot"}
_EJECT_NAMES = {"card": "_card", "cards": "_cards", "depot": "_source"}
_SOURCE_SIDE = frozenset({"card", "cards", "source"})
_ATTRIBUTES = frozenset({"append", "extend", "declared", "redeals", "uses"})
"""The attributes the lister's own lines read (for the sandbox audit)."""
_DENSE_LIMIT = 512
"""Up to this many depots a source's moves are a tuple indexed by target, beyond it a dict."""
_UNROLL_LIMIT = 512
"""Up to this many (source, target) pairs the lister writes each pair out (no loop over targets):
it lists about twice as fast, but its source grows with the pairs and so do the audit and
compile() when the game is built (0.12 s at 512 pairs, against 0.01 s for the loops)."""
GATE_TARGETS = 4
"""The fewest candidate targets per drag source, on average, for which the lister has a gate (:mod:`.accept_gate`):
with fewer, testing a card against the gate costs about what testing it against its targets does."""
GATE_COVERAGE = 0.45
"""The largest :meth:`.accept_gate.AcceptGate.coverage` for which the lister has a gate. Listing the positions of
a search (seed 0, deal 0, least CPU of seven rounds), with the gate against without: Canfield with runs (0.07) 2.2x,
Klondike (0.28) 1.4x, Castles of Spain (0.42) 1.4x, Forty Thieves (0.28) 1.2x, FreeCell (0.30) 1.07x, One Cell
(0.42) 0.92x; Beleaguered Castle (0.48) 0.87x, Spider (0.52) 0.97x, Simple Simon (0.52) 0.84x and Baker's Dozen
(0.64) 0.93x, where most cards pass, are left without."""
_TARGET_SIDE = frozenset({"depot", "top"})
_RUN_TESTS = frozenset({"descending", "ascending", "sameSuit", "alternating"})
"""Calls on ``cards`` that hold of a run only when they hold of each pair of neighbours in it."""
_PAIR_NODES = (expr_ast.Binary, expr_ast.Unary, expr_ast.Field, expr_ast.IntLit, expr_ast.BoolLit)


def suffix_closed(tree: expr_ast.Node) -> bool:
    """Whether an eject rule ``tree`` that refuses the top ``k`` cards surely refuses the top ``k + 1``:
    a conjunction of tests each of which reads only the pairs of neighbours in ``cards``
    (:data:`_RUN_TESTS`, or ``chain(cards, ...)`` over ``it``, ``prev`` and :func:`_board_only` parts),
    or reads no card at all (:func:`_board_only`: the same for every run length). The top ``k``
    cards' pairs are some of the top ``k + 1`` cards' pairs, so the lister may stop at the first
    run length the rule refuses (no longer run can move), and once the top ``k`` cards pass, the top
    ``k + 1`` pass exactly when the two lowest of them do (the lister tests that pair alone)."""
    if isinstance(tree, expr_ast.Binary) and tree.op == "&&":
        return suffix_closed(tree.left) and suffix_closed(tree.right)
    if _board_only(tree):
        return True
    if not isinstance(tree, expr_ast.Call) or not tree.args or tree.args[0] != expr_ast.Name("cards"):
        return False
    if tree.func in _RUN_TESTS:
        return len(tree.args) == 1
    if tree.func != "chain" or len(tree.args) != 2 or tree.var is not None:
        return False
    return _pair_test(tree.args[1])


def _pair_test(node: expr_ast.Node) -> bool:
    """Whether a ``chain`` body reads only ``it``, ``prev`` and :func:`_board_only` parts."""
    if _board_only(node):
        return True
    if isinstance(node, expr_ast.Name):
        return node.name in ("it", "prev")
    if not isinstance(node, _PAIR_NODES):
        return False
    return all(_pair_test(child) for child in expr_ast.iter_child_nodes(node))


_SITE_NAMES = frozenset({"card", "cards", "depot", "top", "source", "it", "prev"})
"""Names whose value may differ between the run lengths of one source (or that a binder binds): a
:func:`_board_only` part reads none of them."""
_BINDERS = frozenset({"all", "any", "chain", "count", "sum", "min", "max"})
"""Functions that bind ``it`` when given a second argument (``count(x, cond)``)."""


def _board_only(node: expr_ast.Node) -> bool:
    """Whether ``node`` reads nothing of the run being moved, nor the source's own pile: only named depots
    and groups and constants (``exists(bottom(found[0]))``), through calls that bind nothing; the same
    value for every run length of one source."""
    for part in expr_ast.walk(node):
        if isinstance(part, expr_ast.Name) and part.name in _SITE_NAMES:
            return False
        if isinstance(part, expr_ast.Call) and (part.var is not None or part.func in _BINDERS and len(part.args) > 1):
            return False
    return True


class _Run(NamedTuple):
    """Consecutive drag sources whose eject rules generate the same code."""

    eject: tuple[EjectKind, str]
    entries: list[DragSource]


class _Accept(NamedTuple):
    """A target's accept rule as inline parts, for the loop over targets or one pair written out."""

    pile: bool
    """The parts read the target's pile as ``_pd``."""
    rejects: list[str]
    """Tests any of which refuses the cards."""
    accepts: list[str]
    """Their negations: tests all of which let the cards in."""
    wild_declares: int
    """The rank of a wild card that names a suit here, or -1: what :meth:`_Writer.action_block` appends."""
    hoisted: list[tuple[str, str]]
    """Assignments to run once per source (or run length), before the targets."""
    per_target: list[tuple[str, str]]
    """Assignments that read only the target (its pile ``_pd``): once per target and call. Written
    out, the target's number is in them and their locals are the target's own (``_f1_7``)."""
    reads: frozenset[str]
    """The locals the tests, the appended moves and the hoisted assignments read, as written."""


class _Writer:
    """Writes the lister's source lines."""

    def __init__(self, game: GamePlan, design: Design, unrolled: bool, gated: bool = False) -> None:
        self.game = game
        self.design = design
        self.unrolled = unrolled
        """Each (source, target) pair written out, the target-only parts of its rule worked out once per call."""
        self.gated = gated
        """Written out, whether a card outside ``_gate`` (:mod:`.accept_gate`) is skipped before the targets' tests."""
        self.code: InlineCode = inline_code(design)
        self.rank = self.code.constant(RANK_OF)
        self.suit = self.code.constant(SUIT_OF)
        self.residuals: dict[str, Hoisted] = {}
        self.uses_declared = False
        self.targets: dict[int, list[tuple[str, str]]] = {}
        """Per target of a written-out pair, its per-target assignments (see :class:`_Accept`)."""
        self.eject_reads: dict[str, frozenset[str]] = {"": frozenset()}
        """Per eject test (as text), the locals it reads."""
        self.closed_ejects: set[str] = set()
        """The eject tests (as text) that are :func:`suffix_closed`."""
        self.per_call: dict[str, str] = {}
        """The parts of the accept rules that read no site argument (a count of the empty cells), by
        local: worked out once at the top of the lister, the piles being the same for every candidate."""

    def eject_test(self, source: int) -> tuple[EjectKind, str]:
        """The eject kind and, for ``when``, the rule as inline text over the run's locals."""
        kind = self.game.eject_kind[source]
        rule = self.game.eject_rules[source]
        if kind is EjectKind.WHEN and rule.when is not None:
            closed = suffix_closed(parse(rule.when.text))
            # A suffix-closed test reads the run's lowest pair alone (``_pair``: suffix_closed's doc).
            names = {**_EJECT_NAMES, "cards": "_pair"} if closed else _EJECT_NAMES
            test = inline_rule(self.code, rule.when, Site.EJECT, self.design, names, "_ps")
            self.eject_reads[test.text] = frozenset(test.reads)
            if closed:
                self.closed_ejects.add(test.text)
            return kind, test.text
        return (EjectKind.FACE_UP if kind is EjectKind.WHEN else kind), ""

    def residual(self, target: int) -> Hoisted:
        """The accept rule's ``when`` without its static part, inline, and what to hoist out of
        the loop over targets, and (written out) out of every pair of one target (written once
        per rule text: equal texts give equal code)."""
        when = self.game.accept_rules[target].when
        if when is None:
            return Hoisted("True", [], [])
        if when.text not in self.residuals:
            inner = _TARGET_SIDE if self.unrolled else frozenset()
            self.residuals[when.text] = inline_rule_by_side(
                self.code, when, Site.ACCEPT, self.design, _ACCEPT_NAMES, "_pd", _SOURCE_SIDE, inner, per_call=True
            )
            self.per_call.update(self.residuals[when.text].per_call)
        return self.residuals[when.text]

    def accept_parts(self, target: int, runs: bool) -> _Accept:
        """``target``'s accept rule as tests that refuse the cards, and what the move(s) to append are.

        In the loop over targets the tests read the target as ``_depot``; written out, as its number,
        with locals of its own for the parts that read only the target."""
        rule = self.game.accept_rules[target]
        rank, suit = self.rank, self.suit
        depot = str(target) if self.unrolled else "_depot"
        rejects: list[str] = []
        reads: set[str] = set()
        if runs and rule.single:
            rejects.append("_count > 1")
            reads.add("_count")
        residual = self.residual(target)
        if self.unrolled:
            residual = residual.at({"_depot": depot, **{local: f"{local}_{target}" for local, _ in residual.target}})
        checks_pile = rule.follow or rule.wild_rank is not None
        engine_side: list[tuple[str, str]] = []
        if checks_pile:
            wild = int(rule.wild_rank) if rule.wild_rank is not None else -1
            if self.unrolled:  # the target's top, worked out once per call
                nonempty, top_rank, top_suit = (f"_f{n}_{target}" for n in (1, 2, 3))
                engine_side = [
                    (nonempty, "(not (not _pd))"),
                    (top_rank, f"{rank}[(_pd[-1] if _pd else {NO_CARD})]"),
                    (top_suit, f"{suit}[(_pd[-1] if _pd else {NO_CARD})]"),
                ]
            else:
                nonempty, top_rank, top_suit = "_pd", f"{rank}[_pd[-1]]", f"{suit}[_pd[-1]]"
            guard = nonempty if wild < 0 else f"{nonempty} and _card_rank != {wild}"
            guard_reads = {nonempty, "_card_rank"} if wild >= 0 else {nonempty}
            follows = f"_card_rank != {top_rank} and _card_suit != {top_suit}"
            follows_reads = {"_card_rank", top_rank, "_card_suit", top_suit}
            if rule.wild_declares == "suit":
                self.uses_declared = True
                named = f"_declared[{depot}]"
                if self.unrolled:
                    engine_side.append((f"_f4_{target}", named))
                    named = f"_f4_{target}"
                if rule.follow:
                    rejects.append(f"{guard} and (_card_suit != {named} if {named} >= 0 else {follows})")
                    reads |= guard_reads | follows_reads | {named}
                else:
                    rejects.append(f"{guard} and {named} >= 0 and _card_suit != {named}")
                    reads |= guard_reads | {named, "_card_suit"}
            elif rule.follow:
                rejects.append(f"{guard} and {follows}")
                reads |= guard_reads | follows_reads
        accepts = [f"not ({reject})" for reject in rejects]
        if residual.text != "True":
            rejects.append(f"not {residual.text}")
            accepts.append(residual.text)
        pile = (checks_pile and not engine_side) or residual.reads.get("_pd", 0) > 0
        wild_declares = self.game.wild_declares[target]
        reads |= {*residual.reads, *residual.outer_reads}
        if self.unrolled:
            reads.discard("_depot")  # written out, the target is its number
        return _Accept(
            pile, rejects, accepts, wild_declares, residual.outer, engine_side + residual.target, frozenset(reads)
        )

    @staticmethod
    def action_block(
        runs: bool, wild_declares: int, depot: str, move: str, declarations: tuple[str, frozenset[str]]
    ) -> Block:
        """Appending the move(s) onto ``depot``: ``move`` for one card, else the run's; a wild card
        that names a suit appends ``declarations`` (its text, the locals it reads) instead."""
        run = f"_append({move} if _count == 1 else _run_move(_source, _count, {depot}, None))"
        plain = run if runs else f"_append({move})"
        reads = {"_append", *(("_count", "_run_move", "_source") if runs else ())}
        block = Block()
        if wild_declares >= 0:
            text, declaration_reads = declarations
            extend = f"if _card_rank == {wild_declares}: _extend({text})"
            block.line(extend, {"_card_rank", "_extend", *declaration_reads})
            return block.line(f"else: {plain}", reads)
        return block.line(plain, reads)

    def accept_block(self, target: int, runs: bool) -> tuple[Block, list[tuple[str, str]]]:
        """Lines that ``continue`` when ``target`` refuses the cards, else append the move(s), with
        the locals they read; and the assignments they need before the loop over targets."""
        parts = self.accept_parts(target, runs)
        block = Block(reads=parts.reads)
        if parts.pile:
            block.assign("_pd", "P[_depot]")
        for reject in parts.rejects:
            block.line(f"if {reject}: continue")
        count = "_count" if runs else "1"
        declarations = (f"_declarations(_source, {count}, _depot)", frozenset({"_declarations", "_source", count}))
        block.add(self.action_block(runs, parts.wild_declares, "_depot", "_moves_to[_depot]", declarations))
        return block, parts.hoisted

    def pair_block(self, source: int, target: int, runs: bool, move: str) -> tuple[Block, list[tuple[str, str]]]:
        """The lines that append the moves onto ``target`` if it accepts the cards, written out
        for it (``_depot`` the number, target-only parts its own locals, ``move`` the name of its
        one-card move), with the locals they read; and the assignments they need before the targets."""
        parts = self.accept_parts(target, runs)
        if parts.per_target:
            self.targets.setdefault(target, [])
            for local, text in parts.per_target:
                if (local, text) not in self.targets[target]:
                    self.targets[target].append((local, text))
        block = Block(reads=parts.reads)
        if parts.pile:
            block.assign("_pd", f"P[{target}]")
        test = " and ".join(parts.accepts) or "True"
        if runs:
            declarations = (f"_declarations(_source, _count, {target})", frozenset({"_declarations", "_source"}))
        else:  # the suits a wild card may name here, as one constant
            declarations = (self.code.constant(self.game.declarations(source, 1, target)), frozenset())
        block.nest(f"if {test}:").add(self.action_block(runs, parts.wild_declares, str(target), move, declarations))
        return block, parts.hoisted

    def target_block(self) -> Block:
        """The per-target assignments of the written-out pairs, for the top of the lister."""
        block = Block()
        for target, assignments in sorted(self.targets.items()):
            block.assign("_pd", f"P[{target}]")
            for local, text in assignments:
                block.assign(local, text)
        return block

    # The setup of one source's cards, shared by the loop over a run (:meth:`run_block`) and the
    # run written out (:meth:`unrolled_block`); both have ``_ps``, the source's pile, in scope.

    @staticmethod
    def top_card(block: Block, reads: frozenset[str]) -> Block:
        """For a top-only source whose top card ``_card`` is face up: ``_cards`` when the tests read it."""
        if "_cards" in reads:
            block.assign("_cards", "_ps[-1:]")
        return block

    def run_lengths(self, block: Block) -> Block:
        """The length ``_up`` of the source's face-up run, then the loop over the lengths ``_count`` that
        move, opened in ``block`` and returned."""
        block.assign("_up", "1").assign("_size", "len(_ps)")
        block.line(f"while _up < _size and _ps[-1 - _up] & {FACE_UP}: _up += 1")
        return block.nest(f"for _count in {self.code.constant(range)}(1, _up + 1):", defines=("_count",))

    def run_cards(self, block: Block, eject: str) -> Block:
        """Inside the loop over lengths: the cards moved, the first of them, and the eject rule's test
        (a :func:`suffix_closed` one ends the loop)."""
        block.assign("_cards", "_ps[-_count:]").assign("_card", "_cards[0]")
        if eject in self.closed_ejects:  # the shorter runs passed: only the new pair is tested
            block.assign("_pair", "_ps[_size - _count:_size - _count + 2]", ("_ps", "_size", "_count"))
            block.line(f"if not {eject}: break")
        elif eject:
            block.line(f"if not {eject}: continue")
        return block

    def gated_run_cards(self, block: Block, eject: str) -> Block:
        """:meth:`run_cards` with the gate first: a card no target could take (:mod:`.accept_gate`) is skipped before
        the eject rule is asked. A :func:`suffix_closed` rule is asked, when a card passes, about every length up to
        its own not asked yet, in order, and the first it refuses ends the loop as it would have ended it without the
        gate: every longer run is refused too, and the shorter lengths skipped listed nothing."""
        block.assign("_card", "_ps[-_count]")
        block.line("if not _gate_bit[_card] & _gate: continue")
        if eject in self.closed_ejects:
            catch_up = block.nest("while _asked < _count:")
            catch_up.line("_asked += 1").assign("_card", "_ps[-_asked]")
            catch_up.assign("_pair", "_ps[_size - _asked:_size - _asked + 2]", ("_ps", "_size", "_asked"))
            catch_up.nest(f"if not {eject}:").assign("_refused", "True").line("break")
            block.line("if _refused: break")  # the while left _card the lowest card of this run
            block.assign("_cards", "_ps[-_count:]")
        else:
            block.assign("_cards", "_ps[-_count:]")
            if eject:
                block.line(f"if not {eject}: continue")
        return block

    def card_locals(self, block: Block, hoisted: dict[str, str], reads: frozenset[str]) -> Block:
        """The parts of the rules hoisted out of the targets, and the moved card's rank and suit where read."""
        for local, code in hoisted.items():
            block.assign(local, code)
        for local, lookup in (("_card_rank", self.rank), ("_card_suit", self.suit)):
            if local in reads:
                block.assign(local, f"{lookup}[_card]")
        return block

    def run_block(self, run: _Run) -> Block:
        """The loop over one run of sources."""
        kind, eject = run.eject
        runs = kind is not EjectKind.TOP_ONLY
        blocks: dict[tuple[str, ...], tuple[int, Block]] = {}
        hoisted: dict[str, str] = {}
        reads = set(self.eject_reads[eject])
        table: list[tuple[int, list[tuple[int, int]], Any]] = []
        size = len(self.game.names)
        for entry in run.entries:
            targets = []
            moves_to: list[Move | None] = [None] * size
            for target in entry.targets:
                block, needs = self.accept_block(target.depot, runs)
                hoisted.update(needs)
                reads |= block.all_reads()
                number, _ = blocks.setdefault(block.key(), (len(blocks), block))
                targets.append((target.depot, number))
                moves_to[target.depot] = target.move
            if size <= _DENSE_LIMIT:
                table.append((entry.source, targets, tuple(moves_to)))
            else:  # a row per source would grow with the square of the depots
                table.append((entry.source, targets, {t.depot: t.move for t in entry.targets}))
        dispatch = len(blocks) > 1
        # One field per target unpacks faster than a tuple; a move is looked up only once accepted.
        fields = "_depot, _spec" if dispatch else "_depot"
        data = tuple(
            (source, tuple(targets if dispatch else (depot for depot, _ in targets)), moves_to)
            for source, targets, moves_to in table
        )
        face_up = FACE_UP
        read = frozenset(reads)
        loop = Block(f"for _source, _targets, _moves_to in {self.code.constant(data)}:")
        loop.defines |= {"_source", "_targets", "_moves_to"}
        loop.assign("_ps", "P[_source]")
        if not runs:
            loop.line("if not _ps: continue").assign("_card", "_ps[-1]").line(f"if not _card & {face_up}: continue")
            cards = self.top_card(loop, read)
        else:
            loop.line(f"if not _ps or not _ps[-1] & {face_up}: continue")
            cards = self.run_cards(self.run_lengths(loop), eject)
        self.card_locals(cards, hoisted, read)
        per_target = cards.nest(f"for {fields} in _targets:", {"_targets"}, fields.split(", "))
        if not dispatch:
            per_target.add(next(iter(blocks.values()))[1])
        else:
            for number, block in blocks.values():
                per_target.nest(f"{'if' if number == 0 else 'elif'} _spec == {number}:").add(block)
        return loop

    def unrolled_block(self, run: _Run) -> Block:
        """One run of sources written out: per source its eject test, then every target's test."""
        kind, eject = run.eject
        runs = kind is not EjectKind.TOP_ONLY
        face_up = FACE_UP
        written = Block()
        for entry in run.entries:
            pairs = Block()
            hoisted: dict[str, str] = {}
            for target in entry.targets:
                move = self.code.constant(target.move)
                pair, needs = self.pair_block(entry.source, target.depot, runs, move)
                pairs.add(pair)
                hoisted.update(needs)
            read = self.eject_reads[eject] | pairs.all_reads()
            if "_source" in read:
                written.assign("_source", str(entry.source))
            written.assign("_ps", f"P[{entry.source}]")
            if not runs:
                guard = written.nest("if _ps:").assign("_card", "_ps[-1]")
                up = guard.nest(f"if _card & {face_up}:")
                cards = self.top_card(up.nest("if _gate_bit[_card] & _gate:") if self.gated else up, read)
            elif self.gated:
                lengths = written.nest(f"if _ps and _ps[-1] & {face_up}:")
                if eject in self.closed_ejects:  # the lengths the eject rule was asked about (gated_run_cards)
                    lengths.assign("_asked", "0").assign("_refused", "False")
                cards = self.gated_run_cards(self.run_lengths(lengths), eject)
            else:
                cards = self.run_cards(self.run_lengths(written.nest(f"if _ps and _ps[-1] & {face_up}:")), eject)
            self.card_locals(cards, hoisted, read).add(pairs)
        return written


def _tap_block(game: GamePlan, design: Design, code: InlineCode) -> Block:
    """The taps in order (depots in order, a depot's draw before its actions), each tested inline."""
    rules: list[Expr | None] = []
    for depot in design.depots:
        if depot.spec.draw is not None:
            rules.append(None)
        rules += [action.when for action in depot.spec.actions]
    block = Block()
    if game.draws:
        block.assign("_redeals", "S.redeals")
    if any(action.limit is not None for action in game.actions):
        block.assign("_uses", "S.uses")
    for tap, when in zip(game.taps, rules, strict=True):
        move = code.constant(tap.move)
        if isinstance(tap, CompiledDraw):
            block.line(f"if P[{tap.depot}] or (_redeals[{tap.depot}] != 0 and P[{tap.to}]): _append({move})")
            continue
        tests = [] if tap.limit is None else [f"_uses[{tap.slot}] < {int(tap.limit)}"]
        if when is not None:
            rule = inline_rule(code, when, Site.ACTION, design, {"depot": "_depot"}, "_pd")
            block.assign("_depot", str(tap.depot))
            if rule.reads.get("_pd"):
                block.assign("_pd", f"P[{tap.depot}]")
            tests.append(rule.text)
        block.line(f"if {' and '.join(tests) or 'True'}: _append({move})")
    return block


def _gate_block(gate: AcceptGate, code: InlineCode) -> Block:
    """``_gate``: the OR of the masks of the cards each target could take on its top (:mod:`.accept_gate`), from
    the tables of the bottom cards the position has (made on the first call with those)."""
    key = ", ".join(f"(P[{d}][0] if P[{d}] else -1)" for d in gate.bottoms)
    block = Block().assign("_gate_key", f"({key},)" if key else "()")
    block.assign("_gate_tables", f"{code.constant(gate.kept)}.get(_gate_key)")
    block.line(f"if _gate_tables is None: _gate_tables = {code.constant(gate.tables)}(_gate_key, S)")
    masks = " | ".join(f"_gate_tables[{i}][(P[{t}][-1] if P[{t}] else {EMPTY})]" for i, t in enumerate(gate.targets))
    return block.assign("_gate", masks).assign("_gate_bit", code.constant(gate.bit))


def lister_block(game: GamePlan, design: Design, gated: bool = True) -> tuple[Block, InlineCode]:
    """The body of the move lister of ``game``, and the code (its constants) it was written with; with ``gated``,
    the lister skips the cards no target could take (:mod:`.accept_gate`) where it writes each pair out."""
    pairs = sum(len(entry.targets) for entry in game.drag_plan)
    unrolled = pairs <= _UNROLL_LIMIT
    targets = sorted({target.depot for entry in game.drag_plan for target in entry.targets})
    many = bool(targets) and pairs >= GATE_TARGETS * len(game.drag_plan)
    gate = accept_gate(game, targets) if gated and unrolled and many else None
    if gate is not None and gate.coverage() > GATE_COVERAGE:
        gate = None
    writer = _Writer(game, design, unrolled=unrolled, gated=gate is not None)
    runs: list[_Run] = []
    for entry in game.drag_plan:
        eject = writer.eject_test(entry.source)
        if runs and runs[-1].eject == eject:
            runs[-1].entries.append(entry)
        else:
            runs.append(_Run(eject, [entry]))
    body = Block()
    for run in runs:
        body.add(writer.unrolled_block(run) if writer.unrolled else writer.run_block(run))
    code = writer.code
    body.add(_tap_block(game, design, code))
    head = Block().assign("_moves", f"{code.constant(list)}()").assign("_append", "_moves.append")
    if any(w >= 0 for w in game.wild_declares):
        head.assign("_extend", "_moves.extend").assign("_declarations", code.constant(game.declarations))
    if writer.uses_declared:
        head.assign("_declared", "S.declared")
    if any(run.eject[0] is not EjectKind.TOP_ONLY for run in runs):
        head.assign("_run_move", code.constant(game.drag_move))
    for local, text in writer.per_call.items():  # before the per-target parts, which may read them
        head.assign(local, text)
    if gate is not None:
        head.add(_gate_block(gate, code))
    head.add(writer.target_block()).add(body).line("return _moves", {"_moves"})
    return head, code


def build_move_lister(game: GamePlan, design: Design, gated: bool = True) -> tuple[MoveLister, str]:
    """The generated move lister of ``game`` and its Python source (for tests and debugging); ``gated`` as
    :func:`lister_block` has it (off, for the tests that compare the two)."""
    block, code = lister_block(game, design, gated)
    return code.function("_list_moves", ["P", "S"], block.render(), _ATTRIBUTES)
