"""The worker processes of the language server: results, bounds in time and memory, restarts, stale results."""

from __future__ import annotations

import asyncio
import os
import sys
import time
from pathlib import Path

import pytest

pytest.importorskip("pygls")

from lsprotocol import types  # noqa: E402
from pygls.exceptions import JsonRpcException  # noqa: E402

from cardz_tools.lsp import jobs  # noqa: E402
from cardz_tools.lsp.positions import Encoding, Position  # noqa: E402
from cardz_tools.lsp.rename import RenameRefused  # noqa: E402
from cardz_tools.lsp.workers import JobFailed, Workers  # noqa: E402
from tests.conftest import ROOT  # noqa: E402

SEED = ROOT / "games" / "monte-carlo.cardz"


def _pid() -> int:
    return os.getpid()


def _sleep(seconds: float) -> float:
    time.sleep(seconds)
    return seconds


def _die() -> None:
    os._exit(3)


def _allocate(size: int) -> int:
    return len(bytearray(size))


def _gone(pid: int) -> bool:
    """Whether a process has exited (a zombie not reaped yet counts: it runs nothing)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except FileNotFoundError:
        return True
    return stat.rsplit(")", 1)[1].split()[0] in ("Z", "X")


def _run(workers: Workers, coroutine_of: object) -> object:
    async def go() -> object:
        try:
            return await coroutine_of  # type: ignore[misc]
        finally:
            workers.close()
    return asyncio.run(asyncio.wait_for(go(), 60))


def test_a_job_runs_in_another_process_and_its_exceptions_come_back() -> None:
    workers = Workers(1)
    text = SEED.read_text(encoding="utf-8")

    async def go() -> tuple[int, object]:
        pid = await workers.run(_pid)
        with pytest.raises(RenameRefused, match="only a depot or group name"):
            await workers.run(jobs.prepare_rename_job, text, SEED, Encoding.UTF16, Position(0, 0))
        return pid, await workers.run(jobs.outline_job, text, Encoding.UTF16)

    pid, symbols = _run(workers, go())  # type: ignore[misc]
    assert pid != os.getpid()
    assert symbols == jobs.outline(text, jobs.TextIndex(text))  # the same answer as in the server's own process


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_a_job_past_its_time_bound_is_stopped_and_the_next_job_gets_a_new_process() -> None:
    workers = Workers(1)

    async def go() -> tuple[float, int, int]:
        first = await workers.run(_pid)  # the process has started (the bound counts its start-up too)
        workers.job_seconds = 0.5
        started = time.perf_counter()
        with pytest.raises(JobFailed, match="longer than 0.5 s"):
            await workers.run(_sleep, 30)
        took = time.perf_counter() - started
        workers.job_seconds = 60
        return took, first, await workers.run(_pid)

    took, first, second = _run(workers, go())  # type: ignore[misc]
    assert took < 5
    assert second != first
    for _ in range(50):  # the runaway process was terminated, not left behind
        if _gone(first):
            break
        time.sleep(0.1)
    assert _gone(first)


def test_a_worker_that_dies_is_replaced_and_its_job_fails_with_a_reason() -> None:
    workers = Workers(1)

    async def go() -> int:
        await workers.run(_pid)  # processes work here
        with pytest.raises(JobFailed, match="died"):
            await workers.run(_die)
        return await workers.run(_pid)

    assert _run(workers, go()) != os.getpid()


def _cannot_start() -> None:
    raise OSError("no processes here")


def test_where_no_worker_process_can_start_the_jobs_run_in_threads() -> None:
    workers = Workers(1)
    workers._initializer = _cannot_start
    assert _run(workers, workers.run(_pid)) == os.getpid()
    assert workers.size == 0


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the address-space bound is Linux's RLIMIT_AS")
def test_a_worker_is_bounded_in_memory() -> None:
    workers = Workers(1)

    async def go() -> tuple[int, int]:
        first = await workers.run(_pid)
        with pytest.raises(JobFailed, match="needed more than its 1024 MB"):
            await workers.run(_allocate, 3 * 1024**3)
        return first, await workers.run(_pid)

    first, second = _run(workers, go())  # type: ignore[misc]
    assert second != first  # the process was replaced


def test_without_processes_the_jobs_run_in_threads() -> None:
    workers = Workers(0)
    assert _run(workers, workers.run(_pid)) == os.getpid()


class _HeldWorkers(Workers):
    """Workers whose job finishes only once the test lets it, so that the document can change meanwhile."""

    def __init__(self) -> None:
        super().__init__(0)
        self.running = asyncio.Event()
        self.release = asyncio.Event()

    async def run(self, job, *args, **kwargs):  # type: ignore[no-untyped-def]
        self.running.set()
        await self.release.wait()
        return job(*args, **kwargs)


def test_a_result_for_a_text_that_changed_meanwhile_is_dropped() -> None:
    """Tokens of version 1 would be wrong for version 2: the server answers ContentModified instead."""
    from pygls.workspace import Workspace

    from cardz_tools.lsp.server import CardzLanguageServer

    uri = "untitled:Design-1"
    text = SEED.read_text(encoding="utf-8")
    server = CardzLanguageServer()
    server.protocol._workspace = Workspace(None)  # what `initialize` makes
    server.workspace.put_text_document(types.TextDocumentItem(uri=uri, language_id="cardz", version=1, text=text))
    held = server.workers = _HeldWorkers()

    async def go(change: bool) -> list[int]:
        held.running.clear()
        held.release.clear()
        answer = asyncio.ensure_future(server.job(uri, jobs.tokens_job, uri, text, None, Encoding.UTF16))
        await held.running.wait()
        if change:
            server.workspace.update_text_document(
                types.VersionedTextDocumentIdentifier(uri=uri, version=2),
                types.TextDocumentContentChangeWholeDocument(text=text.replace("card", "card ")))
        held.release.set()
        return await answer

    async def both() -> None:
        assert await go(change=False)  # unchanged: the answer comes through
        with pytest.raises(JsonRpcException) as refused:
            await go(change=True)
        assert refused.value.code == int(types.LSPErrorCodes.ContentModified)

    asyncio.run(asyncio.wait_for(both(), 30))


def test_what_start_up_loaded_is_exempt_from_garbage_collection() -> None:
    """A full collection walking the modules, schema and grammar again would stall the request loop for 40-60 ms."""
    import gc

    from cardz_tools.lsp.server import settle_heap

    frozen = gc.get_freeze_count()
    settle_heap()
    try:
        assert gc.get_freeze_count() > max(frozen, 10_000)
    finally:
        gc.unfreeze()


def test_tokens_of_a_text_that_stops_modelling_come_from_its_last_good_context() -> None:
    text = SEED.read_text(encoding="utf-8")
    broken = text.replace('"type": "Foundation"', '"type": "Foundatio"')  # strict JSON, but no design
    assert jobs.design_context(broken, SEED) is None
    good = jobs.tokens_job("file:///a.cardz", text, SEED, Encoding.UTF16)
    assert len(good) > 100
    assert jobs.tokens_job("file:///a.cardz", broken, SEED, Encoding.UTF16) == good  # the same expressions
    assert jobs.tokens_job("file:///b.cardz", broken, SEED, Encoding.UTF16) == []  # another document: no context
