"""Headless Chromium for the tests that look at pages the way a browser shows them."""

from __future__ import annotations

import subprocess
import tempfile
from pathlib import Path

import pytest

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
needs_chromium = pytest.mark.skipif(
    not CHROMIUM.exists(), reason="/usr/bin/chromium is absent (.ci/run installs Debian's chromium package)"
)


def dump_dom(url: str, timeout: float = 90) -> str:
    """The page at ``url`` as the browser's DOM after loading it (scripts run), in a fresh profile."""
    # Chromium's helper processes may still write to the profile as the browser exits: a folder
    # left behind in /tmp is no failure of the page under test.
    with tempfile.TemporaryDirectory(ignore_cleanup_errors=True) as profile:
        done = subprocess.run(
            [str(CHROMIUM), *CHROMIUM_FLAGS, f"--user-data-dir={profile}", "--dump-dom", url],
            capture_output=True,
            text=True,
            timeout=timeout,
        )
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout
