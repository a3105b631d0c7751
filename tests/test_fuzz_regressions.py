"""Every input a fuzz run ever broke a command with, replayed through every command.

``python bench/fuzz.py`` writes each failure to ``tests/fuzz_regressions/``; the
hand-written files there are the bugs found while bounding the commands (issue #10).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from bench import fuzz
from cardz_tools.cli import app

FOLDER = Path(__file__).parent / "fuzz_regressions"
FILES = sorted(FOLDER.glob("*.cardz"))


def read(path: Path) -> str:
    return path.read_bytes().decode("utf-8", errors="surrogatepass")


def test_there_are_regressions_to_replay() -> None:
    assert len(FILES) >= 5


@pytest.mark.parametrize("command", fuzz.COMMANDS)
@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_every_command_behaves_on_a_past_failure(path: Path, command: str) -> None:
    assert fuzz.run_command(command, read(path), ceiling=20.0) is None


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_playing_a_past_failure_exits_cleanly(path: Path) -> None:
    result = CliRunner().invoke(app, ["play", str(path), "--seed", "1"], input="1\ncell[0] cell[24]\nu\nq\n")
    assert result.exit_code in (0, 1, 2), (result.output[-2000:], result.exception)
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    assert "Traceback" not in result.output
    assert "internal error" not in result.output
