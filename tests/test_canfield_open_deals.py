"""Canfield (strict) and Canfield (spaces from the waste), seed 0, deal 6: a win, not a loss to prove.

Deal 6 stays open in both rows (docs/results.md) and looked lost: no portfolio member gets near a win
within 300,000 positions. The depth-first member alone (``Pruning(quick=False)``) wins the strict
variant in 951,811 positions with the line below (docs/analysis.md, session 14). The strict columns
give up their top card or the whole column, a subset of the runs the other variant's columns give
up, under the same accept rules, so the same line wins there too. Any proof of loss that calls a
position on this line lost is unsound: the relaxation is checked along it here.

Deal 1 of the spaces variant looked lost too (open at 300,000 positions, its reserve never under 7 cards:
docs/analysis.md, session 14), and is a win as well: the depth-first member alone wins it in 481,609
positions (session 15) with a line that leaves the order's first child only three times.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from cardz_tools.analysis.playout import deal_seed
from cardz_tools.analysis.relaxation import dead_check
from cardz_tools.analysis.runner import game_for
from cardz_tools.analysis.tableau_search import replays_to_a_win
from cardz_tools.engine.moves import Drag, Move, Tap
from cardz_tools.loading import open_design

GAMES = Path(__file__).resolve().parents[1] / "games"

WON_DEAL_6 = (
    "tab[0]>found[1] tab[3]>tab[0] 7t waste>tab[0] 13t waste>found[2] 2t waste>found[2] 7t waste>found[2] "
    "4t waste>found[3] 2t waste>found[2] 3t waste>found[1] 2t waste>found[3] 10t waste>found[0] tab[3]>found[0] "
    "tab[3]>tab[0] 1t waste>tab[1] 14t waste>found[1] 5t waste>found[1] tab[0]>found[1] 2t waste>tab[2] "
    "2t waste>tab[1] tab[2]>tab[1]*2 waste>tab[2] waste>found[3] reserve>found[3] tab[3]>tab[1] tab[0]>tab[3]*3 "
    "tab[1]>tab[0] tab[1]>found[1] tab[0]>tab[1]*2 3t waste>tab[0] waste>found[0] tab[1]>found[0] "
    "waste>found[2] tab[3]>found[0] tab[1]>found[2] tab[3]>found[1] 5t waste>found[0] 2t waste>found[0] "
    "1t waste>found[2] 6t waste>found[1] tab[1]>tab[0]*4 reserve>found[3] waste>found[0] waste>found[3] "
    "tab[0]>found[3] tab[0]>found[2] tab[3]>found[3] tab[0]>found[3] tab[3]>found[2] tab[0]>found[2] "
    "reserve>found[0] tab[3]>found[3] tab[2]>found[2] tab[0]>found[0] 1t waste>found[0] waste>found[3] "
    "tab[2]>found[3] 4t waste>found[1] waste>found[0] waste>found[1] tab[1]>found[1] tab[0]>found[1] "
    "1t waste>found[1] waste>tab[0] waste>found[2] tab[0]>found[2] waste>found[3]"
)
"""The depth-first member's winning line of Canfield (strict), seed 0, deal 6 (163 moves): ``Nt`` is N taps of
the stock, ``a>b*n`` drags n cards (one when no ``*n``) from ``a`` onto ``b``."""

VARIANTS = ("canfield-strict", "canfield-auto-reserve-then-waste")


def line_of(text: str) -> list[Move]:
    """The moves :data:`WON_DEAL_6` writes."""
    moves: list[Move] = []
    for token in text.split():
        taps = re.fullmatch(r"(\d+)t", token)
        if taps:
            moves.extend(Tap("stock") for _ in range(int(taps.group(1))))
            continue
        drag = re.fullmatch(r"(\S+)>([^*]+)(?:\*(\d+))?", token)
        assert drag is not None, token
        moves.append(Drag(drag.group(1), int(drag.group(3) or 1), drag.group(2)))
    return moves


WON_SPACES_DEAL_1 = (
    "9t waste>found[0] tab[1]>found[0] tab[1]>tab[3] tab[3]>tab[1] 10t waste>tab[1] 5t waste>tab[1] reserve>tab[1] "
    "reserve>found[1] 9t waste>found[1] tab[1]>tab[3]*4 7t waste>found[0] waste>tab[1] 11t waste>found[2] "
    "tab[0]>found[2] 10t waste>found[2] 6t waste>found[2] reserve>tab[2] tab[3]>tab[1]*3 4t waste>tab[3] 12t "
    "waste>found[2] tab[1]>tab[3]*2 7t waste>tab[1] tab[3]>tab[1] 1t waste>tab[1] waste>tab[3] tab[1]>tab[3] 3t "
    "waste>tab[3] tab[0]>tab[3] reserve>tab[2] 1t waste>found[3] tab[3]>tab[1]*3 waste>tab[0] tab[1]>tab[0]*8 "
    "reserve>tab[0] reserve>found[0] reserve>found[3] tab[0]>found[3] reserve>found[3] tab[0]>tab[3]*3 1t "
    "waste>tab[2] waste>tab[1] tab[3]>tab[0]*3 tab[2]>tab[1]*4 2t waste>tab[2] 6t waste>found[1] tab[0]>found[1] "
    "tab[0]>found[3] tab[0]>found[0] tab[1]>found[1] tab[1]>found[3] 3t waste>found[1] tab[3]>found[3] "
    "tab[1]>found[1] tab[1]>found[3] tab[0]>tab[3] tab[0]>found[1] tab[3]>tab[0]*2 tab[3]>found[3] tab[1]>found[1] "
    "tab[3]>found[1] tab[0]>tab[3]*4 waste>tab[1] tab[2]>tab[1] waste>tab[2] 5t waste>found[3] tab[0]>found[3] "
    "waste>found[1] tab[0]>found[1] 3t waste>found[3] waste>found[2] tab[3]>found[2] tab[0]>found[3] "
    "tab[1]>found[2] waste>found[1] 1t waste>tab[0] tab[1]>tab[2]*2 waste>tab[1] waste>found[0] tab[3]>found[0] "
    "tab[2]>found[0] tab[3]>found[2] tab[2]>found[2] tab[3]>found[0] tab[2]>found[0] tab[0]>found[0] "
    "tab[3]>found[2] tab[1]>found[2] 1t waste>found[0] waste>found[2]"
)
"""The depth-first member's winning line of Canfield (spaces from the waste), seed 0, deal 1 (206 moves), written
as :data:`WON_DEAL_6` is; it moves runs of 2 to 8 cards that are not whole columns, so it does not win the strict
variant (which wins that deal anyway)."""

WINS = [(stem, 6, WON_DEAL_6, 163) for stem in VARIANTS] + [(VARIANTS[1], 1, WON_SPACES_DEAL_1, 206)]
"""(design, deal of seed 0, winning line, its moves)."""


def deal(stem: str, number: int):  # type: ignore[no-untyped-def]
    game = game_for(open_design(str(GAMES / f"{stem}.cardz")).json_text)
    return game.new_initial_state(seed=deal_seed(0, number))


@pytest.mark.parametrize(("stem", "number", "text", "moves"), WINS)
def test_the_line_wins_the_deal(stem: str, number: int, text: str, moves: int) -> None:
    line = line_of(text)
    assert len(line) == moves
    assert replays_to_a_win(deal(stem, number), line)
    assert not replays_to_a_win(deal(stem, number), line[:-1])  # the last move is the 52nd card home


@pytest.mark.parametrize(("stem", "number", "text", "moves"), WINS)
def test_no_position_on_the_winning_line_is_called_dead(stem: str, number: int, text: str, moves: int) -> None:
    root = deal(stem, number)
    dead = dead_check(root)
    if dead is None:
        pytest.skip("no proof-of-loss test applies to this design")
    state = root.clone()
    assert not dead(state)
    for move in line_of(text):
        state.apply(move)
        assert not dead(state), move
