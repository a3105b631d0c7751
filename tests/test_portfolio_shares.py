"""The depth-first member's share in Klondike draw three's shape (SEARCH_WEIGHTS), and the replay of the
portfolio's turns that chose it (bench/bench_shares.py)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from cardz_tools.analysis import tableau_search
from cardz_tools.analysis.playout import deal_seed
from cardz_tools.analysis.runner import game_for
from cardz_tools.analysis.tableau_search import Pruning, _portfolio, replays_to_a_win, search
from cardz_tools.loading import open_design

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))

import bench_shares  # noqa: E402
from bench_undecided import alone  # noqa: E402


def depth_first_share(name: str) -> int:
    """The share of the depth-first member with every piece in the portfolio of ``games/name.cardz``."""
    game = game_for(open_design(ROOT / "games" / f"{name}.cardz").json_text)
    members = _portfolio(game.new_initial_state(seed=1), Pruning(), 100, None)
    full = [m for m in members if not m.best_first and m.search.pruning == Pruning()]
    return full[0].weight


def test_only_a_one_deck_tap_covered_stock_without_triggers_gets_the_larger_share() -> None:
    assert depth_first_share("klondike") == tableau_search.SEARCH_WEIGHTS[1]
    assert tableau_search.SEARCH_WEIGHTS[1] > tableau_search.SEARCH_WEIGHTS[0]
    # draw one (no tap cover), two decks, and a trigger refilling the columns keep their shares
    assert depth_first_share("klondike-draw-one") == tableau_search.SEARCH_WEIGHTS[0]
    assert depth_first_share("klondike-two-deck-9") == tableau_search.SEARCH_WEIGHTS[0]
    assert depth_first_share("canfield") == tableau_search.COVERED_REFILL_WEIGHTS[0]


def test_columns_kept_full_give_the_depth_first_member_the_larger_share() -> None:
    # Canfield whose columns take only the waste's card while one is empty: the safe moves keep them full, no
    # narrowed member joins, and the open deals are proofs of loss, which only the depth-first member gives.
    for name in ("canfield-strict", "canfield-auto-reserve-then-waste"):
        assert depth_first_share(name) == tableau_search.KEPT_FULL_DEEP_WEIGHT, name
    assert tableau_search.KEPT_FULL_DEEP_WEIGHT > tableau_search.COVERED_REFILL_WEIGHTS[0]
    # the same family without full columns (runs move, any card in a space) keeps the covered-refill share
    assert depth_first_share("canfield-runs") == tableau_search.COVERED_REFILL_WEIGHTS[0]


def test_the_replay_gives_what_the_portfolio_finds(monkeypatch: pytest.MonkeyPatch) -> None:
    # Klondike draw three, seed 101, deal 0: the depth-first member alone wins in about 2,600 positions.
    game = game_for(open_design(ROOT / "games" / "klondike.cardz").json_text)
    root = game.new_initial_state(seed=deal_seed(101, 0))
    members = {name: (*alone(root, name, 6_000), 6_000) for name in bench_shares.MEMBERS}
    for deep in (2, 5):
        monkeypatch.setattr(tableau_search, "SEARCH_WEIGHTS", (2, deep))
        found = search(root, 20_000)
        assert found.result == "won" and replays_to_a_win(root, found.line)
        result, positions, by = bench_shares.replay(members, {"quick": 1, "search": deep, "plain": 1}, 20_000)
        assert result == "won" and by in ("search", "plain")  # both are depth-first: the stage "search"
        assert abs(positions - found.nodes) <= 100, (deep, positions, found.nodes)  # a turn ends after an expansion


def test_the_replay_stops_at_the_budget_and_at_a_member_cap() -> None:
    # turns of 1,000 positions a share: the member with 2 of 4 shares deciding alone at 4,000 decides in the
    # second round, after 2,000 of the pass and 1,000 of the plain order
    members = {"quick": ("unknown", 9_000, 9_000), "search": ("won", 4_000, 9_000), "plain": ("unknown", 9_000, 9_000)}
    shares = {"quick": 1, "search": 2, "plain": 1}
    assert bench_shares.replay(members, shares, 20_000) == ("won", 7_000, "search")
    assert bench_shares.replay(members, shares, 6_500)[0] == "unknown"
    # no member decides within its cap: the replay says so rather than "unknown"
    undecided = {**members, "search": ("unknown", 9_000, 9_000)}
    assert bench_shares.replay(undecided, shares, 50_000) == ("censored", 17_000, "search")
