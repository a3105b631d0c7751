"""The compact search for pair games: it plays the engine's rules, its cuts are sound, its answers match."""

from __future__ import annotations

import json
import random
from pathlib import Path

from cardz_tools.analysis.compact import compact_solve
from cardz_tools.analysis.pair_search import PairSearch, pair_shape
from cardz_tools.analysis.playout import deal_seed
from cardz_tools.analysis.solve import search_states, solve_state
from cardz_tools.cards import FACE_UP, Card, identity, parse_deck, standard_deck
from cardz_tools.engine import Game, State
from cardz_tools.loading import open_design
from cardz_tools.model import build_design

GAMES = Path(__file__).resolve().parent.parent / "games"


def game_of(name: str) -> Game:
    return Game(open_design(GAMES / f"{name}.cardz").design)


def variant(change: dict[str, object]) -> Game:
    """Pyramid with its layout's accept rule replaced by ``change``."""
    raw = json.loads((GAMES / "pyramid.cardz").read_text(encoding="utf-8"))
    raw["depots"][0]["acceptRule"].update(change)
    return Game(build_design(raw))


def test_the_shape_is_read_off_the_rules() -> None:
    shape = pair_shape(game_of("pyramid"))
    assert shape is not None
    assert len(shape.layout) == 28 and shape.covers[0] == (1, 2) and shape.covers[27] == ()
    assert len(shape.pairs) == 192  # 13 is 1 + 12 … 6 + 7: six pairs of ranks, 16 ordered card pairs each, both ways
    (sink, kings), = shape.alone
    assert {identity(c) for c in parse_deck("KC KD KH KS")} == kings
    # Pairs adding up to 12 instead: another table, the same search.
    twelve = pair_shape(variant({"when": "!empty(depot) && !covered(depot) && card.value + top.value == 12"}))
    assert twelve is not None and len(twelve.pairs) != len(shape.pairs)


def test_designs_outside_the_shape_keep_the_general_search() -> None:
    for name in ("klondike", "golf", "accordion", "monte-carlo"):
        assert pair_shape(game_of(name)) is None, name
    # A rule that reads where the card comes from is not a table of pairs.
    assert pair_shape(variant({"when": "!empty(depot) && !covered(depot) && index(source) > 0"})) is None
    # A layout card that takes a partner while covered is not this shape either.
    assert pair_shape(variant({"when": "!empty(depot) && card.value + top.value == 13"})) is None


def test_the_packed_moves_are_the_engines_legal_moves() -> None:
    game = game_of("pyramid")
    rng = random.Random(5)
    for deal in range(8):
        state = game.new_initial_state(seed=deal_seed(3, deal))
        search = PairSearch.of(state)
        assert search is not None
        while True:
            packed = search.pack(state)
            moves = dict(search.all_moves(packed))
            legal = [] if state.is_terminal() else state.legal_moves()
            assert set(moves) == set(legal), f"deal {deal} after {state.move_count} moves"
            if not legal:
                break
            move = legal[rng.randrange(len(legal))]
            state.apply(move)
            assert search.pack(state) == moves[move]


def late_positions(game: Game, rng: random.Random) -> list[State]:
    """Positions near the end of winning lines (winnable) and random moves off them (often lost)."""
    positions: list[State] = []
    for deal in range(12):
        state = game.new_initial_state(seed=deal_seed(11, deal))
        result, line, _ = solve_state(state.clone(), 200_000)
        if result != "won":
            continue
        for back in (10, 20, 30):
            if back >= len(line):
                continue
            on_line = state.clone()
            for move in line[: len(line) - back]:
                on_line.apply(move)
            positions.append(on_line)
            off_line = on_line.clone()
            for _ in range(3):
                legal = off_line.legal_moves()
                if not legal:
                    break
                off_line.apply(legal[rng.randrange(len(legal))])
            positions.append(off_line)
    return positions


def test_the_cuts_never_cut_a_winnable_position() -> None:
    """Late positions, searched with and without the cut and the safe move, get the same verdict."""
    game = game_of("pyramid")
    verdicts = {"won": 0, "lost": 0}
    nodes = {"plain": 0, "cut": 0}
    for state in late_positions(game, random.Random(2)):
        if state.is_terminal():
            continue
        position = PairSearch.of(state)
        assert position is not None
        plain, _, plain_nodes = position.search(400_000, None, prune=False)
        cut, line, cut_nodes = position.search(400_000, None)
        assert plain != "unknown"
        assert cut == plain, state.piles
        verdicts[plain] += 1
        if plain == "lost":
            nodes["plain"] += plain_nodes
            nodes["cut"] += cut_nodes
        if position.dead(position.pack(state)):
            assert plain == "lost"
        if line:
            replay = state.clone()
            for move in line:
                replay.apply(move)
            assert replay.outcome().won
    assert verdicts["won"] >= 3 and verdicts["lost"] >= 3, verdicts
    assert nodes["cut"] < nodes["plain"], nodes  # and the cuts did cut


def layout_position(game: Game, layout: str) -> State:
    """Pyramid with ``layout`` (28 cards, dealt in depot order), the other 24 cards in the stock."""
    cards: tuple[Card, ...] = parse_deck(layout)
    rest = [c for c in standard_deck() if c not in set(cards)]
    piles: list[tuple[Card, ...]] = [()] * len(game.names)
    for depot, card in zip(game.members["pyr"], cards, strict=True):
        piles[depot] = (card | FACE_UP,)
    piles[game.index["stock"]] = tuple(rest)
    state = State(game, piles)
    state.redeals[game.index["stock"]] = 2
    return state


def test_a_card_whose_partners_all_lie_under_it_loses_the_position() -> None:
    game = game_of("pyramid")
    # The apex is a Six; the four Sevens lie in the rows under it, so nothing can ever pair it off.
    # Every other card has a partner in the stock (or is a King).
    layout = "6C 7C 7D 7H 7S 5C KC KD KH KS AC AD AH AS 2C 2D 2H 2S 3C 3D 3H 3S 4C 4D 4H 4S 5D 5H"
    state = layout_position(game, layout)
    search = PairSearch.of(state)
    assert search is not None
    assert search.dead(search.pack(state))
    result, line, nodes = compact_solve(state, 10_000, None) or ("none", [], 0)
    assert (result, line) == ("lost", []) and nodes < 10  # every child is dead too
    # With the Seven of Spades swapped for the stock's Five, the Six has a partner again.
    alive = layout_position(game, layout.replace("7S", "5S"))
    alive_search = PairSearch.of(alive)
    assert alive_search is not None and not alive_search.dead(alive_search.pack(alive))


def test_the_pair_search_agrees_with_the_search_over_engine_states() -> None:
    game = game_of("pyramid")
    for deal in (0, 1, 3):
        state = game.new_initial_state(seed=deal_seed(101, deal))
        engine_result, _, _ = search_states(state.clone(), 50_000)
        compact_result, line, _ = solve_state(state.clone(), 100_000)
        assert engine_result == compact_result == "won"
        replay = state.clone()
        for move in line:
            replay.apply(move)
        assert replay.outcome().won
