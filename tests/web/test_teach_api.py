"""The API and page of "Teach our deck": open reads, PIN-guarded writes, refusals with codes, the
pictures as PNG, and a lesson fitted, saved and put into the settings."""
from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest
from flask.testing import FlaskClient

from companion.app.config import load_config
from companion.app.recognition import CameraService
from companion.app.teaching import Teacher
from companion.game.store import Store
from companion.game.table import Table
from tests.vision.family import Family, ShowsAsked
from vision.guided import GuidedSession
from vision.watcher import make_watcher
from web import close_app, create_app

from .conftest import PIN, write

KINDS = ("r1", "y2")  # the first kinds only: fitting takes time


def wait(cond: Any, timeout: float = 20.0) -> None:
    t0 = time.monotonic()
    while not cond():
        assert time.monotonic() - t0 < timeout, "timed out"
        time.sleep(0.02)


class Box:
    """The camera service and teacher of a box whose camera sees a family laying the cards asked
    for; only the first kinds of a variant are asked (the fitting is what takes time)."""

    def __init__(self, table: Table, folder: Any, camera: bool = True):
        holder: dict[str, Any] = {}
        self.camera = CameraService(table, (lambda: holder["source"]) if camera else None, make_watcher, fps=10)
        self.settings = folder / "config.toml"
        self.teacher = Teacher(self.camera, lambda kinds: GuidedSession(KINDS, make_watcher()),
                               str(folder / "deck.npz"), str(self.settings),
                               lambda path: (lambda: make_watcher(profile=path)))
        holder["source"] = ShowsAsked(self.teacher, Family(seed=11, design=2))
        self.camera.start()
        if camera:
            wait(lambda: self.camera.status == "ok")


@pytest.fixture
def box(table: Table, tmp_path: Any) -> Iterator[Box]:
    b = Box(table, tmp_path)
    yield b
    b.camera.stop()


@pytest.fixture
def teach(box: Box, table: Table, store: Store) -> Iterator[FlaskClient]:
    app = create_app(table, store, pin=PIN, camera_status=lambda: box.camera.status, teacher=box.teacher)
    yield app.test_client()
    close_app(app)


def state(client: FlaskClient) -> dict[str, Any]:
    r = client.get("/api/teach")
    assert r.status_code == 200
    return r.json


def test_anyone_may_watch_but_teaching_needs_the_pin(teach: FlaskClient):
    assert state(teach)["status"] == "idle" and state(teach)["active"] is False
    r = teach.post("/api/teach", json={"variant": "base"})
    assert r.status_code == 401 and r.json["reason"] == "no_pin"
    r = write(teach, "/api/teach", {"variant": "base"}, **{"X-Table-PIN": "0000"})
    assert r.status_code == 403 and r.json["reason"] == "wrong_pin"
    r = write(teach, "/api/teach/cancel", {}, Origin="http://evil.example")
    assert r.status_code == 403 and r.json["reason"] == "cross_site"
    assert state(teach)["status"] == "idle"


def test_refusals_carry_codes_and_change_nothing(teach: FlaskClient):
    for body, status, reason in (({"variant": "nope"}, 400, "bad_variant"), ({"variant": "base", "x": 1}, 400, None),
                                 ([1], 400, None)):
        r = write(teach, "/api/teach", body)
        assert r.status_code == status and r.json.get("reason") == reason, r.json
        assert r.json["status"] == status and r.json["error"]
    for path in ("/api/teach/confirm", "/api/teach/retake", "/api/teach/cancel", "/api/teach/finish"):
        r = write(teach, path, {})
        assert r.status_code == 409 and r.json["reason"] == "not_teaching", path
    r = write(teach, "/api/teach", {"variant": "rainbow"})
    assert r.status_code == 201 and r.json["kinds"] == list(KINDS) and r.json["variant"] == "rainbow"
    r = write(teach, "/api/teach", {"variant": "base"})
    assert r.status_code == 409 and r.json["reason"] == "busy"
    r = write(teach, "/api/teach/retake", {"card": "k1"})
    assert r.status_code == 400 and r.json["reason"] == "unknown_kind"
    r = write(teach, "/api/teach/retake", {"card": "red"})
    assert r.status_code == 400
    r = write(teach, "/api/teach/finish", {})
    assert r.status_code == 409 and r.json["reason"] == "incomplete" and set(r.json["missing"]) <= set(KINDS)
    assert teach.get("/api/teach/crops/x9.png").status_code == 400
    r = teach.get("/api/teach/crops/b5.png")
    assert r.status_code == 404 and r.json["reason"] == "no_picture"
    assert write(teach, "/api/teach/cancel", {}).json["status"] == "cancelled"


def test_without_a_camera_or_a_camera_service_the_page_says_so(table: Table, store: Store, tmp_path: Any):
    b = Box(table, tmp_path, camera=False)
    wait(lambda: b.camera.status == "missing")
    app = create_app(table, store, pin=PIN, teacher=b.teacher)
    r = write(app.test_client(), "/api/teach", {"variant": "base"})
    assert r.status_code == 503 and r.json["reason"] == "no_camera"
    close_app(app)
    bare = create_app(table, store, pin=PIN)
    client = bare.test_client()
    r = client.get("/api/teach")
    assert r.status_code == 404 and r.json["reason"] == "no_teacher"
    page = client.get("/teach?lang=de").get_data(as_text=True)
    assert "Unser Deck anlernen" in page and 'id="teach-unavailable"' in page and "teach.js" not in page
    close_app(bare)


@pytest.mark.parametrize("lang, title", [("en", "Teach our deck"), ("pl", "Naucz naszej talii"),
                                         ("de", "Unser Deck anlernen"), ("cs", "Naučit náš balíček")])
def test_the_page_speaks_every_language(teach: FlaskClient, lang: str, title: str):
    r = teach.get(f"/teach?lang={lang}")
    page = r.get_data(as_text=True)
    assert r.status_code == 200 and f"<h1>{title}</h1>" in page and "teach.js" in page
    assert page.count('<option value="') >= 8  # every preset


def test_the_api_is_described(teach: FlaskClient):
    paths = teach.get("/api/openapi.json").json["paths"]
    assert {"/api/teach", "/api/teach/confirm", "/api/teach/retake", "/api/teach/cancel", "/api/teach/finish",
            "/api/teach/crops/{name}.png"} <= set(paths)
    assert "503" in paths["/api/teach"]["post"]["responses"]
    assert "202" in paths["/api/teach/finish"]["post"]["responses"]


def test_a_lesson_through_the_api_ends_in_the_settings(teach: FlaskClient, box: Box):
    box.settings.write_text("[box]\nlanguage = \"cs\"  # babička\n")
    r = write(teach, "/api/teach", {"variant": "base"})
    assert r.status_code == 201 and r.json["asked"] == "r1" and r.json["status"] in ("waiting", "seen")
    wait(lambda: state(teach)["captured"] == "r1")
    png = teach.get("/api/teach/crops/r1.png")
    assert png.status_code == 200 and png.mimetype == "image/png" and png.data[:4] == b"\x89PNG"
    assert write(teach, "/api/teach/confirm", {}).json["taken"] == ["r1"]
    wait(lambda: state(teach)["captured"] == "y2")
    st = write(teach, "/api/teach/retake", {"card": "r1"}).json  # the shown y2 is kept, r1 asked again
    assert st["asked"] == "r1" and st["taken"] == ["y2"] and st["done"] == 1
    wait(lambda: state(teach)["captured"] == "r1")
    r = write(teach, "/api/teach/finish", {})  # the picture waiting for OK is kept
    assert r.status_code == 202 and r.json["status"] == "fitting" and r.json["progress"]["total"] == 2
    box.teacher.wait(300)
    st = state(teach)
    assert st["status"] == "saved" and st["error"] is None and st["settings"] == str(box.settings)
    assert load_config(str(box.settings)).camera.profile == st["profile"]
    assert "# babička" in box.settings.read_text()
    assert teach.get("/api/teach/crops/r1.png").status_code == 404  # the lesson is over
