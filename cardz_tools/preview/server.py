"""Serving the preview page on 127.0.0.1 with server-sent events that reload it on every save.

The page carries its version in ``<meta name="cardz-version">``. ``/events`` sends
the current version when a browser connects and again on every
:meth:`PreviewServer.publish`; the page's script reloads when the version it was
served with is no longer the current one (so a save between loading the page and
connecting to ``/events`` is not missed).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

HOST = "127.0.0.1"
"""The preview is for the designer's own browser: it never listens beyond loopback."""
KEEPALIVE_S = 15.0
"""An idle event stream sends a comment this often, so a closed tab is noticed."""

_PLACEHOLDER = '<p>Waiting for the first check of the file…</p>'


class ServeError(RuntimeError):
    """The preview cannot listen on the port asked for."""


class PreviewServer:
    """An HTTP server in a background thread: ``/`` is the page, ``/events`` the reload stream."""

    def __init__(self, port: int = 0) -> None:
        """Listen on 127.0.0.1:``port`` (0: any free port); :meth:`start` begins serving.

        :raises ServeError: when the port cannot be used.
        """
        self._condition = threading.Condition()
        self._page = f"<!doctype html><html><head></head><body>{_PLACEHOLDER}</body></html>"
        self._version = 0
        self._closed = False
        self._clients = 0
        self._last_served = 0
        try:
            self._httpd = ThreadingHTTPServer((HOST, port), _handler_for(self))
        except OSError as exc:
            raise ServeError(f"cannot listen on {HOST}:{port}: {exc.strerror or exc}") from exc
        self._httpd.daemon_threads = True
        self._thread = threading.Thread(target=self._httpd.serve_forever, name="cardz-preview-server", daemon=True)

    @property
    def port(self) -> int:
        """The port it listens on (chosen by the system when 0 was asked for)."""
        return int(self._httpd.server_address[1])

    @property
    def url(self) -> str:
        """The page's address."""
        return f"http://{HOST}:{self.port}/"

    @property
    def version(self) -> int:
        """How many pages have been published."""
        with self._condition:
            return self._version

    @property
    def clients(self) -> int:
        """Browsers connected to the reload stream right now."""
        with self._condition:
            return self._clients

    def start(self) -> PreviewServer:
        """Start serving in the background; returns self."""
        self._thread.start()
        return self

    def publish(self, page: str) -> int:
        """Serve ``page`` from now on and tell every connected browser to reload; returns its version."""
        with self._condition:
            self._version += 1
            self._page = page
            self._condition.notify_all()
            return self._version

    @property
    def last_served_version(self) -> int:
        """The version of the page most recently sent to a browser (0: none yet)."""
        with self._condition:
            return self._last_served

    def wait_for_served(self, version: int, timeout: float) -> bool:
        """Block until a browser has fetched the page of ``version`` or a newer one."""
        with self._condition:
            return self._condition.wait_for(lambda: self._last_served >= version, timeout)

    def wait_for_clients(self, count: int, timeout: float) -> bool:
        """Block until ``count`` browsers listen to the reload stream (for tests and scripts)."""
        with self._condition:
            return self._condition.wait_for(lambda: self._clients >= count, timeout)

    def close(self) -> None:
        """End every event stream and stop the server."""
        with self._condition:
            self._closed = True
            self._condition.notify_all()
        if self._thread.is_alive():
            self._httpd.shutdown()
        self._httpd.server_close()

    def __enter__(self) -> PreviewServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- used by the request handler

    def _serve_page(self) -> tuple[int, str]:
        with self._condition:
            self._last_served = self._version
            self._condition.notify_all()
            return self._version, self._page

    def _stream(self, send: Callable[[str], None]) -> None:
        """Send the version now and after every publish until the server closes or the browser goes."""
        with self._condition:
            self._clients += 1
            self._condition.notify_all()
        sent = -1
        try:
            while True:
                with self._condition:
                    if not self._closed and sent == self._version:
                        self._condition.wait(KEEPALIVE_S)
                    if self._closed:
                        return
                    current = self._version
                if current != sent:  # written outside the lock: a slow browser never delays a publish
                    sent = current
                    send(f"retry: 500\ndata: {sent}\n\n")
                else:
                    send(": keepalive\n\n")
        finally:
            with self._condition:
                self._clients -= 1
                self._condition.notify_all()


def _is_local_host(host: str, port: int) -> bool:
    """Whether a request's Host header names this machine's loopback server."""
    return host in (f"{HOST}:{port}", f"localhost:{port}", HOST, "localhost")


def _with_version(page: str, version: int) -> str:
    meta = f'<meta name="cardz-version" content="{version}">'
    head = page.find("<head>")
    if head < 0:
        return meta + page
    cut = head + len("<head>")
    return page[:cut] + meta + page[cut:]


def _handler_for(server: PreviewServer) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def do_GET(self) -> None:  # noqa: N802 (the http.server naming)
            path = self.path.split("?", 1)[0]
            if not _is_local_host(self.headers.get("Host", ""), server.port):
                # a page elsewhere that rebinds its name to 127.0.0.1 must not read the preview
                self._send_body(b"forbidden\n", "text/plain; charset=utf-8", HTTPStatus.FORBIDDEN)
            elif path in ("/", "/index.html"):
                version, page = server._serve_page()
                self._send_body(_with_version(page, version).encode("utf-8"), "text/html; charset=utf-8")
            elif path == "/events":
                self._events()
            else:
                self._send_body(b"not found\n", "text/plain; charset=utf-8", HTTPStatus.NOT_FOUND)

        def _send_body(self, body: bytes, content_type: str, status: HTTPStatus = HTTPStatus.OK) -> None:
            self.send_response(status)
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(body)))
            self.send_header("Cache-Control", "no-store")
            self.end_headers()
            self.wfile.write(body)

        def _events(self) -> None:
            self.send_response(HTTPStatus.OK)
            self.send_header("Content-Type", "text/event-stream")
            self.send_header("Cache-Control", "no-store")
            self.send_header("Connection", "close")
            self.end_headers()
            self.close_connection = True

            def send(text: str) -> None:
                self.wfile.write(text.encode("utf-8"))
                self.wfile.flush()

            try:
                server._stream(send)
            except (BrokenPipeError, ConnectionResetError):
                pass  # the tab was closed or reloaded

        def log_message(self, format: str, *args: object) -> None:  # noqa: A002 (overrides the stdlib name)
            pass  # the terminal belongs to the live screen

    return Handler
