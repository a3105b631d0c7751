"""Does one design play the same game as another? Compared by behaviour, never by JSON.

Two designs play the same game when, dealt the same deck, they offer the same legal
moves at every step and end the same way. :func:`compare_designs` checks that along
seeded random playouts (the strong check: every step compares whole move sets) and
compares the solver's verdicts on a few deals (only where both designs are decided
within the budget, since "unknown" says nothing).

Depots are matched by type and board order (the third Tableau pile of one design is
the third of the other), so the designs may name their piles differently; moves are
shown with the reference design's names. A deal that puts the same numbers of cards,
face up and face down, on each pile but in another order is still the same game: the
playout then continues from the reference's layout (and the report says so).
"""

from __future__ import annotations

import collections
import dataclasses
import random
import re
import time
from collections.abc import Callable, Iterator, Sequence

from ..cards import FACE_UP_OF, Card, card_str
from ..engine.game import Game
from ..engine.moves import Drag, Move, Tap
from ..engine.state import State
from ..model import Design, Expr

DEFAULT_DEALS = 6
DEFAULT_MOVES = 60
DEFAULT_SOLVE_DEALS = 4
DEFAULT_BUDGET = 3_000
"""Positions the solver may visit per deal and design when verdicts are compared."""
MAX_LISTED = 6
"""A difference lists at most this many moves of each side."""


@dataclasses.dataclass(frozen=True, slots=True)
class Difference:
    """The first place in one deal where the candidate plays differently from the reference."""

    deal: int
    """The seed of the deal."""
    step: int
    """Moves played (the same in both designs) before the difference showed."""
    kind: str
    """``deal``, ``legal moves``, ``board`` or ``end``."""
    detail: str
    line: tuple[str, ...] = ()
    """The moves played up to the difference, with the reference's depot names."""


@dataclasses.dataclass(frozen=True, slots=True)
class VerdictPair:
    """The solver's verdict on one deal for each design."""

    deal: int
    candidate: str
    reference: str

    @property
    def decided(self) -> bool:
        """Whether both designs were decided ("won" or "lost") within the budget."""
        return self.candidate != "unknown" and self.reference != "unknown"

    @property
    def agrees(self) -> bool:
        """Whether the two verdicts agree (a verdict pair that is not :attr:`decided` says nothing)."""
        return not self.decided or self.candidate == self.reference


@dataclasses.dataclass(frozen=True)
class Comparison:
    """What :func:`compare_designs` found."""

    board: str | None
    """Why the two boards or decks cannot be matched at all (then nothing else was compared)."""
    deals: int
    steps: int
    """Positions whose legal moves were compared, over all deals."""
    differences: tuple[Difference, ...]
    verdicts: tuple[VerdictPair, ...]
    notes: tuple[str, ...] = ()

    @property
    def same(self) -> bool:
        """No difference was found (within the deals, moves and budget compared)."""
        return self.board is None and not self.differences and all(v.agrees for v in self.verdicts)


def match_depots(candidate: Design, reference: Design) -> list[int] | str:
    """Each candidate depot's reference depot (by type and board order), or why there is no such match."""
    by_type: dict[object, list[int]] = collections.defaultdict(list)
    for depot in reference.depots:
        by_type[depot.type].append(depot.index)
    mine: dict[object, list[int]] = collections.defaultdict(list)
    for depot in candidate.depots:
        mine[depot.type].append(depot.index)
    problems = []
    for depot_type in sorted(set(by_type) | set(mine), key=lambda t: getattr(t, "value", str(t))):
        have, want = len(mine.get(depot_type, [])), len(by_type.get(depot_type, []))
        if have != want:
            problems.append(f"{want} {getattr(depot_type, 'value', depot_type)} pile(s) in the reference, {have} here")
    if problems:
        return "the boards differ: " + "; ".join(problems)
    mapping = [0] * len(candidate.depots)
    for depot_type, indexes in mine.items():
        for mine_index, theirs in zip(indexes, by_type[depot_type], strict=True):
            mapping[mine_index] = theirs
    return mapping


class _Translator:
    """Writes a candidate's moves with the reference's depot names (and its actions' names, by order)."""

    def __init__(self, candidate: Game, reference: Game, mapping: Sequence[int]) -> None:
        self.names = [reference.names[mapping[i]] for i in range(len(candidate.names))]
        self.reference_actions = self._actions(reference)
        self.candidate_actions = self._actions(candidate)
        self.mapping = mapping

    @staticmethod
    def _actions(game: Game) -> dict[int, list[str]]:
        found: dict[int, list[str]] = collections.defaultdict(list)
        for action in game.actions:
            found[action.depot].append(action.name)
        return found

    def candidate_key(self, game: Game, move: Move) -> str:
        if isinstance(move, Drag):
            return str(
                Drag(self.names[game.index[move.source]], move.count, self.names[game.index[move.target]], move.declare)
            )
        depot = game.index[move.depot]
        if move.action is None:
            return str(Tap(self.names[depot]))
        order = self.candidate_actions[depot].index(move.action)
        theirs = self.reference_actions.get(self.mapping[depot], [])
        return str(Tap(self.names[depot], theirs[order] if order < len(theirs) else f"{move.action} (no such action)"))


_POSITION_FUNCTIONS = re.compile(r"(?<![\w.])(?:col|row|index|adjacent|left|right|above|below|at|covered)\s*\(")


def _expressions(value: object) -> Iterator[str]:
    """The text of every rule expression inside a model value (dataclasses and tuples, walked)."""
    if isinstance(value, Expr):
        yield value.text
    elif isinstance(value, tuple):
        for item in value:
            yield from _expressions(item)
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        for field in dataclasses.fields(value):
            yield from _expressions(getattr(value, field.name))


def swap_groups(design: Design) -> frozenset[str]:
    """The groups whose piles the rules never tell apart: moving a whole pile onto an empty one of them changes nothing.

    A group qualifies when no rule that applies in play (accept, eject, triggers, actions, the
    end, the score) reads where a pile lies (``col``, ``row``, ``index``, ``adjacent``, ``at`` ...)
    or names one member (``found[0]``): the move then only swaps two equal piles. Designs that
    forbid such moves and designs that allow them play the same game, so these moves are not
    compared.
    """
    texts = [text for part in (*design.specs, design.win, design.loss, design.scoring) for text in _expressions(part)]
    if any(_POSITION_FUNCTIONS.search(text) for text in texts):
        return frozenset()
    return frozenset(
        spec.name for spec in design.specs if spec.is_group and not any(f"{spec.name}[" in text for text in texts)
    )


def _member_groups(game: Game, groups: frozenset[str]) -> list[str | None]:
    """Per depot, its group's name when it is one of ``groups``."""
    return [depot.spec.name if depot.spec.name in groups else None for depot in game.design.depots]


def _moves(state: State, key: Callable[[Move], str], groups: Sequence[str | None]) -> dict[str, Move]:
    """The legal moves by ``key``, without those that only swap a whole pile with an empty one of the same group."""
    found = {}
    piles, index = state.piles, state.game.index
    for move in state.legal_moves():
        if isinstance(move, Drag):
            source, target = index[move.source], index[move.target]
            group = groups[source]
            if group is not None and groups[target] == group and not piles[target] and move.count == len(piles[source]):
                continue
        found[key(move)] = move
    return found


def _with_cards(state: State, move: Move, shown: str) -> str:
    """``shown`` (a move in the reference's names) with the cards it moves, as the state describes them."""
    described = state.describe(move)
    cards = described[described.rfind(" (") :] if described.endswith(")") else ""
    return shown if not cards or cards in shown else f"{shown}{cards}"


def _deck(design: Design) -> tuple[int, int, tuple[object, ...]]:
    return design.decks, design.jokers, tuple(sorted(design.suits))


def _deck_text(design: Design) -> str:
    suits = "" if len(design.suits) == 4 else f" of {', '.join(s.title for s in design.suits)}"
    return f"{design.decks} deck(s){suits}, {design.jokers} joker(s)"


def _listed(moves: Sequence[str]) -> str:
    shown = ", ".join(moves[:MAX_LISTED])
    return shown + (f" and {len(moves) - MAX_LISTED} more" if len(moves) > MAX_LISTED else "")


def _pile_text(pile: Sequence[Card]) -> str:
    shown = " ".join(card_str(card) if FACE_UP_OF[card] else "▒" for card in pile[-6:])
    return ("… " if len(pile) > 6 else "") + (shown or "empty")


def _board_difference(cand: State, ref: State, mapping: Sequence[int], names: Sequence[str]) -> str | None:
    for index, pile in enumerate(cand.piles):
        theirs = ref.piles[mapping[index]]
        if pile != theirs:
            return f"{names[index]} holds {_pile_text(pile)} here, {_pile_text(theirs)} in the reference"
    return None


def _shape(pile: Sequence[Card]) -> tuple[bool, ...]:
    return tuple(bool(FACE_UP_OF[card]) for card in pile)


def _start(
    cand_game: Game, ref: State, seed: int, mapping: Sequence[int], names: Sequence[str]
) -> tuple[State | None, str]:
    """The candidate's deal of ``seed``, or the reference's layout when only the order of the cards differs."""
    cand = cand_game.new_initial_state(seed=seed)
    if _board_difference(cand, ref, mapping, names) is None:
        return cand, ""
    for index, pile in enumerate(cand.piles):
        theirs = ref.piles[mapping[index]]
        if _shape(pile) != _shape(theirs):
            down, up = _shape(pile).count(False), _shape(pile).count(True)
            their_down, their_up = _shape(theirs).count(False), _shape(theirs).count(True)
            return None, (
                f"{names[index]} is dealt {down} face down and {up} face up here, "
                f"{their_down} face down and {their_up} face up in the reference"
            )
    piles = [ref.piles[mapping[index]] for index in range(len(cand.piles))]
    moved = State(cand_game, piles, seed)
    cand_game.settle(moved.piles, moved)
    return (
        moved,
        "the deal lays the cards out in another order (same piles, same counts); compared on the reference's layout",
    )


def compare_designs(
    candidate: Design | Game,
    reference: Design | Game,
    *,
    deals: int = DEFAULT_DEALS,
    moves: int = DEFAULT_MOVES,
    solve_deals: int = DEFAULT_SOLVE_DEALS,
    budget: int = DEFAULT_BUDGET,
    seconds: float = 20.0,
    seed: int = 0,
) -> Comparison:
    """Compare ``candidate`` with ``reference`` on deals ``seed`` .. ``seed + deals - 1``.

    Each deal is played by random moves (seeded, chosen among the reference's legal
    moves) for at most ``moves`` moves or until the first difference; then the solver
    (``budget`` positions per deal and design) decides the first ``solve_deals`` deals.
    The whole comparison stops after about ``seconds``. Either design may be given as its
    compiled :class:`Game` (compiling a large board takes a while; a caller comparing many
    designs with one reference compiles it once).
    """
    cand_game = candidate if isinstance(candidate, Game) else Game(candidate)
    ref_game = reference if isinstance(reference, Game) else Game(reference)
    candidate, reference = cand_game.design, ref_game.design
    deadline = time.monotonic() + seconds
    mapping = match_depots(candidate, reference)
    if isinstance(mapping, str):
        return Comparison(mapping, 0, 0, (), ())
    deck, their_deck = _deck(candidate), _deck(reference)
    if deck != their_deck:
        return Comparison(
            f"the decks differ: {_deck_text(candidate)} here, {_deck_text(reference)} in the reference", 0, 0, (), ()
        )
    translator = _Translator(cand_game, ref_game, mapping)
    names = translator.names
    reference_groups, candidate_groups = swap_groups(reference), swap_groups(candidate)
    ref_swaps, cand_swaps = _member_groups(ref_game, reference_groups), _member_groups(cand_game, candidate_groups)
    differences: list[Difference] = []
    notes: list[str] = []
    steps = 0
    played = 0
    for deal in range(seed, seed + deals):
        if time.monotonic() > deadline:
            notes.append(f"stopped after {played} deal(s): the time ran out")
            break
        played += 1
        ref = ref_game.new_initial_state(seed=deal)
        cand, note = _start(cand_game, ref, deal, mapping, names)
        if cand is None:
            differences.append(Difference(deal, 0, "deal", note))
            continue
        if note and note not in notes:
            notes.append(note)
        rng = random.Random(deal)
        line: list[str] = []
        for step in range(moves + 1):
            ref_end, cand_end = ref.is_terminal(), cand.is_terminal()
            if ref_end or cand_end:
                if ref_end != cand_end or ref.is_won() != cand.is_won():
                    differences.append(
                        Difference(
                            deal,
                            step,
                            "end",
                            f"the reference is {ref.status().value}, this design {cand.status().value}",
                            tuple(line),
                        )
                    )
                break
            if step == moves:
                break
            steps += 1
            ref_moves = _moves(ref, str, ref_swaps)
            cand_moves = _moves(cand, lambda move: translator.candidate_key(cand_game, move), cand_swaps)
            if set(ref_moves) != set(cand_moves):
                extra = [_with_cards(cand, cand_moves[key], key) for key in sorted(set(cand_moves) - set(ref_moves))]
                missing = [_with_cards(ref, ref_moves[key], key) for key in sorted(set(ref_moves) - set(cand_moves))]
                parts = ([f"only here: {_listed(extra)}"] if extra else []) + (
                    [f"only in the reference: {_listed(missing)}"] if missing else []
                )
                differences.append(Difference(deal, step, "legal moves", "; ".join(parts), tuple(line)))
                break
            chosen = rng.choice(sorted(ref_moves))
            ref.apply(ref_moves[chosen])
            cand.apply(cand_moves[chosen])
            line.append(chosen)
            board = _board_difference(cand, ref, mapping, names)
            if board is not None:
                differences.append(Difference(deal, step + 1, "board", f"after {chosen}: {board}", tuple(line)))
                break
    verdicts = _verdicts(cand_game, ref_game, mapping, names, seed, min(solve_deals, played), budget, deadline)
    return Comparison(None, played, steps, tuple(differences), verdicts, tuple(notes))


def _verdicts(
    cand_game: Game,
    ref_game: Game,
    mapping: Sequence[int],
    names: Sequence[str],
    seed: int,
    deals: int,
    budget: int,
    deadline: float,
) -> tuple[VerdictPair, ...]:
    from ..analysis.solve import solve_state

    found = []
    for deal in range(seed, seed + deals):
        if time.monotonic() > deadline:
            break
        ref = ref_game.new_initial_state(seed=deal)
        cand, _ = _start(cand_game, ref, deal, mapping, names)
        if cand is None:
            continue
        share = max(0.1, (deadline - time.monotonic()) / 2)
        reference, _, _ = solve_state(ref, budget, time.monotonic() + share)
        mine, _, _ = solve_state(cand, budget, time.monotonic() + share)
        found.append(VerdictPair(deal, mine, reference))
    return tuple(found)


def format_comparison(comparison: Comparison, candidate: str, reference: str) -> str:
    """The plain-text report of a comparison: the first difference of each deal, then the verdicts."""
    lines = [f"compare: {candidate} against {reference}"]
    if comparison.board is not None:
        lines.append(f"  {comparison.board}")
        lines.append("result: different game (nothing else compared)")
        return "\n".join(lines) + "\n"
    lines.append(f"  {comparison.deals} deal(s), {comparison.steps} position(s) whose legal moves were compared")
    lines += [f"  note: {note}" for note in comparison.notes]
    for difference in comparison.differences:
        lines.append(
            f"  deal {difference.deal}, move {difference.step + 1}: {difference.kind} differ: {difference.detail}"
        )
        if difference.line:
            shown = difference.line[-8:]
            lead = "… " if len(difference.line) > len(shown) else ""
            lines.append(f"    after: {lead}{'; '.join(shown)}")
    decided = [v for v in comparison.verdicts if v.decided]
    if comparison.verdicts:
        lines.append(
            f"  solver: {len(comparison.verdicts)} deal(s), {len(decided)} decided by both, "
            f"{sum(1 for v in decided if v.candidate != v.reference)} disagreeing"
        )
        for verdict in comparison.verdicts:
            if not verdict.agrees:
                lines.append(f"    deal {verdict.deal}: {verdict.candidate} here, {verdict.reference} in the reference")
    lines.append("result: " + ("plays the same game (on these deals)" if comparison.same else "plays a different game"))
    return "\n".join(lines) + "\n"
