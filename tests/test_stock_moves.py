"""The stock as one move (:mod:`cardz_tools.analysis.stock_moves`).

The plays after a run of taps are found without listing every move after each tap where no
trigger can fire (``_probed_plays``); they must be exactly the plays the engine lists
(``_listed_plays``), in the same order, reaching the same positions, on random positions of
stocks that redeal without limit, a limited number of times or never, drawing one or three.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from cardz_tools.analysis import stock_moves as stock_module
from cardz_tools.analysis.dominance import bottom_cards, card_bits, probe_table
from cardz_tools.analysis.stock_moves import StockMoves, stock_moves
from cardz_tools.cards import FACE_UP
from cardz_tools.engine import Game, State
from cardz_tools.engine.moves import Drag
from cardz_tools.expr import parse
from cardz_tools.loading import open_design
from cardz_tools.model import build_design
from tests.engine_support import random_positions

GAMES = Path(__file__).resolve().parent.parent / "games"


def _game(name: str) -> Game:
    return Game(open_design(GAMES / f"{name}.cardz").design)


def _plays(found: list[tuple[tuple[Any, ...], State, bool]]) -> list[tuple[Any, ...]]:
    return [
        (moves, tuple(child.piles), tuple(child.redeals), child.move_count, complete, child.is_terminal())
        for moves, child, complete in found
    ]


@pytest.mark.parametrize(
    "name",
    ["gargantua-redeal", "klondike-two-deck-9", "gargantua", "forty-thieves", "klondike", "limited", "canfield",
     "canfield-runs", "canfield-strict", "canfield-auto-reserve-then-waste", "american-toad"],
)
def test_probed_plays_are_the_plays_the_engine_lists(name: str) -> None:
    game = _game(name)
    stock = stock_moves(game)
    assert isinstance(stock, StockMoves), stock
    compared = plays = narrowed = 0
    for state in random_positions(game, 12, seed=7, max_moves=160):
        for draw in stock.draws:
            listed = _plays(list(stock._listed_plays(state, draw)))
            probed = _plays(list(stock._probed_plays(state, draw)))
            assert probed == listed
            compared += 1
            plays += len(listed)
            # only the plays onto some depots (a split's uses): the same plays, the others left out
            onto = tuple({game.index[play[0][-1].target] for play in listed[::2]})
            kept = [play for play in listed if game.index[play[0][-1].target] in onto]
            assert _plays(list(stock._probed_plays(state, draw, onto))) == kept
            assert _plays(list(stock._listed_plays(state, draw, onto))) == kept
            narrowed += len(kept) < len(listed)
    assert compared == 12 and plays > 12  # the positions did have plays to compare
    assert narrowed > 0  # some plays were left out


def test_limited_redeals_are_counted_as_the_engine_counts_them() -> None:
    design: dict[str, Any] = copy.deepcopy(open_design(GAMES / "klondike-two-deck-9.cardz").data)
    design["depots"][0]["draw"]["redeals"] = 1
    game = Game(build_design(design))
    stock = stock_moves(game)
    assert isinstance(stock, StockMoves), stock
    for state in random_positions(game, 8, seed=3, max_moves=200):
        listed = _plays(list(stock._listed_plays(state, stock.draws[0])))
        assert _plays(list(stock._probed_plays(state, stock.draws[0]))) == listed


@pytest.mark.parametrize("waste", ["count(waste) % 3 == 0", "empty(waste)"])
def test_a_trigger_that_fires_after_a_tap_leaves_the_plays_to_the_engine(waste: str) -> None:
    """Canfield's columns also taking a reserve card when short while the waste holds a multiple of three, or
    nothing (a tap that turns the waste over, which shows no card to play): a tap can fire that, so the probe
    must give way (StockMoves built by hand: :func:`stock_moves` refuses a design whose rules read the waste)."""
    design: dict[str, Any] = copy.deepcopy(open_design(GAMES / "canfield.cardz").data)
    triggers = design["depots"][4]["triggers"]
    triggers.append({"when": f"{waste} && count(depot) < 2 && !empty(reserve)", "do": triggers[0]["do"]})
    game = Game(build_design(design))
    stock = StockMoves(tuple(game.draws))
    gave_way = 0
    for state in random_positions(game, 40, seed=5, max_moves=120):
        for draw in stock.draws:
            try:
                list(stock._probed_plays(state, draw))
            except stock_module._TapFired:
                gave_way += 1
            assert _plays(list(stock.plays(state))) == _plays(list(stock._listed_plays(state, draw)))
    assert gave_way > 0  # some positions did have a column that a tap refills


@pytest.mark.parametrize(
    "name",
    ["canfield", "canfield-runs", "canfield-strict", "canfield-auto-reserve-then-waste", "klondike", "forty-thieves"],
)
def test_the_probe_table_allows_every_legal_drag(name: str) -> None:
    """The probe's card table (``?:`` read branch by branch, the first foundation's bottom card folded) never
    drops a target the engine would take a card on, and it does tell cards apart (else it would filter nothing)."""
    game = _game(name)
    bit = card_bits()
    told_apart = checked = 0
    positions = []
    for start in random_positions(game, 20, seed=11, max_moves=150):
        positions.append(start)
        tap = next((move for move in start.legal_moves() if not isinstance(move, Drag)), None)
        for _ in range(24 if tap is not None else 0):  # the waste's cards as sources too
            positions.append(positions[-1].clone())
            positions[-1].apply(tap)
            if positions[-1].is_terminal() or tap not in positions[-1].legal_moves():
                break
    for state in positions:
        piles = state.piles
        bottoms = bottom_cards(state)
        tables = {home: probe_table(game, home, bottoms) for home in (False, True)}
        for move in state.legal_moves():
            if not isinstance(move, Drag):
                continue
            source, target = game.index[move.source], game.index[move.target]
            table = tables[target in game.win_depots]
            assert table is not None
            pile = piles[target]
            card = piles[source][-move.count] & ~FACE_UP
            assert table[pile[-1] & ~FACE_UP if pile else -1] & bit[card], (move, state.piles)
            checked += 1
        told_apart += sum(1 for t in tables.values() if t is not None and bin(t[-1]).count("1") < 52)
    assert checked > 30 and told_apart > 0


@pytest.mark.parametrize("name", ["canfield", "canfield-runs", "pyramid"])
def test_where_taps_fire_no_trigger_settling_after_each_tap_changes_nothing(name: str) -> None:
    """Where :func:`taps_fire_nothing` holds, the taps the engine settles after (``_settled_taps``, which raises
    when a trigger fires) are the taps followed without settling (the kept chain), on random positions."""
    game = _game(name)
    stock = stock_moves(game)
    assert isinstance(stock, StockMoves), stock
    assert game.triggers and all(stock_module.taps_fire_nothing(game, d.depot, d.to) for d in stock.draws)
    compared = 0
    for state in random_positions(game, 30, seed=11, max_moves=150):
        for draw in stock.draws:
            settled = list(stock._settled_taps(state, draw, state.clone()))
            flips = bool(game.auto_flip[draw.depot])
            start = (state.piles[draw.depot], state.piles[draw.to], state.redeals[draw.depot])
            assert settled == list(stock._tap_chain(draw, flips, *start))
            compared += len(settled)
    assert compared > 30


@pytest.mark.parametrize(
    "rule",
    ["empty(depot) && count(waste) > 2", "empty(depot) && !empty(Waste)", "empty(depot) && !empty(left(depot))",
     "empty(depot) && covered(depot)"],
)
def test_a_trigger_that_may_read_what_a_tap_changes_is_settled_after_each_tap(rule: str) -> None:
    """The obvious unsound shortcut, taking every trigger as blind to the taps: a rule naming the waste (itself or
    its type) or reading the board by position (a neighbour, or what covers the depot) may see a tap."""
    design: dict[str, Any] = copy.deepcopy(open_design(GAMES / "canfield.cardz").data)
    triggers = design["depots"][4]["triggers"]
    triggers.append({"when": rule, "do": triggers[0]["do"]})
    game = Game(build_design(design))
    assert not stock_module.taps_fire_nothing(game, game.draws[0].depot, game.draws[0].to)
    assert stock_module.taps_fire_nothing(_game("canfield"), game.draws[0].depot, game.draws[0].to)


def test_covering_and_adding_in_one_look_up_decides_as_the_two_steps() -> None:
    """``TapCover.covers_else_add`` (the search's one look-up) against ``covers`` then ``add``, over the keys of
    random Klondike positions and of the positions taps lead to from them (some covered, some not); the key it gives
    for a covered one is a stored key of the same rest whose taps lead there (what a loss proof waits on)."""
    from cardz_tools.analysis import tableau_search

    game = _game("klondike")
    plan = tableau_search.plan_for(game, tableau_search.Pruning())
    assert plan.tap_cover and plan.stock is not None
    two_steps, one_step = stock_module.TapCover(plan.stock, game), stock_module.TapCover(plan.stock, game)
    decisions = []
    for state in random_positions(game, 40, seed=2, max_moves=80):
        keys = [plan.key_of(state)]
        current = state
        for _ in range(4):  # taps only: the rest stays, the stock and waste move on
            if current.is_terminal() or plan.stock.draws[0].move not in current.legal_moves():
                break
            current = current.clone()
            current.apply(plan.stock.draws[0].move)
            keys.append(plan.key_of(current))
        for key in keys:
            covered = two_steps.covers(key)
            if not covered:
                two_steps.add(key)
            covering = one_step.covers_else_add(key)
            assert (covering is not None) == covered
            if covering is not None:
                rest, start = covering
                assert rest == key[0] and start in one_step.places[rest]
                assert start != key[1] and plan.stock.reaches(game, start, key[1])
            decisions.append(covered)
    assert two_steps.places == one_step.places
    assert any(decisions) and not all(decisions)


class _TrustsKnownStates(StockMoves):
    """The unsound stop: the first known state taps reach stands for the start too (as if on one cycle)."""

    def _cycle_of(self, game: Any, draw: Any, stock: Any, waste: Any) -> Any:
        flips = bool(game.auto_flip[draw.depot])
        now, seen = (stock, waste), set()
        while now not in seen and (now[0] or now[1]):
            seen.add(now)
            now = stock_module.tap(*now, draw.count, draw.face_up, flips)
            known = self.cycles.get((draw.depot, *now))
            if known is not None:
                return known
        return super()._cycle_of(game, draw, stock, waste)


@pytest.mark.parametrize("name", ["klondike", "klondike-draw-one", "canfield", "gargantua-redeal"])
def test_the_cycle_of_a_stock_is_the_same_with_what_is_kept_as_without(name: str) -> None:
    """:meth:`StockMoves._cycle_of` stops at a state it knows: the answers are those worked out afresh."""
    game = _game(name)
    found = stock_moves(game)
    assert isinstance(found, StockMoves)
    states = []
    for state in random_positions(game, 30, seed=11, max_moves=80):  # with the positions its waste plays reach,
        for _, child, _ in found.plays(state):  # each then tapped once (off a cycle the child came to first)
            states.append(child)
            if found.draws[0].move in child.legal_moves():
                tapped = child.clone()
                tapped.apply(found.draws[0].move)
                states.append(tapped)

    def normalized(stock: StockMoves, state: State) -> list[Any]:
        piles = list(state.piles)
        stock.normalize(state, piles)
        return piles

    kept = StockMoves(found.draws)
    trusting = _TrustsKnownStates(found.draws)
    wrong = 0
    for state in states:
        fresh = normalized(StockMoves(found.draws), state)
        assert normalized(kept, state) == fresh
        wrong += normalized(trusting, state) != fresh
    assert wrong or name != "klondike"


def test_a_test_of_the_moves_source_keeps_the_stock_separate_but_a_read_of_the_waste_does_not() -> None:
    """``source == waste`` reads where a move comes from, which no tap changes; ``count(waste)`` reads what a
    tap changes, and so does a rule that names the waste anywhere but in such a test."""
    text = open_design(GAMES / "canfield-strict.cardz").json_text
    assert isinstance(stock_moves(Game(build_design(json.loads(text)))), StockMoves)
    for reading in ("count(waste) > 1", "source == waste && empty(waste)"):
        design = json.loads(text)
        rule = design["depots"][4]["acceptRule"]
        rule["when"] = rule["when"].replace("source == waste ||", f"{reading} ||")
        assert reading in rule["when"]
        why = stock_moves(Game(build_design(design)))
        assert isinstance(why, str) and "a rule reads stock or waste" in why, (reading, why)


@pytest.mark.parametrize(
    ("rule", "is_test"),
    [("source == waste", True), ("waste == source", True), ("source != tab[2]", True), ("source in Waste", True),
     ("Waste in source", False), ("source == waste.rank", False), ("source.rank == Ace", False),
     ("count(source) == 1", False), ("source == source", False)],
)
def test_a_source_test_compares_the_moves_source_with_a_depot_by_name(rule: str, is_test: bool) -> None:
    """Only a comparison of ``source`` with a depot, group or member named outright is read over (it reads no
    card); anything that reads the source's cards or another value is a read like any other."""
    assert stock_module._is_source_test(parse(rule)) is is_test
