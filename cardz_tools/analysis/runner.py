"""Where analysis work runs: in this process, a local process pool, or a Dask cluster.

Work is cut into chunks of consecutive deal indexes. Every chunk is a pure
function of (design, start, stop, seed, options), and its result merges
associatively, so the answer never depends on the backend or the worker count.
Workers rebuild the :class:`~cardz_tools.engine.Game` from the design's JSON
once per process (rules are compiled there, not pickled).
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from typing import TYPE_CHECKING, Any, TypeVar

from ..model import build_design

if TYPE_CHECKING:
    from ..engine import Game

T = TypeVar("T")

ChunkTask = Callable[["Game", int, int, int, Mapping[str, Any]], T]
"""``task(game, start, stop, seed, options) -> partial result``."""

_GAMES: dict[str, Game] = {}


def game_for(design_json: str) -> Game:
    """The Game for a design's JSON text, built once per process."""
    game = _GAMES.get(design_json)
    if game is None:
        import json

        from ..engine import Game

        game = Game(build_design(json.loads(design_json)))
        _GAMES.clear()  # one design at a time: bounded memory in long-lived workers
        _GAMES[design_json] = game
    return game


def run_chunk(task: ChunkTask[T], design_json: str, start: int, stop: int, seed: int, options: Mapping[str, Any]) -> T:
    """Run one chunk (module level so that process pools and Dask can pickle it)."""
    return task(game_for(design_json), start, stop, seed, options)


def chunks(total: int, workers: int, target: int = 8) -> list[tuple[int, int]]:
    """Split ``range(total)`` into about ``workers * target`` consecutive chunks."""
    if total <= 0:
        return []
    size = max(1, -(-total // max(1, workers * target)))
    return [(start, min(total, start + size)) for start in range(0, total, size)]


DEADLINE_CHUNK = 4
"""Under a deadline, chunks hold at most this many items, so a run stops close to its deadline."""


def _small_chunks(total: int) -> list[tuple[int, int]]:
    size = max(1, min(-(-total // 64), DEADLINE_CHUNK))
    return [(start, min(total, start + size)) for start in range(0, total, size)]


def default_workers() -> int:
    """The number of CPUs this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - not on Linux
        return max(1, os.cpu_count() or 1)


def run(
    task: ChunkTask[T],
    design_json: str,
    total: int,
    seed: int,
    options: Mapping[str, Any],
    workers: int | None = None,
    scheduler: str | None = None,
    on_progress: Callable[[int], None] | None = None,
    deadline: float | None = None,
) -> Iterator[tuple[tuple[int, int], T]]:
    """Run ``task`` over ``range(total)``; yield ((start, stop), result) as chunks finish.

    ``workers=1`` runs in this process; more use a process pool; ``scheduler`` (a Dask
    address such as ``tcp://10.0.0.5:8786``) sends the chunks to a Dask cluster.
    With a ``deadline`` (a :func:`time.monotonic` time) no chunk starts after it, in this
    process, so a time-bounded run does the chunks ``0 .. k`` for some ``k`` (smaller
    chunks then, to stop close to the deadline).
    """
    workers = workers or default_workers()
    if deadline is not None:
        workers = 1
    parts = chunks(total, workers) if deadline is None else _small_chunks(total)
    if scheduler and deadline is None:
        yield from _run_dask(task, design_json, parts, seed, options, scheduler, on_progress)
        return
    if workers == 1 or len(parts) == 1:
        for start, stop in parts:
            if deadline is not None and start > 0 and time.monotonic() > deadline:
                return
            result = run_chunk(task, design_json, start, stop, seed, options)
            if on_progress:
                on_progress(stop - start)
            yield (start, stop), result
        return
    with ProcessPoolExecutor(max_workers=workers) as pool:
        pending: dict[Future[T], tuple[int, int]] = {
            pool.submit(run_chunk, task, design_json, start, stop, seed, options): (start, stop)
            for start, stop in parts
        }
        while pending:
            done, _ = wait(pending, return_when=FIRST_COMPLETED)
            for future in done:
                span = pending.pop(future)
                if on_progress:
                    on_progress(span[1] - span[0])
                yield span, future.result()


def _run_dask(
    task: ChunkTask[T],
    design_json: str,
    parts: list[tuple[int, int]],
    seed: int,
    options: Mapping[str, Any],
    scheduler: str,
    on_progress: Callable[[int], None] | None,
) -> Iterator[tuple[tuple[int, int], T]]:
    try:
        from distributed import Client, as_completed
    except ImportError as exc:  # the optional extra is missing
        raise RuntimeError("--scheduler needs the optional Dask support: pip install 'cardz-tools[dist]'") from exc
    with Client(scheduler, timeout="10s") as client:
        futures = {
            client.submit(run_chunk, task, design_json, start, stop, seed, options, pure=False): (start, stop)
            for start, stop in parts
        }
        for future in as_completed(futures):
            span = futures[future]
            if on_progress:
                on_progress(span[1] - span[0])
            yield span, future.result()


R = TypeVar("R")
Item = TypeVar("Item")


def run_each(
    function: Callable[[Item], R],
    items: Sequence[Item],
    workers: int | None = None,
    scheduler: str | None = None,
) -> Iterator[tuple[int, R]]:
    """Call ``function(item)`` for every item; yield (index, result) as they finish.

    The same backends as :func:`run`: this process (``workers=1`` or a single item), a
    local process pool, or a Dask cluster. ``function`` must be a module-level function
    (pickled by name). Callers that need a stable order sort by the index.
    """
    workers = min(workers or default_workers(), max(1, len(items)))
    if scheduler:
        yield from _each_dask(function, items, scheduler)
        return
    if workers == 1:
        for index, item in enumerate(items):
            yield index, function(item)
        return
    with ProcessPoolExecutor(max_workers=workers) as pool:
        pending: dict[Future[R], int] = {pool.submit(function, item): index for index, item in enumerate(items)}
        while pending:
            done, _ = wait(pending, return_when=FIRST_COMPLETED)
            for future in done:
                yield pending.pop(future), future.result()


def _each_dask(function: Callable[[Item], R], items: Sequence[Item], scheduler: str) -> Iterator[tuple[int, R]]:
    try:
        from distributed import Client, as_completed
    except ImportError as exc:  # the optional extra is missing
        raise RuntimeError("--scheduler needs the optional Dask support: pip install 'cardz-tools[dist]'") from exc
    with Client(scheduler, timeout="10s") as client:
        futures = {client.submit(function, item, pure=False): index for index, item in enumerate(items)}
        for future in as_completed(futures):
            yield futures[future], future.result()
