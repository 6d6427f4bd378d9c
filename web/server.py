"""Running the app under waitress, tuned for live pages.

Each open page holds one Server-Sent Events stream, and waitress gives every open stream a
worker thread for as long as it is open. So the server runs ``SSE_MAX_CLIENTS`` (24) stream
threads plus ``SPARE_THREADS`` (8) for the pages and the API: 20 phones can watch while the
host still gets an answer at once. Waitress 3 sends each write at once (its ``send_bytes`` is
1), so an event leaves the box as soon as it is written; a test guards that default.
"""
from __future__ import annotations

import logging
import threading
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
        self.port = int(self.waitress.effective_port)  # waitress gives a str
        self._running = threading.Event()
        self._stopped = threading.Event()

    @property
    def adj(self) -> Any:
        return self.waitress.adj

    def run(self) -> None:
        """Serve until ``close()`` (or until interrupted)."""
        log.info("table page on port %d (%d threads)", self.port, THREADS)
        self._running.set()
        try:
            self.waitress.run()
        finally:
            close_app(self.app)
            self._stopped.set()

    def close(self) -> None:
        """End the live streams, let running requests finish, then close every socket."""
        close_app(self.app)
        self.waitress.task_dispatcher.shutdown(timeout=2)
        trigger = self.waitress.trigger
        if self._running.is_set() and not self._stopped.is_set():
            # Sockets belong to the loop thread: close them there. The wake-up pipe itself is
            # closed only after the loop has ended, so no thread can write to a closed pipe.
            trigger.pull_trigger(self._close_connections)
            self._stopped.wait(timeout=5)
        self._close_connections()
        trigger.close()

    def _close_connections(self) -> None:
        """Close every socket but the wake-up pipe, and take that out of the loop so it ends."""
        trigger = self.waitress.trigger
        for dispatcher in list(self._map.values()):
            if dispatcher is self.waitress:
                # the listening socket only: the server's own close() would also close the pipe
                wasyncore.dispatcher.close(dispatcher)
            elif dispatcher is not trigger:
                dispatcher.close()
        trigger.del_channel()


def make_server(app: Flask, host: str = "0.0.0.0", port: int = 8000) -> Server:
    """A server for ``app``; call ``run()`` (it blocks) and ``close()`` from another thread."""
    return Server(app, host, port)


def serve(app: Flask, host: str = "0.0.0.0", port: int = 8000) -> None:
    """Serve until interrupted; open live pages are closed cleanly on the way out."""
    make_server(app, host, port).run()
