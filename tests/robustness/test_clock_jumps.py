"""A Pi has no clock of its own: it starts with an old time and jumps when the network sets it. Moving
the wall clock back and forward by years during a game changes nothing but the dates shown."""
import json
import time

import pytest

from companion.game.store import Store, clock_was_set
from companion.game.table import Table
from tests.conftest import DATA
from web import create_app
from web.auth import PIN_HEADER

PIN = "135790"
YEAR = 365 * 24 * 3600
SET = 1_780_000_000.0  # a clock set by the network (2026)
UNSET = 1_234.0        # a Pi just booted without one (1970)


class WallClock:
    """time.time() as the test sets it; monotonic time runs on untouched."""

    def __init__(self, now: float):
        self.now = now

    def __call__(self) -> float:
        self.now += 0.5
        return self.now


def play(path, wall, monkeypatch, jumps):
    """Start a game and play recorded actions through the page; ``jumps`` moves the clock after action i."""
    actions = [json.loads(line)["log"]["actions"] for line in open(f"{DATA}/ah2ac2-3p.jsonl")][0][:45]
    monkeypatch.setattr(time, "time", wall)
    store = Store(str(path))
    table = Table(store)
    client = create_app(table, store, pin=PIN).test_client()
    pin = {PIN_HEADER: PIN}
    assert client.post("/api/games", json={"players": ["A", "B", "C"]}, headers=pin).status_code == 201
    states = []
    for i, action in enumerate(actions):
        if i in jumps:
            wall.now = jumps[i]
        assert client.post("/api/actions", json=action, headers=pin).status_code == 200
        if i % 7 == 3:  # an undo and the action again: events keep their order whatever the clock says
            assert client.post("/api/actions", json={"type": "undo"}, headers=pin).status_code == 200
            assert client.post("/api/actions", json=action, headers=pin).status_code == 200
        states.append({k: v for k, v in client.get("/api/state").json.items()})
    history = client.get("/history").get_data(as_text=True)
    games = client.get("/api/games").json["games"]
    store.close()
    restored = Table(Store(str(path))).snapshot()
    return states, history, games, restored


def test_clock_jumps_during_a_game_change_only_the_dates(tmp_path, monkeypatch):
    steady = play(tmp_path / "steady.db", WallClock(SET), monkeypatch, {})
    jumpy = play(tmp_path / "jumpy.db", WallClock(UNSET), monkeypatch,
                 {10: SET, 20: SET - 12 * YEAR, 30: SET + 30 * YEAR, 40: UNSET})
    assert jumpy[0] == steady[0]  # every state along the way
    assert jumpy[3] == steady[3]  # the game restored from the store
    keep = ("id", "players", "variant", "actions", "score", "max_score", "outcome")
    assert [{k: g[k] for k in keep} for g in jumpy[2]] == [{k: g[k] for k in keep} for g in steady[2]]
    # started with the clock unset: its date is unknown, not 1970
    assert jumpy[2][0]["date_known"] is False and steady[2][0]["date_known"] is True
    assert "date unknown" in jumpy[1] and "1970" not in jumpy[1]
    assert "date unknown" not in steady[1] and "1970" not in steady[1]


def test_the_latest_game_is_the_last_started_even_if_the_clock_went_back(tmp_path, monkeypatch):
    wall = WallClock(SET + 10 * YEAR)
    monkeypatch.setattr(time, "time", wall)
    store = Store(str(tmp_path / "t.db"))
    table = Table(store)
    table.new_game(["Early", "Clock"])
    wall.now = SET - 5 * YEAR
    table.new_game(["Later", "Game"])
    table.act({"type": "hint"})
    store.close()
    again = Table(Store(str(tmp_path / "t.db")))
    assert again.players == ("Later", "Game") and len(again.actions) == 1


def test_pin_lock_out_follows_the_monotonic_clock_not_the_wall_clock(tmp_path, monkeypatch):
    wall = WallClock(SET)
    monkeypatch.setattr(time, "time", wall)
    store = Store(str(tmp_path / "t.db"))
    table = Table(store)
    client = create_app(table, store, pin=PIN).test_client()
    for _ in range(10):
        client.post("/api/games", json={"players": 2}, headers={PIN_HEADER: "000000"})
    for jump in (+20 * YEAR, -40 * YEAR):  # setting the clock neither lifts nor lengthens the lock-out
        wall.now += jump
        r = client.post("/api/games", json={"players": 2}, headers={PIN_HEADER: PIN})
        assert r.status_code == 429 and 50 <= int(r.headers["Retry-After"]) <= 60
    store.close()


@pytest.mark.parametrize("at,shown", [(UNSET, False), (1_700_000_000.0, False), (SET, True)])
def test_dates_before_the_clock_was_set_are_unknown(at, shown):
    assert clock_was_set(at) is shown
