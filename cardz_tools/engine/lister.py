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
is built) small.

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
from ..model import Design, EjectKind, Expr
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
_TARGET_SIDE = frozenset({"depot", "top"})
_RUN_TESTS = frozenset({"descending", "ascending", "sameSuit", "alternating"})
"""Calls on ``cards`` that hold of a run only when they hold of each pair of neighbours in it."""
_PAIR_NODES = (expr_ast.Binary, expr_ast.Unary, expr_ast.Field, expr_ast.IntLit, expr_ast.BoolLit)


def suffix_closed(tree: expr_ast.Node) -> bool:
    """Whether an eject rule ``tree`` that refuses the top ``k`` cards surely refuses the top ``k + 1``:
    a conjunction of tests each of which reads only the pairs of neighbours in ``cards``
    (:data:`_RUN_TESTS`, or ``chain(cards, ...)`` over ``it`` and ``prev`` alone). The top ``k``
    cards' pairs are some of the top ``k + 1`` cards' pairs, so the lister may stop at the first
    run length the rule refuses (no longer run can move)."""
    if isinstance(tree, expr_ast.Binary) and tree.op == "&&":
        return suffix_closed(tree.left) and suffix_closed(tree.right)
    if not isinstance(tree, expr_ast.Call) or not tree.args or tree.args[0] != expr_ast.Name("cards"):
        return False
    if tree.func in _RUN_TESTS:
        return len(tree.args) == 1
    if tree.func != "chain" or len(tree.args) != 2 or tree.var is not None:
        return False
    for node in expr_ast.walk(tree.args[1]):
        if isinstance(node, expr_ast.Name):
            if node.name not in ("it", "prev"):
                return False
        elif not isinstance(node, _PAIR_NODES):
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
    """The rank of a wild card that names a suit here, or -1: what :meth:`_Writer.action_lines` appends."""
    hoisted: list[tuple[str, str]]
    """Assignments to run once per source (or run length), before the targets."""
    per_target: list[tuple[str, str]]
    """Assignments that read only the target (its pile ``_pd``): once per target and call. Written
    out, the target's number is in them and their locals are the target's own (``_f1_7``)."""
    reads: frozenset[str]
    """The locals the tests, the appended moves and the hoisted assignments read, as written."""


class _Writer:
    """Writes the lister's source lines."""

    def __init__(self, game: GamePlan, design: Design, unrolled: bool) -> None:
        self.game = game
        self.design = design
        self.unrolled = unrolled
        """Each (source, target) pair written out, the target-only parts of its rule worked out once per call."""
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

    def eject_test(self, source: int) -> tuple[EjectKind, str]:
        """The eject kind and, for ``when``, the rule as inline text over the run's locals."""
        kind = self.game.eject_kind[source]
        rule = self.game.eject_rules[source]
        if kind is EjectKind.WHEN and rule.when is not None:
            test = inline_rule(self.code, rule.when, Site.EJECT, self.design, _EJECT_NAMES, "_ps")
            self.eject_reads[test.text] = frozenset(test.reads)
            if suffix_closed(parse(rule.when.text)):
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
                self.code, when, Site.ACCEPT, self.design, _ACCEPT_NAMES, "_pd", _SOURCE_SIDE, inner
            )
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
        return _Accept(
            pile, rejects, accepts, wild_declares, residual.outer, engine_side + residual.target, frozenset(reads)
        )

    @staticmethod
    def action_lines(
        runs: bool, wild_declares: int, depot: str, move: str, declarations: tuple[str, frozenset[str]]
    ) -> tuple[list[str], frozenset[str]]:
        """Appending the move(s) onto ``depot``: ``move`` for one card, else the run's; a wild card
        that names a suit appends ``declarations`` (its text, the locals it reads) instead.
        Returns the lines and the locals they read."""
        run = f"_append({move} if _count == 1 else _run_move(_source, _count, {depot}, None))"
        plain = run if runs else f"_append({move})"
        reads = {"_append", *(("_count", "_run_move", "_source") if runs else ())}
        if wild_declares >= 0:
            text, declaration_reads = declarations
            lines = [f"if _card_rank == {wild_declares}: _extend({text})", f"else: {plain}"]
            return lines, frozenset({*reads, "_card_rank", "_extend", *declaration_reads})
        return [plain], frozenset(reads)

    def accept_block(self, target: int, runs: bool) -> tuple[list[str], list[tuple[str, str]], frozenset[str]]:
        """Lines that ``continue`` when ``target`` refuses the cards, else append the move(s);
        the assignments they need before the loop over targets; and the locals they read."""
        parts = self.accept_parts(target, runs)
        lines = ["_pd = P[_depot]"] if parts.pile else []
        lines += [f"if {reject}: continue" for reject in parts.rejects]
        count = "_count" if runs else "1"
        declarations = (f"_declarations(_source, {count}, _depot)", frozenset({"_declarations", "_source", count}))
        actions, reads = self.action_lines(runs, parts.wild_declares, "_depot", "_moves_to[_depot]", declarations)
        return lines + actions, parts.hoisted, parts.reads | reads

    def pair_lines(
        self, source: int, target: int, runs: bool, move: str
    ) -> tuple[list[str], list[tuple[str, str]], frozenset[str]]:
        """The lines that append the moves onto ``target`` if it accepts the cards, written out
        for it (``_depot`` the number, target-only parts its own locals, ``move`` the name of its
        one-card move); the assignments they need before the targets; and the locals they read."""
        parts = self.accept_parts(target, runs)
        if parts.per_target:
            self.targets.setdefault(target, [])
            for local, text in parts.per_target:
                if (local, text) not in self.targets[target]:
                    self.targets[target].append((local, text))
        lines = [f"_pd = P[{target}]"] if parts.pile else []
        test = " and ".join(parts.accepts) or "True"
        if runs:
            declarations = (f"_declarations(_source, _count, {target})", frozenset({"_declarations", "_source"}))
        else:  # the suits a wild card may name here, as one constant
            declarations = (self.code.constant(self.game.declarations(source, 1, target)), frozenset())
        actions, reads = self.action_lines(runs, parts.wild_declares, str(target), move, declarations)
        lines += [f"if {test}:", *("    " + action for action in actions)]
        return lines, parts.hoisted, parts.reads | reads

    def target_lines(self) -> list[str]:
        """The per-target assignments of the written-out pairs, for the top of the lister."""
        lines: list[str] = []
        for target, assignments in sorted(self.targets.items()):
            lines.append(f"_pd = P[{target}]")
            lines += [f"{local} = {text}" for local, text in assignments]
        return lines

    # The setup of one source's cards, shared by the loop over a run (:meth:`run_lines`) and the
    # run written out (:meth:`unrolled_lines`); both have ``_ps``, the source's pile, in scope.

    @staticmethod
    def top_card_lines(reads: frozenset[str]) -> list[str]:
        """For a top-only source whose top card ``_card`` is face up: ``_cards`` when the tests read it."""
        return ["_cards = _ps[-1:]"] if "_cards" in reads else []

    def run_length_lines(self) -> list[str]:
        """The length ``_up`` of the source's face-up run, and the loop over the lengths ``_count`` that move."""
        return [
            "_up = 1",
            "_size = len(_ps)",
            f"while _up < _size and _ps[-1 - _up] & {FACE_UP}: _up += 1",
            f"for _count in {self.code.constant(range)}(1, _up + 1):",
        ]

    def run_cards_lines(self, eject: str) -> list[str]:
        """Inside the loop over lengths: the cards moved, the first of them, and the eject rule's test
        (a :func:`suffix_closed` one ends the loop)."""
        step = "break" if eject in self.closed_ejects else "continue"
        return ["_cards = _ps[-_count:]", "_card = _cards[0]", *([f"if not {eject}: {step}"] if eject else [])]

    def card_locals(self, hoisted: dict[str, str], reads: frozenset[str]) -> list[str]:
        """The parts of the rules hoisted out of the targets, and the moved card's rank and suit where read."""
        lines = [f"{local} = {code}" for local, code in hoisted.items()]
        for local, lookup in (("_card_rank", self.rank), ("_card_suit", self.suit)):
            if local in reads:
                lines.append(f"{local} = {lookup}[_card]")
        return lines

    def run_lines(self, run: _Run) -> list[str]:
        """The loop over one run of sources."""
        kind, eject = run.eject
        runs = kind is not EjectKind.TOP_ONLY
        blocks: dict[tuple[str, ...], int] = {}
        hoisted: dict[str, str] = {}
        reads = set(self.eject_reads[eject])
        table: list[tuple[int, list[tuple[int, int]], Any]] = []
        size = len(self.game.names)
        for entry in run.entries:
            targets = []
            moves_to: list[Move | None] = [None] * size
            for target in entry.targets:
                block_lines, needs, block_reads = self.accept_block(target.depot, runs)
                block = tuple(block_lines)
                hoisted.update(needs)
                reads |= block_reads
                targets.append((target.depot, blocks.setdefault(block, len(blocks))))
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
        lines = [f"for _source, _targets, _moves_to in {self.code.constant(data)}:", "    _ps = P[_source]"]
        if not runs:
            lines += ["    if not _ps: continue", "    _card = _ps[-1]", f"    if not _card & {face_up}: continue"]
            indent = "    "
            setup = self.top_card_lines(read)
        else:
            lines.append(f"    if not _ps or not _ps[-1] & {face_up}: continue")
            lines += ["    " + line for line in self.run_length_lines()]
            indent = "        "
            setup = self.run_cards_lines(eject)
        setup += self.card_locals(hoisted, read)
        lines += [indent + line for line in setup]
        lines.append(f"{indent}for {fields} in _targets:")
        inner = indent + "    "
        if not dispatch:
            lines += [inner + line for line in next(iter(blocks))]
        else:
            for number, block in enumerate(blocks):
                lines.append(f"{inner}{'if' if number == 0 else 'elif'} _spec == {number}:")
                lines += [inner + "    " + line for line in block]
        return lines


    def unrolled_lines(self, run: _Run) -> list[str]:
        """One run of sources written out: per source its eject test, then every target's test."""
        kind, eject = run.eject
        runs = kind is not EjectKind.TOP_ONLY
        face_up = FACE_UP
        lines: list[str] = []
        for entry in run.entries:
            pairs: list[str] = []
            hoisted: dict[str, str] = {}
            reads = set(self.eject_reads[eject])
            for target in entry.targets:
                move = self.code.constant(target.move)
                pair, needs, pair_reads = self.pair_lines(entry.source, target.depot, runs, move)
                pairs += pair
                hoisted.update(needs)
                reads |= pair_reads
            read = frozenset(reads)
            if "_source" in read:
                lines.append(f"_source = {entry.source}")
            lines.append(f"_ps = P[{entry.source}]")
            outer: list[str] = []
            if not runs:
                lines += ["if _ps:", "    _card = _ps[-1]", f"    if _card & {face_up}:"]
                inner = self.top_card_lines(read)
            else:
                lines.append(f"if _ps and _ps[-1] & {face_up}:")
                outer = self.run_length_lines()
                inner = self.run_cards_lines(eject)
            inner += self.card_locals(hoisted, read)
            inner += pairs
            lines += ["    " + line for line in outer]
            lines += ["        " + line for line in inner]
        return lines


def _tap_lines(game: GamePlan, design: Design, code: InlineCode) -> list[str]:
    """The taps in order (depots in order, a depot's draw before its actions), each tested inline."""
    rules: list[Expr | None] = []
    for depot in design.depots:
        if depot.spec.draw is not None:
            rules.append(None)
        rules += [action.when for action in depot.spec.actions]
    lines: list[str] = []
    if game.draws:
        lines.append("_redeals = S.redeals")
    if any(action.limit is not None for action in game.actions):
        lines.append("_uses = S.uses")
    for tap, when in zip(game.taps, rules, strict=True):
        move = code.constant(tap.move)
        if isinstance(tap, CompiledDraw):
            lines.append(f"if P[{tap.depot}] or (_redeals[{tap.depot}] != 0 and P[{tap.to}]): _append({move})")
            continue
        tests = [] if tap.limit is None else [f"_uses[{tap.slot}] < {int(tap.limit)}"]
        if when is not None:
            rule = inline_rule(code, when, Site.ACTION, design, {"depot": "_depot"}, "_pd")
            lines.append(f"_depot = {tap.depot}")
            if rule.reads.get("_pd"):
                lines.append(f"_pd = P[{tap.depot}]")
            tests.append(rule.text)
        lines.append(f"if {' and '.join(tests) or 'True'}: _append({move})")
    return lines


def build_move_lister(game: GamePlan, design: Design) -> tuple[MoveLister, str]:
    """The generated move lister of ``game`` and its Python source (for tests and debugging)."""
    pairs = sum(len(entry.targets) for entry in game.drag_plan)
    writer = _Writer(game, design, unrolled=pairs <= _UNROLL_LIMIT)
    runs: list[_Run] = []
    for entry in game.drag_plan:
        eject = writer.eject_test(entry.source)
        if runs and runs[-1].eject == eject:
            runs[-1].entries.append(entry)
        else:
            runs.append(_Run(eject, [entry]))
    body: list[str] = []
    for run in runs:
        body += writer.unrolled_lines(run) if writer.unrolled else writer.run_lines(run)
    code = writer.code
    body += _tap_lines(game, design, code)
    head = [f"_moves = {code.constant(list)}()", "_append = _moves.append"]
    if any(w >= 0 for w in game.wild_declares):
        head += ["_extend = _moves.extend", f"_declarations = {code.constant(game.declarations)}"]
    if writer.uses_declared:
        head.append("_declared = S.declared")
    if any(run.eject[0] is not EjectKind.TOP_ONLY for run in runs):
        head.append(f"_run_move = {code.constant(game.drag_move)}")
    head += writer.target_lines()
    return code.function("_list_moves", ["P", "S"], [*head, *body, "return _moves"], _ATTRIBUTES)
