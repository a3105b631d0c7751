"""The search's ordering score: its kept per-pile terms (:data:`PILE_TERMS_KEPT`) change nothing, and a card
built on one its pile will not let go of together with it counts as loose (:mod:`.joints`)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from cardz_tools.analysis import tableau_search
from cardz_tools.analysis.dominance import build_table, card_bits
from cardz_tools.analysis.playout import deal_seed
from cardz_tools.cards import FACE_UP, parse_deck
from cardz_tools.engine import Game
from cardz_tools.loading import open_design

GAMES = Path(__file__).resolve().parent.parent / "games"


@pytest.mark.parametrize("name", ["spider-one-suit", "freecell", "klondike"])
def test_kept_pile_terms_give_the_score_a_fresh_count_gives(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    game = Game(open_design(GAMES / f"{name}.cardz").design)
    monkeypatch.setattr(tableau_search, "PILE_TERMS_KEPT", 50)  # small: the forgetting is exercised too
    kept = tableau_search.Progress(game)
    counting = tableau_search.Progress(game)
    rng = random.Random(2)
    scores = set()
    for deal in range(4):
        state = game.new_initial_state(seed=deal_seed(3, deal))
        for _ in range(60):
            if state.is_terminal():
                break
            counting._terms.clear()
            fresh = counting.heuristic(state)
            assert kept.heuristic(state) == fresh
            scores.add(fresh)
            state.apply(rng.choice(state.legal_moves()))
    assert len(scores) > 5  # the positions differ in score


def test_a_card_built_on_one_it_cannot_move_with_counts_as_loose() -> None:
    game = Game(open_design(GAMES / "spider.cardz").design)
    progress = tableau_search.Progress(game)
    six_spades, five_hearts, five_spades = (card | FACE_UP for card in parse_deck("6S 5H 5S"))
    assert progress._pile_terms((six_spades, five_spades), 0)[0] == 0  # a run in one suit moves together
    assert progress._pile_terms((six_spades, five_hearts), 0)[0] == 1  # built, but stuck there


def test_rules_that_move_what_they_build_keep_the_ordering_they_had() -> None:
    game = Game(open_design(GAMES / "freecell.cardz").design)
    assert tableau_search.Progress(game)._table == build_table(game)


@pytest.mark.parametrize("name", ["canfield", "canfield-runs"])
def test_the_base_rank_read_from_the_deal_tells_which_card_a_foundation_takes(name: str) -> None:
    """Canfield's rules read the first foundation's bottom card: without it every card may go on every top,
    so no card is ever loose or wanted; the search's ordering reads it off the deal (a constant from then on)."""
    game = Game(open_design(GAMES / f"{name}.cardz").design)
    root = game.new_initial_state(seed=deal_seed(0, 0))
    base = root.piles[game.index["found[0]"]][0] & ~FACE_UP
    search = tableau_search._Search(
        root, tableau_search.plan_for(game, tableau_search.Pruning()), tableau_search.Pruning(), 10, None
    )
    home = search.progress._home_table
    bits = [bit for bit in card_bits().values() if home[base] & bit]
    assert len(bits) == 1  # the card after the base in its suit, and nothing else
    assert len([b for b in card_bits().values() if tableau_search.Progress(game)._home_table.get(base, -1) & b]) == 52
    table = search.progress._table
    assert all(bin(table[card]).count("1") <= 2 for card in card_bits())  # two cards go on a column's top


@pytest.mark.parametrize("name", ["forty-thieves", "spider", "klondike"])
def test_the_pile_terms_are_those_counted_from_the_tables(name: str) -> None:
    """:meth:`Progress._pile_terms` (read off tables indexed by card) against a count written from its definition
    over the card and build tables as dicts, over random piles and every sink-top mask seen."""
    from tests.engine_support import random_positions

    game = Game(open_design(GAMES / f"{name}.cardz").design)
    progress = tableau_search.Progress(game)
    table, bit = progress._table, card_bits()

    def counted(pile: tuple[int, ...], wanted: int) -> tuple[int, int, int]:
        loose = hidden = buried = 0
        for depth, card in enumerate(pile):
            plain = card & ~FACE_UP
            if wanted and bit.get(plain, 0) & wanted:
                buried += len(pile) - 1 - depth
            if not card & FACE_UP:
                hidden += 1
            elif depth and pile[depth - 1] & FACE_UP:
                loose += not table.get(pile[depth - 1] & ~FACE_UP, -1) & bit.get(plain, 0)
        return loose, hidden, buried

    masks = {0, *(m for m in progress._home_table.values())}
    seen = 0
    for state in random_positions(game, 30, seed=4, max_moves=150):
        for pile in state.piles:
            for wanted in masks:
                assert progress._pile_terms(pile, wanted) == counted(pile, wanted)
            seen += any(progress._pile_terms(pile, 0))
    assert seen > 10  # piles with loose or face-down cards were counted
