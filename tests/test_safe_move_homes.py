"""The safe moves read the sinks once per contents (:meth:`.SafeSinkMoves.kept_homes`): the move they find is the one
the per-source rule finds (each source's face-up top in turn, its required cards in the sinks, a sink that takes it,
the engine allowing the drag), on random positions of one-deck designs with sinks that keep or give back their
cards, a trigger refilling the columns, and twins; kept once for every position (as if the sinks never changed) the
answers differ."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from cardz_tools.analysis import dominance as dominance_module
from cardz_tools.analysis.dominance import BottomSafeMoves, SafeMoves, SafeSinkMoves
from cardz_tools.analysis.playout import deal_seed
from cardz_tools.analysis.two_deck import TwinGivingBackSinkMoves, TwinSafeSinkMoves, safe_moves
from cardz_tools.cards import FACE_UP, identity
from cardz_tools.engine import Game, State
from cardz_tools.engine.moves import Drag
from cardz_tools.loading import open_design

GAMES = Path(__file__).resolve().parent.parent / "games"


def per_source(safe: SafeSinkMoves, state: State) -> Any:
    """The first safe move of ``state`` by the per-source rule of :mod:`.dominance` and :mod:`.two_deck`, written
    out with nothing kept."""
    piles = state.piles
    sinks = [(sink, piles[sink]) for sink in safe.sinks]
    tops: dict[int, list[int]] = {}
    for sink, pile in sinks:
        if pile:
            tops.setdefault(pile[-1] & ~FACE_UP, []).append(sink)
    empty = [sink for sink, pile in sinks if not pile]
    copies = [0] * (max(safe.bit.values()).bit_length())
    for _, pile in sinks:
        for card in pile:
            copies[safe.bit[card & ~FACE_UP].bit_length() - 1] += 1
    decks = getattr(safe, "decks", 1)
    every_copy = sum(bit for card, bit in safe.bit.items() if copies[bit.bit_length() - 1] >= decks) | safe.absent
    others = [piles[d] for d in range(len(piles)) if d not in safe.sinks]
    refilling = any(piles[r] for r in safe.refill_sources)
    twins = isinstance(safe, TwinSafeSinkMoves)
    for source in safe.sources:
        pile = piles[source]
        if not pile or not pile[-1] & FACE_UP:
            continue
        if len(pile) == 1 and (source in safe.kept_full or refilling and source in safe.refilled):
            continue
        card = pile[-1] & ~FACE_UP
        below = safe.predecessor.get(card)
        targets = tops.get(below, []) if below is not None else empty if card in safe.on_empty else []
        if not targets:
            continue
        if twins:
            outside = [c & ~FACE_UP for p in others for c in p]
            if any(safe.bit[c] & safe.buildable[card] for c in outside):
                continue
            waiting = [c for c in outside if c == card or below is None and c in safe.on_empty]
            if len(targets) < len(waiting):
                continue
        elif isinstance(safe, TwinGivingBackSinkMoves):
            bit = safe.bit[card]
            if safe.required[card] & ~every_copy or copies[bit.bit_length() - 1] < decks - 1 or bit & every_copy:
                continue
        elif safe.required[card] & ~every_copy:
            continue
        # a top card's last sink (the one deck's rule keeps a sink per top), else the first
        target = targets[-1] if below is not None and not twins else targets[0]
        move = state.game.drag_move(source, 1, target, None)
        if state.drag_refusal(move) is None:
            return move
    return None


def walk(game: Game, deals: int, steps: int) -> list[State]:
    """The positions of random playouts of ``deals`` deals, ``steps`` moves at most, half the moves onto a win depot
    where one is legal (so that the sinks fill and safe moves come up)."""
    rng = random.Random(5)
    found = []
    for deal in range(deals):
        state = game.new_initial_state(seed=deal_seed(5, deal))
        for _ in range(steps):
            if state.is_terminal():
                break
            found.append(state.clone())
            moves = state.legal_moves()
            home = [m for m in moves if isinstance(m, Drag) and game.index[m.target] in game.win_depots]
            state.apply(rng.choice(home if home and rng.random() < 0.9 else moves))
    return found


def dominance_of(found: SafeMoves, state: State) -> SafeSinkMoves:
    """The dominance ``found`` of ``state``'s game (of its bottom cards, where the rules read them)."""
    if isinstance(found, BottomSafeMoves):
        found.safe_move(state)  # works out the dominance of these bottom cards
        inner = found.by_bottoms[tuple(identity(state.piles[d][0]) for d in found.depots)]
        assert inner is not None
        return inner
    return found


@pytest.mark.parametrize(
    ("name", "kind"),
    [
        ("klondike", SafeSinkMoves),
        ("freecell", SafeSinkMoves),
        ("canfield-strict", SafeSinkMoves),
        ("forty-thieves", TwinSafeSinkMoves),
        ("gargantua", TwinGivingBackSinkMoves),
    ],
)
def test_the_kept_homes_find_the_move_the_per_source_rule_finds(name: str, kind: type, monkeypatch: Any) -> None:
    game = Game(open_design(GAMES / f"{name}.cardz").design)
    monkeypatch.setattr(dominance_module, "HOMES_KEPT", 20)  # small: the forgetting is exercised too
    dominance = safe_moves(game)
    assert not isinstance(dominance, str)
    found = 0
    for state in walk(game, 8, 150):
        safe = dominance_of(dominance, state)
        assert type(safe) is kind
        move = safe.safe_move(state)
        assert move == per_source(safe, state), name
        found += move is not None
    assert found >= 10, found  # positions with a safe move were met


def test_homes_kept_once_for_every_position_find_other_moves(monkeypatch: Any) -> None:
    game = Game(open_design(GAMES / "klondike.cardz").design)
    safe = safe_moves(game)
    assert isinstance(safe, SafeSinkMoves)

    def once(self: SafeSinkMoves, piles: list[Any]) -> dict[int, int]:  # the homes of the sinks first met, for good
        if not self.homes:
            self.homes[()] = self._homes(self.sink_piles(piles))
        return self.homes[()]

    monkeypatch.setattr(SafeSinkMoves, "kept_homes", once)
    assert any(safe.safe_move(state) != per_source(safe, state) for state in walk(game, 8, 150))
