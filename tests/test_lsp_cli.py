"""`cardz lsp` without pygls: a clear message and exit status 2, never a traceback."""

from __future__ import annotations

import sys

import pytest
from typer.testing import CliRunner

from cardz_tools import cli


def test_without_pygls_the_command_says_how_to_install_it(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in [n for n in sys.modules if n == "pygls" or n.startswith(("pygls.", "cardz_tools.lsp.server"))]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "pygls", None)  # `import pygls` now fails as if it were not installed
    result = CliRunner().invoke(cli.app, ["lsp"])
    assert result.exit_code == 2
    assert "pip install 'cardz-tools[lsp]'" in result.output
    assert "Traceback" not in result.output
