"""Helpers shared by the engine tests."""

from __future__ import annotations

import json
from pathlib import Path

from cardz_tools.model import Design, build_design

GAMES = Path(__file__).resolve().parent.parent / "games"
"""The seed designs."""


def load_design(name: str) -> Design:
    """A design from games/ by file stem."""
    return build_design(json.loads((GAMES / f"{name}.cardz").read_text(encoding="utf-8")))
