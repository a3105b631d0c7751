"""A ``move`` effect's ``where`` over a group in one call (:func:`.rules.compile_chooser`): the parts that read
no ``depot`` worked out once per call choose the same members as the rule asked member by member."""

from __future__ import annotations

import random

import pytest

from cardz_tools.cards import FACE_UP, standard_deck
from cardz_tools.engine.effects import MoveFromGroup
from cardz_tools.engine.game import Game
from cardz_tools.engine.rules import Site, compile_chooser, compile_rule
from cardz_tools.model import Expr
from tests.engine_support import load_design, random_positions

WHERES = [
    # Château de cartes' own: a minimum over two groups (no depot) against the member's row.
    "row(depot) == min(min(tri, empty(it) ? 9 : row(it)), min(floor, empty(it) ? 9 : row(it)))",
    "row(depot) == 3",
    "empty(depot) && count(tri, empty(it)) > 30",
    "!empty(depot) && top.rank == Ace",
    "count(depot) < min(tri, count(it)) + 1 || top.suit == Hearts",
    "exists(at(floor, row(depot), col(depot))) && !empty(at(floor, row(depot), col(depot)))",
    "sum(depot, min(it.value, 10)) > max(floor, count(it))",
    "true",
    "false",
]
"""Rules a where may be: with and without parts that read no depot, guarded tops, quantifiers, constants."""


def _scrambled(state: object, rng: random.Random) -> None:
    """Random cards on random piles of ``state`` (many piles full, many empty, as a search meets them)."""
    deck = standard_deck()
    piles = state.piles  # type: ignore[attr-defined]
    for depot in range(len(piles)):
        size = rng.choice((0, 0, 1, 2, 3))
        piles[depot] = tuple(rng.choice(deck) | (FACE_UP if rng.random() < 0.8 else 0) for _ in range(size))


@pytest.mark.parametrize("text", WHERES)
def test_the_chooser_picks_what_the_rule_picks_member_by_member(text: str) -> None:
    design = load_design("chateau-de-cartes")
    game = Game(design)
    rule = compile_rule(Expr(text, ""), Site.WHERE, design)
    choose = compile_chooser(Expr(text, ""), design)
    rng = random.Random(text)
    groups = [tuple(design.resolve(name)) for name in ("tri", "floor", "hand")]
    for number, state in enumerate(random_positions(game, 60, 7, 80)):
        if number % 2:
            _scrambled(state, rng)
        for members in groups:
            picked = choose(state.piles, state, members)
            assert picked == [m for m in members if rule(state.piles, state, m)], (text, state.piles)


def test_the_shipped_where_effects_have_a_chooser() -> None:
    design = load_design("chateau-de-cartes")
    effects = [e for trigger in Game(design).triggers for e in trigger.effects if isinstance(e, MoveFromGroup)]
    assert effects and all(e.choose is not None for e in effects if e.where is not None)
