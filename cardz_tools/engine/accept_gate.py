"""The cards each target could take, by its top card: a gate before the move lister's tests of a card.

The move lister (:mod:`.lister`) tests every card it may drag (a top card, each run length's lowest card)
against every target's accept rule. Most cards go nowhere. A target's rule often has parts that read only the
moved ``card``, the target's ``top`` and ``empty(depot)``, and the bottom card of named depots (``bottom(found[0])``,
Canfield's base rank): :func:`gate_part` keeps those parts (a conjunct that reads anything else is dropped, the
branches of a ``?:`` on such a test are narrowed each) and so allows at least what the rule allows. Evaluated
for every card on every face-up top and on the empty pile, with the bottom cards the position has, they give one
mask of cards per target and top (:meth:`AcceptGate.tables`). The lister ORs the masks of every target's top into
one gate per call and skips a card outside it: no rule can take it, so no move of it is lost, and the moves
listed, and their order, are those of the lister without the gate (``tests/test_accept_gate.py``).

A card not of the design's deck and a top the tables were not evaluated on (a face-down top) are let through: the
gate only ever over-approximates. The masks depend on the bottom cards read, which the lister passes as the key
of the tables: tables made for other bottom cards would be wrong, never reused.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..cards import COLOR_NAMES, FACE_UP, RANK_NAMES_WITH_JOKER, SUIT_NAMES, Card, identity, standard_deck
from ..expr import ast as expr_ast
from ..expr import parse, to_source
from ..model import Expr
from .plan import GamePlan
from .rules import RuleError, Site, compile_rule

EMPTY = 256
"""The index of the empty pile in a target's table (card ints are below it)."""

TABLES_KEPT = 64
"""The most sets of bottom cards whose tables a gate keeps (then it forgets them all)."""

_CONSTANT_NAMES = frozenset(RANK_NAMES_WITH_JOKER) | frozenset(SUIT_NAMES) | frozenset(COLOR_NAMES)
_CARD_TOP = frozenset({"card", "top"})


def bottom_of(node: expr_ast.Node, members: dict[str, tuple[int, ...]]) -> int | None:
    """The depot ``X`` when ``node`` is ``bottom(X)`` and ``X`` names one depot (``found[0]``, a depot's name);
    ``members`` is :meth:`.Design.group_members`."""
    if not (isinstance(node, expr_ast.Call) and node.func == "bottom" and len(node.args) == 1 and node.var is None):
        return None
    arg = node.args[0]
    if isinstance(arg, expr_ast.Index) and isinstance(arg.value, expr_ast.Name) and isinstance(arg.index,
                                                                                                expr_ast.IntLit):
        group = members.get(arg.value.name, ())
        return group[arg.index.value] if 0 <= arg.index.value < len(group) else None
    if isinstance(arg, expr_ast.Name) and len(members.get(arg.name, ())) == 1:
        return members[arg.name][0]
    return None


def _reads_card_and_top(node: expr_ast.Node, members: dict[str, tuple[int, ...]]) -> bool:
    """Whether ``node`` reads only ``card``, ``top``, ``empty(depot)``, ``bottom(X)`` of named depots and constants."""
    if isinstance(node, (expr_ast.IntLit, expr_ast.BoolLit)):
        return True
    if isinstance(node, expr_ast.Name):
        return node.name in _CARD_TOP or node.name in _CONSTANT_NAMES
    if isinstance(node, expr_ast.Field):
        return _reads_card_and_top(node.value, members)
    if isinstance(node, expr_ast.Call):
        if node.var is not None:
            return False
        if node.func == "empty":
            return node.args == (expr_ast.Name(name="depot"),)
        if node.func == "exists":
            return len(node.args) == 1 and _reads_card_and_top(node.args[0], members)
        return bottom_of(node, members) is not None
    if isinstance(node, expr_ast.Binary) and node.op == "in":
        return False  # its right side is a group (``source in Tableau``)
    if isinstance(node, (expr_ast.Unary, expr_ast.Binary, expr_ast.Conditional)):
        return all(_reads_card_and_top(child, members) for child in expr_ast.iter_child_nodes(node))
    return False


def gate_part(node: expr_ast.Node, members: dict[str, tuple[int, ...]]) -> expr_ast.Node | None:
    """The parts of the accept rule ``node`` that read only what :func:`_reads_card_and_top` allows, as a rule
    that allows at least what ``node`` allows; None for "anything" (no such part)."""
    if isinstance(node, expr_ast.Binary) and node.op == "&&":
        left, right = gate_part(node.left, members), gate_part(node.right, members)
        if left is None or right is None:
            return left if right is None else right
        return expr_ast.Binary(op="&&", left=left, right=right)
    if isinstance(node, expr_ast.Conditional) and _reads_card_and_top(node.test, members):
        then, otherwise = gate_part(node.then, members), gate_part(node.otherwise, members)
        if then is None and otherwise is None:
            return None
        anything = expr_ast.BoolLit(value=True)
        return expr_ast.Conditional(test=node.test, then=then or anything, otherwise=otherwise or anything)
    return node if _reads_card_and_top(node, members) else None


class AcceptGate:
    """Per target of the move lister, the masks of the cards its rule could take (module doc)."""

    def __init__(self, game: GamePlan, targets: Sequence[int], rules: Sequence[Any], bottoms: tuple[int, ...]) -> None:
        self.game = game
        self.targets = tuple(targets)
        """The targets, in the order of :meth:`tables`."""
        self.rules = tuple(rules)
        """Per target, its compiled gate part (:func:`gate_part`)."""
        self.bottoms = bottoms
        """The depots whose bottom cards the gate parts read: the key of :meth:`tables` holds them in this order."""
        deck = sorted({identity(card) for card in standard_deck(game.design.decks, game.design.jokers,
                                                                 game.design.suits)})
        self.cards: tuple[Card, ...] = tuple(deck)
        """The cards of the design's deck (face bit clear): the gate's masks have a bit for each."""
        # Bit 0 is in every mask and is the bit of every card outside the deck: those always pass.
        place = {card: 1 << (i + 1) for i, card in enumerate(deck)}
        self.bit: list[int] = [place.get(card & ~FACE_UP, 1) for card in range(EMPTY)]
        """Per card int (face bit set or clear), its bit in the masks."""
        self.everything = (1 << (len(deck) + 1)) - 1
        self.kept: dict[tuple[Card, ...], tuple[list[int], ...]] = {}

    def tables(self, key: tuple[Card, ...], state: Any) -> tuple[list[int], ...]:
        """Per target (:attr:`targets`), the mask of the cards its rule could take, indexed by its top card, or by
        :data:`EMPTY` when it is empty; ``key`` holds the bottom card of each of :attr:`bottoms` (-1: empty).
        ``state`` is the state argument the rules get (the gate parts read none of it)."""
        found = self.kept.get(key)
        if found is None:
            if len(self.kept) >= TABLES_KEPT:
                self.kept.clear()
            # Targets with one rule share a table, unless the rule reads the target's own bottom card.
            shared: dict[tuple[int, int], list[int]] = {}
            tables = []
            for target, rule in zip(self.targets, self.rules, strict=True):
                slot = (id(rule), target if target in self.bottoms else -1)
                if slot not in shared:
                    shared[slot] = self._table(target, rule, key, state)
                tables.append(shared[slot])
            found = self.kept[key] = tuple(tables)
        return found

    def coverage(self) -> float:
        """About the share of the deck some target could take on a board without bottom cards, each target's top a
        face-up card at random: ``1 - prod(1 - p)`` over the targets, ``p`` the mean share of the deck its masks hold.
        Where most cards pass, the gate costs more than it skips (:data:`.lister.GATE_COVERAGE`)."""
        passing = 1.0
        tables = self.tables(tuple(-1 for _ in self.bottoms), None)  # the gate parts read nothing of the state
        for table in tables:
            held = [bin(table[card | FACE_UP]).count("1") - 1 for card in self.cards]
            passing *= 1 - sum(held) / (len(held) * len(self.cards))
        return 1 - passing

    def _table(self, target: int, rule: Any, key: tuple[Card, ...], state: Any) -> list[int]:
        """One target's masks (:meth:`tables`): the gate part evaluated on each face-up top and on the empty pile."""
        table = [self.everything] * (EMPTY + 1)
        piles: list[tuple[Card, ...]] = [()] * len(self.game.names)
        below: tuple[Card, ...] = ()
        for depot, card in zip(self.bottoms, key, strict=True):
            if card >= 0:
                piles[depot] = (card,)
                if depot == target:
                    below = (card,)
        for top in (*self.cards, None):
            piles[target] = () if top is None else (*below, top | FACE_UP)
            mask = 1
            try:
                for card in self.cards:
                    moved = card | FACE_UP
                    if rule(piles, state, moved, (moved,), target, target):
                        mask |= self.bit[moved]
            except Exception:  # a rule that fails here is left ungated: everything passes
                mask = self.everything
            table[EMPTY if top is None else top | FACE_UP] = mask
        return table


def accept_gate(game: GamePlan, targets: Sequence[int]) -> AcceptGate | None:
    """The gate of ``targets`` (module doc), or None when some target's rule has no part it can read (then every
    card passes, and the lister has no gate)."""
    design = game.design
    members = design.group_members()
    rules = []
    bottoms: set[int] = set()
    compiled: dict[str, Any] = {}  # by the gate part's text: the members of a group share one
    for target in targets:
        rule = game.accept_rules[target]
        if rule.when is None or rule.follow or rule.wild_rank is not None:
            return None
        try:
            part = gate_part(parse(rule.when.text), members)
        except ValueError:
            return None
        if part is None:
            return None
        for node in expr_ast.walk(part):
            depot = bottom_of(node, members)
            if depot is not None:
                bottoms.add(depot)
        text = to_source(part)
        if text not in compiled:
            try:
                compiled[text] = compile_rule(Expr(text, design.depots[target].spec.pointer), Site.ACCEPT, design)
            except RuleError:
                return None
        rules.append(compiled[text])
    return AcceptGate(game, targets, rules, tuple(sorted(bottoms)))
