"""Only the people at the table change the game, and a child spamming the buttons breaks nothing."""
import random
import socket
import threading
import time

import pytest
from gpiozero.pins.mock import MockFactory

from companion.game.rules import fold
from companion.game.table import Table
from hardware.box import Box
from hardware.buttons import Buttons
from hardware.display import get_display
from web import create_app

from .boxproc import BoxProcess

PIN = "2468"


@pytest.fixture
def table():
    t = Table()
    t.new_game(["Ann", "Ben"], "base")
    return t


def test_every_mutating_route_needs_the_pin(table):
    app = create_app(table, pin=PIN)
    client = app.test_client()
    routes = [(rule.rule, m) for rule in app.url_map.iter_rules() for m in rule.methods - {"GET", "HEAD", "OPTIONS"}
              if not rule.rule.startswith("/static")]
    assert {r for r, _ in routes} >= {"/api/actions", "/api/games", "/api/buttons/<name>"}
    before = table.snapshot()
    for rule, method in routes:
        path = rule.replace("<name>", "hint").replace("<int:game_id>", "1")
        if path == "/pin":
            continue  # entering the PIN is how pairing starts
        for headers in ({}, {"X-Table-PIN": "0000"}):
            r = client.open(path, method=method, json={"type": "hint", "players": 2}, headers=headers)
            assert r.status_code in (400, 401, 403, 405), (path, method, r.status_code)
    assert table.snapshot() == before


def test_button_storm_of_1000_presses_in_a_second(table):
    factory = MockFactory()
    display = get_display({"driver": "dummy"})
    buttons = Buttons(pin_factory=factory, settle=0.005, poll_interval=0.001)
    box = Box(table, display, buttons)
    rng = random.Random(5)
    pins = [17, 27, 22]
    t0 = time.monotonic()
    for _ in range(1000):  # a child hammering all three buttons
        pin = factory.pin(rng.choice(pins))
        pin.drive_low()
        pin.drive_high()
    presses_by_code = []

    def spam():
        for _ in range(250):
            presses_by_code.append(box.press(rng.choice(["hint", "undo", "ok"])).accepted)

    workers = [threading.Thread(target=spam) for _ in range(4)]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    elapsed = time.monotonic() - t0
    time.sleep(0.05)
    buttons.close()
    box.close()
    assert len(presses_by_code) == 1000 and elapsed < 5
    state = table.state
    assert 0 <= state.hints <= 8
    assert state == fold(table.variant, 2, table.actions)  # the table is still exactly its log


def listening(port):
    """Addresses listening on ``port`` (from the kernel's socket table)."""
    out = []
    with open("/proc/net/tcp") as f:
        for line in f.readlines()[1:]:
            local, state = line.split()[1], line.split()[3]
            addr, p = local.split(":")
            if int(p, 16) == port and state == "0A":
                out.append(socket.inet_ntoa(bytes.fromhex(addr)[::-1]))
    return out


@pytest.mark.slow  # starts the box as a process
def test_the_page_binds_where_it_is_told(tmp_path):
    box = BoxProcess(str(tmp_path))  # --host 127.0.0.1
    box.start()
    try:
        assert listening(box.port) == ["127.0.0.1"]
    finally:
        box.stop()
