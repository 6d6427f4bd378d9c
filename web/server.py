"""Running the app under waitress, tuned for live pages.

Each open page holds one Server-Sent Events stream, and waitress gives every open stream a
worker thread for as long as it is open. So the server runs ``SSE_MAX_CLIENTS`` (24) stream
threads plus ``SPARE_THREADS`` (8) for the pages and the API: 20 phones can watch while the
host still gets an answer at once. Waitress 3 sends each write at once (its ``send_bytes`` is
1), so an event leaves the box as soon as it is written; a test guards that default.
"""
from __future__ import annotations

import logging

from flask import Flask
from waitress.server import create_server

from .app import SSE_MAX_CLIENTS, close_app

SPARE_THREADS = 8
THREADS = SSE_MAX_CLIENTS + SPARE_THREADS

log = logging.getLogger(__name__)


def make_server(app: Flask, host: str = "0.0.0.0", port: int = 8000):  # type: ignore[no-untyped-def]
    """A waitress server for ``app`` (call ``.run()``; ``.close()`` from another thread stops it)."""
    return create_server(app, host=host, port=port, threads=THREADS,
                         channel_timeout=60, connection_limit=100, ident="hanabi-companion",
                         clear_untrusted_proxy_headers=True)


def serve(app: Flask, host: str = "0.0.0.0", port: int = 8000) -> None:
    """Serve until interrupted; open live pages are closed cleanly on the way out."""
    server = make_server(app, host, port)
    log.info("table page on http://%s:%d/ (%d threads)", host, port, THREADS)
    try:
        server.run()
    finally:
        close_app(app)
        server.close()
