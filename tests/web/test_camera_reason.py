"""Why the camera is not ok: one line in the state, documented, and shown by the page."""
from __future__ import annotations

from collections.abc import Callable

import pytest

from companion.game.table import Table
from web import close_app, create_app


def state(table: Table, status: str, reason: Callable[[], str | None]) -> dict:
    app = create_app(table, camera_status=lambda: status, camera_reason=reason)
    try:
        return app.test_client().get("/api/state").json
    finally:
        close_app(app)


@pytest.mark.parametrize("status,reason,expected", [
    ("fault", "the deck profile /x.profile is missing:\n make one", "the deck profile /x.profile is missing: make one"),
    ("missing", None, None),
    ("ok", "stale words from before", None),  # a working camera needs no reason
    ("fault", "   ", None),
])
def test_the_reason_is_one_line_next_to_the_status(table, status, reason, expected):
    got = state(table, status, lambda: reason)
    assert got["camera"] == status and got["camera_reason"] == expected


def test_a_failing_reason_probe_says_nothing(table):
    def broken() -> str:
        raise RuntimeError("probe failed")
    assert state(table, "fault", broken)["camera_reason"] is None


def test_the_reason_is_documented_and_the_page_has_its_place(table):
    app = create_app(table)
    try:
        client = app.test_client()
        schema = client.get("/api/openapi.json").json["components"]["schemas"]["State"]
        page = client.get("/").get_data(as_text=True)
        script = client.get("/static/table.js").get_data(as_text=True)
    finally:
        close_app(app)
    assert schema["properties"]["camera_reason"]["nullable"] is True
    assert 'id="camera-reason"' in page and "s.camera_reason" in script


@pytest.mark.slow  # drives Chromium
def test_the_page_shows_the_reason_while_the_camera_is_in_fault(table):
    from playwright.sync_api import expect, sync_playwright

    from .conftest import CHROMIUM, CHROMIUM_ARGS, LiveServer
    reason = {"now": "the deck profile /x.profile is missing: make one with `companion teach`"}
    status = {"now": "fault"}
    server = LiveServer(create_app(table, camera_status=lambda: status["now"], camera_reason=lambda: reason["now"]))
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
            page = browser.new_page()
            page.goto(server.url + "/")
            expect(page.locator("#camera")).to_have_attribute("data-state", "fault", timeout=10_000)
            expect(page.locator("#camera-reason")).to_have_text(reason["now"])
            status["now"], reason["now"] = "ok", None  # the profile is back: the page follows by itself
            expect(page.locator("#camera-reason")).to_be_hidden(timeout=10_000)
            browser.close()
    finally:
        server.stop()
