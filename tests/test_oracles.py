"""The classics play by their rules: each shipped design against a move generator written from
the game's published rules (tests/oracles), on every position of seeded playouts biased toward
progress, so that late positions (empty columns, long runs, an empty stock, a win) are reached."""

from __future__ import annotations

import re

import pytest

from tests.oracles import Disagreement, Oracle, compare, design_data
from tests.oracles.canfield import Canfield
from tests.oracles.freecell import FreeCell
from tests.oracles.gaps import GapsNoRedeal, Montana
from tests.oracles.golf import Golf
from tests.oracles.klondike import Klondike
from tests.oracles.pyramid import Pyramid
from tests.oracles.spider import SpiderOneSuit

ORACLES: dict[type[Oracle], int] = {
    Klondike: 30,
    FreeCell: 20,
    SpiderOneSuit: 8,
    Canfield: 30,
    Golf: 200,
    Pyramid: 60,
    GapsNoRedeal: 60,
    Montana: 40,
}
"""Each oracle and its number of playouts (about a second of CPU each)."""


@pytest.mark.parametrize("oracle", list(ORACLES), ids=lambda o: o.design)
def test_the_engine_plays_by_the_published_rules(oracle: type[Oracle]) -> None:
    positions, reached = compare(oracle, ORACLES[oracle])
    assert positions > 1500
    assert oracle.milestones <= reached, f"the playouts never reached: {sorted(oracle.milestones - reached)}"


def _rule(data: dict, name: str) -> dict:
    return next(depot for depot in data["depots"] if depot["name"] == name)["acceptRule"]  # type: ignore[no-any-return]


def test_the_harness_finds_the_old_klondike_slip() -> None:
    """Before issue 22 an Ace could pass between empty foundations: the oracle refuses that move."""
    data = design_data("klondike.cardz")
    rule = _rule(data, "found")
    rule["when"] = rule["when"].removeprefix("!(source in Foundation) && ")
    with pytest.raises(Disagreement, match=r"only the engine: .*found\[\d\]→found\[\d\]"):
        compare(Klondike, 30, data=data)


def test_the_harness_finds_a_card_passing_between_free_cells() -> None:
    data = design_data("freecell.cardz")
    _rule(data, "cell")["when"] = "empty(depot)"
    with pytest.raises(Disagreement, match=r"only the engine: .*cell\[\d\]→cell\[\d\]"):
        compare(FreeCell, 20, data=data)


def test_the_harness_finds_a_wrong_next_board() -> None:
    """A design whose stock turns one card where the rules say three: the boards differ after the tap."""
    data = design_data("klondike.cardz")
    next(d for d in data["depots"] if d["name"] == "stock")["draw"]["count"] = 1
    with pytest.raises(Disagreement, match=re.escape("the boards differ")):
        compare(Klondike, 5, data=data)
