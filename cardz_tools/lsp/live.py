"""Live analysis: random win rate and solver winnability of the last save, computed in the background.

After a save, :class:`LiveAnalysis` analyses the design in a process of its own
(random playouts as ``cardz sim`` plays them, then a few deals searched as ``cardz
solve`` searches them), each stage bounded in time and the process in memory; the
process is terminated at the overall deadline, and when a newer save of the same
document comes first. Nothing of it runs on the server's request loop; a small watcher thread
per job waits for the process and hands the result to a callback.

Results are kept in a :class:`ResultStore`, keyed by the analysed design and the
analysis options, so a save that changes nothing (or an undo back to an
analysed text) is answered at once. :class:`MemoryStore` keeps them in memory;
the analysis cache of ``cardz check`` can stand behind the same two methods.
"""

from __future__ import annotations

import collections
import dataclasses
import enum
import hashlib
import json
import multiprocessing
import os
import signal
import threading
import time
from collections.abc import Callable, Mapping
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any, Protocol

from ..config import LintConfig
from ..diagnostics import Severity
from ..lint import lint_file, lint_text
from ..model import ModelError, build_design
from ..source import SourceFile
from ..variants import EXTENDS, VariantError, flatten_file

__all__ = [
    "LiveStatus", "LiveResult", "LiveOptions", "ResultStore", "MemoryStore", "design_json_of", "analyse",
    "LiveAnalysis", "exit_with_parent", "limit_memory",
]


class LiveStatus(enum.Enum):
    """Where the analysis of a save stands."""

    RUNNING = "running"
    DONE = "done"
    SKIPPED = "skipped"
    TIMEOUT = "timeout"
    FAILED = "failed"


@dataclasses.dataclass(frozen=True, slots=True)
class LiveOptions:
    """How much work one analysis does: small, it runs after every save.

    The playouts stop at ``playouts`` or after ``sim_seconds``, the solver after
    ``deals`` deals or ``solve_seconds`` (each deal at most ``budget`` positions and
    ``deal_seconds``); past ``seconds`` the process is terminated whatever it is doing.
    """

    playouts: int = 200
    sim_seconds: float = 4.0
    deals: int = 4
    budget: int = 20_000
    deal_seconds: float = 2.0
    solve_seconds: float = 8.0
    seconds: float = 20.0
    seed: int = 0

    @classmethod
    def from_settings(cls, settings: Mapping[str, Any]) -> LiveOptions:
        """Options from the client's ``initializationOptions.liveAnalysis`` (unknown or bad values are ignored)."""
        known = {field.name: field.type for field in dataclasses.fields(cls)}
        chosen: dict[str, Any] = {}
        for name, value in settings.items():
            if name not in known or isinstance(value, bool) or not isinstance(value, (int, float)) or value < 0:
                continue
            chosen[name] = int(value) if name in ("playouts", "deals", "budget", "seed") else float(value)
        return cls(**chosen)


@dataclasses.dataclass(frozen=True, slots=True)
class LiveResult:
    """What the editor shows on the design's name."""

    status: LiveStatus
    message: str = ""
    playouts: int = 0
    wins: int = 0
    deals: int = 0
    won: int = 0
    lost: int = 0
    unknown: int = 0
    seconds: float = 0.0
    solving: bool = False
    """The random figures are in; the solver is still at work."""

    @property
    def win_rate(self) -> float:
        """Wins among the random playouts."""
        return self.wins / self.playouts if self.playouts else 0.0

    def label(self) -> str:
        """One line: ``random 12.5% of 200 · solver won 3/4 (1 unknown)``."""
        if self.status is LiveStatus.RUNNING:
            return "cardz: analysing this save…"
        if self.status is not LiveStatus.DONE:
            return f"cardz: {self.status.value}: {self.message}"
        parts = [f"random win {100 * self.win_rate:.1f}% of {self.playouts}"]
        if self.solving:
            parts.append("solving…")
        elif self.deals:
            decided = self.won + self.lost
            solver = f"solver won {self.won}/{self.deals}" if decided else f"solver undecided on {self.deals}"
            if self.unknown and decided:
                solver += f" ({self.unknown} unknown)"
            parts.append(solver)
        return "cardz: " + " · ".join(parts) + f" · {self.seconds:.1f} s"

    def to_dict(self) -> dict[str, Any]:
        """A JSON-able form (for a store that writes to disk)."""
        data = dataclasses.asdict(self)
        data["status"] = self.status.value
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> LiveResult:
        """The inverse of :meth:`to_dict`."""
        return cls(**{**data, "status": LiveStatus(data["status"])})


class ResultStore(Protocol):
    """Where finished analyses are kept, by key (the analysis cache can stand behind this)."""

    def get(self, key: str) -> LiveResult | None:
        """The result stored under ``key``, if any."""

    def put(self, key: str, result: LiveResult) -> None:
        """Keep ``result`` under ``key``."""


class MemoryStore:
    """A :class:`ResultStore` in memory, keeping the most recent ``size`` results."""

    def __init__(self, size: int = 64) -> None:
        self._size = size
        self._results: collections.OrderedDict[str, LiveResult] = collections.OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: str) -> LiveResult | None:
        with self._lock:
            result = self._results.get(key)
            if result is not None:
                self._results.move_to_end(key)
            return result

    def put(self, key: str, result: LiveResult) -> None:
        with self._lock:
            self._results[key] = result
            self._results.move_to_end(key)
            while len(self._results) > self._size:
                self._results.popitem(last=False)


def design_json_of(text: str, path: Path | None) -> tuple[str | None, str]:
    """The standalone design of a save as JSON (a variant merged), or None and why it cannot be analysed."""
    found = lint_file(path, LintConfig(), text=text).diagnostics if path is not None else lint_text(
        text, "untitled.cardz", LintConfig())
    if any(d.severity is Severity.ERROR for d in found):
        return None, "the last save has errors"
    source = SourceFile.from_text(text, str(path or "untitled.cardz"))
    data = source.data
    if not source.ok or not isinstance(data, dict):
        return None, "the last save does not load"
    if EXTENDS in data:
        if path is None:
            return None, "an unsaved variant cannot be analysed"
        try:
            data = flatten_file(path, text).design
        except VariantError as exc:
            return None, str(exc)
    try:
        build_design(data)
    except ModelError as exc:
        return None, str(exc)
    return json.dumps(data, sort_keys=True, ensure_ascii=False), ""


def result_key(design_json: str, options: LiveOptions) -> str:
    """The store key of an analysis: the design and the options (the time bounds change what is reached)."""
    tag = "/".join(str(value) for value in dataclasses.astuple(options))
    return hashlib.sha256(f"live-v1\0{tag}\0{design_json}".encode()).hexdigest()


def analyse(design_json: str, options: LiveOptions,
            partial: Callable[[LiveResult], None] | None = None) -> LiveResult:
    """Random playouts, then the solver on a few deals, each stage bounded in time (in this process).

    ``partial`` receives the random figures as soon as they are in, while the solver works.
    Deal ``i`` is the deal ``cardz sim``/``cardz solve --seed`` give it.
    """
    from ..analysis.playout import deal_seed, play_range
    from ..analysis.runner import game_for
    from ..analysis.solve import solve_state

    started = time.monotonic()
    game = game_for(design_json)
    playouts = wins = 0
    stop_at = started + options.sim_seconds
    while playouts < options.playouts and time.monotonic() < stop_at:
        wins += play_range(game, playouts, playouts + 1, options.seed).wins
        playouts += 1
    random_part = LiveResult(LiveStatus.DONE, playouts=playouts, wins=wins, seconds=time.monotonic() - started)
    if not options.deals:
        return random_part
    if partial is not None:
        partial(dataclasses.replace(random_part, solving=True))
    verdicts: list[str] = []
    stop_at = time.monotonic() + options.solve_seconds
    for index in range(options.deals):
        now = time.monotonic()
        if now >= stop_at:
            break
        state = game.new_initial_state(seed=deal_seed(options.seed, index))
        verdict, _, _ = solve_state(state, options.budget, min(now + options.deal_seconds, stop_at))
        verdicts.append(verdict)
    return dataclasses.replace(random_part, deals=len(verdicts), won=verdicts.count("won"), lost=verdicts.count("lost"),
                               unknown=len(verdicts) - verdicts.count("won") - verdicts.count("lost"),
                               seconds=time.monotonic() - started)


MEMORY_LIMIT_BYTES = 2 * 1024**3
"""The address space an analysis process may use (the solver's own bound keeps it far below)."""


def limit_memory(limit_bytes: int = MEMORY_LIMIT_BYTES) -> None:
    """In a child process: bound its address space to ``limit_bytes`` (where the platform allows)."""
    try:
        import resource
    except ImportError:  # not on this platform: the solver's position bound still holds
        return
    try:
        resource.setrlimit(resource.RLIMIT_AS, (limit_bytes, limit_bytes))
    except (ValueError, OSError):
        pass  # a lower hard limit is already in force


def exit_with_parent(poll_seconds: float = 1.0) -> None:
    """In a child process: exit as soon as the process that started it is gone.

    An editor may kill its language server outright; the server's lint and analysis
    processes must not outlive it.
    """
    parent = os.getppid()

    def watch() -> None:
        while True:
            time.sleep(poll_seconds)
            if os.getppid() != parent:
                os._exit(0)

    threading.Thread(target=watch, name="cardz-exit-with-parent", daemon=True).start()


def _analyse_in_child(conn: Connection, design_json: str, options: LiveOptions) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the server's to handle
    exit_with_parent()
    limit_memory()
    try:
        try:
            result = analyse(design_json, options, conn.send)
        except Exception as exc:  # the parent must hear back whatever happens (MemoryError too)
            result = LiveResult(LiveStatus.FAILED, f"{type(exc).__name__}: {exc}")
        conn.send(result)
        conn.close()
    except OSError:
        pass  # the parent stopped listening (a newer save)


SETTLE_SECONDS = 0.3
"""A save waits this long before it is analysed, so a burst of saves starts one analysis."""

Analyser = Callable[[str, LiveOptions], LiveResult]
Done = Callable[[str, LiveResult], None]
"""Called as ``done(uri, result)`` from a watcher thread when an analysis ends (not when it is replaced)."""


@dataclasses.dataclass(eq=False)
class _Job:
    cancelled: threading.Event = dataclasses.field(default_factory=threading.Event)
    process: Any = None


class LiveAnalysis:
    """Analyses saves in the background, one job per document; a newer save replaces the running job."""

    def __init__(self, done: Done, store: ResultStore | None = None, options: LiveOptions = LiveOptions(),
                 in_process: Analyser | None = None) -> None:
        """``in_process`` (for tests) runs the analysis in the watcher thread instead of a child process."""
        self._done = done
        self.store: ResultStore = store if store is not None else MemoryStore()
        self.options = options
        self._in_process = in_process
        self._context = multiprocessing.get_context("spawn")  # never fork a process that has threads
        self._lock = threading.Lock()
        self._jobs: dict[str, _Job] = {}
        self._latest: dict[str, LiveResult] = {}
        self.settle_seconds = SETTLE_SECONDS

    def latest(self, uri: str) -> LiveResult | None:
        """The newest result for a document (RUNNING while its job runs), or None before its first save."""
        with self._lock:
            return self._latest.get(uri)

    def submit(self, uri: str, text: str, path: Path | None) -> None:
        """Analyse this save of ``uri`` in the background, cancelling the one under way."""
        job = _Job()
        with self._lock:
            previous = self._jobs.get(uri)
            self._jobs[uri] = job
            self._latest[uri] = LiveResult(LiveStatus.RUNNING)
        if previous is not None:
            self._stop(previous)
        threading.Thread(target=self._run, args=(uri, text, path, job), name="cardz-live", daemon=True).start()

    def cancel(self, uri: str) -> None:
        """Stop the job of ``uri`` and forget its result (the document was closed)."""
        with self._lock:
            job = self._jobs.pop(uri, None)
            self._latest.pop(uri, None)
        if job is not None:
            self._stop(job)

    def close(self) -> None:
        """Stop every job."""
        with self._lock:
            jobs = list(self._jobs.values())
            self._jobs.clear()
        for job in jobs:
            self._stop(job)

    def _stop(self, job: _Job) -> None:
        job.cancelled.set()
        process = job.process
        if process is not None and process.is_alive():
            process.terminate()

    def _run(self, uri: str, text: str, path: Path | None, job: _Job) -> None:
        try:
            result = self._result(uri, text, path, job)
        except Exception as exc:  # noqa: BLE001 - a failed analysis is a result, never a dead thread
            result = LiveResult(LiveStatus.FAILED, f"{type(exc).__name__}: {exc}")
        if result is not None:
            self._deliver(uri, job, result, final=True)

    def _deliver(self, uri: str, job: _Job, result: LiveResult, *, final: bool) -> None:
        with self._lock:
            if self._jobs.get(uri) is not job:
                return  # replaced by a newer save, or the document was closed
            if final:
                del self._jobs[uri]
            self._latest[uri] = result
        self._done(uri, result)

    def _result(self, uri: str, text: str, path: Path | None, job: _Job) -> LiveResult | None:
        if job.cancelled.wait(self.settle_seconds):
            return None  # saved again at once (an editor's auto-save): only the last save is analysed
        design_json, why = design_json_of(text, path)
        if design_json is None:
            return LiveResult(LiveStatus.SKIPPED, why)
        key = result_key(design_json, self.options)
        stored = self.store.get(key)
        if stored is not None:
            return stored
        if job.cancelled.is_set():
            return None
        if self._in_process is not None:
            result: LiveResult | None = self._in_process(design_json, self.options)
        else:
            result = self._in_child(design_json, job, lambda partial: self._deliver(uri, job, partial, final=False))
        if result is not None and result.status is LiveStatus.DONE:
            self.store.put(key, result)
        return result

    def _in_child(self, design_json: str, job: _Job, partial: Callable[[LiveResult], None]) -> LiveResult | None:
        receiving, sending = self._context.Pipe(duplex=False)
        process = self._context.Process(target=_analyse_in_child, args=(sending, design_json, self.options),
                                        name="cardz-live-analysis", daemon=True)
        with self._lock:
            if job.cancelled.is_set():
                return None
            process.start()
            job.process = process
        sending.close()
        try:
            deadline = time.monotonic() + self.options.seconds
            while not job.cancelled.is_set():
                if receiving.poll(min(0.2, max(deadline - time.monotonic(), 0))):
                    try:
                        result: LiveResult = receiving.recv()
                    except (EOFError, OSError):
                        return None if job.cancelled.is_set() else LiveResult(
                            LiveStatus.FAILED, "the analysis process ended without a result")
                    if not result.solving:
                        return result
                    partial(result)
                    continue
                if time.monotonic() >= deadline:
                    return LiveResult(LiveStatus.TIMEOUT, f"no result within {self.options.seconds:g} s")
                if not process.is_alive() and not receiving.poll():
                    return LiveResult(LiveStatus.FAILED, "the analysis process ended without a result")
            return None
        finally:
            receiving.close()
            if process.is_alive():
                process.terminate()
            process.join(timeout=2)
