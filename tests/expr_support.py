"""Designs shared by the expression tests."""

from __future__ import annotations

import functools
import json
import pathlib

from cardz_tools.expr import DesignEnv
from cardz_tools.model import Design, build_design

GAMES = pathlib.Path(__file__).resolve().parents[1] / "games"


@functools.cache
def seed_design(name: str) -> Design:
    """``monte-carlo`` or ``weathervane`` from games/."""
    return build_design(json.loads((GAMES / f"{name}.cardz").read_text(encoding="utf-8")))


@functools.cache
def seed_env(name: str) -> DesignEnv:
    return DesignEnv.from_design(seed_design(name))
