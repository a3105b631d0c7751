"""``cardz watch``: re-check a design on every save and show the board, the diagnostics and a quick simulation.

The directory is watched, not the file: editors often save by writing a new
file and renaming it over the old one, which a watch on the file itself would
lose. Every save gives a new :class:`Frame` at once (the check is fast); the
simulation runs in a separate process and is terminated when the file changes
again, so it never delays the redraw. A save that does not load keeps the last
good board on screen beside its errors.
"""

from __future__ import annotations

import dataclasses
import multiprocessing
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterable
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any, Protocol

import watchfiles
from rich.console import Console, Group, RenderableType
from rich.live import Live
from rich.panel import Panel
from rich.text import Text

from ..config import LintConfig
from ..diagnostics import Severity
from .board import Board, board_renderable
from .html import render_page
from .sources import (
    DEFAULT_PLAYOUTS,
    BoardUnavailable,
    CheckedFile,
    Summary,
    SummaryStatus,
    check_file,
    safe_summary,
    sample_board,
)

CARDZ_SUFFIX = ".cardz"
MAX_DIAGNOSTICS_SHOWN = 8
EXCERPT_WIDTH = 72
"""Source excerpts are clipped around the span to this many characters."""

Summarize = Callable[[str, int, int], Summary]
"""``summarize(design_json, playouts, seed)``; must be picklable (a module-level function)."""
Clock = Callable[[], float]
Listener = Callable[["Frame"], object]
"""Called with every new frame; what it returns is ignored."""


# ---------------------------------------------------------------- the background simulation


class Simulator(Protocol):
    """Runs one simulation at a time in the background."""

    def start(self, design_json: str, done: Callable[[Summary], None]) -> None:
        """Cancel any running simulation and start one; ``done`` is called from another thread."""

    def cancel(self) -> None:
        """Stop the running simulation; its ``done`` is never called."""

    def close(self) -> None:
        """Cancel and release everything."""


def _simulate_in_child(conn: Connection, summarize: Summarize, design_json: str, playouts: int, seed: int) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle; it ends this process
    try:
        result = summarize(design_json, playouts, seed)
    except Exception as exc:  # report it: the parent must hear back
        result = Summary(SummaryStatus.FAILED, f"{type(exc).__name__}: {exc}")
    try:
        conn.send(result)
        conn.close()
    except OSError:
        pass  # the parent stopped listening (the file changed again, or the watch ended)


@dataclasses.dataclass(eq=False)
class _Job:
    process: Any
    conn: Connection
    done: Callable[[Summary], None]
    cancelled: bool = False


class ProcessSimulator:
    """Each simulation runs in a process of its own; starting another or :meth:`cancel` terminates it.

    A process (not a thread) because a simulation is CPU-bound Python: in a thread it
    would compete with the redraw for the interpreter lock, and it could not be stopped.
    """

    def __init__(self, playouts: int = DEFAULT_PLAYOUTS, seed: int = 0, summarize: Summarize = safe_summary) -> None:
        self.playouts = playouts
        self.seed = seed
        self._summarize = summarize
        self._context = multiprocessing.get_context("spawn")  # no fork of a process that has threads
        self._lock = threading.Lock()
        self._job: _Job | None = None

    @property
    def running(self) -> bool:
        """Whether a simulation is under way."""
        with self._lock:
            return self._job is not None

    @property
    def process(self) -> Any | None:
        """The process of the running simulation, if any."""
        with self._lock:
            return self._job.process if self._job else None

    def start(self, design_json: str, done: Callable[[Summary], None]) -> None:
        """Cancel the running simulation and start one of ``design_json``."""
        receiving, sending = self._context.Pipe(duplex=False)
        process = self._context.Process(
            target=_simulate_in_child,
            args=(sending, self._summarize, design_json, self.playouts, self.seed),
            name="cardz-watch-sim",
            daemon=True,
        )
        job = _Job(process, receiving, done)
        with self._lock:
            self._cancel_locked()
            self._job = job
            process.start()
        sending.close()  # the child holds the only writing end: its exit reads as EOF here
        threading.Thread(target=self._wait, args=(job,), name="cardz-watch-sim-wait", daemon=True).start()

    def _wait(self, job: _Job) -> None:
        result: Summary | None
        try:
            result = job.conn.recv()
        except (EOFError, OSError):
            result = None
        job.process.join(timeout=5)
        job.conn.close()
        with self._lock:
            current = self._job is job and not job.cancelled
            if current:
                self._job = None
        if not current:
            return
        if not isinstance(result, Summary):
            result = Summary(SummaryStatus.FAILED, f"the simulation process ended (exit code {job.process.exitcode})")
        job.done(result)

    def _cancel_locked(self) -> None:
        job, self._job = self._job, None
        if job is not None:
            job.cancelled = True
            if job.process.is_alive():
                job.process.terminate()

    def cancel(self) -> None:
        """Terminate the running simulation, if any."""
        with self._lock:
            self._cancel_locked()

    def close(self) -> None:
        """Terminate the running simulation."""
        self.cancel()


# ---------------------------------------------------------------- frames


@dataclasses.dataclass(frozen=True)
class Frame:
    """What the preview shows after one save."""

    generation: int
    """Counts the checks since the watch started; a newer frame replaces an older one."""
    checked: CheckedFile
    board: Board | None
    """The board of this save, or the last good one when :attr:`board_is_current` is false."""
    board_is_current: bool
    summary: Summary | None
    seed: int
    check_seconds: float
    """How long reading and checking the file took."""
    board_problem: str | None = None
    """Why this save has no board of its own when the linter found nothing to say (the engine's reason)."""

    @property
    def path(self) -> Path:
        return self.checked.path

    def page(self, live: bool = False) -> str:
        """This frame as the preview page."""
        return render_page(
            self.checked,
            self.board,
            self.summary,
            seed=self.seed,
            board_is_current=self.board_is_current,
            board_problem=self.board_problem,
            live=live,
        )


class Watcher:
    """Watches a design file (or the newest ``.cardz`` file of a directory) and produces frames.

    Tests drive it in-process: :meth:`run` in a thread with a ``stop_event``, and
    :meth:`subscribe` to observe every frame.
    """

    def __init__(
        self,
        target: Path,
        *,
        seed: int = 0,
        config: LintConfig | None = None,
        simulator: Simulator | None = None,
        clock: Clock = time.perf_counter,
        step_ms: int = 30,
        debounce_ms: int = 400,
    ) -> None:
        target = Path(target).absolute()
        self.watches_directory = target.is_dir()
        self.directory = target if self.watches_directory else target.parent
        self.seed = seed
        self.config = config or LintConfig()
        self.simulator: Simulator = simulator or ProcessSimulator(seed=seed)
        self.clock = clock
        self.step_ms = step_ms
        self.debounce_ms = debounce_ms
        self.ready = threading.Event()
        """Set once the directory is being watched."""
        self._file: Path | None = None if self.watches_directory else target
        self._lock = threading.RLock()
        self._emit_lock = threading.Lock()
        self._listeners: list[Listener] = []
        self.listener_errors: list[str] = []
        """Why listeners failed (each is unsubscribed on its first error)."""
        self._frame: Frame | None = None
        self._generation = 0
        self._last_board: Board | None = None
        if self._file is None:
            self._file = _newest_design(self.directory)

    @property
    def file(self) -> Path | None:
        """The design being shown (None for a directory without designs)."""
        return self._file

    @property
    def frame(self) -> Frame | None:
        """The latest frame."""
        with self._lock:
            return self._frame

    def subscribe(self, listener: Listener) -> None:
        """Call ``listener(frame)`` for every new frame (from the watch thread or the simulation's)."""
        self._listeners.append(listener)

    def accepts(self, change: watchfiles.Change, path: str) -> bool:
        """The watch filter: design files, and the watched file whatever its name.

        Any design file counts, not only the one shown: a variant is re-checked
        when the design it extends changes.
        """
        return path.endswith(CARDZ_SUFFIX) or (self._file is not None and Path(path) == self._file)

    def refresh(self) -> Frame | None:
        """Check the file now, show the result and restart the simulation."""
        if self._file is None:
            return None
        started = self.clock()
        checked = check_file(self._file, self.config)
        with self._lock:
            self._generation += 1
            generation = self._generation
            board, problem = self._board_for(checked)
            current = board is not None
            board = board or self._last_board
            runnable = checked.design_json is not None and not checked.has_errors and current
            self.simulator.cancel()
            if runnable:
                summary = Summary(SummaryStatus.RUNNING, "random playouts of this save")
            else:
                summary = Summary(SummaryStatus.SKIPPED, "the simulation waits for a save without errors")
            frame = Frame(generation, checked, board, current, summary, self.seed, self.clock() - started, problem)
            self._frame = frame
        self._emit(frame)
        if runnable and checked.design_json is not None:
            self.simulator.start(checked.design_json, lambda result: self._summary_done(generation, result))
        return frame

    def _board_for(self, checked: CheckedFile) -> tuple[Board | None, str | None]:
        """This save's board, or None and why not."""
        if checked.design is None:
            return None, None
        try:
            board = Board(checked.design, sample_board(checked.design, self.seed))
        except BoardUnavailable as exc:  # it models but cannot be dealt: keep the last good board
            return None, str(exc)
        self._last_board = board
        return board, None

    def _summary_done(self, generation: int, summary: Summary) -> None:
        with self._lock:
            if self._frame is None or self._frame.generation != generation:
                return  # a newer save replaced this one
            frame = dataclasses.replace(self._frame, summary=summary)
            self._frame = frame
        self._emit(frame)

    def _emit(self, frame: Frame) -> None:
        with self._emit_lock:  # one frame at a time, newest last: a stale frame is never shown after a newer one
            if frame is not self.frame:
                return
            self._call_listeners(frame)

    def _call_listeners(self, frame: Frame) -> None:
        for listener in list(self._listeners):
            try:
                listener(frame)
            except Exception as exc:  # a broken display must not stop the watch, nor fail unseen
                self._listeners.remove(listener)
                self.listener_errors.append(f"{type(exc).__name__}: {exc}")
                sys.stderr.write(f"cardz watch: a display stopped after an error: {type(exc).__name__}: {exc}\n")

    def handle(self, changes: Iterable[tuple[watchfiles.Change, str]]) -> Frame | None:
        """React to a batch of changes: pick the design to show, then :meth:`refresh`."""
        paths = {Path(path) for change, path in changes if self.accepts(change, path)}
        if not paths:
            return None
        if self.watches_directory:
            existing = [p for p in paths if p.suffix == CARDZ_SUFFIX and p.exists()]
            if existing:
                self._file = max(existing, key=_mtime)
            elif self._file is None or self._file not in paths:
                return None  # another design went away: the one shown is unchanged
        return self.refresh()

    def run(self, stop_event: threading.Event | None = None) -> None:
        """Check once, then on every save until ``stop_event`` is set or Ctrl-C."""
        try:
            self.refresh()
            for changes in watchfiles.watch(
                self.directory,
                watch_filter=self.accepts,
                debounce=self.debounce_ms,
                step=self.step_ms,
                stop_event=stop_event,
                rust_timeout=250,
                yield_on_timeout=True,
                raise_interrupt=False,
                recursive=False,
            ):
                self.ready.set()  # the first (empty) yield comes after the watch began
                if changes:
                    self.handle(changes)
        except KeyboardInterrupt:
            pass
        finally:
            self.simulator.close()


def _mtime(path: Path) -> float:
    try:
        return path.stat().st_mtime
    except OSError:
        return 0.0


def _newest_design(directory: Path) -> Path | None:
    designs = [p for p in directory.glob(f"*{CARDZ_SUFFIX}") if p.is_file()]
    return max(designs, key=_mtime) if designs else None


# ---------------------------------------------------------------- the terminal screen


def diagnostics_renderable(checked: CheckedFile) -> RenderableType:
    """Diagnostics with their source line and a caret under the span."""
    diagnostics = checked.diagnostics
    if not diagnostics:
        return Text("No problems found.", style="green")
    styles = {Severity.ERROR: "bold red", Severity.WARNING: "bold yellow", Severity.INFO: "bold blue"}
    out: list[Text] = []
    for d in diagnostics[:MAX_DIAGNOSTICS_SHOWN]:
        head = Text()
        head.append(f"{d.severity.value} ", style=styles[d.severity])
        head.append(f"{d.code} {d.name} ", style="cyan")
        where = f"{d.file}:" if checked.is_elsewhere(d) else ""
        head.append(f"{where}{d.span.line}:{d.span.column} ", style="dim")
        head.append(d.message)
        out.append(head)
        shown = checked.excerpt_for(d, width=EXCERPT_WIDTH)
        if shown is not None:
            gutter = f"{shown.line_number:>5} | "
            source = Text(gutter, style="dim") + Text(shown.text)
            source.no_wrap, source.overflow = True, "ellipsis"  # a wrapped line would move the caret
            out.append(source)
            carets = " " * (len(gutter) + shown.start) + "^" * max(1, shown.end - shown.start)
            out.append(Text(carets, style=styles[d.severity]))
        if d.hint:
            out.append(Text(f"      hint: {d.hint}", style="italic"))
    if len(diagnostics) > MAX_DIAGNOSTICS_SHOWN:
        out.append(Text(f"… and {len(diagnostics) - MAX_DIAGNOSTICS_SHOWN} more", style="dim"))
    return Group(*out)


def summary_renderable(summary: Summary | None) -> RenderableType:
    """The simulation summary in a few lines."""
    if summary is None:
        return Text("no simulation yet", style="dim")
    if summary.status is SummaryStatus.RUNNING:
        return Text(f"simulating… ({summary.message})", style="dim")
    if summary.status is not SummaryStatus.DONE:
        return Text(f"{summary.status.value}: {summary.message}", style="dim")
    low, high = summary.win_rate_interval
    lines = [
        Text.assemble(
            ("win rate ", "dim"),
            (f"{100 * summary.win_rate:.1f}%", "bold"),
            (f" (95% CI {100 * low:.1f}–{100 * high:.1f}%)", "dim"),
            ("  stuck at deal ", "dim"),
            (str(summary.stuck_at_deal), "bold"),
            ("  non-terminating ", "dim"),
            (str(summary.non_terminating), "bold"),
            (f"  [{summary.playouts} playouts, {summary.elapsed_s:.1f} s]", "dim"),
        )
    ]
    for finding in summary.findings:
        lines.append(Text(f"{finding.severity} {finding.kind}: {finding.message}"))
    return Group(*lines)


def frame_renderable(frame: Frame | None, footer: str = "") -> RenderableType:
    """The whole live screen: board, diagnostics, simulation."""
    if frame is None:
        return Text("No .cardz design to show yet: save one in the watched directory.", style="yellow")
    errors = sum(1 for d in frame.checked.diagnostics if d.severity is Severity.ERROR)
    warnings = sum(1 for d in frame.checked.diagnostics if d.severity is Severity.WARNING)
    name = frame.board.design.name if frame.board else frame.path.name
    board_parts: list[RenderableType] = []
    if frame.board is None:
        board_parts.append(Text("No board yet: the design does not load.", style="yellow"))
    else:
        board_parts.append(board_renderable(frame.board))
    if frame.board_problem and not frame.checked.has_errors:  # otherwise the diagnostics say it
        board_parts.append(Text(frame.board_problem, style="yellow"))
    if frame.checked.missing:
        stale = "the file was deleted"
    else:
        stale = "this save has errors" if frame.checked.has_errors else "the engine cannot deal this save"
    board_panel = Panel(
        Group(*board_parts),
        title=Text(f"{name} · {frame.path.name} · deal {frame.seed}"),  # Text: a design name is no markup
        subtitle=None if frame.board_is_current else f"last good board: {stale}",
        border_style="green" if frame.board_is_current else "yellow",
        expand=False,
    )
    diagnostics_panel = Panel(
        diagnostics_renderable(frame.checked),
        title=f"Diagnostics: {errors} error{'s' * (errors != 1)}, {warnings} warning{'s' * (warnings != 1)}"
        f" · checked in {1000 * frame.check_seconds:.0f} ms",
        border_style="red" if errors else "green",
    )
    summary_panel = Panel(summary_renderable(frame.summary), title="Simulation")
    parts: list[RenderableType] = [board_panel, diagnostics_panel, summary_panel]
    if footer:
        parts.append(Text(footer, style="dim"))
    return Group(*parts)


def run_watch(
    target: Path,
    *,
    seed: int = 0,
    playouts: int = DEFAULT_PLAYOUTS,
    serve: bool = False,
    port: int = 0,
    config: LintConfig | None = None,
    console: Console | None = None,
    stop_event: threading.Event | None = None,
) -> None:
    """``cardz watch``: the live screen, and with ``serve`` the page on 127.0.0.1 that reloads on every save.

    Returns when ``stop_event`` is set or on Ctrl-C, with the terminal restored.

    :raises cardz_tools.preview.server.ServeError: when ``serve`` cannot listen on ``port``.
    """
    from .server import PreviewServer

    console = console or Console()
    watcher = Watcher(target, seed=seed, config=config, simulator=ProcessSimulator(playouts=playouts, seed=seed))
    server = PreviewServer(port).start() if serve else None
    footer = f"watching {watcher.directory} · Ctrl-C quits"
    if server is not None:
        footer += f" · page at {server.url}"
        watcher.subscribe(lambda frame: server.publish(frame.page(live=True)))
    try:
        with Live(frame_renderable(None, footer), console=console, auto_refresh=False, transient=False) as live:
            watcher.subscribe(lambda frame: live.update(frame_renderable(frame, footer), refresh=True))
            watcher.run(stop_event)
    except KeyboardInterrupt:
        pass
    finally:
        watcher.simulator.close()
        if server is not None:
            server.close()
