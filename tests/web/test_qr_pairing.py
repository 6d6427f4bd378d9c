"""Pairing by the QR code on the box's screen: the scanned address pairs one phone, once."""
from __future__ import annotations

from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion.game.pairing import Pairing
from hardware.box import Box
from hardware.display import get_display
from hardware.status import BootStatus
from tests.hardware.qrread import decode
from web.auth import PIN_COOKIE

from .conftest import PIN, write

ORIGIN = "http://127.0.0.1:8000"


def tokens(app: Flask) -> Pairing:
    return app.extensions["companion"].pairing.tokens


def scanned_url(app: Flask, table: Any) -> str:
    """Show the status on an emulated OLED wired to this app's tokens and read its QR code back."""
    display = get_display({"driver": "dummy"})
    box = Box(table, display, pairing=tokens(app), schedule=lambda delay, fn: None)
    box.show_status(BootStatus("127.0.0.1:8000", PIN))
    box.close()
    return decode(display.image)


def hint(client: FlaskClient) -> int:
    """A hint from the page the phone opened (at the address the code named)."""
    return client.post("/api/actions", json={"type": "hint"}, headers={"Origin": ORIGIN},
                       base_url=ORIGIN).status_code


def test_a_phone_that_scans_the_code_is_paired_and_can_act(app: Flask, game: FlaskClient, table: Any) -> None:
    url = scanned_url(app, table)
    assert url.startswith("http://127.0.0.1:8000/pair/")
    phone = app.test_client()
    assert hint(phone) == 401
    r = phone.get(url, follow_redirects=True)
    assert r.status_code == 200 and r.request.path == "/"
    cookie = phone.get_cookie(PIN_COOKIE, domain="127.0.0.1")
    assert cookie is not None and cookie.http_only and cookie.same_site == "Strict"
    assert hint(phone) == 200
    assert table.state.hints == 7


def test_the_same_code_a_second_time_is_refused(app: Flask, game: FlaskClient, table: Any) -> None:
    url = scanned_url(app, table)
    assert app.test_client().get(url).status_code == 303
    second = app.test_client()
    r = second.get(url)
    assert r.status_code == 403 and b"already used" in r.data and b'name="pin"' in r.data
    assert second.get_cookie(PIN_COOKIE, domain="127.0.0.1") is None
    assert hint(second) == 401


def test_a_stale_code_is_refused(app: Flask, table: Any) -> None:
    now = 0.0
    keeper = Pairing(ttl=300, clock=lambda: now)
    app.extensions["companion"].pairing.tokens = keeper
    token = keeper.issue()
    now = 300.0
    r = app.test_client().get(f"/pair/{token}", base_url=ORIGIN)
    assert r.status_code == 403 and b"too old" in r.data


@pytest.mark.parametrize("lang,words", [("pl", "już użyty"), ("de", "schon benutzt"), ("cs", "už byl použit")])
def test_the_refusal_speaks_the_page_language(app: Flask, lang: str, words: str) -> None:
    token = tokens(app).issue()
    assert tokens(app).redeem(token)
    r = app.test_client().get(f"/pair/{token}?lang={lang}", base_url=ORIGIN)
    assert r.status_code == 403 and words in r.data.decode()


def test_guessed_codes_count_as_wrong_pins(app: Flask, client: FlaskClient) -> None:
    for n in range(10):
        assert client.get(f"/pair/guess{n}").status_code == 403
    token = tokens(app).issue()
    assert client.get(f"/pair/{token}").status_code == 429  # even a good code waits, like a good PIN
    assert client.post("/pin", data={"pin": PIN}, headers={"Origin": "http://localhost"}).status_code == 429
    assert tokens(app).redeem(token)  # the throttled request did not spend it


def test_a_code_sent_to_another_host_is_refused(app: Flask) -> None:
    token = tokens(app).issue()
    phone = app.test_client()
    r = phone.get(f"/pair/{token}", base_url="http://evil.example")
    assert r.status_code == 403 and b"own address" in r.data
    assert phone.get_cookie(PIN_COOKIE, domain="evil.example") is None
    assert tokens(app).redeem(token)


def test_the_pin_still_pairs(app: Flask, game: FlaskClient) -> None:
    tokens(app).issue()
    assert write(game, "/api/actions", {"type": "hint"}).status_code == 200


def test_the_app_shares_the_tokens_it_is_given(table: Any, store: Any) -> None:
    from web import close_app, create_app
    keeper = Pairing()
    app = create_app(table, store, pin=PIN, pairing=keeper)
    try:
        token = keeper.issue()
        assert app.test_client().get(f"/pair/{token}").status_code == 303
        assert not keeper.redeem(token)
    finally:
        close_app(app)


def test_the_companion_shares_one_keeper_between_its_screen_and_its_page(tmp_path: Any, monkeypatch: Any) -> None:
    from companion.app.config import parse_config
    from companion.app.wiring import Companion, RunOptions
    monkeypatch.setattr("hardware.status.local_address", lambda port: "127.0.0.1:8000")
    box = Companion(parse_config({"display": {"driver": "dummy"}}), RunOptions("127.0.0.1", 0, "1357", str(tmp_path)),
                    use_buttons=False)
    try:
        box._show_status()
        url = decode(box.display.image)
        phone = box.app.test_client()
        assert phone.get(url).status_code == 303
        fresh = decode(box.display.image)   # the screen already shows the next phone's code
        assert fresh != url and fresh.startswith("http://127.0.0.1:8000/pair/")
        assert hint(phone) == 200
        assert box.app.test_client().get(url).status_code == 403
    finally:
        box.close()


def test_a_phone_paired_already_leaves_the_code_to_the_next(app: Flask, game: FlaskClient) -> None:
    token = tokens(app).issue()
    assert game.post("/pin", data={"pin": PIN}, headers={"Origin": "http://localhost"}).status_code == 303
    r = game.get(f"/pair/{token}")
    assert r.status_code == 303 and r.headers["Location"] == "/"
    assert tokens(app).redeem(token)
