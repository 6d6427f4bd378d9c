"""Running the app under waitress, tuned for live pages.

Each open page holds one Server-Sent Events stream, and waitress gives every open stream a
worker thread for as long as it is open. So the server runs ``SSE_MAX_CLIENTS`` (24) stream
threads plus ``SPARE_THREADS`` (8) for the pages and the API: 20 phones can watch while the
host still gets an answer at once. Waitress 3 sends each write at once (its ``send_bytes`` is
1), so an event leaves the box as soon as it is written; a test guards that default.
"""
from __future__ import annotations

import logging
from typing import Any

from flask import Flask
from waitress import wasyncore
from waitress.server import create_server

from .app import SSE_MAX_CLIENTS, close_app

SPARE_THREADS = 8
THREADS = SSE_MAX_CLIENTS + SPARE_THREADS

log = logging.getLogger(__name__)


class Server:
    """A waitress server for one app that another thread can stop cleanly (the demo, tests)."""

    def __init__(self, app: Flask, host: str = "0.0.0.0", port: int = 8000):
        self.app = app
        self._map: dict[int, Any] = {}
        self.waitress = create_server(app, map=self._map, host=host, port=port, threads=THREADS,
                                      channel_timeout=60, connection_limit=100, ident="hanabi-companion",
                                      clear_untrusted_proxy_headers=True)
        self.port: int = self.waitress.effective_port  # type: ignore[union-attr]

    @property
    def adj(self) -> Any:
        return self.waitress.adj

    def run(self) -> None:
        """Serve until ``close()`` (or until interrupted)."""
        log.info("table page on port %d (%d threads)", self.port, THREADS)
        try:
            self.waitress.run()
        finally:
            close_app(self.app)

    def close(self) -> None:
        """End the live streams, let running requests finish, then close every socket."""
        close_app(self.app)
        self.waitress.task_dispatcher.shutdown(timeout=2)
        # Sockets belong to the server's loop thread: close them there.
        self.waitress.trigger.pull_trigger(lambda: wasyncore.close_all(self._map))


def make_server(app: Flask, host: str = "0.0.0.0", port: int = 8000) -> Server:
    """A server for ``app``; call ``run()`` (it blocks) and ``close()`` from another thread."""
    return Server(app, host, port)


def serve(app: Flask, host: str = "0.0.0.0", port: int = 8000) -> None:
    """Serve until interrupted; open live pages are closed cleanly on the way out."""
    make_server(app, host, port).run()
