"""The served preview page: the event stream, and the page in headless Chromium (Debian's package)."""

from __future__ import annotations

import http.client
import re
import shutil
import subprocess
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from cardz_tools.preview.server import HOST, PreviewServer, ServeError
from cardz_tools.preview.watch import Watcher
from tests.browser_support import CHROMIUM, CHROMIUM_FLAGS, dump_dom, needs_chromium


class NoSimulation:
    """The simulation is not under test here."""

    def start(self, design_json: str, done: object) -> None:
        pass

    def cancel(self) -> None:
        pass

    def close(self) -> None:
        pass

GAMES = Path(__file__).resolve().parent.parent / "games"


def read_event(response: http.client.HTTPResponse) -> str:
    """The data of the next event on a stream (comments skipped)."""
    data = ""
    while True:
        line = response.readline().decode("utf-8")
        if not line:
            raise AssertionError("the event stream ended")
        if line.startswith("data: "):
            data = line[6:].strip()
        elif line == "\n" and data:
            return data


def test_event_stream_sends_the_version_now_and_after_every_publish() -> None:
    with PreviewServer() as server:
        assert server.url.startswith(f"http://{HOST}:")
        server.publish("<!doctype html><html><head><title>one</title></head><body>one</body></html>")
        connection = http.client.HTTPConnection(HOST, server.port, timeout=10)
        connection.request("GET", "/events")
        events = connection.getresponse()
        assert events.status == 200 and events.getheader("Content-Type") == "text/event-stream"
        assert read_event(events) == "1"
        assert server.wait_for_clients(1, 5)
        assert server.publish("<!doctype html><html><head></head><body>two</body></html>") == 2
        assert read_event(events) == "2"

        page = http.client.HTTPConnection(HOST, server.port, timeout=10)
        page.request("GET", "/")
        body = page.getresponse().read().decode("utf-8")
        assert '<meta name="cardz-version" content="2">' in body and "two" in body
        assert server.last_served_version == 2
        for path, host, status in (("/elsewhere", None, 404), ("/", f"rebound.example:{server.port}", 403)):
            page.request("GET", path, headers={"Host": host} if host else {})
            response = page.getresponse()
            response.read()
            assert response.status == status
        connection.close()
        page.close()
    assert server.clients == 0


def test_a_busy_port_is_a_clear_error() -> None:
    with PreviewServer() as server:
        with pytest.raises(ServeError, match=f"cannot listen on {HOST}:{server.port}"):
            PreviewServer(server.port)


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[Path, Watcher, PreviewServer]]:
    """A watcher on a copy of Monte Carlo whose frames are served, as ``cardz watch --serve`` does."""
    design = tmp_path / "game.cardz"
    shutil.copy(GAMES / "monte-carlo.cardz", design)
    watcher = Watcher(design, seed=8, simulator=NoSimulation())
    stop = threading.Event()
    with PreviewServer() as server:
        watcher.subscribe(lambda frame: server.publish(frame.page(live=True)))
        thread = threading.Thread(target=watcher.run, args=(stop,), daemon=True)
        thread.start()
        assert watcher.ready.wait(10)
        yield design, watcher, server
        stop.set()
        thread.join(10)


@needs_chromium
@pytest.mark.parametrize(
    "name, depots",
    [
        ("monte-carlo.cardz", {f"cell[{i}]" for i in range(25)} | {"stock", "discard"}),
        ("weathervane.cardz", {f"tab[{i}]" for i in range(7)} | {"stock", "waste", "vane"}),
    ],
)
def test_the_browser_shows_the_seed_boards(served, name: str, depots: set[str]) -> None:
    design, watcher, server = served
    version = server.version
    design.write_text((GAMES / name).read_text(encoding="utf-8"), encoding="utf-8")
    deadline = time.perf_counter() + 10
    while server.version == version and time.perf_counter() < deadline:
        time.sleep(0.02)
    dom = dump_dom(server.url)
    assert set(re.findall(r'data-depot="([^"]+)"', dom)) == depots
    frame = watcher.frame
    assert frame is not None and frame.board is not None
    for depot, pile in zip(frame.board.design.depots, frame.board.piles, strict=True):
        assert f'data-depot="{depot.name}" data-count="{len(pile)}"' in dom
    assert "<strong>Goal:</strong>" in dom and "No problems found." in dom


@needs_chromium
def test_the_browser_reloads_the_page_after_a_save(served) -> None:
    design, _, server = served
    with tempfile.TemporaryDirectory(ignore_cleanup_errors=True) as profile:  # see browser_support.dump_dom
        browser = subprocess.Popen(
            [str(CHROMIUM), *CHROMIUM_FLAGS, f"--user-data-dir={profile}", "--remote-debugging-port=0", server.url],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        try:
            first = server.version
            assert server.wait_for_served(first, 30), "the browser did not load the page"
            assert server.wait_for_clients(1, 30), "the page did not connect to the event stream"
            broken = design.read_text(encoding="utf-8").replace('"depots": [', '"depots": ', 1)
            design.write_text(broken, encoding="utf-8")
            assert server.wait_for_served(first + 1, 15), "the browser did not reload after the save"
        finally:
            browser.terminate()
            try:
                browser.wait(10)
            except subprocess.TimeoutExpired:
                browser.kill()
                browser.wait()
    dom = dump_dom(server.url)
    assert "CZ104" in dom and "last board that loaded" in dom
    assert dom.count('class="cz-pile"') == 27
