"""The package type-checks clean under mypy (the version pinned in the ``test`` extra)."""

from __future__ import annotations

import importlib.util
import subprocess
import sys

import pytest

from .conftest import ROOT

pytestmark = pytest.mark.skipif(importlib.util.find_spec("mypy") is None, reason="mypy is not installed")


def test_mypy_reports_no_errors() -> None:
    # From the project root: mypy reads its settings from pyproject.toml there, and its cache
    # (.mypy_cache) makes runs after the first take about a second (a cold one, under ten).
    run = subprocess.run(
        [sys.executable, "-m", "mypy", "cardz_tools"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert run.returncode == 0, run.stdout + run.stderr
