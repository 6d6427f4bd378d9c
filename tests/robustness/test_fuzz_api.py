"""Bad input everywhere on the JSON API: random bodies, types and paths never give a 5xx, and a
refused request (4xx) leaves the table exactly as it was."""
import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.game.store import Store
from companion.game.table import Table
from web import create_app

PIN = "4321"

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-10**6, 10**6) | st.floats(allow_nan=False)
    | st.text(max_size=12) | st.sampled_from(["r1", "m5", "k1", "x9", "hint", "play", "discard", "reward",
                                             "undo", "correct", "confirm", "base", "rainbow", "r"]),
    lambda children: st.lists(children, max_size=5) | st.dictionaries(
        st.sampled_from(["type", "card", "index", "to", "clue", "announce", "tile", "as", "players",
                         "variant", "preset", "hint_tokens", "first_player", "lang"]) | st.text(max_size=6),
        children, max_size=6),
    max_leaves=12)

action_like = st.fixed_dictionaries(
    {"type": st.sampled_from(["hint", "play", "discard", "reward", "undo", "correct", "confirm", "end", "x"])},
    optional={"card": st.sampled_from(["r1", "r2", "y1", "m1", "k5", "x9", "", "R1", 3]),
              "index": st.integers(-3, 50) | st.text(max_size=3),
              "to": st.integers(-2, 6), "clue": st.sampled_from(["r", "m", "k", "3", "9", 5]),
              "announce": st.sampled_from(["r", "m", "k", "z"]), "tile": st.sampled_from(["hint", "rescue", "zz"])})

bodies = st.one_of(json_values, action_like)
ROUTES = ["/api/actions", "/api/games", "/api/buttons/hint", "/api/buttons/zz", "/api/state", "/api/games/1/log"]


@pytest.fixture(scope="module")
def box(tmp_path_factory):
    store = Store(str(tmp_path_factory.mktemp("fuzz") / "table.db"))
    table = Table(store)
    table.new_game(["Ann", "Ben", "Cat"], "base")
    return table, create_app(table, store, pin=PIN).test_client()


def view(table):
    snap = table.snapshot()
    snap.pop("last_event", None)
    return snap, len(table.store.games())


class Counter:
    cases = 0
    server_errors = 0


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(route=st.sampled_from(ROUTES), body=bodies, raw=st.booleans(), with_pin=st.booleans(),
       method=st.sampled_from(["POST", "POST", "GET", "PUT", "DELETE"]))
def test_no_5xx_and_refusals_change_nothing(box, route, body, raw, with_pin, method):
    table, client = box
    before = view(table)
    headers = {"X-Table-PIN": PIN} if with_pin else {}
    data = json.dumps(body)[:-1] if raw else json.dumps(body)  # raw: broken JSON
    r = client.open(route, method=method, data=data, headers=headers, content_type="application/json")
    Counter.cases += 1
    if r.status_code >= 500:
        Counter.server_errors += 1
    assert r.status_code < 500, (route, body, r.get_data(as_text=True))
    if r.status_code >= 400:
        assert view(table) == before
        if r.is_json and r.status_code != 405:
            assert r.get_json().get("error")


def test_summary_of_the_fuzzing():
    # runs after the fuzz test in the same file (pytest keeps file order)
    assert Counter.cases >= 400 and Counter.server_errors == 0
