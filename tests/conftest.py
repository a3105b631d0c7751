"""Shared fixtures for the tests."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

TESTS = Path(__file__).parent
ROOT = TESTS.parent


@pytest.fixture(autouse=True)
def _expression_stand_in() -> Iterator[None]:
    """TEMPORARY (engine): seed rule texts compiled by tests/expr_stand_in.py until cardz_tools.expr is on main."""
    from cardz_tools.engine.rules import compiler_override
    from tests.expr_stand_in import stand_in_compiler

    with compiler_override(stand_in_compiler):
        yield
