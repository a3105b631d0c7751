"""The repository is ruff-clean under the rules in pyproject.toml (line length 120), as mypy is type-clean."""

from __future__ import annotations

import importlib.util
import subprocess
import sys

import pytest

from .conftest import ROOT

pytestmark = pytest.mark.skipif(importlib.util.find_spec("ruff") is None, reason="ruff is not installed")

NOT_YET_CLEAN: tuple[str, ...] = ()
"""Folders `ruff check .` may still report (none: the whole repository is clean)."""


def test_ruff_reports_nothing() -> None:
    # From the project root, so ruff reads its settings (and per-file ignores) from pyproject.toml.
    run = subprocess.run(
        [sys.executable, "-m", "ruff", "check", "--output-format", "concise", "--no-cache", "."]
        + [f"--extend-exclude={folder}" for folder in NOT_YET_CLEAN],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 0, run.stdout + run.stderr
