"""The worker processes that do the server's heavy work, so that typing never waits for it.

Linting, modelling a design, formatting, the outline, folding, references, rename,
semantic tokens and the lens's place all walk a whole design; on a large one they
take longer than a keystroke may wait. Threads would not help: they share the
interpreter (and its lock) with the request loop, so every busy thread slows
completion down. :class:`Workers` runs each such job in a small pool of processes,
started once (spawned, so nothing of the server's state is copied), each bounded in
memory and every job in time: a job past its time or memory bound gets the pool killed
and restarted, and the request a :class:`JobFailed` that says so. Each job is sent the
document's text with it (57 KB cost well under a millisecond to send), so a worker holds
no state that could go stale. A process that dies
(its memory bound, a crash) is replaced and the job retried once. Where processes cannot
be started at all, the jobs run in threads.

``Workers(0)`` runs the jobs in the server's threads instead (the path of earlier
versions; for platforms without processes, and the baseline of ``bench/bench_lsp.py``).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import concurrent.futures.process
import functools
import multiprocessing
import os
import signal
import threading
from collections.abc import Callable
from typing import ParamSpec, TypeVar

from .live import exit_with_parent, limit_memory

__all__ = ["JobFailed", "Workers", "WORKER_PROCESSES", "JOB_SECONDS", "WORKER_MEMORY_BYTES"]

WORKER_PROCESSES = 2
"""How many processes do the heavy work: a lint and a request (or the model) run at once."""
JOB_SECONDS = 20.0
"""The most one job may take, waiting for a free worker included (a 60 KB design lints in well under a second)."""
WORKER_MEMORY_BYTES = 1024**3
"""The address space a worker process may use."""

_P = ParamSpec("_P")
_T = TypeVar("_T")


class JobFailed(RuntimeError):
    """A job did not finish: past its time bound, or its process died twice; the message says which."""


WORKER_NICENESS = 5
"""How much lower than the server a worker is scheduled: on a busy machine the request loop gets a core first."""


def _start_worker() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C in the editor's terminal is the server's to handle
    if hasattr(os, "nice"):
        os.nice(WORKER_NICENESS)
    limit_memory(WORKER_MEMORY_BYTES)
    exit_with_parent()


class Workers:
    """A pool of ``size`` worker processes (started on first use), or the server's threads when ``size`` is 0."""

    def __init__(self, size: int = WORKER_PROCESSES, job_seconds: float = JOB_SECONDS) -> None:
        self.size = size
        self.job_seconds = job_seconds
        self._pool: concurrent.futures.ProcessPoolExecutor | None = None
        self._lock = threading.Lock()
        self._initializer: Callable[[], None] = _start_worker
        self._worked = False  # a job has come back from a process: processes work here

    def _executor(self) -> concurrent.futures.ProcessPoolExecutor | None:
        """The pool (None: processes cannot be started here, and the jobs run in threads from now on)."""
        with self._lock:
            if self._pool is None and self.size > 0:
                try:
                    self._pool = concurrent.futures.ProcessPoolExecutor(
                        max_workers=self.size, mp_context=multiprocessing.get_context("spawn"),
                        initializer=self._initializer)
                except (OSError, ImportError, NotImplementedError):  # no process support (semaphores) here
                    self.size = 0
            return self._pool

    def start(self) -> None:
        """Start the processes now, so that the first jobs do not wait for them."""
        pool = self._executor()
        for _ in range(self.size if pool is not None else 0):
            pool.submit(int).add_done_callback(self._started)  # type: ignore[union-attr]

    def _started(self, future: concurrent.futures.Future[int]) -> None:
        if not future.cancelled() and future.exception() is None:
            self._worked = True

    async def run(self, job: Callable[_P, _T], *args: _P.args, **kwargs: _P.kwargs) -> _T:
        """The result of ``job(*args, **kwargs)``, computed in a worker (its exceptions are raised here).

        :raises JobFailed: when the job takes longer than :attr:`job_seconds`, runs out of memory (its
            process is replaced then too), or its process dies twice.
        """
        loop = asyncio.get_running_loop()
        call = functools.partial(job, *args, **kwargs)
        for attempt in (1, 2):
            pool = self._executor()
            if pool is None:
                return await loop.run_in_executor(None, call)
            try:
                result = await asyncio.wait_for(loop.run_in_executor(pool, call), self.job_seconds)
            except TimeoutError:
                self._kill(pool)
                raise JobFailed(f"took longer than {self.job_seconds:g} s and was stopped") from None
            except MemoryError:
                self._kill(pool)  # a fresh process gives the memory back
                raise JobFailed(f"needed more than its {WORKER_MEMORY_BYTES // 1024**2} MB and was stopped") from None
            except concurrent.futures.process.BrokenProcessPool:
                self._forget(pool)  # killed for another job, or died: the next attempt starts a new pool
                if attempt == 1:
                    continue
                if not self._worked:  # no process has ever started here: run in threads from now on
                    self.size = 0
                    return await loop.run_in_executor(None, call)
                raise JobFailed("its worker process died (out of memory?)") from None
            self._worked = True
            return result
        raise AssertionError("unreachable")

    def _forget(self, pool: concurrent.futures.ProcessPoolExecutor) -> None:
        with self._lock:
            if self._pool is pool:
                self._pool = None
        pool.shutdown(wait=False, cancel_futures=True)

    def _kill(self, pool: concurrent.futures.ProcessPoolExecutor) -> None:
        """Stop a pool whose job runs too long: its processes are terminated (the other jobs under way retry)."""
        # ProcessPoolExecutor cannot stop a running job before Python 3.14's terminate_workers().
        processes = list((getattr(pool, "_processes", None) or {}).values())
        self._forget(pool)  # (forgets its processes too)
        for process in processes:
            process.terminate()

    def close(self) -> None:
        """Stop the processes (the jobs under way are abandoned)."""
        with self._lock:
            pool, self._pool = self._pool, None
        if pool is not None:
            self._kill(pool)
