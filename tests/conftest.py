"""Shared fixtures: the seed designs, and (until cardz_tools.expr lands) the expression stand-in."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from cardz_tools.model import Design, build_design

ROOT = Path(__file__).resolve().parent.parent
GAMES = ROOT / "games"


def load_design(name: str) -> Design:
    """A design from games/ by file stem."""
    return build_design(json.loads((GAMES / f"{name}.cardz").read_text(encoding="utf-8")))


@pytest.fixture(autouse=True)
def _expression_stand_in() -> Iterator[None]:
    # TEMPORARY: remove with tests/expr_stand_in.py once cardz_tools.expr is on main.
    from cardz_tools.engine.rules import compiler_override
    from expr_stand_in import stand_in_compiler

    with compiler_override(stand_in_compiler):
        yield
