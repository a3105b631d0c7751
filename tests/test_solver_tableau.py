"""The pruning pieces of the search over engine states: each one agrees with the plain search.

Small versions of FreeCell, Klondike and Canfield (fewer suits, ranks and depots) are
solved exhaustively with every piece off and with each piece alone, and with all of them:
the verdicts must be the same deal by deal, and every win must replay through the engine.
The dominances and the stock moves are also checked on random positions.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from cardz_tools.analysis.dominance import safe_sink_moves
from cardz_tools.analysis.playout import deal_seed
from cardz_tools.analysis.solve import solve, solve_deal
from cardz_tools.analysis.stock_moves import stock_moves, tap
from cardz_tools.analysis.symmetry import canonical_key_function, interchangeable_classes
from cardz_tools.analysis.tableau_search import Pruning, plan_for, replays_to_a_win, search
from cardz_tools.cards import FACE_UP, parse_deck, standard_deck
from cardz_tools.engine import Game, State
from cardz_tools.loading import open_design
from cardz_tools.model import build_design
from tests.engine_support import assert_pieces_agree_with_the_plain_search, only, random_positions, safe_move_verdicts

GAMES = Path(__file__).resolve().parent.parent / "games"
RANKS = ["Ace", "Two", "Three", "Four", "Five", "Six", "Seven", "Eight", "Nine", "Ten", "Jack", "Queen", "King"]


def design_of(name: str) -> dict[str, Any]:
    return json.loads((GAMES / f"{name}.cardz").read_text(encoding="utf-8"))  # type: ignore[no-any-return]


def resolved_design_of(name: str) -> dict[str, Any]:
    """The design ``name`` with its ``extends`` resolved."""
    return json.loads(open_design(GAMES / f"{name}.cardz").json_text)  # type: ignore[no-any-return]


def small(name: str, suits: list[str], ranks: int, edit: Callable[[dict[str, Any]], None]) -> Game:
    """``name`` with only ``suits`` and the lowest ``ranks`` ranks, after ``edit``."""
    design = resolved_design_of(name)
    design["suits"] = suits
    edit(design)
    design["dealRules"].insert(0, {"kind": "remove", "ranks": RANKS[ranks:]})
    return Game(build_design(design))


CLASSIC_CELL = "empty(depot)"
CLASSIC_COLUMN = (
    "(empty(depot) || card.color != top.color && card.rank == top.rank - 1) && count(cards) <= "
    "(count(Cell, empty(it)) + 1) * (count(Tableau, empty(it)) - (empty(depot) ? 1 : 0) >= 1 ? 2 : 1)"
)


def classic_freecell() -> dict[str, Any]:
    """FreeCell with the classic rules: a cell takes any card, an empty column any run (the shipped
    design refuses moves that change nothing, reading the source: outside the dominance's shape)."""
    design = design_of("freecell")
    design["depots"][0]["acceptRule"]["when"] = CLASSIC_CELL
    design["depots"][2]["acceptRule"]["when"] = CLASSIC_COLUMN
    return design


def small_freecell(design: dict[str, Any]) -> None:
    design["depots"][0]["acceptRule"]["when"] = CLASSIC_CELL
    design["depots"][2]["acceptRule"]["when"] = CLASSIC_COLUMN
    small_shipped_freecell(design)


def small_shipped_freecell(design: dict[str, Any]) -> None:
    """The shipped rules (reading the move's source) on a smaller board."""
    design["depots"][0]["repeat"] = 1  # one cell
    design["depots"][1]["repeat"] = 2  # two foundations
    design["depots"][2]["repeat"] = 3  # three columns


def small_klondike(design: dict[str, Any]) -> None:
    design["depots"][2]["repeat"] = 3
    design["depots"][3]["repeat"] = 4
    rule = design["depots"][3]["acceptRule"]
    rule["when"] = rule["when"].replace("King", "Six")  # the top rank kept
    design["dealRules"][0]["faceDown"] = "col(depot)"


def small_canfield(design: dict[str, Any]) -> None:
    design["depots"][2]["repeat"] = 2
    design["dealRules"][0]["faceDown"] = 3


def small_klondike_draw_one(design: dict[str, Any]) -> None:
    small_klondike(design)
    design["depots"][0]["draw"]["count"] = 1


SMALL = {
    "freecell": lambda: small("freecell", ["Spades", "Hearts"], 6, small_freecell),
    "freecell-shipped": lambda: small("freecell", ["Spades", "Hearts"], 6, small_shipped_freecell),
    "klondike": lambda: small("klondike", ["Spades", "Hearts", "Clubs"], 6, small_klondike),
    "klondike-draw-one": lambda: small("klondike", ["Spades", "Hearts", "Clubs"], 6, small_klondike_draw_one),
    "canfield": lambda: small("canfield", ["Spades", "Hearts"], 13, small_canfield),
    "canfield-strict": lambda: small("canfield-strict", ["Spades", "Hearts"], 13, small_canfield),
    "canfield-spaces": lambda: small("canfield-auto-reserve-then-waste", ["Spades", "Hearts"], 13, small_canfield),
}
BUDGET = 300_000


@pytest.mark.parametrize("name", sorted(SMALL))
def test_each_piece_agrees_with_the_plain_exhaustive_search(name: str) -> None:
    assert_pieces_agree_with_the_plain_search(SMALL[name](), BUDGET, name)



@pytest.mark.parametrize("name", ["freecell", "freecell-shipped", "klondike", "klondike-draw-one"])
def test_a_safe_move_never_leads_away_from_a_win(name: str) -> None:
    game = SMALL[name]()
    safe = safe_sink_moves(game)
    assert not isinstance(safe, str), safe
    checked = won = 0
    for state in random_positions(game, 200, seed=3, max_moves=30):
        verdicts = safe_move_verdicts(safe, state, BUDGET)
        if verdicts is None:
            continue
        before, after = verdicts
        assert before != "unknown"
        if before == "won":
            won += 1
            assert after == "won", state
        checked += 1
    assert checked >= 20 and won >= 5, (checked, won)


def test_a_move_onto_a_sink_that_gives_back_is_not_safe_while_a_card_still_needs_it() -> None:
    # 5♥ could go up, but the 4♠ covering 3♠ has no other red Five to go on, and 5♥ could come back
    # only onto a black Six, both under the 4♠: up there, it loses
    game = SMALL["klondike"]()
    piles: list[tuple[int, ...]] = [()] * len(game.names)

    def lay(name: str, down: str, up: str) -> None:
        piles[game.index[name]] = (*parse_deck(down), *(c | FACE_UP for c in parse_deck(up)))

    lay("found[0]", "", "AS 2S")
    lay("found[1]", "", "AH 2H 3H 4H")
    lay("found[2]", "", "AC 2C 3C 4C 5C")
    lay("tab[0]", "6S 6C 3S", "4S")
    lay("tab[1]", "", "5H")
    lay("tab[2]", "5S", "6H")
    state = State(game, piles)
    up = game.drag_move(game.index["tab[1]"], 1, game.index["found[1]"], None)
    assert up in state.legal_moves()
    after = state.clone()
    after.apply(up)
    assert search(state, BUDGET, None, Pruning.none()).result == "won"
    assert search(after, BUDGET, None, Pruning.none()).result == "lost"
    safe = safe_sink_moves(game)
    assert not isinstance(safe, str) and safe.safe_move(state) != up


def test_a_safe_card_in_a_stock_turned_one_at_a_time_is_tapped_to_the_waste_top_and_moved() -> None:
    game = SMALL["klondike-draw-one"]()
    safe = safe_sink_moves(game)
    assert not isinstance(safe, str)
    stock, waste = game.index["stock"], game.index["waste"]
    assert [(s, w) for s, w, _ in safe.cycles] == [(stock, waste)]
    piles: list[tuple[int, ...]] = [()] * len(game.names)
    piles[stock] = (*parse_deck("2S AH"), parse_deck("AS")[0])  # the Ace of Spades is turned first
    piles[waste] = tuple(c | FACE_UP for c in parse_deck("3S 4S"))
    state = State(game, piles)
    steps = []
    for _ in range(6):
        move = safe.safe_move(state)
        if move is None:
            break
        steps.append(move)
        state.apply(move)
    tap_move = game.draws[0].move
    found = [game.index[name] for name in ("found[0]", "found[1]", "found[2]")]
    assert steps[0] == tap_move and steps[1].source == "waste"  # the Ace of Spades, up at once
    # then the Ace of Hearts, and the Two of Spades once no red Ace can want it
    assert sorted(len(state.piles[f]) for f in found) == [0, 1, 2]
    assert tap_move in steps[2:]


def test_turning_a_stock_round_to_its_safe_card_plays_what_the_engines_taps_play() -> None:
    game = SMALL["klondike-draw-one"]()
    safe = safe_sink_moves(game)
    assert not isinstance(safe, str)
    turned = 0
    for state in random_positions(game, 200, seed=4, max_moves=40):
        draw = game.draws[0].move
        tap_move = safe.safe_move(state)
        if tap_move != draw:
            continue
        tapped, at_once = state.clone(), state.clone()
        taps = 0
        while tap_move == draw:
            tapped.apply(tap_move)
            taps += 1
            tap_move = safe.safe_move(tapped)
        assert safe.turn_round(at_once, draw) == taps
        assert at_once.piles == tapped.piles and at_once.move_count == tapped.move_count
        turned += taps > len(state.piles[game.index["stock"]])  # through a turn of the waste too
    assert turned >= 5, turned


def test_no_stock_cycle_where_draws_are_three_or_a_rule_reads_the_waste() -> None:
    three = safe_sink_moves(SMALL["klondike"]())
    assert not isinstance(three, str) and three.cycles == ()

    def reads_the_waste(design: dict[str, Any]) -> None:
        small_klondike_draw_one(design)
        rule = design["depots"][3]["acceptRule"]
        rule["when"] = f"({rule['when']}) && (source != waste || count(source) - count(cards) >= 1)"

    game = small("klondike", ["Spades", "Hearts", "Clubs"], 6, reads_the_waste)
    safe = safe_sink_moves(game)
    assert not isinstance(safe, str) and safe.cycles == ()


def test_a_card_onto_a_sink_that_gives_back_needs_its_whole_closure_in_the_sinks() -> None:
    safe = safe_sink_moves(Game(build_design(design_of("klondike"))))
    assert not isinstance(safe, str)
    five_of_hearts = parse_deck("5H")[0]
    needed = {card for card, bit in safe.bit.items() if safe.required[five_of_hearts] & bit}
    # the Hearts below it, the black Fours and what builds on them, down to the Aces
    assert needed == set(parse_deck("AH 2H 3H 4H AS 2S 3S 4S AC 2C 3C 4C AD 2D 3D"))
    assert safe.required[parse_deck("AD")[0]] == 0


@pytest.mark.parametrize(("face_up", "flips"), [(True, False), (False, False), (False, True), (True, True)])
def test_the_key_tap_follows_the_engine(face_up: bool, flips: bool) -> None:
    # normalize() follows taps with its own function: it must play a tap exactly as the engine does
    for count in (3, 1):
        design = design_of("klondike")
        design["depots"][0]["draw"]["count"] = count
        design["depots"][0]["draw"]["faceUp"] = face_up
        design["depots"][0]["autoFlipTop"] = flips
        game = Game(build_design(design))
        draw = game.draws[0]
        for state in random_positions(game, 10, seed=count, max_moves=30):
            stock, waste = state.piles[draw.depot], state.piles[draw.to]
            for _ in range(30):
                if not stock and not waste:
                    break
                state.apply(draw.move)
                stock, waste = tap(stock, waste, draw.count, draw.face_up, game.auto_flip[draw.depot])
                assert (stock, waste) == (state.piles[draw.depot], state.piles[draw.to])


def test_positions_on_one_cycle_of_taps_share_a_key() -> None:
    game = Game(build_design(design_of("klondike")))
    plan = plan_for(game, Pruning())
    state = game.new_initial_state(seed=2)
    draw = game.draws[0]
    keys = set()
    for _ in range(9):  # 24 cards, three at a time: a pass and the turn-over
        keys.add(plan.key_of(state))
        state.apply(draw.move)
    assert len(keys) == 1 and plan.key_of(state) in keys
    state.apply(draw.move)
    off_cycle = state.clone()  # two cards on the waste: taps never lead back here
    stock, waste = off_cycle.piles[draw.depot], off_cycle.piles[draw.to]
    off_cycle.piles[draw.depot], off_cycle.piles[draw.to] = (*stock, waste[-1] & ~FACE_UP), waste[:-1]
    tapped = off_cycle.clone()
    tapped.apply(draw.move)
    assert plan.key_of(off_cycle) != plan.key_of(tapped)


@pytest.mark.parametrize("count", [3, 1])
def test_stock_moves_reach_what_single_taps_reach(count: int) -> None:
    def edit(design: dict[str, Any]) -> None:
        small_klondike(design)
        design["depots"][0]["draw"]["count"] = count

    game = small("klondike", ["Spades", "Hearts", "Clubs"], 6, edit)
    assert not isinstance(stock_moves(game), str)
    verdicts = {"won": 0, "lost": 0}
    for state in random_positions(game, 25, seed=5, max_moves=30):
        plain = search(state, BUDGET, None, Pruning.none()).result
        assert plain != "unknown"
        verdicts[plain] += 1
        assert search(state, BUDGET, None, only("stock")).result == plain
    assert verdicts["won"] and verdicts["lost"], verdicts


def test_interchangeable_depots_are_told_from_the_rules() -> None:
    def classes(name: str) -> list[list[str]]:
        game = Game(build_design(design_of(name)))
        return [[game.names[d] for d in members] for members in interchangeable_classes(game)]

    assert classes("freecell") == [[f"cell[{i}]" for i in range(4)], [f"found[{i}]" for i in range(4)],
                                   [f"tab[{i}]" for i in range(8)]]
    assert classes("canfield") == [["found[1]", "found[2]", "found[3]"]]  # the columns' triggers share the reserve
    assert classes("spider-one-suit") == []  # its deal gives the first stock card to the first column


def test_the_solver_and_cz509_share_one_definition_of_interchangeable_piles() -> None:
    from cardz_tools.analysis import pointless

    for name in ("freecell", "klondike", "canfield"):
        game = Game(build_design(design_of(name)))
        per_depot = pointless.interchangeable_classes(game)
        grouped = {tuple(d for d, c in enumerate(per_depot) if c == first) for first in set(per_depot)}
        assert {members for members in grouped if len(members) > 1} == set(interchangeable_classes(game)), name
    one_home = design_of("klondike")
    one_home["winCondition"]["depots"] = "found[0]"  # the win now tells found[0] from the others
    game = Game(build_design(one_home))
    assert game.index["found[0]"] not in {d for members in interchangeable_classes(game) for d in members}
    located = design_of("freecell")
    located["depots"][0]["acceptRule"]["when"] += " && !exists(at(Tableau, 1, 0))"
    assert interchangeable_classes(Game(build_design(located))) == ()


def test_positions_that_differ_by_swapping_interchangeable_piles_share_a_key() -> None:
    game = Game(build_design(design_of("freecell")))
    state = game.new_initial_state(seed=4)
    swapped = state.clone()
    tab = game.members["tab"]
    swapped.piles[tab[0]], swapped.piles[tab[5]] = state.piles[tab[5]], state.piles[tab[0]]
    key = canonical_key_function(game)
    assert key(state) == key(swapped)
    assert canonical_key_function(game, symmetry=False)(state) != canonical_key_function(game, symmetry=False)(swapped)


def test_designs_outside_the_dominance_shape_get_no_dominance_and_say_why() -> None:
    assert not isinstance(safe_sink_moves(Game(build_design(classic_freecell()))), str)
    klondike = safe_sink_moves(Game(build_design(design_of("klondike"))))
    assert not isinstance(klondike, str) and klondike.gives_back  # its foundations give their top card back
    runs_back = design_of("klondike")
    runs_back["depots"][2]["ejectRule"] = "faceUp"
    assert "gives back more than its top card" in str(safe_sink_moves(Game(build_design(runs_back))))
    waste_takes = design_of("klondike")
    waste_takes["depots"][1]["acceptRule"] = {"when": "true"}
    assert "a stock or a waste takes cards" in str(safe_sink_moves(Game(build_design(waste_takes))))
    # the shipped rules read the move's source only in ways a safe move cannot change
    assert not isinstance(safe_sink_moves(Game(build_design(design_of("freecell")))), str)
    leaves_three = design_of("freecell")
    column = leaves_three["depots"][2]["acceptRule"]
    column["when"] = column["when"].replace("count(cards) == count(source)", "count(source) - count(cards) == 3")
    assert not isinstance(safe_sink_moves(Game(build_design(leaves_three))), str)
    long_source = design_of("freecell")
    column = long_source["depots"][2]["acceptRule"]
    column["when"] = column["when"].replace("count(cards) == count(source)", "count(source) > 3")
    assert "changes when the dragged run" in str(safe_sink_moves(Game(build_design(long_source))))
    fewer_cells_more_room = classic_freecell()
    fewer_cells_more_room["depots"][2]["acceptRule"]["when"] += " && count(Cell, empty(it)) < 3"
    # a cell takes any card, so a lone card could fill an empty one: the cells cannot be kept full either
    why = str(safe_sink_moves(Game(build_design(fewer_cells_more_room))))
    assert "refuses moves while a depot is empty" in why and "may take a lone card" in why, why
    reads_foundations = classic_freecell()
    reads_foundations["depots"][2]["acceptRule"]["when"] += " && count(Foundation) < 50"
    assert isinstance(safe_sink_moves(Game(build_design(reads_foundations))), str)


def test_a_deal_the_dead_card_test_proves_lost_is_decided_by_proof() -> None:
    game = Game(build_design(design_of("black-hole")))
    # 7♣ needs a Six or an Eight on the hole; all of them lie under it in its own fan.
    buried = [c | FACE_UP for c in parse_deck("6C 6D 6H 6S 8C 8D 8H 8S 7C")]
    piles: list[tuple[int, ...]] = [()] * len(game.names)
    ace, king = (c | FACE_UP for c in parse_deck("AS KS"))
    piles[game.index["fan[0]"]] = tuple(buried)
    piles[game.index["fan[1]"]] = (king,)  # a King on the Ace of Spades: the position is not over
    rest = [c | FACE_UP for c in standard_deck() if c | FACE_UP not in (*buried, ace, king)]
    piles[game.index["hole"]] = (*rest, ace)
    found = solve_deal(State(game, piles), 10_000)
    assert (found.result, found.stage, found.nodes) == ("lost", "proof", 1)


def test_the_json_report_gives_each_deals_result_nodes_seconds_and_stage() -> None:
    text = json.dumps(design_of("freecell"))
    report = solve(text, 2, seed=101, budget=400, workers=1, verbose=True)
    for deal in report.to_dict()["per_deal"]:
        assert {"result", "nodes", "seconds", "stage", "line"} <= set(deal)
        assert deal["stage"] in ("quick", "search", "proof", None)
        assert (deal["stage"] is None) == (deal["result"] == "unknown")
    canfield = design_of("canfield")
    canfield["depots"][4]["triggers"][0]["when"] = "!empty(reserve)"  # not a refill of an emptied column
    report = solve(json.dumps(canfield), 1, seed=1, budget=50, workers=1, verbose=True)
    assert "no safe moves: it has triggers or actions" in report.to_text()


def test_the_portfolio_finds_what_the_plain_order_finds_fast() -> None:
    # Canfield deal 0 of seed 101: the plain order wins in about 700 positions, while the
    # ordering and stock moves alone wander past 100,000; the portfolio takes turns, so it
    # costs a few times the plain search, never the wandering.
    game = Game(build_design(design_of("canfield")))
    root = game.new_initial_state(seed=deal_seed(101, 0))
    plain = search(root, 2_000, None, Pruning.none())
    assert plain.result == "won"
    wandering = search(root, 20_000, None, Pruning(quick=False))
    assert wandering.result == "unknown"
    found = search(root, 6 * plain.nodes, None, Pruning())  # its share is a quarter of the turns
    assert found.result == "won" and replays_to_a_win(root, found.line)


@pytest.mark.parametrize("name", ["freecell", "stronghold"])  # Stronghold has a depot in no class
def test_the_fast_key_and_the_cached_heuristic_tell_positions_apart_as_the_general_ones_do(name: str) -> None:
    import random

    from cardz_tools.analysis.runner import game_for
    from cardz_tools.analysis.tableau_search import Progress
    from cardz_tools.loading import open_design

    game = game_for(open_design(GAMES / f"{name}.cardz").json_text)
    rng = random.Random(3)
    positions = []
    for state in random_positions(game, 12, seed=5, max_moves=40):
        positions.append(state)
        for members in interchangeable_classes(game):  # the same position with a class's piles shuffled
            shuffled = state.clone()
            order = list(members)
            rng.shuffle(order)
            shuffled.piles[:] = list(state.piles)
            for depot, source in zip(members, order, strict=True):
                shuffled.piles[depot] = tuple(state.piles[source])  # equal piles that are other tuples
            positions.append(shuffled)
        for depot in range(len(game.names)):  # one pile emptied: another position unless it was empty
            emptied = state.clone()
            emptied.piles[depot] = ()
            positions.append(emptied)
    fast = canonical_key_function(game)
    general = canonical_key_function(game, normalize=lambda state, piles: None)  # the key's general path
    assert fast.__qualname__ != general.__qualname__
    fast_to_general: dict[Any, Any] = {}
    general_to_fast: dict[Any, Any] = {}
    for state in positions:
        one, other = fast(state), general(state)
        assert fast_to_general.setdefault(one, other) == other and general_to_fast.setdefault(other, one) == one
    assert len(general_to_fast) < len(positions)  # some positions were the same up to symmetry
    warm, cold = Progress(game), Progress(game)  # warm keeps its per-pile terms across positions, as in a search
    for state in positions:
        cold._terms.clear()
        assert warm.heuristic(state) == cold.heuristic(state)
