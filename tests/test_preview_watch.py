"""The watch loop, driven in-process: real files in a temporary directory, real watchfiles, observed frames."""

from __future__ import annotations

import io
import json
import os
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from rich.console import Console

from cardz_tools.preview.sources import Summary, SummaryStatus
from cardz_tools.preview.watch import Frame, ProcessSimulator, Watcher, frame_renderable, run_watch
from tests.process_support import popen_hearing_ctrl_c

GAMES = Path(__file__).resolve().parent.parent / "games"
MONTE_CARLO = (GAMES / "monte-carlo.cardz").read_text(encoding="utf-8")
WEATHERVANE = (GAMES / "weathervane.cardz").read_text(encoding="utf-8")
# A save shows its diagnostics in tens of milliseconds (bench/bench_watch.py times it, against the watcher's own
# work called directly); the tests bound it loosely, so that a loaded machine cannot fail them, while a redraw that
# waited for the simulation (60 s in slow_if_asked), or for more than a second of quiet, still would.
SAVE_TO_FRAME_BOUND_S = 1.5


def named(text: str, name: str) -> str:
    """The design text with another display name."""
    data = json.loads(text)
    data["name"] = name
    return json.dumps(data, indent=2)


# Summaries computed in the simulation process (module level: the process imports them by name).


def instant_summary(design_json: str, playouts: int, seed: int) -> Summary:
    return Summary(SummaryStatus.DONE, message=json.loads(design_json)["name"], playouts=playouts)


def slow_if_asked(design_json: str, playouts: int, seed: int) -> Summary:
    name = json.loads(design_json)["name"]
    if "slow" in name:
        time.sleep(60)
    return Summary(SummaryStatus.DONE, message=name, playouts=playouts)


class NoSimulation:
    """A simulator test double that records what it was asked to do."""

    def __init__(self) -> None:
        self.started: list[str] = []
        self.cancels = 0
        self.closed = False

    def start(self, design_json: str, done: Callable[[Summary], None]) -> None:
        self.started.append(design_json)

    def cancel(self) -> None:
        self.cancels += 1

    def close(self) -> None:
        self.closed = True


class FrameLog:
    """Collects frames with the time they arrived; waits for one that matches."""

    def __init__(self) -> None:
        self.frames: list[tuple[float, Frame]] = []
        self._condition = threading.Condition()

    def __call__(self, frame: Frame) -> None:
        with self._condition:
            self.frames.append((time.perf_counter(), frame))
            self._condition.notify_all()

    def wait(self, predicate: Callable[[Frame], bool], after: float, timeout: float = 10.0) -> tuple[float, Frame]:
        """The first frame since ``after`` (a perf_counter time) that satisfies ``predicate``."""
        deadline = time.perf_counter() + timeout
        with self._condition:
            while True:
                for arrived, frame in self.frames:
                    if arrived >= after and predicate(frame):
                        return arrived, frame
                left = deadline - time.perf_counter()
                if left <= 0:
                    seen = [(f.generation, [d.code for d in f.checked.diagnostics], f.summary) for _, f in self.frames]
                    raise AssertionError(f"no matching frame within {timeout} s; frames: {seen}")
                self._condition.wait(left)


def codes(frame: Frame) -> list[str]:
    return [d.code for d in frame.checked.diagnostics]


@pytest.fixture
def running() -> Iterator[Callable[[Watcher], FrameLog]]:
    """Start watchers in threads; stop and join them after the test."""
    started: list[tuple[threading.Event, threading.Thread]] = []

    def start(watcher: Watcher) -> FrameLog:
        log = FrameLog()
        watcher.subscribe(log)
        stop = threading.Event()
        thread = threading.Thread(target=watcher.run, args=(stop,), daemon=True)
        thread.start()
        started.append((stop, thread))
        assert watcher.ready.wait(10), "the watcher did not start"
        return log

    yield start
    for stop, thread in started:
        stop.set()
        thread.join(10)
        assert not thread.is_alive(), "the watcher did not stop"


def test_diagnostics_appear_and_disappear_while_the_last_good_board_stays(tmp_path: Path, running) -> None:
    design = tmp_path / "game.cardz"
    design.write_text(MONTE_CARLO, encoding="utf-8")
    simulator = NoSimulation()
    watcher = Watcher(design, seed=3, simulator=simulator)
    log = running(watcher)
    _, first = log.wait(lambda f: True, after=0)
    assert codes(first) == [] and first.board_is_current
    good_board = first.board
    assert good_board is not None and good_board.design.name == "Monte Carlo"

    saved = time.perf_counter()
    design.write_text(MONTE_CARLO.replace('"depots": [', '"depots": ', 1), encoding="utf-8")
    arrived, broken = log.wait(lambda f: "CZ104" in codes(f), after=saved)
    assert arrived - saved < SAVE_TO_FRAME_BOUND_S
    assert broken.board == good_board and not broken.board_is_current
    assert broken.summary is not None and broken.summary.status is SummaryStatus.SKIPPED
    screen = _render(broken)
    assert "CZ104" in screen and "last good board" in screen and "cell[24]" in screen

    saved = time.perf_counter()
    design.write_text(named(MONTE_CARLO, "Monte Carlo 2"), encoding="utf-8")
    arrived, fixed = log.wait(lambda f: codes(f) == [], after=saved)
    assert arrived - saved < SAVE_TO_FRAME_BOUND_S
    assert fixed.board_is_current and fixed.board is not None and fixed.board.design.name == "Monte Carlo 2"
    assert json.loads(simulator.started[-1])["name"] == "Monte Carlo 2"
    assert "No problems found." in _render(fixed)


def test_survives_deletion_rename_save_and_a_half_written_file(tmp_path: Path, running) -> None:
    design = tmp_path / "game.cardz"
    design.write_text(WEATHERVANE, encoding="utf-8")
    watcher = Watcher(design, simulator=NoSimulation())
    log = running(watcher)
    log.wait(lambda f: codes(f) == [], after=0)

    saved = time.perf_counter()
    design.unlink()
    _, gone = log.wait(lambda f: "CZ100" in codes(f), after=saved)
    assert gone.board is not None and gone.board.design.name == "Weathervane" and not gone.board_is_current
    # A deleted file is not "a save with errors" (issue 21).
    assert "last good board: the file was deleted" in _render(gone) and "this save has errors" not in _render(gone)
    assert "The file was deleted: showing the last board that loaded" in gone.page()

    # An editor's atomic save: write a temporary file, rename it over the design.
    saved = time.perf_counter()
    temporary = tmp_path / ".game.cardz.tmp1234"
    temporary.write_text(named(WEATHERVANE, "Renamed in"), encoding="utf-8")
    os.replace(temporary, design)
    _, back = log.wait(lambda f: f.board is not None and f.board.design.name == "Renamed in", after=saved)
    assert codes(back) == [] and back.board_is_current

    # A save caught half-way: the first half now, the rest a moment later.
    text = named(WEATHERVANE, "Completed")
    saved = time.perf_counter()
    with design.open("w", encoding="utf-8") as handle:
        handle.write(text[: len(text) // 2])
        handle.flush()
        _, half = log.wait(lambda f: "CZ104" in codes(f), after=saved)
        assert half.board is not None and half.board.design.name == "Renamed in"
        handle.write(text[len(text) // 2 :])
    _, whole = log.wait(lambda f: f.board is not None and f.board.design.name == "Completed", after=saved)
    assert codes(whole) == [] and whole.board_is_current


@pytest.mark.parametrize("text", [MONTE_CARLO, WEATHERVANE], ids=["monte-carlo", "weathervane"])
def test_no_intermediate_save_crashes_the_watcher_or_blanks_the_board(tmp_path: Path, text: str) -> None:
    design = tmp_path / "game.cardz"
    design.write_text(text, encoding="utf-8")
    watcher = Watcher(design, simulator=NoSimulation())
    first = watcher.refresh()
    assert first is not None and first.board is not None
    end = len(text.rstrip())  # the last cut removes the closing brace
    cuts = sorted(set(range(0, end, max(1, end // 60))) | {end - 1})
    for cut in cuts:
        # every prefix, and the same prefix with the rest replaced by junk an editor might leave
        for partial in (text[:cut], text[:cut] + "\x00\ufffd}{]["):
            design.write_text(partial, encoding="utf-8")
            frame = watcher.refresh()
            assert frame is not None and frame.board is not None, cut
            assert frame.checked.diagnostics, f"a broken save at {cut} has no diagnostic"
            assert "cz-pile" in frame.page() and "Diagnostics" in _render(frame)
    design.write_text(text, encoding="utf-8")
    last = watcher.refresh()
    assert last is not None and last.board_is_current and not last.checked.diagnostics


def test_a_variant_is_drawn_merged_and_follows_edits_of_the_design_it_extends(tmp_path: Path, running) -> None:
    base, variant = tmp_path / "monte-carlo.cardz", tmp_path / "variant.cardz"
    base.write_text(MONTE_CARLO, encoding="utf-8")
    variant.write_text('{"name": "Two-deck Monte Carlo", "extends": "monte-carlo.cardz", "decks": 2}', encoding="utf-8")
    log = running(Watcher(variant, simulator=NoSimulation()))
    _, first = log.wait(lambda f: f.board is not None, after=0)
    assert first.board is not None and first.board.design.name == "Two-deck Monte Carlo"
    assert first.board.design.decks == 2 and len(first.board.design.depots) == 27
    assert first.checked.design_json is not None and '"extends"' not in first.checked.design_json

    saved = time.perf_counter()
    base.write_text(MONTE_CARLO.replace('"col": 5.5, "row": 0', '"col": 6, "row": 0'), encoding="utf-8")
    _, moved = log.wait(
        lambda f: f.board is not None and f.board.design.depot_named("stock").col == 6.0, after=saved  # type: ignore[union-attr]
    )
    assert moved.path == variant and moved.board is not None and moved.board.design.name == "Two-deck Monte Carlo"


def test_other_files_in_the_directory_are_ignored_in_file_mode_but_followed_in_directory_mode(
    tmp_path: Path, running
) -> None:
    first, second = tmp_path / "a.cardz", tmp_path / "b.cardz"
    first.write_text(MONTE_CARLO, encoding="utf-8")
    os.utime(first, (1, 1))
    watcher = Watcher(tmp_path, simulator=NoSimulation())
    assert watcher.file == first
    log = running(watcher)
    log.wait(lambda f: f.path == first, after=0)
    assert not watcher.accepts(None, str(tmp_path / "notes.txt"))  # type: ignore[arg-type]

    saved = time.perf_counter()
    second.write_text(WEATHERVANE, encoding="utf-8")
    _, switched = log.wait(lambda f: f.path == second, after=saved)
    assert switched.board is not None and switched.board.design.name == "Weathervane"
    saved = time.perf_counter()
    second.unlink()
    _, gone = log.wait(lambda f: "CZ100" in codes(f), after=saved)
    assert gone.path == second


def test_an_empty_directory_waits_for_its_first_design(tmp_path: Path, running) -> None:
    watcher = Watcher(tmp_path, simulator=NoSimulation())
    assert watcher.file is None and watcher.refresh() is None
    assert "No .cardz design" in _render_any(None)
    log = running(watcher)
    (tmp_path / "notes.txt").write_text("not a design", encoding="utf-8")
    saved = time.perf_counter()
    (tmp_path / "new.cardz").write_text(MONTE_CARLO, encoding="utf-8")
    _, frame = log.wait(lambda f: True, after=saved)
    assert frame.path == tmp_path / "new.cardz" and frame.board is not None


def test_the_simulation_summary_arrives_in_the_background_and_a_new_save_cancels_the_old_one(
    tmp_path: Path, running
) -> None:
    design = tmp_path / "game.cardz"
    design.write_text(named(MONTE_CARLO, "fast one"), encoding="utf-8")
    simulator = ProcessSimulator(playouts=7, summarize=slow_if_asked)
    log = running(Watcher(design, simulator=simulator))
    _, done = log.wait(lambda f: f.summary is not None and f.summary.status is SummaryStatus.DONE, after=0)
    assert done.summary is not None and done.summary.message == "fast one" and done.summary.playouts == 7

    saved = time.perf_counter()
    design.write_text(named(MONTE_CARLO, "slow one"), encoding="utf-8")
    arrived, running_frame = log.wait(lambda f: f.board is not None and f.board.design.name == "slow one", after=saved)
    assert running_frame.summary is not None and running_frame.summary.status is SummaryStatus.RUNNING
    assert arrived - saved < SAVE_TO_FRAME_BOUND_S  # the redraw does not wait for the simulation
    assert "simulating" in _render(running_frame)
    deadline = time.perf_counter() + 10
    slow_process = simulator.process
    while not (slow_process is not None and slow_process.is_alive()) and time.perf_counter() < deadline:
        time.sleep(0.01)
        slow_process = simulator.process
    assert slow_process is not None and slow_process.is_alive()

    saved = time.perf_counter()
    design.write_text(named(MONTE_CARLO, "fast again"), encoding="utf-8")
    arrived, fresh = log.wait(
        lambda f: (
            f.summary is not None and f.summary.status is SummaryStatus.DONE and f.summary.message == "fast again"
        ),
        after=saved,
    )
    assert arrived - saved < 5.0
    slow_process.join(5)
    assert not slow_process.is_alive(), "the cancelled simulation is still running"
    assert all(f.summary is None or f.summary.message != "slow one" for _, f in log.frames)


def test_the_real_simulation_summary_follows_a_save_within_seconds(tmp_path: Path, running) -> None:
    design = tmp_path / "game.cardz"
    design.write_text(WEATHERVANE, encoding="utf-8")
    log = running(Watcher(design, seed=2, simulator=ProcessSimulator(playouts=100, seed=2)))
    log.wait(lambda f: f.summary is not None and f.summary.status is SummaryStatus.DONE, after=0, timeout=20)
    saved = time.perf_counter()
    design.write_text(MONTE_CARLO, encoding="utf-8")
    arrived, done = log.wait(
        lambda f: (
            f.path == design
            and f.board is not None
            and f.board.design.name == "Monte Carlo"
            and f.summary is not None
            and f.summary.status is SummaryStatus.DONE
        ),
        after=saved,
        timeout=20,
    )
    assert done.summary is not None and done.summary.playouts == 100 and 0 < done.summary.win_rate < 1
    assert arrived - saved < 5.0
    assert "win rate" in _render(done)


def test_a_save_the_engine_cannot_deal_keeps_the_last_board_and_says_why(tmp_path: Path) -> None:
    design = tmp_path / "game.cardz"
    design.write_text(WEATHERVANE, encoding="utf-8")
    watcher = Watcher(design, simulator=NoSimulation())
    good = watcher.refresh()
    design.write_text(WEATHERVANE.replace('"to": "vane", "faceUp": 1', '"to": "vain", "faceUp": 1'), encoding="utf-8")
    frame = watcher.refresh()
    assert good is not None and frame is not None and frame.board == good.board and not frame.board_is_current
    assert frame.board_problem is not None and "vain" in frame.board_problem
    assert "CZ302" in codes(frame)
    assert "last good board: this save has errors" in _render(frame)  # the diagnostic explains it


def test_when_only_the_engine_objects_its_reason_is_shown(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import cardz_tools.preview.watch as watch_module
    from cardz_tools.preview.sources import BoardUnavailable

    design = tmp_path / "game.cardz"
    design.write_text(WEATHERVANE, encoding="utf-8")
    watcher = Watcher(design, simulator=NoSimulation())
    good = watcher.refresh()

    def refuse(*args: object) -> None:
        raise BoardUnavailable("the engine cannot deal this design: a reason only it knows")

    monkeypatch.setattr(watch_module, "sample_board", refuse)
    frame = watcher.refresh()
    assert good is not None and frame is not None and frame.board == good.board and codes(frame) == []
    assert frame.summary is not None and frame.summary.status is SummaryStatus.SKIPPED
    assert "a reason only it knows" in _render(frame) and "a reason only it knows" in frame.page()


def test_a_crashing_simulation_is_reported_not_fatal(tmp_path: Path, running) -> None:
    design = tmp_path / "game.cardz"
    design.write_text(MONTE_CARLO, encoding="utf-8")
    log = running(Watcher(design, simulator=ProcessSimulator(summarize=_raises)))
    _, failed = log.wait(lambda f: f.summary is not None and f.summary.status is SummaryStatus.FAILED, after=0)
    assert failed.summary is not None and "no engine here" in failed.summary.message


def _raises(design_json: str, playouts: int, seed: int) -> Summary:
    raise RuntimeError("no engine here")


def test_run_watch_draws_the_live_screen_and_stops_cleanly(tmp_path: Path) -> None:
    design = tmp_path / "game.cardz"
    design.write_text(WEATHERVANE, encoding="utf-8")
    output = io.StringIO()
    console = Console(file=output, force_terminal=True, width=110, height=60)
    stop = threading.Event()
    thread = threading.Thread(
        target=run_watch, args=(design,), kwargs={"seed": 5, "playouts": 5, "console": console, "stop_event": stop}
    )
    thread.start()
    deadline = time.perf_counter() + 10
    while "tab[6]" not in output.getvalue() and time.perf_counter() < deadline:
        time.sleep(0.05)
    stop.set()
    thread.join(15)
    assert not thread.is_alive()
    screen = output.getvalue()
    assert "Weathervane" in screen and "tab[6]" in screen and "vane" in screen
    assert screen.rstrip().endswith("\x1b[?25h") or "\x1b[?25h" in screen  # the cursor is given back


def _render(frame: Frame) -> str:
    return _render_any(frame)


def _render_any(frame: Frame | None) -> str:
    console = Console(file=io.StringIO(), width=120, color_system=None)
    console.print(frame_renderable(frame))
    return console.file.getvalue()  # type: ignore[attr-defined]


def test_ctrl_c_quits_cleanly_and_gives_the_terminal_back(tmp_path: Path) -> None:
    import signal
    import subprocess
    import sys

    design = tmp_path / "game.cardz"
    design.write_text(MONTE_CARLO, encoding="utf-8")
    script = (
        "import sys; from pathlib import Path; from cardz_tools.preview.watch import run_watch; "
        "run_watch(Path(sys.argv[1]), playouts=5); print('bye')"
    )
    root = Path(__file__).resolve().parent.parent
    env = {**os.environ, "FORCE_COLOR": "1", "COLUMNS": "100", "LINES": "50", "PYTHONPATH": str(root)}
    process = popen_hearing_ctrl_c(
        [sys.executable, "-c", script, str(design)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, cwd=root
    )
    try:
        assert process.stdout is not None
        os.set_blocking(process.stdout.fileno(), False)
        seen = b""
        deadline = time.perf_counter() + 20
        while b"cell[24]" not in seen and time.perf_counter() < deadline:
            seen += process.stdout.read() or b""
            time.sleep(0.05)
        assert b"cell[24]" in seen, seen.decode(errors="replace")[-2000:]
        process.send_signal(signal.SIGINT)
        process.wait(15)
        os.set_blocking(process.stdout.fileno(), True)
        seen += process.stdout.read()
        errors = process.stderr.read().decode(errors="replace") if process.stderr else ""
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    assert process.returncode == 0, errors
    assert "Traceback" not in errors
    assert b"\x1b[?25h" in seen  # the cursor is shown again
    assert seen.rstrip().endswith(b"bye")


def test_a_listener_that_fails_is_dropped_and_its_error_kept_while_the_others_still_hear(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    design = tmp_path / "game.cardz"
    design.write_text(MONTE_CARLO, encoding="utf-8")
    watcher = Watcher(design, seed=3, simulator=NoSimulation())
    calls: list[int] = []

    def broken(frame: Frame) -> None:
        calls.append(frame.generation)
        raise ValueError("the terminal went away")

    log = FrameLog()
    watcher.subscribe(broken)
    watcher.subscribe(log)
    watcher.refresh()
    watcher.refresh()
    assert len(calls) == 1, "a failing listener is called no more"
    assert watcher.listener_errors == ["ValueError: the terminal went away"]
    assert len(log.frames) == 2
    assert "a display stopped after an error: ValueError: the terminal went away" in capsys.readouterr().err
