"""cardz deals: proven-winnable deals with a difficulty that orders them as random play finds them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cardz_tools.analysis.deals import CALIBRATION, Bands, Difficulty, random_play_on, winnable_deals
from cardz_tools.analysis.playout import derive_seed
from cardz_tools.analysis.runner import game_for
from cardz_tools.analysis.solve import solve_state
from cardz_tools.cards import parse_deck
from cardz_tools.cli import app
from cardz_tools.engine.notation import parse_move
from cardz_tools.loading import open_design

ROOT = Path(__file__).parent.parent
MONTE_CARLO = ROOT / "games" / "monte-carlo.cardz"


@pytest.fixture(scope="module")
def monte_carlo() -> str:
    return open_design(MONTE_CARLO).json_text


@pytest.fixture(scope="module")
def report(monte_carlo: str):  # type: ignore[no-untyped-def]
    return winnable_deals(monte_carlo, 6, seed=4, budget=20_000, playouts=30, calibration=12, workers=1)


def test_every_listed_deal_is_won_when_solved_from_its_deck(report, monte_carlo: str) -> None:  # type: ignore[no-untyped-def]
    game = game_for(monte_carlo)
    assert len(report.deals) == 6
    for deal in report.to_dict()["deals"]:
        deck = parse_deck(deal["deck"])
        assert game.new_initial_state(seed=deal["seed"]).key() == game.new_initial_state(deck=deck).key()
        result, _, _ = solve_state(game.new_initial_state(deck=deck), 20_000)
        assert result == "won"
        state = game.new_initial_state(deck=deck)
        for text in deal["line"]:
            state.apply(parse_move(text, game.names))
        assert state.is_terminal() and state.outcome().won


def test_the_run_calibrates_its_bands_on_its_first_winnable_deals(report) -> None:  # type: ignore[no-untyped-def]
    data = report.to_dict()
    assert data["bands"]["calibrated_on"] == 12 < CALIBRATION
    assert data["bands"]["medium_from"] <= data["bands"]["hard_from"]
    assert {deal["difficulty"] for deal in data["deals"]} <= {"easy", "medium", "hard"}


def test_a_band_filter_keeps_only_deals_of_that_band(monte_carlo: str) -> None:
    hard = winnable_deals(
        monte_carlo, 3, seed=4, difficulty=Difficulty.HARD, budget=20_000, playouts=30, calibration=12, workers=1
    )
    assert len(hard.deals) == 3
    assert all(hard.bands.of(deal.difficulty) is Difficulty.HARD for deal in hard.deals)


def test_bands_split_scores_into_thirds() -> None:
    bands = Bands.from_scores([float(n) for n in range(9)])
    assert [bands.of(float(n)).value for n in range(9)] == ["easy"] * 3 + ["medium"] * 3 + ["hard"] * 3


def test_harder_deals_are_won_less_often_by_fresh_random_play(report, monte_carlo: str) -> None:  # type: ignore[no-untyped-def]
    """The score predicts play it was not computed from: new move streams on the same deals."""
    game = game_for(monte_carlo)
    ranked = sorted(report.deals, key=lambda deal: deal.difficulty)
    fresh = [random_play_on(game, parse_deck(deal.deck), derive_seed(deal.seed, 1, 77), 120)[0] for deal in ranked]
    easier_half, harder_half = fresh[: len(fresh) // 2], fresh[len(fresh) // 2 :]
    assert sum(easier_half) / len(easier_half) > sum(harder_half) / len(harder_half)


def test_the_cli_writes_the_deals_as_json(tmp_path: Path) -> None:
    out = tmp_path / "deals.json"
    result = CliRunner().invoke(
        app,
        [
            "deals",
            str(MONTE_CARLO),
            "--winnable",
            "2",
            "--budget",
            "20000",
            "-w",
            "1",
            "-o",
            str(out),
            "--seed",
            "4",
            "-n",
            "10",
        ],
    )
    assert result.exit_code == 0, result.output
    written = json.loads(out.read_text(encoding="utf-8"))
    assert len(written["deals"]) == 2
    assert {"seed", "deck", "line", "difficulty"} <= set(written["deals"][0])
    assert "--seed" in result.stdout


def test_too_few_winnable_deals_exit_1(tmp_path: Path) -> None:
    result = CliRunner().invoke(
        app, ["deals", str(MONTE_CARLO), "--winnable", "5", "--max-tries", "2", "--budget", "2000", "-w", "1"]
    )
    assert result.exit_code == 1
    assert "Traceback" not in result.output
