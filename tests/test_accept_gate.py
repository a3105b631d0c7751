"""The move lister's accept gate (``engine/accept_gate.py``) never hides a legal drag.

The gate keeps, per target, the cards its rule could take by its top card and the bottom cards the rules read; the
lister skips a card outside every target's mask. Checked against the plain definition: every card the engine's own
accept test (``State.accept_refusal``) lets onto a target from any source, on random positions, is inside the gate,
and tables made for other bottom cards (a stale cache) fail that. The gated lister lists exactly the drags of the
lister without the gate, in order, on playouts of every shipped design it gates, and the drags the rules allow on a
design whose suffix-closed ejects are asked only about the lengths the gate lets through (the version that asks
about the gated length alone fails it).
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from cardz_tools.cards import FACE_UP, SplitMix64
from cardz_tools.engine import Drag, Game, State
from cardz_tools.engine import lister as lister_module
from cardz_tools.engine.accept_gate import EMPTY, AcceptGate, accept_gate, gate_part
from cardz_tools.engine.lister import build_move_lister
from cardz_tools.expr import parse, to_source
from cardz_tools.loading import open_design
from cardz_tools.model import build_design
from tests.engine_support import GAMES, random_positions
from tests.test_engine_lister import _oracle_drags, _playout

GATED_RUNS: dict[str, Any] = {
    "name": "Gated runs",
    "depots": [
        {"name": "stock", "type": "Stock", "col": 0, "ejectRule": "locked", "draw": {"to": "waste", "redeals": 1}},
        {"name": "waste", "type": "Waste", "col": 1, "acceptRule": "none", "ejectRule": "topOnly"},
        {"name": "home", "type": "Foundation", "col": 2, "repeat": 2, "ejectRule": "locked", "acceptRule": {
            "single": True,
            "when": "empty(depot) ? card.rank <= Three : card.suit == top.suit && card.rank == top.rank + 1",
        }},
        # suffix-closed ejects, asked late: the gate lets few cards through, so most lengths are skipped
        {"name": "link", "type": "Tableau", "col": 0, "row": 1, "repeat": 3,
         "ejectRule": {"when": "chain(cards, it.color != prev.color && it.rank == prev.rank - 1)"},
         "acceptRule": {"when": "empty(depot) ? card.rank == King : card.rank + 1 == top.rank"}},
        {"name": "suit", "type": "Tableau", "col": 3, "row": 1, "repeat": 2,
         "ejectRule": {"when": "sameSuit(cards)"},
         "acceptRule": {
             "when": "!(source in Foundation) && (empty(depot) || card.suit == top.suit && card.rank + 2 == top.rank)"
         }},
        # not suffix-closed: a whole column moves though its top two cards do not
        {"name": "whole", "type": "Tableau", "col": 5, "row": 1, "repeat": 2,
         "ejectRule": {"when": "count(cards) == 1 || count(cards) == count(depot)"},
         "acceptRule": {
             "when": "empty(depot) ? count(cards) > 1 : card.color == top.color && card.rank == top.rank - 2"
         }},
    ],
    "dealRules": [{"kind": "dealGroup", "to": "Tableau", "faceUp": 6}],
    "winCondition": {"kind": "allCardsIn", "depots": "Foundation"},
}


def _game(name: str) -> Game:
    """The shipped design ``name`` (a variant flattened)."""
    return Game(build_design(json.loads(open_design(GAMES / f"{name}.cardz").json_text)))


def _gate_of(game: Game) -> AcceptGate:
    gate = accept_gate(game, sorted({t.depot for entry in game.drag_plan for t in entry.targets}))
    assert gate is not None, f"{game.design.name} has a gate"
    return gate


def _key(gate: AcceptGate, state: State) -> tuple[int, ...]:
    return tuple(state.piles[d][0] if state.piles[d] else -1 for d in gate.bottoms)


def _mask(gate: AcceptGate, state: State, key: tuple[int, ...]) -> int:
    """The lister's ``_gate`` in ``state`` from the tables of ``key``."""
    mask = 0
    for table, target in zip(gate.tables(key, state), gate.targets, strict=True):
        pile = state.piles[target]
        mask |= table[pile[-1] if pile else EMPTY]
    return mask


def _misses(game: Game, states: list[State], key_of: Any) -> tuple[int, int]:
    """(cards the engine's accept test lets onto some target that the gate of ``key_of(gate, state)`` leaves out,
    cards it lets on), over every face-up run of every source."""
    gate = _gate_of(game)
    missed = taken = 0
    for state in states:
        mask = _mask(gate, state, key_of(gate, state))
        for entry in game.drag_plan:
            pile = state.piles[entry.source]
            for start in range(len(pile)):
                card = pile[start]
                if not card & FACE_UP:
                    continue
                for target in entry.targets:
                    if state.accept_refusal(entry.source, target.depot, card, pile[start:]) is None:
                        taken += 1
                        missed += not gate.bit[card] & mask
    return missed, taken


@pytest.mark.parametrize("name", ["klondike", "canfield-runs", "canfield", "freecell", "forty-thieves"])
def test_every_card_a_rule_takes_is_inside_the_gate(name: str) -> None:
    game = _game(name)
    states = random_positions(game, 150, seed=3, max_moves=80)
    missed, taken = _misses(game, states, _key)
    assert taken > 100, "the positions exercised the rules"
    assert missed == 0


def test_tables_of_other_bottom_cards_fail_the_check() -> None:
    """Canfield with runs reads the first foundation's bottom card (its base rank): tables kept for another one,
    a stale cache, leave out cards its rules take."""
    game = _game("canfield-runs")
    states = random_positions(game, 150, seed=3, max_moves=80)

    def stale(gate: AcceptGate, state: State) -> tuple[int, ...]:
        (bottom,) = _key(gate, state)
        return ((bottom & ~0x0F) | (bottom % 13 + 1),)  # the next rank's card of the same suit

    assert _gate_of(game).bottoms, "the gate reads a bottom card"
    assert _misses(game, states, stale)[0] > 0


def test_the_gate_keeps_only_what_reads_the_card_the_top_and_bottom_cards() -> None:
    members = {"found": (2, 3), "Tableau": (4, 5)}

    def kept(text: str) -> str | None:
        part = gate_part(parse(text), members)
        return None if part is None else to_source(part)

    assert kept("!(source in Foundation) && (empty(depot) ? card.rank == Ace : card.suit == top.suit)") == (
        "empty(depot) ? card.rank == Ace : card.suit == top.suit"
    )
    assert kept("empty(depot) ? !(source in Tableau && count(cards) == count(source)) : card.rank == top.rank - 1") \
        == "empty(depot) ? true : card.rank == top.rank - 1"
    assert kept("exists(bottom(found[0])) && card.value == bottom(found[0]).value") == (
        "exists(bottom(found[0])) && card.value == bottom(found[0]).value"
    )
    assert kept("card.rank == top.rank - 1 || count(Tableau, empty(it)) > 0") is None
    assert kept("count(cards) <= 2 && count(depot) < 13") is None


SPREAD = ("klondike", "canfield-runs", "canfield", "freecell", "forty-thieves", "spider", "golf", "yukon",
          "bakers-dozen", "simple-simon", "weathervane", "pyramid", "gargantua", "somerset", "king-albert", "duchess")
"""Designs of every shape the gate meets: runs and top cards, bottom cards read, two decks, wild cards, pairs."""


@pytest.mark.parametrize("name", [name for name in SPREAD if (GAMES / f"{name}.cardz").exists()])
def test_the_gated_lister_lists_what_the_lister_without_the_gate_does(name: str) -> None:
    game = _game(name)
    plain, _ = build_move_lister(game, game.design, gated=False)
    rng = SplitMix64(11)
    compared = 0
    for state, legal, _ in _playout(game, deals=3, moves=80):
        assert game.move_lister(state.piles, state) == plain(state.piles, state)
        compared += 1
        state.apply(legal[rng.below(len(legal))])
    assert compared > 20


def _compared_with_the_rules(game: Game) -> tuple[int, int]:
    """(positions whose drags differ from those the rules allow, positions compared) along playouts."""
    rng = SplitMix64(5)
    differ = compared = 0
    for state, legal, drags in _playout(game, deals=4, moves=50):
        differ += drags != _oracle_drags(state)
        compared += 1
        state.apply(legal[rng.below(len(legal))])
    return differ, compared


def test_a_suffix_closed_eject_asked_late_lists_exactly_the_legal_drags() -> None:
    game = Game(build_design(GATED_RUNS))
    assert "_gate_bit" in game.move_lister_source and "while _asked < _count:" in game.move_lister_source
    differ, compared = _compared_with_the_rules(game)
    assert compared > 100 and differ == 0


def test_asking_the_eject_rule_about_the_gated_length_alone_fails(monkeypatch: pytest.MonkeyPatch) -> None:
    """The obvious version, the pair of each length the gate lets through tested and the lengths skipped never:
    a broken pair under a skipped card no longer ends the loop, and longer runs that are not runs are listed."""

    def unasked(self: Any, block: Any, eject: str) -> Any:
        block.assign("_card", "_ps[-_count]").line("if not _gate_bit[_card] & _gate: continue")
        block.assign("_pair", "_ps[_size - _count:_size - _count + 2]").assign("_cards", "_ps[-_count:]")
        return block.line(f"if not {eject}: {'break' if eject in self.closed_ejects else 'continue'}" if eject else "")

    monkeypatch.setattr(lister_module._Writer, "gated_run_cards", unasked)
    differ, compared = _compared_with_the_rules(Game(build_design(GATED_RUNS)))
    assert compared > 100 and differ > 0


def test_drags_of_the_gated_runs_design_are_listed() -> None:
    game = Game(build_design(GATED_RUNS))
    rng = SplitMix64(5)
    runs = 0
    for state, legal, drags in _playout(game, deals=12, moves=60):
        runs += sum(1 for move in drags if isinstance(move, Drag) and move.count > 1)
        state.apply(legal[rng.below(len(legal))])
    assert runs > 20, "the playouts move runs"
