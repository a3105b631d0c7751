"""Shared paths for the tests."""

from __future__ import annotations

from pathlib import Path

TESTS = Path(__file__).parent
ROOT = TESTS.parent
