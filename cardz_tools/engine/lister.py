"""One generated function per game that lists every legal move, the rules written inline.

Calling a compiled rule for each candidate ``(source, target)`` pair costs more than the
test itself, so :func:`build_drag_lister` writes the whole drag listing as Python source:
a loop over the sources (their eject rule inline: ``topOnly``, ``faceUp``, ``when``), a
loop over each source's candidate targets (those the static filter left, see
:class:`~cardz_tools.engine.game.Game`), the accept rule inline (``single``, ``follow``,
wild cards and named suits, the residual ``when``), and appending interned moves.

The text comes from the expression compiler (:mod:`cardz_tools.engine.rules`,
:class:`cardz_tools.expr.inline.InlineCode`) and from this module's own tokens; the
sources, targets and moves are closure constants. The lister returns the drags in the
documented order: by source, run length, target, named suit; then the taps by depot,
a depot's draw before its actions, each action's ``when`` inline too.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, NamedTuple

from ..cards import FACE_UP, RANK_OF, SUIT_OF
from ..model import Design, EjectKind, Expr
from .moves import Move
from .rules import InlineCode, Site, inline_code, inline_rule

if TYPE_CHECKING:
    from .game import DragSource, Game

MoveLister = Callable[[Sequence[tuple[int, ...]], Any], list[Move]]
"""``lister(P, S) -> moves``: the legal moves of a state that is not over."""

_ACCEPT_NAMES = {"card": "_card", "cards": "_cards", "source": "_source", "depot": "_depot"}
_EJECT_NAMES = {"card": "_card", "cards": "_cards", "depot": "_source"}
_SOURCE_SIDE = frozenset({"card", "cards", "source"})
_ATTRIBUTES = frozenset({"append", "extend", "declared", "redeals", "uses"})
"""The attributes the lister's own lines read (for the sandbox audit)."""
_DENSE_LIMIT = 512
"""Up to this many depots a source's moves are a tuple indexed by target, beyond it a dict."""


class _Run(NamedTuple):
    """Consecutive drag sources whose eject rules generate the same code."""

    eject: tuple[EjectKind, str]
    entries: list[DragSource]


class _Writer:
    """Writes the lister's source lines."""

    def __init__(self, game: Game, design: Design) -> None:
        self.game = game
        self.design = design
        self.code: InlineCode = inline_code(design)
        self.rank = self.code.constant(RANK_OF)
        self.suit = self.code.constant(SUIT_OF)
        self.residuals: dict[str, tuple[str, list[tuple[str, str]]]] = {}
        self.uses_declared = False

    def eject_test(self, source: int) -> tuple[EjectKind, str]:
        """The eject kind and, for ``when``, the rule as inline text over the run's locals."""
        kind = self.game.eject_kind[source]
        rule = self.game.eject_rules[source]
        if kind is EjectKind.WHEN and rule.when is not None:
            return kind, inline_rule(self.code, rule.when, Site.EJECT, self.design, _EJECT_NAMES, "_ps")[0]
        return (EjectKind.FACE_UP if kind is EjectKind.WHEN else kind), ""

    def residual(self, target: int) -> tuple[str, list[tuple[str, str]]]:
        """The accept rule's ``when`` without its static part, inline, and what to hoist out of
        the loop over targets (written once per rule text: equal texts give equal code)."""
        when = self.game.accept_rules[target].when
        if when is None:
            return "True", []
        if when.text not in self.residuals:
            self.residuals[when.text] = inline_rule(
                self.code, when, Site.ACCEPT, self.design, _ACCEPT_NAMES, "_pd", residual=True, outer=_SOURCE_SIDE
            )
        return self.residuals[when.text]

    def accept_block(self, target: int, runs: bool) -> tuple[list[str], list[tuple[str, str]]]:
        """Lines that ``continue`` when ``target`` refuses the cards, else append the move(s);
        and the assignments they need before the loop over targets."""
        rule = self.game.accept_rules[target]
        rank, suit = self.rank, self.suit
        lines: list[str] = []
        if runs and rule.single:
            lines.append("if _count > 1: continue")
        residual, hoisted = self.residual(target)
        checks_pile = rule.follow or rule.wild_rank is not None
        if checks_pile or "_pd" in residual:
            lines.append("_pd = P[_depot]")
        if checks_pile:
            wild = int(rule.wild_rank) if rule.wild_rank is not None else -1
            guard = "_pd" if wild < 0 else f"_pd and _card_rank != {wild}"
            follows = f"_card_rank != {rank}[_pd[-1]] and _card_suit != {suit}[_pd[-1]]"
            if rule.wild_declares == "suit":
                self.uses_declared = True
                lines += [f"if {guard}:", "    _named = _declared[_depot]", "    if _named >= 0:"]
                lines.append("        if _card_suit != _named: continue")
                if rule.follow:
                    lines.append(f"    elif {follows}: continue")
            elif rule.follow:
                lines.append(f"if {guard} and {follows}: continue")
        if residual != "True":
            lines.append(f"if not {residual}: continue")
        wild_declares = self.game.wild_declares[target]
        plain = (
            "_append(_moves_to[_depot] if _count == 1 else _run_move(_source, _count, _depot, None))"
            if runs
            else "_append(_moves_to[_depot])"
        )
        if wild_declares >= 0:
            declarations = "_declarations(_source, _count, _depot)" if runs else "_declarations(_source, 1, _depot)"
            lines += [f"if _card_rank == {wild_declares}: _extend({declarations})", f"else: {plain}"]
        else:
            lines.append(plain)
        return lines, hoisted

    def run_lines(self, run: _Run) -> list[str]:
        """The loop over one run of sources."""
        kind, eject = run.eject
        runs = kind is not EjectKind.TOP_ONLY
        blocks: dict[tuple[str, ...], int] = {}
        hoisted: dict[str, str] = {}
        table: list[tuple[int, list[tuple[int, int]], Any]] = []
        size = len(self.game.names)
        for entry in run.entries:
            targets = []
            moves_to: list[Move | None] = [None] * size
            for target in entry.targets:
                block_lines, needs = self.accept_block(target.depot, runs)
                block = tuple(block_lines)
                hoisted.update(needs)
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
        text_of_blocks = "\n".join(line for block in blocks for line in block) + eject + "\n".join(hoisted.values())
        lines = [f"for _source, _targets, _moves_to in {self.code.constant(data)}:", "    _ps = P[_source]"]
        if not runs:
            lines += ["    if not _ps: continue", "    _card = _ps[-1]", f"    if not _card & {face_up}: continue"]
            if "_cards" in text_of_blocks:
                lines.append("    _cards = _ps[-1:]")
            indent = "    "
        else:
            lines += [
                f"    if not _ps or not _ps[-1] & {face_up}: continue",
                "    _up = 1",
                "    _size = len(_ps)",
                f"    while _up < _size and _ps[-1 - _up] & {face_up}: _up += 1",
                f"    for _count in {self.code.constant(range)}(1, _up + 1):",
                "        _cards = _ps[-_count:]",
                "        _card = _cards[0]",
            ]
            if eject:
                lines.append(f"        if not {eject}: continue")
            indent = "        "
        lines += [f"{indent}{local} = {code}" for local, code in hoisted.items()]
        for local, lookup in (("_card_rank", self.rank), ("_card_suit", self.suit)):
            if local in text_of_blocks:
                lines.append(f"{indent}{local} = {lookup}[_card]")
        lines.append(f"{indent}for {fields} in _targets:")
        inner = indent + "    "
        if not dispatch:
            lines += [inner + line for line in next(iter(blocks))]
        else:
            for number, block in enumerate(blocks):
                lines.append(f"{inner}{'if' if number == 0 else 'elif'} _spec == {number}:")
                lines += [inner + "    " + line for line in block]
        return lines


def _tap_lines(game: Game, design: Design, code: InlineCode) -> list[str]:
    """The taps in order (depots in order, a depot's draw before its actions), each tested inline."""
    from .game import CompiledDraw  # game.py imports this module
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
            test, _ = inline_rule(code, when, Site.ACTION, design, {"depot": "_depot"}, "_pd")
            lines.append(f"_depot = {tap.depot}")
            if "_pd" in test:
                lines.append(f"_pd = P[{tap.depot}]")
            tests.append(test)
        lines.append(f"if {' and '.join(tests) or 'True'}: _append({move})")
    return lines


def build_move_lister(game: Game, design: Design) -> tuple[MoveLister, str]:
    """The generated move lister of ``game`` and its Python source (for tests and debugging)."""
    writer = _Writer(game, design)
    runs: list[_Run] = []
    for entry in game.drag_plan:
        eject = writer.eject_test(entry.source)
        if runs and runs[-1].eject == eject:
            runs[-1].entries.append(entry)
        else:
            runs.append(_Run(eject, [entry]))
    body: list[str] = []
    for run in runs:
        body += writer.run_lines(run)
    code = writer.code
    body += _tap_lines(game, design, code)
    head = [f"_moves = {code.constant(list)}()", "_append = _moves.append"]
    if any(w >= 0 for w in game.wild_declares):
        head += ["_extend = _moves.extend", f"_declarations = {code.constant(game.declarations)}"]
    if writer.uses_declared:
        head.append("_declared = S.declared")
    if any(run.eject[0] is not EjectKind.TOP_ONLY for run in runs):
        head.append(f"_run_move = {code.constant(game.drag_move)}")
    return code.function("_list_moves", ["P", "S"], [*head, *body, "return _moves"], _ATTRIBUTES)
