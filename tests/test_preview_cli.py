"""``cardz preview`` and ``cardz watch`` from the command line."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from typer.testing import CliRunner

from cardz_tools.cli import app
from tests.process_support import popen_hearing_ctrl_c

ROOT = Path(__file__).resolve().parent.parent
GAMES = ROOT / "games"


def test_preview_writes_a_self_contained_page(tmp_path: Path) -> None:
    out = tmp_path / "board.html"
    result = CliRunner().invoke(
        app, ["preview", str(GAMES / "weathervane.cardz"), "-o", str(out), "--seed", "3", "--playouts", "5"]
    )
    assert result.exit_code == 0, result.output
    page = out.read_text(encoding="utf-8")
    board = page[page.index('<section id="board">') : page.index("</section>")]
    assert board.count('class="cz-pile"') == 10 and "deal seed 3" in page and "<strong>Goal:</strong>" in page


def test_preview_and_watch_refuse_a_missing_file(tmp_path: Path) -> None:
    for command in (["preview", str(tmp_path / "none.cardz")], ["watch", str(tmp_path / "none.cardz")]):
        result = CliRunner().invoke(app, command)
        assert result.exit_code == 2 and "no such file" in result.output


def test_watch_serve_runs_the_simulation_process_and_quits_on_ctrl_c(tmp_path: Path) -> None:
    design = tmp_path / "game.cardz"
    design.write_text((GAMES / "monte-carlo.cardz").read_text(encoding="utf-8"), encoding="utf-8")
    env = {**os.environ, "FORCE_COLOR": "1", "COLUMNS": "120", "LINES": "60", "PYTHONPATH": str(ROOT)}
    process = popen_hearing_ctrl_c(
        [sys.executable, "-m", "cardz_tools", "watch", str(design), "--serve", "--port", "0", "--playouts", "20"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
        cwd=tmp_path,
    )
    seen = ""
    try:
        assert process.stdout is not None
        os.set_blocking(process.stdout.fileno(), False)
        # rich may wrap the status line (a long temporary path) and colour each part: skip both between the words
        page_at = re.compile(r"page at(?:\s|\x1b\[[0-9;]*m)*(http://127\.0\.0\.1:\d+/)")
        deadline = time.perf_counter() + 30
        while time.perf_counter() < deadline and not (re.search(r"win rate|failed", seen) and page_at.search(seen)):
            seen += (process.stdout.read() or b"").decode(errors="replace")
            time.sleep(0.05)
        # the simulation ran in its own process under ``python -m`` (a child that cannot start says "failed")
        assert "win rate" in seen, seen[-3000:]
        url = page_at.search(seen)
        assert url, seen[-3000:]
        with urllib.request.urlopen(url.group(1), timeout=10) as response:
            page = response.read().decode("utf-8")
        assert page.count('class="cz-pile"') == 27 and "EventSource" in page
        process.send_signal(signal.SIGINT)
        process.wait(15)
        errors = process.stderr.read().decode(errors="replace") if process.stderr else ""
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    assert process.returncode == 0 and "Traceback" not in errors, errors
