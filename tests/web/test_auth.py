"""Pairing PIN, its cookie, cross-site refusal and the safety headers."""
from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient

from web.auth import PIN_COOKIE, Throttle
from web.pages import safe_next

from .conftest import PIN, write

HOST = "http://localhost"


def state(client: FlaskClient) -> dict[str, Any]:
    return client.get("/api/state").json


def pair(client: FlaskClient) -> None:
    r = client.post("/pin", data={"pin": PIN, "next": "/setup"}, headers={"Origin": HOST})
    assert r.status_code == 303 and r.headers["Location"] == "/setup"


@pytest.mark.parametrize("headers,status", [
    ({"X-Table-PIN": None}, 401),
    ({"X-Table-PIN": "0000"}, 403),
    ({"X-Table-PIN": ""}, 403),
    ({"X-Table-PIN": PIN + "0"}, 403),
    ({"X-Table-PIN": PIN, "Origin": "http://evil.example"}, 403),
    ({"X-Table-PIN": PIN, "Referer": "http://evil.example/page"}, 403),
    ({"X-Table-PIN": PIN, "Origin": "null"}, 403),
    ({"X-Table-PIN": PIN, "Sec-Fetch-Site": "cross-site"}, 403),
])
def test_writes_without_the_right_pin_or_from_another_site(game: FlaskClient, headers: dict[str, Any],
                                                           status: int) -> None:
    before = state(game)
    for path, body in (("/api/actions", {"type": "hint"}), ("/api/games", {"players": 2})):
        r = write(game, path, body, **headers)
        assert r.status_code == status and r.json["error"], (path, r.json)
    assert state(game) == before


def test_pin_from_the_same_site_is_accepted(game: FlaskClient) -> None:
    r = write(game, "/api/actions", {"type": "hint"}, Origin=HOST)
    assert r.status_code == 200


def test_cookie_after_entering_the_pin_on_the_page(game: FlaskClient) -> None:
    pair(game)
    cookie = game.get_cookie(PIN_COOKIE)
    assert cookie is not None and cookie.http_only and cookie.same_site == "Strict"
    assert PIN not in cookie.value  # an HMAC stands for the PIN
    r = game.post("/api/actions", json={"type": "hint"}, headers={"Origin": HOST})
    assert r.status_code == 200


def test_cookie_alone_from_another_site_is_refused(game: FlaskClient) -> None:
    pair(game)
    before = state(game)
    r = game.post("/api/actions", json={"type": "hint"}, headers={"Origin": "http://evil.example"})
    assert r.status_code == 403 and "cross-site" in r.json["error"]
    r = game.post("/api/actions", json={"type": "hint"})  # no Origin, no Referer: not provably ours
    assert r.status_code == 403 and "own pages" in r.json["error"]
    assert state(game) == before


def test_forged_cookie_is_not_a_pin(game: FlaskClient) -> None:
    game.set_cookie(PIN_COOKIE, PIN)
    before = state(game)
    r = game.post("/api/actions", json={"type": "hint"}, headers={"Origin": HOST})
    assert r.status_code == 401
    assert state(game) == before


def test_pin_form_refuses_wrong_pin_and_cross_site_posts(client: FlaskClient) -> None:
    r = client.post("/pin", data={"pin": "0000"}, headers={"Origin": HOST})
    assert r.status_code == 403 and b"Wrong PIN" in r.data and client.get_cookie(PIN_COOKIE) is None
    r = client.post("/pin", data={"pin": PIN}, headers={"Origin": "http://evil.example"})
    assert r.status_code == 403 and client.get_cookie(PIN_COOKIE) is None


def test_wrong_pins_are_throttled(game: FlaskClient) -> None:
    for _ in range(10):
        assert write(game, "/api/actions", {"type": "hint"}, **{"X-Table-PIN": "9999"}).status_code == 403
    r = write(game, "/api/actions", {"type": "hint"})
    assert r.status_code == 429 and "wait" in r.json["error"]
    r = game.post("/pin", data={"pin": PIN}, headers={"Origin": HOST})
    assert r.status_code == 429


def test_throttle_forgets_after_the_window() -> None:
    t = Throttle(limit=2, window=0.05)
    t.failed("a")
    t.failed("a")
    assert t.blocked("a") and not t.blocked("b")
    import time
    time.sleep(0.06)
    assert not t.blocked("a")


@pytest.mark.parametrize("value,expected", [
    ("/setup", "/setup"), (None, "/"), ("", "/"), ("https://evil.example/", "/"), ("//evil.example", "/"),
    ("/\\evil.example", "/"), ("setup", "/"),
])
def test_pin_form_redirects_only_within_the_box(value: str | None, expected: str) -> None:
    assert safe_next(value) == expected


def test_reading_needs_no_pin(game: FlaskClient) -> None:
    for path in ("/api/state", "/api/games", "/api/openapi.json", "/", "/history", "/setup"):
        assert game.get(path).status_code == 200, path


@pytest.mark.parametrize("path", ["/", "/api/state", "/history"])
def test_safety_headers(client: FlaskClient, path: str) -> None:
    h = client.get(path).headers
    assert "script-src 'self'" in h["Content-Security-Policy"] and "frame-ancestors 'none'" in h["Content-Security-Policy"]
    assert h["X-Content-Type-Options"] == "nosniff" and h["X-Frame-Options"] == "DENY"
    assert h["Referrer-Policy"] == "same-origin"


def test_create_app_refuses_an_empty_pin_or_unknown_language(table: Any) -> None:
    from web import create_app
    with pytest.raises(ValueError, match="PIN"):
        create_app(table, pin=" ")
    with pytest.raises(ValueError, match="lang"):
        create_app(table, lang="fr")
