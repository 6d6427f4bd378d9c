"""Pairing PIN, its cookie, cross-site refusal and the safety headers."""
from __future__ import annotations

import http.client
import json
import logging
import os
import re
import socket
import threading
import time
from typing import Any

import pytest
from flask.testing import FlaskClient
from hypothesis import given
from hypothesis import strategies as st

from companion.app.config import Config
from companion.app.wiring import Companion, RunOptions, random_pin
from tests.conftest import ROOT
from tests.robustness.boxproc import free_port
from web import create_app
from web.auth import PIN_COOKIE, Limits, Refused, Throttle
from web.pages import safe_next

from .conftest import PIN, LiveServer, write

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
    assert re.fullmatch("[0-9a-f]{64}", cookie.value)  # an HMAC-SHA256 stands for the PIN, not the PIN itself
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
    csp = h["Content-Security-Policy"]
    assert "script-src 'self'" in csp and "frame-ancestors 'none'" in csp
    assert h["X-Content-Type-Options"] == "nosniff" and h["X-Frame-Options"] == "DENY"
    assert h["Referrer-Policy"] == "same-origin"


def test_create_app_refuses_an_empty_pin_or_unknown_language(table: Any) -> None:
    from web import create_app
    with pytest.raises(ValueError, match="PIN"):
        create_app(table, pin=" ")
    with pytest.raises(ValueError, match="lang"):
        create_app(table, lang="fr")


# -- guessing the PIN ---------------------------------------------------------------------------

class Clock:
    """A monotonic clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def wrong(t: Throttle, who: str) -> int:
    """One wrong guess from ``who``: 403 if it was evaluated, 429 if it was refused unheard."""
    try:
        assert t.attempt(who, lambda: False) is False
        return 403
    except Refused as e:
        assert e.status == 429 and e.code == "throttled" and e.retry_after and e.retry_after > 0
        return 429


def test_throttle_forgets_after_the_window() -> None:
    clock = Clock()
    t = Throttle(Limits(per_address=2, window=60), clock)
    assert [wrong(t, "a") for _ in range(3)] == [403, 403, 429]
    assert wrong(t, "b") == 403  # another address still guesses
    clock.now += 59
    assert wrong(t, "a") == 429
    clock.now += 1.5
    assert wrong(t, "a") == 403


def test_right_pin_is_not_counted_and_is_refused_while_locked_out() -> None:
    t = Throttle(Limits(per_address=2))
    assert t.attempt("a", lambda: True) and t.addresses == 0  # no entry for a right PIN
    wrong(t, "a"), wrong(t, "a")
    with pytest.raises(Refused):
        t.attempt("a", lambda: True)


def test_global_budget_locks_every_address_with_a_doubling_backoff() -> None:
    clock = Clock()
    limits = Limits(per_address=10, window=60, budget=20, budget_window=600, backoff=60, max_backoff=200)
    t = Throttle(limits, clock)
    # 20 wrong PINs from 20 addresses: each address is far below its own limit
    assert [wrong(t, f"10.0.0.{i}") for i in range(20)] == [403] * 20
    assert wrong(t, "10.0.1.1") == 429  # a fresh address too: the box's budget is spent
    with pytest.raises(Refused, match="paused for 1 minute"):
        t.attempt("10.0.1.2", lambda: True)
    clock.now += 61
    assert [wrong(t, f"10.0.2.{i}") for i in range(20)] == [403] * 20
    clock.now += 61
    assert wrong(t, "10.0.3.1") == 429  # the second lock-out lasts twice as long
    clock.now += 60
    assert [wrong(t, f"10.0.4.{i}") for i in range(20)] == [403] * 20
    clock.now += 199
    assert wrong(t, "10.0.5.1") == 429  # capped at max_backoff (200 s), not 240
    clock.now += 2
    assert wrong(t, "10.0.5.1") == 403
    clock.now += 601  # a quiet spell: the backoff starts again from one minute
    assert [wrong(t, f"10.0.6.{i}") for i in range(19)] == [403] * 19
    clock.now += 61
    assert t.attempt("10.0.7.1", lambda: True)


def test_address_table_stays_bounded() -> None:
    clock = Clock()
    t = Throttle(Limits(per_address=3, budget=10**9, addresses=50), clock)
    for i in range(5000):
        wrong(t, f"fd00::{i:x}")
        clock.now += 0.001
    assert t.addresses == 50
    clock.now += 61
    wrong(t, "10.0.0.1")
    assert t.addresses == 1  # addresses whose wrong PINs are older than the window are forgotten


@given(st.lists(st.tuples(st.integers(0, 5), st.floats(0, 30)), max_size=200))
def test_no_address_is_evaluated_more_than_the_limit_per_window(guesses: list[tuple[int, float]]) -> None:
    clock = Clock()
    limits = Limits(per_address=4, window=60, budget=12, budget_window=600, backoff=60)
    t = Throttle(limits, clock)
    heard: dict[int, list[float]] = {}
    everyone: list[float] = []
    for who, dt in guesses:
        clock.now += dt
        if wrong(t, str(who)) == 403:
            heard.setdefault(who, []).append(clock.now)
            everyone.append(clock.now)
    for times in heard.values():
        for i, start in enumerate(times):
            assert sum(1 for x in times[i:] if x - start < 60) <= 4
    for i, start in enumerate(everyone):
        assert sum(1 for x in everyone[i:] if x - start < 60) <= 12


@pytest.mark.parametrize("guessers", [32, 64])
def test_concurrent_wrong_guesses_are_evaluated_at_most_ten_times(table: Any, store: Any, guessers: int) -> None:
    """A loaded Pi checks a PIN slowly; guesses racing each other must still meet the limit."""
    app = create_app(table, store, pin=PIN)
    pairing = app.extensions["companion"].pairing
    evaluated = []
    real_check = pairing.pin_ok

    def slow_check(candidate: str) -> bool:
        evaluated.append(candidate)
        time.sleep(0.005)
        return real_check(candidate)

    pairing.pin_ok = slow_check
    server = LiveServer(app)
    start = threading.Barrier(guessers)
    codes: list[int] = []

    def guess(i: int) -> None:
        conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
        start.wait()
        conn.request("POST", "/api/actions", body=json.dumps({"type": "hint"}),
                     headers={"Content-Type": "application/json", "X-Table-PIN": f"{i:06d}"})
        codes.append(conn.getresponse().status)
        conn.close()

    try:
        threads = [threading.Thread(target=guess, args=(i,)) for i in range(guessers)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(30)
    finally:
        server.stop()
    assert len(codes) == guessers
    assert len(evaluated) <= 10 and codes.count(403) == len(evaluated)
    assert codes.count(429) == guessers - len(evaluated)
    print(f"{guessers} concurrent wrong guesses: {len(evaluated)} evaluated, {codes.count(429)} refused unheard")


def test_throttled_answer_says_when_to_retry(game: FlaskClient) -> None:
    for _ in range(10):
        write(game, "/api/actions", {"type": "hint"}, **{"X-Table-PIN": "999999"})
    r = write(game, "/api/actions", {"type": "hint"})
    assert r.status_code == 429 and 1 <= int(r.headers["Retry-After"]) <= 60


# -- the box's own names (DNS rebinding) ------------------------------------------------------------

@pytest.mark.parametrize("host", ["attacker.example", "attacker.example:8000", "192.0.2.7", "0.0.0.0:8000",
                                  "raspberrypi.evil.example", "localhost.attacker.example", "[2001:db8::1]"])
def test_a_request_to_another_host_cannot_write_even_with_the_right_pin(game: FlaskClient, host: str) -> None:
    before = state(game)
    for path, body in (("/api/actions", {"type": "hint"}), ("/api/games", {"players": 2})):
        r = game.post(path, json=body, headers={"X-Table-PIN": PIN, "Host": host})
        assert r.status_code == 403 and "own address" in r.json["error"], (host, r.json)
    r = game.post("/pin", data={"pin": PIN}, headers={"Host": host, "Origin": f"http://{host}"})
    assert r.status_code == 403 and game.get_cookie(PIN_COOKIE) is None
    assert state(game) == before


def test_a_rebound_page_with_the_cookie_cannot_write(game: FlaskClient) -> None:
    pair(game)
    before = state(game)
    r = game.post("/api/actions", json={"type": "hint"},
                  headers={"Host": "attacker.example:8000", "Origin": "http://attacker.example:8000"})
    assert r.status_code == 403 and "own address" in r.json["error"]
    assert state(game) == before


@pytest.mark.parametrize("host", ["localhost", "localhost:8000", "127.0.0.1:8000", "[::1]:8000",
                                  f"{socket.gethostname()}.local", f"{socket.gethostname().upper()}.LOCAL.:8000",
                                  socket.gethostname()])
def test_the_box_takes_writes_at_its_own_names(game: FlaskClient, host: str) -> None:
    r = game.post("/api/actions", json={"type": "hint"}, headers={"X-Table-PIN": PIN, "Host": host})
    assert r.status_code == 200, r.json


def test_the_box_takes_writes_at_its_own_lan_address(game: FlaskClient) -> None:
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        s.connect(("192.0.2.1", 9))  # no packet is sent: this only picks the outgoing interface
        own = s.getsockname()[0]
    r = game.post("/api/actions", json={"type": "hint"}, headers={"X-Table-PIN": PIN, "Host": f"{own}:8000"})
    assert r.status_code == 200, (own, r.json)


def test_names_added_by_the_owner_are_accepted(table: Any, store: Any) -> None:
    client = create_app(table, store, pin=PIN, hosts=("table.fritz.box",)).test_client()
    assert write(client, "/api/games", {"players": 2}, Host="TABLE.fritz.box:8000").status_code == 201
    assert write(client, "/api/actions", {"type": "hint"}, Host="other.fritz.box").status_code == 403


# -- where the PIN is not -----------------------------------------------------------------------------

def test_the_default_pin_is_six_random_digits() -> None:
    pins = {random_pin() for _ in range(200)}
    assert all(len(p) == 6 and p.isdigit() for p in pins) and len(pins) > 190


def test_the_log_never_holds_the_pin(caplog: Any, tmp_path: Any) -> None:
    """The PIN is on the OLED; the journal is readable by more people than the table."""
    caplog.set_level(logging.DEBUG)
    box = Companion(Config(), RunOptions(host="127.0.0.1", port=free_port(), data=str(tmp_path)))
    try:
        box.start()
        assert write(box.app.test_client(), "/api/actions", {"type": "hint"},
                     **{"X-Table-PIN": box.pin}).status_code == 200
    finally:
        box.close()
    assert len(box.pin) == 6
    assert "table page on" in caplog.text and "PIN is set" in caplog.text
    assert box.pin not in caplog.text


def test_the_unit_does_not_put_a_pin_on_the_command_line() -> None:
    """``ps`` shows every process's arguments to every user: the PIN comes from the config file."""
    unit = open(os.path.join(ROOT, "systemd", "hanabi-companion.service")).read()
    exec_start = [line for line in unit.splitlines() if line.startswith("ExecStart=")]
    assert len(exec_start) == 1 and "--config" in exec_start[0] and "--pin" not in exec_start[0]
