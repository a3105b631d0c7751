"""The dead-card relaxation (:mod:`cardz_tools.analysis.relaxation`) never turns a win into a loss.

Small Baker's Dozen boards without the Kings moved to the bottom (so cards are often buried
under a card they must precede, in a column that builds down only on a card) are searched
exhaustively with every pruning piece off, and again with only the relaxation: the verdicts
agree deal by deal. Every position the relaxation calls lost, on the search's roots and on
random playouts, is proved lost by the plain exhaustive search, and the test fires often
enough for that to mean something.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from cardz_tools.analysis.playout import deal_seed
from cardz_tools.analysis.relaxation import card_flow, dead_check
from cardz_tools.analysis.tableau_search import Pruning, plan_for, replays_to_a_win, search
from cardz_tools.engine import Game
from cardz_tools.loading import open_design
from cardz_tools.model import build_design
from tests.engine_support import random_positions

GAMES = Path(__file__).resolve().parent.parent / "games"
RANKS = ["Ace", "Two", "Three", "Four", "Five", "Six", "Seven", "Eight", "Nine", "Ten", "Jack", "Queen", "King"]
BUDGET = 300_000
NONE = Pruning.none()
RELAXED = Pruning(symmetry=False, safe_moves=False, forced=False, stock=False, ordering=False, quick=False)


def bakers_dozen(edit: Callable[[dict[str, Any]], None]) -> Game:
    """Baker's Dozen on three columns of four cards (three suits, Ace to Four), no Kings to the bottom."""
    design = copy.deepcopy(open_design(GAMES / "bakers-dozen.cardz").data)
    design["suits"] = ["Spades", "Hearts", "Clubs"]
    design["depots"][0]["repeat"] = 3
    design["depots"][1]["repeat"] = 3
    design["dealRules"] = [
        {"kind": "remove", "ranks": RANKS[4:]},
        {"kind": "dealGroup", "to": "tab", "faceUp": 4, "roundRobin": True},
    ]
    edit(design)
    return Game(build_design(design))


def top_only(design: dict[str, Any]) -> None:
    """The shipped rules: one card at a time."""


def runs(design: dict[str, Any]) -> None:
    """A column gives up any run, and takes one whose bottom card is one rank below its top."""
    design["depots"][1]["ejectRule"] = "faceUp"
    design["depots"][1]["acceptRule"]["single"] = False


VARIANTS = {"top-only": top_only, "runs": runs}
FIRES = {"top-only": True, "runs": False}
"""Whether the relaxation proves losses on the variant: with runs, a mobile card carries every
card above it, and only a Four buried under a Four (seldom) is dead; there it is checked for
agreement only."""



@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_the_relaxation_agrees_with_the_plain_exhaustive_search(variant: str) -> None:
    game = bakers_dozen(VARIANTS[variant])
    assert not isinstance(card_flow(game), str), card_flow(game)
    verdicts = {"won": 0, "lost": 0}
    proofs = plain_nodes = relaxed_nodes = 0
    for deal in range(30 if FIRES[variant] else 12):
        root = game.new_initial_state(seed=deal_seed(11, deal))
        plain = search(root, BUDGET, None, NONE)
        assert plain.result != "unknown"
        verdicts[plain.result] += 1
        relaxed = search(root, BUDGET, None, RELAXED)
        assert relaxed.result == plain.result, f"{variant} deal {deal}"
        if relaxed.result == "won":
            assert replays_to_a_win(root, relaxed.line)
        proofs += relaxed.stage == "proof"
        plain_nodes += plain.nodes
        relaxed_nodes += relaxed.nodes
    assert verdicts["won"] and verdicts["lost"], verdicts
    if FIRES[variant]:
        assert proofs >= 10, "the relaxation proves few deals lost before the search"
        assert relaxed_nodes < plain_nodes / 4


def relaxation_against_search(game: Game, count: int, max_moves: int) -> tuple[int, int]:
    """(positions the relaxation calls lost, positions won) over ``count`` random positions of
    ``game``, each solved by the plain exhaustive search: every position called lost must be lost."""
    called = won = 0
    for state in random_positions(game, count, seed=4, max_moves=max_moves):
        dead = dead_check(state)
        assert dead is not None
        plain = search(state, BUDGET, None, NONE).result
        assert plain != "unknown"
        if dead(state):
            called += 1
            assert plain == "lost", state
        won += plain == "won"
    return called, won


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_a_position_the_relaxation_calls_lost_cannot_be_won(variant: str) -> None:
    game = bakers_dozen(VARIANTS[variant])
    called, won = relaxation_against_search(game, 150 if FIRES[variant] else 60, max_moves=12)
    assert won >= 10, won
    if FIRES[variant]:
        assert called >= 10, called


def test_a_design_outside_the_shape_gets_no_relaxation_and_says_why() -> None:
    game = Game(open_design(GAMES / "spider-one-suit.cardz").design)
    why = card_flow(game)
    assert isinstance(why, str) and "effect puts cards on its win depot" in why
    assert any(note.startswith("no dead-card relaxation:") for note in plan_for(game, Pruning()).notes)
    assert dead_check(game.new_initial_state(seed=1)) is None


def test_a_check_that_never_fires_stops_being_paid_for_and_one_that_fires_does_not() -> None:
    from cardz_tools.analysis import relaxation

    calls: list[int] = []

    def never(state: Any) -> bool:
        calls.append(1)
        return False

    idle = relaxation._WhileItPays(never)
    for _ in range(relaxation.TRIAL_CHECKS + 50):
        assert idle(None) is False
    assert len(calls) == relaxation.TRIAL_CHECKS
    busy = relaxation._WhileItPays(lambda state: state == "dead")
    assert busy("dead")
    for _ in range(relaxation.TRIAL_CHECKS):
        busy("alive")
    assert busy("dead")  # it fired once, so it is still asked


def castle(top: str, columns: int, per_column: int, give_back: bool = False, empty_takes_top: bool = False) -> Game:
    """Beleaguered Castle with three suits, Ace to the rank below ``top``, on ``columns`` columns
    (an empty column takes any card, so only the test "before any column is empty" applies); with
    ``give_back``, a foundation's top card may come back to a column (as in King Albert); with
    ``empty_takes_top``, an empty column takes only the highest rank (as Fan's takes a King)."""
    design = copy.deepcopy(open_design(GAMES / "beleaguered-castle.cardz").data)
    design["suits"] = ["Spades", "Hearts", "Clubs"]
    design["depots"][0]["repeat"] = 3
    if give_back:
        found = design["depots"][0]
        del found["ejectRule"]
        found["acceptRule"]["when"] = f"!(source in Foundation) && ({found['acceptRule']['when']})"
    if empty_takes_top:
        highest = RANKS[RANKS.index(top) - 1]
        design["depots"][1]["acceptRule"]["when"] = (
            f"empty(depot) ? card.rank == {highest} && !(source in Tableau && count(cards) == count(source))"
            " : card.rank == top.rank - 1"
        )
    design["depots"][1]["repeat"] = columns
    design["dealRules"] = [
        {"kind": "remove", "ranks": RANKS[RANKS.index(top):]},
        design["dealRules"][0],
        {"kind": "dealGroup", "to": "tab", "faceUp": per_column, "roundRobin": True},
    ]
    return Game(build_design(design))


CASTLES = {
    "three columns of five": ("Seven", 3, 5),
    "three columns of four": ("Six", 3, 4),
    "three columns of five, foundations give back": ("Seven", 3, 5, True),
    "three columns of five, an empty one takes a Six": ("Seven", 3, 5, False, True),
}


@pytest.mark.parametrize("shape", sorted(CASTLES))
def test_no_column_ever_emptied_agrees_with_the_plain_exhaustive_search(shape: str) -> None:
    game = castle(*CASTLES[shape])
    flow = card_flow(game)
    assert not isinstance(flow, str) and flow.moves_onto_empty and flow.takers, flow
    proofs = 0
    for deal in range(30):
        root = game.new_initial_state(seed=deal_seed(11, deal))
        plain = search(root, BUDGET, None, NONE)
        relaxed = search(root, BUDGET, None, RELAXED)
        assert plain.result != "unknown" and relaxed.result == plain.result, f"{shape} deal {deal}"
        proofs += relaxed.stage == "proof"
    assert proofs >= 5, "the test proves few deals lost before the search"


@pytest.mark.parametrize(("give_back", "empty_takes_top"), [(False, False), (True, False), (False, True)])
def test_a_castle_position_the_relaxation_calls_lost_cannot_be_won(give_back: bool, empty_takes_top: bool) -> None:
    game = castle("Seven", 3, 5, give_back, empty_takes_top)
    called, won = relaxation_against_search(game, 120, max_moves=10)
    assert won >= 5 and called >= 10, (won, called)


def castle_board(columns: int, ranks: str = "23", game: Game | None = None) -> Any:
    """A castle of Ace to Three whose first three columns hold the cards ``ranks`` of one suit each
    (bottom first), and the other columns none."""
    from cardz_tools.cards import FACE_UP, parse_card

    game = game or castle("Four", columns, 2)
    state = game.new_initial_state(seed=1)
    tableau = [d for d in range(len(game.names)) if game.names[d].startswith("tab")]
    for d in tableau:
        state.piles[d] = ()
    for d, suit in zip(tableau, "SHC", strict=False):
        state.piles[d] = tuple(parse_card(f"{rank}{suit}") | FACE_UP for rank in ranks)
    return state


def test_a_column_empty_now_keeps_a_blocked_board_alive() -> None:
    """Each Three lies on the Two of its suit: with no empty column nothing can move, but one
    empty column takes a Three and the deal is won (the unsound test that ignores the empty
    column calls it lost)."""
    blocked, spare = castle_board(3), castle_board(4)
    check = dead_check(blocked)
    assert check is not None and check(blocked)
    assert search(blocked, BUDGET, None, NONE).result == "lost"
    check = dead_check(spare)
    assert check is not None and not check(spare)
    assert search(spare, BUDGET, None, NONE).result == "won"


def test_the_test_on_tops_is_still_asked_after_a_hundred_boards_it_did_not_prove() -> None:
    """Where no column gives up runs the test on tops replaces the test before any column is empty (it
    proves every board that one does), so the trial after which that one stops looking
    (:data:`EMPTY_TRIAL_CHECKS` boards in vain) must not silence it: a blocked board after a hundred
    moving ones is still proved lost, by a search that started on either."""
    from cardz_tools.analysis import relaxation

    game = castle("Four", 3, 2)
    flow = card_flow(game)
    assert not isinstance(flow, str)
    blocked, moving = castle_board(3, "23", game), castle_board(3, "32", game)  # Twos on Threes: they go home
    for start in (moving, blocked):
        check = flow.check_for(start)
        for _ in range(relaxation.EMPTY_TRIAL_CHECKS):
            assert not check(moving)
        assert check(blocked)


def castle_of_codes(columns: list[str], foundations: list[str] | None = None, empty_takes_top: bool = False) -> Any:
    """A Beleaguered Castle position on three suits, Ace to Five (the Aces on the foundations, or
    ``foundations``: then its foundations give their top card back), with ``columns`` written bottom
    to top as card codes ("5S 2S 4C 3S")."""
    from cardz_tools.cards import FACE_UP, parse_card

    game = castle("Six", len(columns), 4, give_back=foundations is not None, empty_takes_top=empty_takes_top)
    state = game.new_initial_state(seed=1)
    for prefix, written in [("tab", columns), ("found", foundations)]:
        if written is None:
            continue
        depots = [d for d in range(len(game.names)) if game.names[d].startswith(prefix)]
        for d, pile in zip(depots, written, strict=True):
            state.piles[d] = tuple(parse_card(code) | FACE_UP for code in pile.split())
    return state


def test_cards_that_can_only_go_onto_buried_cards_make_a_castle_lost() -> None:
    """Every Three lies on a Four and above its Two: a Three must go onto a Four, and every Four is
    under a Three. The test on tops proves it lost; the mobile cards' test does not (each Three has a
    Four outside the foundations), so this is what the test on tops adds."""
    blocked = castle_of_codes(["5S 2S 4C 3S", "5H 2H 4S 3H", "5C 2C 4H 3C"])
    check = dead_check(blocked)
    assert check is not None and check(blocked)
    assert search(blocked, BUDGET, None, NONE).result == "lost"


def test_a_card_may_go_onto_a_card_that_becomes_a_top_later() -> None:
    """The Four of Spades can only go onto the Five of Clubs, which the Two of Spades covers until it
    goes home: the deal is won. The unsound test that counts only the tops of now (no Five is a top)
    leaves a card unsettled in every column and calls it lost."""
    state = castle_of_codes(["3S 2H 4S", "5C 2S", "2C 3C 4C 5S 5H 4H 3H"])
    check = dead_check(state)
    assert check is not None and not check(state)
    assert search(state, BUDGET, None, NONE).result == "won"


def test_a_card_may_go_onto_a_card_a_foundation_gives_back() -> None:
    """The Three of Hearts can only go onto the Four of Spades, which is on a foundation that gives
    its top card back (onto the Five of Hearts): the deal is won. The unsound test that counts only
    the columns' cards as tops calls it lost (each column has a card it cannot settle)."""
    state = castle_of_codes(["2H 3H", "4H 4C 5H", "5S 5C 2C 3C"], ["AS 2S 3S 4S", "AH", "AC"])
    check = dead_check(state)
    assert check is not None and not check(state)
    assert search(state, BUDGET, None, NONE).result == "won"


def test_a_card_an_empty_column_takes_may_go_there() -> None:
    """An empty column takes only a Five: the Five of Hearts goes there, freeing the Two of Spades,
    and the deal is won. The unsound test that lets no card into an empty column (as in Baker's
    Dozen) leaves a card unsettled in every column and calls it lost."""
    state = castle_of_codes(["2S 5H", "", "2H 3H 4H 3S 4S 5S 2C 3C 4C 5C"], empty_takes_top=True)
    check = dead_check(state)
    assert check is not None and not check(state)
    assert search(state, BUDGET, None, NONE).result == "won"


def alina(top: str, columns: int, per_column: int, suits: int = 2) -> Game:
    """Alina (one cell; an emptied column stays empty) with ``suits`` suits of Ace to the rank below ``top`` on
    ``columns`` columns of ``per_column`` cards: its highest rank goes onto no card, so once in the cell it leaves
    only for its foundation."""
    design = copy.deepcopy(open_design(GAMES / "alina.cardz").data)
    design["suits"] = ["Spades", "Hearts", "Clubs", "Diamonds"][:suits]
    design["depots"][0]["repeat"] = suits
    design["depots"][1]["repeat"] = columns
    design["dealRules"] = [
        {"kind": "remove", "ranks": RANKS[RANKS.index(top):]},
        {"kind": "dealGroup", "to": "tab", "faceUp": per_column, "roundRobin": True},
    ]
    return Game(build_design(design))


def alina_of_codes(columns: list[str]) -> Any:
    """An Alina position on two suits, Ace to Three, with ``columns`` written bottom to top as card codes, the cell
    and the foundations empty."""
    from cardz_tools.cards import FACE_UP, parse_card

    game = alina("Four", len(columns), 6 // len(columns))
    state = game.new_initial_state(seed=1)
    depots = [d for d in range(len(game.names)) if game.names[d].startswith("tab")]
    for d, pile in zip(depots, columns, strict=True):
        state.piles[d] = tuple(parse_card(code) | FACE_UP for code in pile.split())
    return state


def test_a_card_that_goes_onto_no_card_holds_the_cell_until_it_goes_home() -> None:
    """Each Three covers the Ace and the Two the other Three's foundation needs: whichever goes into the cell first
    stays there until its foundation is done, and the other can go nowhere, so the deal is lost. The test proves it;
    the test that lets every card into the cell whenever its cards have left (as a column that empties) does not."""
    lost = alina_of_codes(["2H AS 3S", "2S AH 3H"])
    check = dead_check(lost)
    assert check is not None and check(lost)
    assert search(lost, BUDGET, None, NONE).result == "lost"


def test_a_card_that_goes_onto_no_card_may_wait_in_the_cell() -> None:
    """The Three of Hearts covers its Ace: it goes into the cell, and home once the Ace and the Two have: the deal is
    won. The unsound test that lets no such card into the cell leaves it unsettled and calls the deal lost."""
    state = alina_of_codes(["AH 3H", "2S AS", "2H 3S"])
    check = dead_check(state)
    assert check is not None and not check(state)
    assert search(state, BUDGET, None, NONE).result == "won"


def test_on_small_alina_boards_the_relaxation_agrees_with_the_plain_exhaustive_search() -> None:
    game = alina("Seven", 4, 3)
    verdicts = {"won": 0, "lost": 0}
    for deal in range(12):
        root = game.new_initial_state(seed=deal_seed(11, deal))
        plain = search(root, BUDGET, None, NONE)
        relaxed = search(root, BUDGET, None, RELAXED)
        assert plain.result != "unknown" and relaxed.result == plain.result, f"deal {deal}"
        verdicts[plain.result] += 1
    assert verdicts["won"] >= 3 and verdicts["lost"] >= 3, verdicts
    called, won = relaxation_against_search(game, 150, max_moves=12)
    assert won >= 10 and called >= 10, (won, called)
