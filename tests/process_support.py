"""Starting a child process that must hear Ctrl-C, whatever the test run's own Ctrl-C does."""

from __future__ import annotations

import signal
import subprocess
from typing import Any


def popen_hearing_ctrl_c(args: list[str], **options: Any) -> subprocess.Popen[bytes]:
    """``subprocess.Popen(args, **options)`` with Ctrl-C (SIGINT) at its default in the child.

    A test run started as a shell's background job without job control ignores SIGINT, and an ignored signal stays
    ignored across ``exec``: the child would never quit on Ctrl-C. A handled one is reset to the default there, so
    the handler is set around the start (tests run in the main thread, where that is allowed).
    """
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        return subprocess.Popen(args, **options)
    finally:
        signal.signal(signal.SIGINT, previous)
