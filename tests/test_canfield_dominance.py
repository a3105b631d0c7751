"""Safe moves where a trigger refills the columns and the rules read a foundation's bottom card.

Canfield's columns are refilled from the reserve by a trigger, and its foundations start at the
rank of the first foundation's bottom card (``bottom(found[0])``). :mod:`cardz_tools.analysis.dominance`
handles both generically: a trigger of the refill shape (:func:`refill_shape`) keeps the argument
whole when the reserve is no source and a lone card of a refilled column is not moved while the
reserve has cards; a locked depot's bottom card is a constant once it has one, so the rules are
folded into card-and-top rules per bottom card (:class:`BottomSafeMoves`). On a small Canfield the
pruned search agrees with the plain one (tests/test_solver_tableau.py, ``canfield``); here: the
shape, the folding against the rule itself, random positions, and a won position that the obvious
unsound version (the waste, which is turned back, as a source) turns into a lost one.
"""

from __future__ import annotations

import dataclasses
import random
from pathlib import Path

from cardz_tools.analysis.dominance import (
    BottomSafeMoves,
    SafeSinkMoves,
    _classify,
    _folded,
    constant_bottoms,
    refill_shape,
    safe_sink_moves,
)
from cardz_tools.analysis.playout import deal_seed
from cardz_tools.analysis.runner import game_for
from cardz_tools.analysis.tableau_search import Pruning, _portfolio, search
from cardz_tools.cards import FACE_UP, identity, parse_deck, standard_deck
from cardz_tools.engine import Game, State
from cardz_tools.engine.rules import Site, compile_rule
from cardz_tools.expr import parse, to_source
from cardz_tools.loading import open_design
from cardz_tools.model import Expr, build_design
from tests.engine_support import safe_move_verdicts
from tests.test_solver_tableau import BUDGET, SMALL, design_of, resolved_design_of

GAMES = Path(__file__).resolve().parents[1] / "games"
WON_ONLY_WITH_THE_WASTE_KEPT = [
    (41, 57, 55), (161, 163, 181, 166, 184, 182, 173, 186, 167, 172), (171,), (187, 188, 189, 177), (168,),
    (164, 179, 162), (170,), (165, 180), (178,),
]
"""A small Canfield position (stock, waste, two foundations, reserve, four columns) found by a random
walk: won, but lost once the waste's top goes up."""


def test_canfield_has_the_refill_shape_and_reads_the_first_foundations_bottom() -> None:
    game = Game(build_design(design_of("canfield")))
    shape = refill_shape(game)
    assert not isinstance(shape, str), shape
    refilled, sources = shape
    assert refilled == frozenset(game.members["tab"]) and sources == (game.index["reserve"],)
    assert constant_bottoms(game) == (game.index["found[0]"],)
    assert isinstance(safe_sink_moves(game), BottomSafeMoves)
    design = design_of("canfield")
    design["depots"][4]["triggers"][0]["when"] = "!empty(reserve)"  # fires on a full column too
    assert isinstance(refill_shape(Game(build_design(design))), str)
    assert isinstance(safe_sink_moves(Game(build_design(design))), str)
    design = design_of("canfield")
    design["depots"][3]["acceptRule"] = {"when": "true"}  # the reserve takes cards back
    assert isinstance(refill_shape(Game(build_design(design))), str)


def test_the_folded_rules_agree_with_the_rules_reading_the_bottom_card() -> None:
    for name in ("canfield", "canfield-runs"):
        game = game_for(open_design(GAMES / f"{name}.cardz").json_text)
        base = game.index["found[0]"]
        root = game.new_initial_state(seed=0)
        cards = [c | FACE_UP for c in standard_deck()]
        for depot in (game.index["found[1]"], game.index["tab[0]"]):
            when = game.accept_rules[depot].when
            assert when is not None
            pointer = game.design.depots[depot].spec.pointer
            rule = compile_rule(Expr(when.text, pointer), Site.ACCEPT, game.design)
            for bottom in cards[::5]:
                folded_text = to_source(_folded(game, parse(when.text), {base: identity(bottom)}))
                assert "bottom" not in folded_text
                folded = compile_rule(Expr(folded_text, pointer), Site.ACCEPT, game.design)
                piles: list[tuple[int, ...]] = [()] * len(game.names)
                piles[base] = (bottom,)
                for top in (None, *cards[::3]):
                    piles[depot] = () if top is None else (top,)
                    for card in cards[1::4]:
                        args = (piles, root, card, (card,), depot, depot)
                        assert bool(rule(*args)) == bool(folded(*args)), (name, depot, bottom, top, card)


def test_a_safe_move_on_a_small_canfield_never_leads_away_from_a_win() -> None:
    checked, won = _walk_verdicts("canfield", 5, 30, steps=80, up=0.5)
    assert won >= 10, won


def test_the_waste_that_is_turned_back_is_no_source_of_safe_moves() -> None:
    game = SMALL["canfield"]()
    state = State(game, WON_ONLY_WITH_THE_WASTE_KEPT)
    assert search(state, BUDGET, None, Pruning.none()).result == "won"
    found = _classify(game, {game.index["found[0]"]: identity(state.piles[game.index["found[0]"]][0])})
    assert isinstance(found, SafeSinkMoves)
    assert found.safe_move(state) is None
    waste = game.index["waste"]
    unsound = dataclasses.replace(found, sources=(*found.sources, waste))
    move = unsound.safe_move(state)
    assert move is not None and move.source == "waste"  # the unsound version plays it up ...
    after = state.clone()
    after.apply(move)
    assert search(after, BUDGET, None, Pruning.none()).result == "lost"  # ... and loses the win


def test_the_plain_order_member_has_two_shares_where_its_positions_are_cheap() -> None:
    """PLAIN_WEIGHTS: two shares in Canfield (stock moves and refilled columns), one in Klondike (no refill)."""
    shares = {}
    for name in ("canfield", "klondike"):
        game = game_for(open_design(GAMES / f"{name}.cardz").json_text)
        members = _portfolio(game.new_initial_state(seed=1), Pruning(), 100, None)
        plain = [m for m in members if not m.search.pruning.stock and not m.search.pruning.ordering]
        assert len(plain) == 1
        shares[name] = plain[0].weight
    assert shares == {"canfield": 2, "klondike": 1}


SPACES = ("canfield-strict", "canfield-spaces")
"""Small Canfields whose empty columns take only the waste's card, and which play nothing else to the
columns while one is empty (``all(Tableau, !empty(it))``): more empty columns refuse more moves."""


def test_columns_that_refuse_moves_while_one_is_empty_are_kept_full() -> None:
    for name in ("canfield-strict", "canfield-auto-reserve-then-waste"):
        game = game_for(open_design(GAMES / f"{name}.cardz").json_text)
        safe = safe_sink_moves(game)
        assert isinstance(safe, BottomSafeMoves), safe
        found = _classify(game, {game.index["found[0]"]: identity(game.new_initial_state(seed=0).piles[2][0])})
        assert isinstance(found, SafeSinkMoves) and found.kept_full == frozenset(game.members["tab"])
    # the same board part, but an empty column takes a column's card too: a safely moved card could lie alone
    design = resolved_design_of("canfield-strict")
    rule = design["depots"][4]["acceptRule"]
    rule["when"] = rule["when"].replace("empty(depot) ? source == waste :", "empty(depot) ? true :")
    why = safe_sink_moves(Game(build_design(design)))
    assert isinstance(why, str) and "may take a lone card from tab" in why, why
    canfield = game_for(open_design(GAMES / "canfield.cardz").json_text)
    found = _classify(canfield, {canfield.index["found[0]"]: identity(canfield.new_initial_state(seed=0).piles[2][0])})
    assert isinstance(found, SafeSinkMoves) and not found.kept_full  # Canfield's own columns: nothing kept full


def _walk_verdicts(name: str, seed: int, wanted: int, steps: int = 120, up: float = 0.6) -> tuple[int, int]:
    """(positions checked, of them won) on random walks of the small ``name`` (at most ``steps`` moves, each a
    play onto the foundations with probability ``up`` where one is legal): every safe move of a won position
    leads to a won one (the plain exhaustive search's verdicts)."""
    game = SMALL[name]()
    safe = safe_sink_moves(game)
    assert isinstance(safe, BottomSafeMoves), safe
    sinks = {game.names[d] for d in game.win_depots}
    rng = random.Random(seed)
    checked = won = deal = 0
    while checked < wanted:
        state = game.new_initial_state(seed=deal_seed(seed, deal))
        deal += 1
        for _ in range(steps):
            if state.is_terminal():
                break
            moves = state.legal_moves()
            onto = [m for m in moves if getattr(m, "target", None) in sinks]
            state.apply(rng.choice(onto if onto and rng.random() < up else moves))
            verdicts = None if state.is_terminal() else safe_move_verdicts(safe, state, BUDGET)
            if verdicts is None:
                continue
            before, after = verdicts
            assert before != "unknown"
            if before == "won":
                won += 1
                assert after == "won", state.piles
            checked += 1
    return checked, won


def test_a_safe_move_on_a_small_canfield_with_spaces_from_the_waste_never_leads_away_from_a_win() -> None:
    for name in SPACES:
        checked, won = _walk_verdicts(name, 5, 25)
        assert won >= 8, (name, won)


def test_a_lone_card_of_a_column_kept_full_is_no_safe_move() -> None:
    """Reserve, stock and waste empty: the Nine of hearts is safe to go up but alone in its column. Up
    there, its column is empty for good (only the waste's card fills it), so no card moves between the
    columns again and both Tens stay buried; the win moves the Jack of spades onto the Queen first."""
    for name in SPACES:
        game = SMALL[name]()
        piles: list[tuple[int, ...]] = [()] * len(game.names)
        for depot, cards in {
            "found[0]": "AS 2S 3S 4S 5S 6S 7S 8S 9S", "found[1]": "AH 2H 3H 4H 5H 6H 7H 8H",
            "tab[0]": "9H", "tab[1]": "TH TS JS", "tab[2]": "KS QH", "tab[3]": "KH QS JH",
        }.items():
            piles[game.index[depot]] = tuple(c | FACE_UP for c in parse_deck(cards))
        state = State(game, piles)
        assert search(state, BUDGET, None, Pruning.none()).result == "won"
        assert search(state, BUDGET, None, Pruning()).result == "won"
        found = _classify(game, {game.index["found[0]"]: identity(piles[game.index["found[0]"]][0])})
        assert isinstance(found, SafeSinkMoves) and found.kept_full == frozenset(game.members["tab"])
        assert found.safe_move(state) is None
        unsound = dataclasses.replace(found, kept_full=frozenset())
        move = unsound.safe_move(state)
        assert move is not None and move.source == "tab[0]"  # the unsound version plays it up ...
        after = state.clone()
        after.apply(move)
        assert search(after, BUDGET, None, Pruning.none()).result == "lost"  # ... and loses the win
