"""Fixtures for the table page: an app over a fresh table and store, a real server thread, and the
Chromium (Debian's, driven by Playwright) the browser tests share."""
from __future__ import annotations

import os
import threading
from collections.abc import Iterator
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion.game.store import Store
from companion.game.table import Table
from web import close_app, create_app, make_server

PIN = "2468"
CHROMIUM = "/usr/bin/chromium"  # Debian's package: Playwright's own browsers cannot be downloaded here
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}
TIMEOUT_MS = 10_000  # generous: the whole suite may be running on two busy cores
ARTIFACTS = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "artifacts")


@pytest.fixture
def store(tmp_path: Any) -> Iterator[Store]:
    s = Store(str(tmp_path / "games.sqlite"))
    yield s
    s.close()


@pytest.fixture
def table(store: Store) -> Table:
    return Table(store)


@pytest.fixture
def app(table: Table, store: Store) -> Iterator[Flask]:
    a = create_app(table, store, pin=PIN)
    yield a
    close_app(a)


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


def write(client: FlaskClient, path: str, body: Any, **headers: str) -> Any:
    """POST JSON with the PIN (unless headers say otherwise)."""
    h = {"X-Table-PIN": PIN, **headers}
    return client.post(path, json=body, headers={k: v for k, v in h.items() if v is not None})


@pytest.fixture
def game(client: FlaskClient) -> FlaskClient:
    """A client with a 3-player base game started."""
    r = write(client, "/api/games", {"players": ["Ann", "Ben", "Cat"], "variant": "base"})
    assert r.status_code == 201, r.json
    return client


class LiveServer:
    """The app under waitress in a thread, as the box runs it."""

    def __init__(self, app: Flask, port: int = 0):
        self.app = app
        self.server = make_server(app, "127.0.0.1", port)
        self.port = self.server.port
        self.url = f"http://127.0.0.1:{self.port}"
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.thread.start()

    def stop(self) -> None:
        self.server.close()
        self.thread.join(timeout=5)
        assert not self.thread.is_alive(), "the server did not stop"


@pytest.fixture
def live(table: Table, store: Store) -> Iterator[LiveServer]:
    server = LiveServer(create_app(table, store, pin=PIN))
    yield server
    server.stop()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """One headless Chromium per test module (Playwright is imported only by the tests that use it)."""
    from playwright.sync_api import expect, sync_playwright

    expect.set_options(timeout=TIMEOUT_MS)
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        yield b
        b.close()
