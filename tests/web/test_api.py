"""The JSON API against the HTTP contract: every write is checked, refused writes change nothing."""
from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient

from companion.game.table import Table

from .conftest import PIN, write


def state(client: FlaskClient) -> dict[str, Any]:
    r = client.get("/api/state")
    assert r.status_code == 200
    return r.json


def test_state_without_a_game_says_so(client: FlaskClient) -> None:
    st = state(client)
    assert st["outcome"] == "no_game" and st["actions"] == 0 and st["camera"] == "missing"


def test_new_game_and_replay_fields(game: FlaskClient) -> None:
    st = state(game)
    for key in ("score", "max_score", "reachable_score", "hints", "hint_tokens", "fuses_used", "fuse_tokens",
                "deck", "fireworks", "discards", "turn", "current_player", "final_turns_left", "over",
                "outcome", "reason", "rating", "players", "variant", "actions", "last_event", "camera",
                "pending"):
        assert key in st, key
    assert st["players"] == ["Ann", "Ben", "Cat"] and st["hints"] == 8 and st["deck"] == 35
    assert st["fireworks"] == {"r": 0, "y": 0, "g": 0, "b": 0, "w": 0}


def test_actions_change_the_table(game: FlaskClient) -> None:
    r = write(game, "/api/actions", {"type": "hint"})
    assert r.status_code == 200 and r.json["change"]["kind"] == "hint"
    r = write(game, "/api/actions", {"type": "play", "card": " R1 "})
    assert r.status_code == 200
    st = state(game)
    assert st["hints"] == 7 and st["fireworks"]["r"] == 1 and st["actions"] == 2
    assert st["log"] == [{"type": "hint"}, {"type": "play", "card": "r1"}]  # the card is normalised


def test_undo_correct_confirm_and_end(game: FlaskClient, table: Table) -> None:
    write(game, "/api/actions", {"type": "hint"})
    write(game, "/api/actions", {"type": "discard", "card": "b4"})
    assert write(game, "/api/actions", {"type": "correct", "index": 1, "card": "g4"}).status_code == 200
    assert state(game)["discards"] == ["g4"]
    assert write(game, "/api/actions", {"type": "undo"}).status_code == 200
    assert state(game)["actions"] == 1
    table.propose({"type": "play", "card": "y1"}, 0.4, ["y1", "w1"])
    assert state(game)["pending"]["card"] == "y1"
    assert write(game, "/api/actions", {"type": "confirm", "card": "w1"}).status_code == 200
    st = state(game)
    assert st["pending"] is None and st["fireworks"]["w"] == 1
    assert write(game, "/api/actions", {"type": "end"}).status_code == 200
    st = state(game)
    assert st["over"] and st["outcome"] == "finished" and st["reason_key"] == "ended"


BAD_ACTIONS = [
    ("not an object", ["hint"], 400),
    ("a string", "hint", 400),
    ("type is a number", {"type": 7}, 400),
    ("type missing", {"card": "r1"}, 400),
    ("unknown type", {"type": "shuffle"}, 400),
    ("unknown card", {"type": "play", "card": "x9"}, 400),
    ("value out of range", {"type": "play", "card": "r6"}, 400),
    ("card is a number", {"type": "discard", "card": 31}, 400),
    ("card missing", {"type": "play"}, 400),
    ("unknown field", {"type": "hint", "colour": "r"}, 400),
    ("clue not a suit or value", {"type": "hint", "clue": "purple"}, 400),
    ("to not an index", {"type": "hint", "to": "Ben"}, 400),
    ("correct index not a number", {"type": "correct", "index": "0", "card": "r1"}, 400),
    ("correct index a bool", {"type": "correct", "index": True, "card": "r1"}, 400),
    ("correct index out of range", {"type": "correct", "index": 99, "card": "r1"}, 400),
    ("correct without card", {"type": "correct", "index": 0}, 400),
    ("correct a hint", {"type": "correct", "index": 0, "card": "r1"}, 400),
    ("discard at 8 hints", {"type": "discard", "card": "r1"}, 409),
    ("suit not in variant", {"type": "play", "card": "m1"}, 409),
    ("reward outside five magnificent", {"type": "reward", "tile": "hint"}, 409),
    ("confirm without unsure card", {"type": "confirm"}, 409),
    ("clue to oneself", {"type": "hint", "to": 2}, 409),  # player 2 is to act
]


@pytest.mark.parametrize("name,body,status", BAD_ACTIONS, ids=[b[0] for b in BAD_ACTIONS])
def test_bad_actions_are_refused_and_change_nothing(game: FlaskClient, name: str, body: Any, status: int) -> None:
    write(game, "/api/actions", {"type": "hint"})  # actions for "correct" to aim at; 8 hints again
    write(game, "/api/actions", {"type": "discard", "card": "b2"})
    before = state(game)
    r = write(game, "/api/actions", body)
    assert r.status_code == status, r.json
    assert isinstance(r.json["error"], str) and len(r.json["error"]) > 10
    assert state(game) == before


def test_raw_bodies_that_are_not_json(game: FlaskClient) -> None:
    before = state(game)
    for data, ctype in (("hint", "application/json"), ('{"type": "hint"', "application/json"),
                        ('{"type": "hint"}', "text/plain"), ("type=hint", "application/x-www-form-urlencoded")):
        r = game.post("/api/actions", data=data, content_type=ctype, headers={"X-Table-PIN": PIN})
        assert r.status_code == 400 and "JSON" in r.json["error"], (data, ctype)
    assert state(game) == before


def test_too_large_body_is_refused(game: FlaskClient) -> None:
    before = state(game)
    r = write(game, "/api/actions", {"type": "hint", "clue": "r" * 40000})
    assert r.status_code == 413 and "too large" in r.json["error"]
    assert state(game) == before


def test_illegal_action_after_the_game_is_over(game: FlaskClient) -> None:
    write(game, "/api/actions", {"type": "end"})
    before = state(game)
    r = write(game, "/api/actions", {"type": "hint"})
    assert r.status_code == 409 and "undo" in r.json["error"]
    assert write(game, "/api/actions", {"type": "end"}).status_code == 409
    assert state(game) == before


def test_undo_with_nothing_to_undo_is_409(game: FlaskClient) -> None:
    before = state(game)
    r = write(game, "/api/actions", {"type": "undo"})
    assert r.status_code == 409 and "nothing to undo" in r.json["error"]
    assert state(game) == before


def test_correction_that_makes_a_later_action_illegal(game: FlaskClient) -> None:
    for action in ({"type": "hint"}, {"type": "discard", "card": "y5"},
                   {"type": "hint"}, {"type": "discard", "card": "r5"}):
        assert write(game, "/api/actions", action).status_code == 200
    before = state(game)
    r = write(game, "/api/actions", {"type": "correct", "index": 1, "card": "r5"})
    assert r.status_code == 409 and "action 3" in r.json["error"]
    assert state(game) == before


BAD_GAMES = [
    ("not an object", ["Ann", "Ben"]),
    ("no players", {"variant": "base"}),
    ("one player", {"players": ["Ann"]}),
    ("six players", {"players": ["a", "b", "c", "d", "e", "f"]}),
    ("players a string", {"players": "Ann,Ben"}),
    ("empty name", {"players": ["Ann", "  "]}),
    ("name not a string", {"players": ["Ann", 5]}),
    ("long name", {"players": ["Ann", "B" * 40]}),
    ("unknown preset", {"players": 3, "variant": "chaos"}),
    ("unknown option", {"players": 3, "variant": {"preset": "base", "lives": 4}}),
    ("option of wrong type", {"players": 3, "variant": {"preset": "base", "hint_tokens": "9"}}),
    ("variant a number", {"players": 3, "variant": 5}),
    ("first player out of range", {"players": 3, "first_player": 3}),
    ("first player a string", {"players": 3, "first_player": "Ann"}),
    ("unknown language", {"players": 3, "lang": "fr"}),
    ("unknown field", {"players": 3, "seats": 3}),
]


@pytest.mark.parametrize("name,body", BAD_GAMES, ids=[b[0] for b in BAD_GAMES])
def test_bad_new_games_are_refused_and_change_nothing(game: FlaskClient, name: str, body: Any) -> None:
    write(game, "/api/actions", {"type": "hint"})
    before = state(game)
    r = write(game, "/api/games", body)
    assert r.status_code == 400, r.json
    assert isinstance(r.json["error"], str) and r.json["error"]
    assert state(game) == before


def test_new_game_with_options_order_and_language(client: FlaskClient) -> None:
    r = write(client, "/api/games", {"players": ["Ann", "Ben", "Cat"], "first_player": 1, "lang": "de",
                                     "variant": {"preset": "rainbow", "hint_tokens": 9}})
    assert r.status_code == 201
    st = r.json
    assert st["players"] == ["Ben", "Cat", "Ann"] and st["hint_tokens"] == 9 and "m" in st["fireworks"]
    assert st["lang"] == "de"


def test_games_history_and_log_export(game: FlaskClient) -> None:
    write(game, "/api/actions", {"type": "hint"})
    write(game, "/api/actions", {"type": "play", "card": "g1"})
    games = game.get("/api/games").json["games"]
    assert len(games) == 1 and games[0]["players"] == ["Ann", "Ben", "Cat"] and games[0]["actions"] == 2
    gid = games[0]["id"]
    log = game.get(f"/api/games/{gid}/log").json
    assert log == {"variant": "base", "players": ["Ann", "Ben", "Cat"],
                   "actions": [{"type": "hint"}, {"type": "play", "card": "g1"}]}
    r = game.get(f"/api/games/{gid}/log?download=1")
    assert "attachment" in r.headers["Content-Disposition"] and r.json == log
    r = game.get("/api/games/999/log")
    assert r.status_code == 404 and "999" in r.json["error"]


def test_unknown_endpoint_and_method_answer_json(client: FlaskClient) -> None:
    r = client.get("/api/nothing")
    assert r.status_code == 404 and "openapi" in r.json["error"]
    r = client.get("/api/actions")
    assert r.status_code == 405 and "GET" in r.json["error"]


def test_openapi_describes_every_route(app: Any, client: FlaskClient) -> None:
    spec = client.get("/api/openapi.json").json
    assert spec["openapi"].startswith("3.")
    documented = {(path, method) for path, ops in spec["paths"].items() for method in ops}
    for rule in app.url_map.iter_rules():
        if not rule.rule.startswith("/api/"):
            continue
        path = rule.rule.replace("<int:game_id>", "{id}").replace("<name>", "{name}")
        for method in rule.methods - {"HEAD", "OPTIONS"}:
            assert (path, method.lower()) in documented, (path, method)
    kinds = spec["components"]["schemas"]["Action"]["properties"]["type"]["enum"]
    assert set(kinds) == {"hint", "play", "discard", "reward", "undo", "correct", "confirm", "end"}


@pytest.mark.parametrize("status,expected", [("ok", "ok"), ("fault", "fault"), ("banana", "fault")])
def test_camera_status_is_reported(table: Table, status: str, expected: str) -> None:
    from web import close_app, create_app
    app = create_app(table, camera_status=lambda: status)
    try:
        assert app.test_client().get("/api/state").json["camera"] == expected
    finally:
        close_app(app)


def test_a_failing_camera_probe_is_a_fault(table: Table) -> None:
    from web import close_app, create_app

    def broken() -> str:
        raise OSError("no video device")
    app = create_app(table, camera_status=broken)
    try:
        assert app.test_client().get("/api/state").json["camera"] == "fault"
    finally:
        close_app(app)
