"""A progress bar on stderr for long runs; stdout carries only the report."""

from __future__ import annotations

import contextlib
import sys
import threading
from collections.abc import Callable, Iterator


@contextlib.contextmanager
def progress_bar(total: int, label: str, delay: float = 0.0) -> Iterator[Callable[[int], None]]:
    """Yield ``advance(n)``; draws a rich bar on stderr only when stderr is a terminal.

    With ``delay`` the bar appears only once the run has taken that many seconds, so a
    quick run (a warm cache) prints nothing at all.
    """
    if not sys.stderr.isatty():
        yield lambda n: None
        return
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    progress = Progress(
        TextColumn(f"[bold]{label}"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
        console=Console(stderr=True), transient=True,
    )
    task = progress.add_task(label, total=total)
    lock = threading.Lock()
    shown: list[bool] = []

    def show() -> None:
        with lock:
            progress.start()
            shown.append(True)

    timer = threading.Timer(delay, show) if delay > 0 else None
    if timer is None:
        show()
    else:
        timer.daemon = True
        timer.start()
    try:
        yield lambda n: progress.advance(task, n)
    finally:
        if timer is not None:
            timer.cancel()
        with lock:
            if shown:
                progress.stop()
