"""Golden playthroughs of the seed games: scripted moves, every board, compared exactly.

Regenerate the files after an intended change with::

    CARDZ_REGEN_GOLDEN=1 python -m pytest tests/test_engine_golden.py

then read the diff (``git diff tests/golden``) before committing it.
"""

from __future__ import annotations

import dataclasses
import os
from pathlib import Path

import pytest

from cardz_tools.cards import RANKS, SUITS, Card, make_card, parse_deck
from cardz_tools.engine import Game, State
from cardz_tools.engine.notation import parse_move
from tests.engine_support import load_design

GOLDEN = Path(__file__).parent / "golden"
REGENERATE = bool(os.environ.get("CARDZ_REGEN_GOLDEN"))


def rank_sorted_deck() -> list[Card]:
    """Aces first, then twos, ...: Monte Carlo deals pairs side by side (and 2♣ / 2♦ across a row end)."""
    return [make_card(rank, suit) for rank in RANKS for suit in SUITS]


def weathervane_shut_deck() -> list[Card]:
    """A Weathervane deal (5 hidden) where an eight names Diamonds and only the last stock card is one.

    Deal positions: 0-34 face down (round by round), 35-41 the face-up tops,
    42 the vane, 43-51 the stock with 43 on top.
    """
    placed = {
        **dict(zip(range(28, 35), parse_deck("3C 4C 6C 7C 9C 10C JC"), strict=True)),
        **dict(zip(range(35, 42), parse_deck("5S 9S 8C KH QH JH 10H"), strict=True)),
        42: parse_deck("5H")[0],
        **dict(zip(range(43, 52), parse_deck("KC QC 2C AC 5C 3S 4S 6S 2D"), strict=True)),
    }
    rest = [c for c in rank_sorted_deck() if c not in placed.values()]
    return [placed[i] if i in placed else rest.pop(0) for i in range(52)]


@dataclasses.dataclass(frozen=True)
class Scenario:
    """A scripted game: moves typed as a player would; ``!`` before a move expects a refusal."""

    name: str
    game: str
    steps: tuple[str, ...]
    seed: int | None = None
    deck: tuple[Card, ...] | None = None
    boards_every: int = 1
    finish_with_first_moves: bool = False
    """After the steps, keep playing the first legal move until the game ends."""


SCENARIOS = (
    Scenario(
        "monte-carlo-diagonal-consolidate-loss",
        "monte-carlo",
        ("cell[2] cell[6]", "cell[14] cell[8]", "!cell[0] cell[4]", "tap stock consolidate"),
        seed=12,
        finish_with_first_moves=True,
    ),
    Scenario(
        "monte-carlo-row-end-and-win",
        "monte-carlo",
        ("!cell[4] cell[5]", "!cell[0] cell[2]", "!stock discard", "cell[0] cell[1]"),
        deck=tuple(rank_sorted_deck()),
        boards_every=5,
        finish_with_first_moves=True,
    ),
    Scenario(
        "weathervane-shut-vane-loss",
        "weathervane",
        (
            "tab[0] vane",
            "tab[1] vane",
            "!tab[2] vane",
            "tab[2] vane diamonds",
            "!tab[3] vane",
            *["tap stock"] * 9,
            "!tap stock",
            "waste vane",
        ),
        deck=tuple(weathervane_shut_deck()),
    ),
    Scenario(
        "weathervane-win",
        "weathervane",
        tuple(
            "tab[0] vane, tab[2] vane, tab[0] vane, tab[0] vane, tab[2] vane, tab[1] vane, tab[0] vane, "
            "tab[2] vane, tab[2] vane, tab[3] vane, tab[4] vane, tab[0] vane, tab[0] vane, tab[3] vane, "
            "tab[2] vane, tap stock, waste vane, tab[4] vane, tab[1] vane, tab[2] vane, tab[5] vane, "
            "tab[6] vane, tap stock, tap stock, tap stock, waste vane clubs, tab[5] vane, tap stock, "
            "waste vane, tab[3] vane, tab[5] vane, tab[5] vane, tab[6] vane, waste vane, tab[1] vane, "
            "tab[1] vane, tab[3] vane, waste vane, tab[5] vane, tab[6] vane diamonds, tab[3] vane, "
            "tab[3] vane hearts, tap stock, waste vane, tap stock, tap stock, waste vane, tab[1] vane, "
            "tab[4] vane, tab[5] vane, tab[6] vane, waste vane, tab[4] vane, tab[6] vane, tab[4] vane, "
            "tab[6] vane, tab[4] vane clubs, tab[1] vane".split(", ")
        ),
        seed=1,
        boards_every=10,
    ),
)


@dataclasses.dataclass
class Playthrough:
    """A scenario played: the transcript and the states after each step."""

    text: str
    final: State
    refusals: list[tuple[str, str]]


def play(scenario: Scenario, generated: bool = True) -> Playthrough:
    """Play ``scenario`` (with generated code or the plain interpreted rules); a step that is
    refused (or accepted) against its marking fails the test."""
    game = Game(load_design(scenario.game), generated=generated)
    state = game.new_initial_state(seed=scenario.seed, deck=scenario.deck)
    names = game.names
    source = f"seed {scenario.seed}" if scenario.deck is None else "a constructed deck"
    out = [f"# {scenario.name}: {game.design.name}, {source}", str(state), _legal_line(state)]
    refusals: list[tuple[str, str]] = []
    played = 0

    def step(text: str, move_text: str | None = None) -> None:
        nonlocal played
        refused_expected = text.startswith("!")
        move = parse_move(text.lstrip("!"), names)
        reason = state.why_illegal(move)
        out.append(f"> {move_text or text.lstrip('!')}")
        if refused_expected:
            assert reason is not None, f"{scenario.name}: {text!r} was expected to be refused"
            refusals.append((text.lstrip("!"), reason))
            out.append(f"refused: {reason}")
            return
        assert reason is None, f"{scenario.name}: {text!r} refused: {reason}"
        out.append(f"  {state.describe(move)}")
        state.apply(move)
        played += 1
        if played % scenario.boards_every == 0 or state.is_terminal():
            out.extend([str(state), _legal_line(state)])

    for text in scenario.steps:
        step(text)
    while scenario.finish_with_first_moves and not state.is_terminal():
        move = state.legal_moves()[0]
        step(str(move).replace("→", "").replace(": ", " "), str(move))
    if played % scenario.boards_every:
        out.extend([str(state), _legal_line(state)])
    outcome = state.outcome()
    out.append(f"outcome: won={outcome.won} lost={outcome.lost} score={outcome.score} reason={outcome.reason}")
    return Playthrough("\n".join(out) + "\n", state, refusals)


def _legal_line(state: State) -> str:
    moves = state.legal_moves()
    if not moves:
        return "legal: none"
    return "legal: " + " | ".join(f"{i}. {state.describe(m)}" for i, m in enumerate(moves, 1))


@pytest.mark.parametrize("generated", [True, False], ids=["generated", "interpreted"])
@pytest.mark.parametrize("scenario", SCENARIOS, ids=[s.name for s in SCENARIOS])
def test_playthrough_matches_golden(scenario: Scenario, generated: bool) -> None:
    text = play(scenario, generated).text
    path = GOLDEN / f"{scenario.name}.txt"
    if generated and (REGENERATE or not path.exists()):
        path.write_text(text, encoding="utf-8")
    assert text == path.read_text(encoding="utf-8")


def _scenario(name: str) -> Scenario:
    return next(s for s in SCENARIOS if s.name == name)


def test_monte_carlo_pairs_leave_by_trigger_and_consolidation_refills_in_reading_order() -> None:
    scenario = _scenario("monte-carlo-diagonal-consolidate-loss")
    game = Game(load_design("monte-carlo"))
    state = game.new_initial_state(seed=12)
    before = list(state.piles)
    for text in scenario.steps[:2]:
        state.apply(parse_move(text, game.names))
    cell = [game.index[f"cell[{i}]"] for i in range(25)]
    discard, stock = game.index["discard"], game.index["stock"]
    assert len(state.piles[discard]) == 4
    assert all(not state.piles[cell[i]] for i in (2, 6, 8, 14))
    stock_before = state.piles[stock]
    state.apply(parse_move("tap stock consolidate", game.names))
    survivors = [before[c] for i, c in enumerate(cell) if i not in (2, 6, 8, 14)]
    assert [state.piles[c] for c in cell[:21]] == survivors
    refill = [state.piles[c][0] for c in cell[21:]]
    assert [c & 0x7F for c in refill] == [c & 0x7F for c in reversed(stock_before[-4:])]
    assert all(c & 0x80 for c in refill)


def test_monte_carlo_refuses_a_pair_across_the_row_end_with_the_rule_reason() -> None:
    refusals = dict(play(_scenario("monte-carlo-row-end-and-win")).refusals)
    reason = load_design("monte-carlo").depots[0].spec.accept.reason
    assert refusals["cell[4] cell[5]"] == reason
    assert "locked" in refusals["stock discard"] or "cannot be taken" in refusals["stock discard"]


def test_monte_carlo_constructed_deck_wins_and_seed_12_loses() -> None:
    won = play(_scenario("monte-carlo-row-end-and-win")).final.outcome()
    assert (won.won, won.lost, won.score) == (True, False, 52)
    lost = play(_scenario("monte-carlo-diagonal-consolidate-loss")).final.outcome()
    assert lost.lost and not lost.won and lost.score < 52


def test_weathervane_eight_names_a_suit_and_shuts_the_vane() -> None:
    result = play(_scenario("weathervane-shut-vane-loss"))
    refusals = dict(result.refusals)
    assert "names a suit" in refusals["tab[2] vane"]
    assert "only Diamonds" in refusals["tab[3] vane"]
    assert "no redeals left" in refusals["tap stock"]
    final = result.final
    outcome = final.outcome()
    assert outcome.lost and outcome.score == 42 - 3
    vane = final.piles[final.game.index["vane"]]
    assert [c & 0x7F for c in vane[-2:]] == parse_deck("8C 2D")  # the diamond covered the eight
    assert final.declared[final.game.index["vane"]] == -1


def test_weathervane_column_turns_up_its_next_card() -> None:
    game = Game(load_design("weathervane"))
    state = game.new_initial_state(deck=weathervane_shut_deck())
    tab0 = game.index["tab[0]"]
    assert not state.piles[tab0][-2] & 0x80
    state.apply(parse_move("tab[0] vane", game.names))
    assert len(state.piles[tab0]) == 5 and state.piles[tab0][-1] & 0x80


def test_weathervane_win_takes_one_off_for_each_card_left_in_stock() -> None:
    final = play(_scenario("weathervane-win")).final
    stock = final.piles[final.game.index["stock"]]
    outcome = final.outcome()
    assert outcome.won and stock
    assert outcome.score == -len(stock)
