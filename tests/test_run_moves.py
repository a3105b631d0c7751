"""The narrowed run moves of the ``runs`` portfolio members (:mod:`cardz_tools.analysis.run_moves`).

The narrowing is no dominance: the members that use it are incomplete. These tests pin which
drags it keeps on laid-out boards, which designs get it, that it does drop the only winning
moves of some positions (so that its "lost" must never be reported), and that the portfolio
with it still agrees with the plain exhaustive search.
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

from cardz_tools.analysis import tableau_search
from cardz_tools.analysis.playout import deal_seed
from cardz_tools.analysis.tableau_search import Progress, Pruning, _Search, plan_for, replays_to_a_win, search
from cardz_tools.cards import FACE_UP, Suit, make_card
from cardz_tools.engine import Game
from cardz_tools.loading import open_design
from tests.engine_support import random_positions
from tests.restart_support import finish, small_spider
from tests.test_beam_search import beam_alone

GAMES = Path(__file__).resolve().parent.parent / "games"


@functools.cache
def game_of(name: str) -> Game:
    return Game(open_design(GAMES / f"{name}.cardz").design)


def up(rank: int, suit: Suit) -> int:
    return make_card(rank, suit, face_up=True)


def narrowed_alone(root: object) -> str:
    """The narrowed depth-first search alone, to the end: "won" or "lost" (its narrowed space ran out)."""
    pruning = Pruning()
    member = _Search(root, plan_for(root.game, pruning), pruning, 1_000_000, None, narrow=True)  # type: ignore[attr-defined]
    return finish(member.run())[0]


def test_the_narrowed_set_drops_splits_and_lateral_moves_and_keeps_the_rest() -> None:
    game = game_of("spiderette")
    runs = plan_for(game, Pruning()).runs
    assert runs is not None
    spades, hearts = Suit.SPADES, Suit.HEARTS
    board: list[tuple[int, ...]] = [()] * len(game.names)
    tab = [game.index[f"tab[{i}]"] for i in range(7)]
    board[tab[0]] = (make_card(2, spades), up(9, spades), up(8, spades), up(7, spades))  # a run on a face-down card
    board[tab[1]] = (up(9, hearts),)
    board[tab[2]] = (up(8, hearts),)
    board[tab[3]] = (up(10, hearts), up(9, Suit.CLUBS), up(8, Suit.DIAMONDS))  # 8♦ built on 9♣, not in suit
    board[tab[4]] = (up(9, Suit.DIAMONDS),)
    board[tab[5]] = (up(4, spades), up(8, Suit.CLUBS))  # 8♣ lies on a card it is not built on
    piles = tuple(board)

    def keeps(source: int, count: int, target: int) -> bool:
        return runs.keeps(piles, game.drag_move(source, count, target, None))

    assert not keeps(tab[0], 2, tab[1])  # 8♠7♠ split from 9♠ onto 9♥: dropped
    assert not keeps(tab[0], 1, tab[2])  # 7♠ split from 8♠ onto 8♥: dropped
    assert keeps(tab[0], 3, tab[6])  # the whole run uncovers a face-down card, even onto an empty column
    assert not keeps(tab[3], 1, tab[1])  # 8♦ from one build (on 9♣) onto another (9♥): dropped
    assert keeps(tab[3], 1, tab[4])  # ... but onto 9♦ it builds in suit
    assert keeps(tab[3], 1, tab[6])  # ... and an empty column takes it (it frees the 9♣)
    assert keeps(tab[5], 1, tab[1])  # 8♣ was not built on the 4♠: moving it frees the 4
    assert runs.keeps(piles, game.drag_move(tab[1], 1, tab[6], None))  # a whole pile moves


def test_which_designs_get_the_narrowed_set() -> None:
    for name in ("spiderette", "spider", "mrs-mop"):
        assert plan_for(game_of(name), Pruning()).runs is not None, name
    assert plan_for(game_of("spiderette"), Pruning(runs=False)).runs is None
    one_suit = plan_for(game_of("spider-one-suit"), Pruning())
    assert one_suit.runs is None  # every pair it builds moves together
    assert any(note.startswith("no narrowed run moves:") for note in one_suit.notes)
    assert plan_for(game_of("freecell"), Pruning()).runs is None  # no restarts member to narrow
    # The Canfield family's restarts come from a trigger refilling its columns: no narrowed members there.
    strict = plan_for(game_of("canfield-strict"), Pruning())
    assert strict.restarts and strict.runs is None
    assert any(note.startswith("no narrowed run moves: a trigger refills") for note in strict.notes)


def test_the_narrowed_set_loses_some_wins_so_its_lost_is_never_reported() -> None:
    game = small_spider()
    narrowed_lost = 0
    for root in random_positions(game, 80, 3, 30):
        plain = search(root, 300_000, None, Pruning.none())
        if plain.result != "won" or narrowed_alone(root) != "lost":
            continue
        narrowed_lost += 1
        found = search(root, 300_000, None, Pruning())  # the portfolio reads the other members for proofs
        assert found.result == "won" and replays_to_a_win(root, found.line)
    assert narrowed_lost >= 1  # the narrowing really does drop the only winning moves of some positions


def test_a_narrowed_lost_ends_every_narrowed_member_and_the_complete_ones_still_decide(monkeypatch: Any) -> None:
    # Where the narrowed set holds no win from the deal, no member searching within it can find one: the
    # portfolio drops them all on the first narrowed "lost" (the beams too), never the complete members.
    game = small_spider()
    portfolios: list[list[Any]] = []
    portfolio = tableau_search._portfolio

    def kept(*args: Any, **kwargs: Any) -> list[Any]:
        portfolios.append(portfolio(*args, **kwargs))
        return portfolios[-1]

    monkeypatch.setattr(tableau_search, "_portfolio", kept)
    monkeypatch.setattr(tableau_search, "RUNS_TURN", 1)  # short turns: the narrowed searches end first
    monkeypatch.setattr(tableau_search, "TWIN_BEAMS", False)  # two decks: keep the runs members, which end
    dropped = {"won": 0, "lost": 0}
    for root in random_positions(game, 80, 3, 30):
        if narrowed_alone(root) != "lost":
            continue
        for width in (1, 4, 16):  # a beam searches within the narrowed set: it fails there too
            assert beam_alone(root, width)[0] == "unknown"
        plain = search(root, 300_000, None, Pruning.none())
        found = search(root, 300_000, None, Pruning())
        assert found.result == plain.result != "unknown"
        if found.result == "won":
            assert replays_to_a_win(root, found.line)
        members = portfolios[-1]
        if any(m.search.runs is not None for m in members):
            continue  # a complete member decided before any narrowed search ended
        assert any(m.complete for m in members) or found.result == "lost"
        dropped[found.result] += 1
    assert dropped["won"] >= 1  # dropping a complete member too (or answering "lost") would fail here


def test_the_portfolio_with_the_narrowed_members_agrees_with_the_plain_search(monkeypatch: Any) -> None:
    game = small_spider()
    assert plan_for(game, Pruning()).runs is not None
    for deal in range(10):
        root = game.new_initial_state(seed=deal_seed(11, deal))
        plain = search(root, 300_000, None, Pruning.none())
        assert plain.result != "unknown"
        for twins in (True, False):  # two decks: the beams alone, or with the runs members (TWIN_BEAMS)
            monkeypatch.setattr(tableau_search, "TWIN_BEAMS", twins)
            for pruning in (Pruning(), Pruning(restarts=True, quick=True, ordering=False)):
                found = search(root, 300_000, None, pruning)
                assert found.result == plain.result, f"deal {deal} with {pruning}, TWIN_BEAMS {twins}"
                if found.result == "won":
                    assert replays_to_a_win(root, found.line)


def test_with_two_decks_the_beams_take_the_runs_members_turns(monkeypatch: Any) -> None:
    def narrowed(name: str) -> list[tuple[bool, int]]:
        root = game_of(name).new_initial_state(seed=deal_seed(0, 0))
        members = tableau_search._portfolio(root, Pruning(), 1_000, None)
        return [(m.beam, m.weight) for m in members if m.search.runs is not None]

    beams = [(True, weight) for weight in tableau_search.BEAM_WEIGHTS]
    runs = [(False, weight) for weight in tableau_search.RUNS_WEIGHTS]
    assert narrowed("spider") == beams  # two decks and the beams: no runs members (TWIN_BEAMS)
    assert narrowed("spiderette") == runs + beams  # one deck
    assert narrowed("will-o-the-wisp") == runs + beams
    assert narrowed("mrs-mop") == runs  # two decks, but an open board has no beams: the runs members stay
    monkeypatch.setattr(tableau_search, "TWIN_BEAMS", False)
    assert narrowed("spider") == runs + beams


def test_the_runs_members_take_turns_in_the_portfolio() -> None:
    game = game_of("spiderette")
    root = game.new_initial_state(seed=deal_seed(0, 0))
    members = tableau_search._portfolio(root, Pruning(), 1_000, None)
    narrowed = [m for m in members if m.search.runs is not None]
    assert len(narrowed) == 5 and not any(m.complete for m in narrowed)  # three runs members and two beams
    assert all(m.search.runs is None for m in members if m.complete)
    # The third member scores a face-down card at its own weight, the rest of the score as the second does.
    hidden = sum(1 for pile in root.piles for card in pile if not card & FACE_UP)
    assert hidden > 0
    plain, heavier = (m.search.progress.heuristic(root) for m in narrowed[1:3])
    assert plain - heavier == hidden * (Progress.WEIGHTS[3] - tableau_search.RUNS_HIDDEN_WEIGHT)
