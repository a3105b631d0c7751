"""Live analysis: in the background, replaced by newer saves, bounded in time, remembered by design."""

from __future__ import annotations

import queue
import threading
import time

from cardz_tools.lsp.live import LiveAnalysis, LiveOptions, LiveResult, LiveStatus, MemoryStore, analyse
from tests.conftest import ROOT

SEED = ROOT / "games" / "monte-carlo.cardz"
TEXT = SEED.read_text(encoding="utf-8")
WAIT = 60.0


class _Results:
    """The results delivered to the callback, in order."""

    def __init__(self) -> None:
        self.got: list[tuple[str, LiveResult]] = []
        self._queue: queue.Queue[LiveResult] = queue.Queue()

    def __call__(self, uri: str, result: LiveResult) -> None:
        self.got.append((uri, result))
        self._queue.put(result)

    def wait(self) -> LiveResult:
        return self._queue.get(timeout=WAIT)


def test_a_save_is_analysed_in_a_child_process_with_random_and_solver_figures() -> None:
    results = _Results()
    live = LiveAnalysis(results, options=LiveOptions(playouts=20, deals=1, budget=2_000, seconds=WAIT))
    started = time.perf_counter()
    live.submit("file:///a.cardz", TEXT, SEED)
    assert time.perf_counter() - started < 0.05  # submitting never waits for the analysis
    assert live.latest("file:///a.cardz") == LiveResult(LiveStatus.RUNNING)
    partial = results.wait()  # the random figures first, while the solver works
    assert partial.solving and partial.playouts == 20 and "solving…" in partial.label()
    result = results.wait()
    assert result.status is LiveStatus.DONE and not result.solving and result.playouts == 20 and result.deals == 1
    assert result == live.latest("file:///a.cardz")
    label = result.label()
    assert label.startswith("cardz: random win ") and "of 20" in label and "solver" in label
    live.close()


def test_an_analysis_past_its_time_bound_is_stopped() -> None:
    results = _Results()
    live = LiveAnalysis(results, options=LiveOptions(seconds=0.0))
    live.submit("u", TEXT, SEED)
    result = results.wait()
    assert result.status is LiveStatus.TIMEOUT and "within 0 s" in result.message


def test_a_newer_save_replaces_the_running_analysis_and_the_old_result_is_never_shown() -> None:
    release = threading.Event()
    calls: list[str] = []

    def slow(design_json: str, options: LiveOptions) -> LiveResult:
        calls.append(design_json)
        if len(calls) == 1:
            release.wait(WAIT)
        return LiveResult(LiveStatus.DONE, playouts=len(calls))

    results = _Results()
    live = LiveAnalysis(results, in_process=slow)
    live.submit("u", TEXT, SEED)
    while not calls:
        time.sleep(0.01)
    live.submit("u", TEXT.replace('"Monte Carlo"', '"Monte Carlo 2"'), SEED)
    second = results.wait()
    release.set()
    time.sleep(0.2)
    assert [r.playouts for _, r in results.got] == [2] and second.playouts == 2
    assert live.latest("u") == second


def test_a_burst_of_saves_is_analysed_once() -> None:
    calls: list[str] = []

    def counting(design_json: str, options: LiveOptions) -> LiveResult:
        calls.append(design_json)
        return LiveResult(LiveStatus.DONE, playouts=len(calls))

    results = _Results()
    live = LiveAnalysis(results, in_process=counting)
    for number in range(5):
        live.submit("u", TEXT.replace('"Monte Carlo"', f'"Monte Carlo {number}"'), SEED)
    assert results.wait().playouts == 1
    time.sleep(0.5)
    assert len(calls) == 1 and '"Monte Carlo 4"' in calls[0] and len(results.got) == 1


def test_a_save_with_errors_is_skipped_and_an_analysed_design_comes_from_the_store() -> None:
    calls: list[str] = []

    def counting(design_json: str, options: LiveOptions) -> LiveResult:
        calls.append(design_json)
        return LiveResult(LiveStatus.DONE, playouts=7)

    results = _Results()
    store = MemoryStore()
    live = LiveAnalysis(results, store=store, in_process=counting)
    live.submit("u", TEXT.replace("card.rank", "card.rnak"), SEED)
    skipped = results.wait()
    assert skipped.status is LiveStatus.SKIPPED and "errors" in skipped.label()
    for _ in range(2):
        live.submit("u", TEXT, SEED)
        assert results.wait().playouts == 7
    assert len(calls) == 1  # the second save of the same design was answered from the store
    live.cancel("u")
    assert live.latest("u") is None


def test_analyse_runs_sim_then_solver() -> None:
    result = analyse(_flat(), LiveOptions(playouts=10, deals=1, budget=1_000))
    assert result.status is LiveStatus.DONE and result.playouts == 10 and result.won + result.lost + result.unknown == 1


def _flat() -> str:
    from cardz_tools.lsp.live import design_json_of

    design_json, why = design_json_of(TEXT, SEED)
    assert design_json is not None, why
    return design_json
