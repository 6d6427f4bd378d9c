"""Teaching the deck on the box: the camera judges nothing while a lesson runs, the lesson follows
the cards laid, and at the end the profile is fitted, saved, put into the settings and used."""
from __future__ import annotations

import threading
import time

import numpy as np
import pytest

from companion.app import recognition
from companion.app.config import load_config
from companion.app.recognition import CameraService
from companion.app.teaching import BAD_VARIANT, BUSY, CAMERA_FAULT, NO_CAMERA, Teacher
from companion.game.table import Table
from tests.vision.family import Family, ShowsAsked
from vision import finder
from vision.classifier import Classifier, Profile
from vision.guided import INCOMPLETE, NOT_TEACHING, GuidedSession, TeachError
from vision.watcher import CardPlaced, make_watcher


def wait(cond, timeout=20.0):
    t0 = time.monotonic()
    while not cond():
        assert time.monotonic() - t0 < timeout, "timed out"
        time.sleep(0.02)


class Frames:
    def __init__(self):
        self.n = 0

    def read(self):
        self.n += 1
        return self.n

    def close(self):
        pass


class Scripted:
    """A watcher that reports a sure r1 in PLAY on every frame (a card lying there)."""

    def feed(self, frame, now, detail=None):
        return [CardPlaced("play", "r1", 0.99, ())]

    def known(self, zone, card):
        pass


def test_a_paused_camera_judges_nothing_and_after_resuming_ignores_what_lay_there(monkeypatch):
    monkeypatch.setattr(recognition, "QUIET_SECONDS", 0.3)
    table = Table()
    table.new_game(3, "base")
    seen = []
    svc = CameraService(table, Frames, Scripted, fps=100)
    svc.pause(lambda frame, now, detail: seen.append(frame))
    svc.start()
    try:
        wait(lambda: len(seen) > 20)
        assert table.actions == [] and svc.paused and svc.status == "ok"
        made = []
        svc.resume(lambda: made.append(1) or Scripted())
        started = time.monotonic()
        wait(lambda: len(table.actions) > 0)
        assert time.monotonic() - started >= 0.3  # the quiet time first
        assert made == [1] and not svc.paused and table.actions[0] == {"type": "play", "card": "r1"}
    finally:
        svc.stop()


class Camera:
    def __init__(self, status="ok", reason=None):
        self.status = status
        self.configured = status != "missing"
        self.state = recognition.CameraState(status, None, reason)
        self.paused = []

    def pause(self, feed):
        self.paused.append(feed)

    def resume(self, make_watcher=None):
        self.paused.append(("resume", make_watcher))


def teacher(camera, tmp_path, kinds=None):
    def session(all_kinds):
        return GuidedSession(kinds or all_kinds, make_watcher())
    return Teacher(camera, session, str(tmp_path / "deck.npz"), str(tmp_path / "config.toml"),
                   lambda path: (lambda: make_watcher(profile=path)))


def test_a_lesson_needs_a_camera_that_works_and_a_known_variant(tmp_path):
    for status, code in (("missing", NO_CAMERA), ("fault", CAMERA_FAULT)):
        with pytest.raises(TeachError) as e:
            teacher(Camera(status, "unplugged"), tmp_path).start("base")
        assert e.value.code == code
    t = teacher(Camera(), tmp_path)
    with pytest.raises(TeachError) as e:
        t.start("no-such-rules")
    assert e.value.code == BAD_VARIANT and not t.active
    st = t.start("rainbow")
    assert st["status"] == "waiting" and st["total"] == 30 and st["asked"] == "r1" and t.camera.paused
    with pytest.raises(TeachError) as e:
        t.start("base")
    assert e.value.code == BUSY
    with pytest.raises(TeachError) as e:
        t.finish()
    assert e.value.code == INCOMPLETE and len(e.value.missing) == 30
    assert t.cancel()["status"] == "cancelled" and t.camera.paused[-1] == ("resume", None)
    with pytest.raises(TeachError) as e:
        t.confirm()
    assert e.value.code == NOT_TEACHING


@pytest.mark.slow
def test_a_whole_lesson_on_the_box_saves_the_profile_into_the_settings(tmp_path, monkeypatch):
    monkeypatch.setattr(recognition, "QUIET_SECONDS", 1.0)
    settings = tmp_path / "config.toml"
    settings.write_text("# the kitchen box\n[camera]\nsource = \"opencv:0\"  # the webcam\n")
    table = Table()
    table.new_game(3, "base")
    holder = {}
    svc = CameraService(table, lambda: holder["camera"], make_watcher, fps=10)
    t = teacher(svc, tmp_path, kinds=("r1", "g4"))  # two kinds: fitting takes time
    holder["camera"] = ShowsAsked(t, Family())
    changes = []
    t.listeners.append(lambda: changes.append(t.state()["status"]))
    svc.start()
    try:
        wait(lambda: svc.status == "ok")
        t.start("base")
        wait(lambda: t.state()["captured"] == "r1")
        assert t.crop_png("r1")[:4] == b"\x89PNG" and t.crop_png("g4") is None
        ok, _ = t.press("ok")
        assert ok
        wait(lambda: t.state()["captured"] == "g4")
        assert t.press("undo")[0]  # the picture of g4 is taken again
        wait(lambda: t.state()["captured"] == "g4")
        st = t.state()
        assert st["done"] == st["total"] == 2 and st["taken"] == ["r1"]
        accepted, _ = t.press("ok")  # keeps g4
        assert accepted and t.state()["status"] == "complete"
        accepted, _ = t.press("ok")  # every card taken: OK learns the deck
        assert accepted
        t.wait(300)
        st = t.state()
        assert st["status"] == "saved" and st["error"] is None and not st["active"]
        assert st["profile"] == str(tmp_path / "deck.npz") and st["settings"] == str(settings)
        assert sorted(Profile.load(st["profile"]).crops) == ["g4", "r1"]
        text = settings.read_text()
        assert "# the kitchen box" in text and "# the webcam" in text
        assert load_config(str(settings)).camera.profile == st["profile"]
        assert "fitting" in changes and changes[-1] == "saved"
        wait(lambda: not svc.paused)
        time.sleep(1.5)  # the cards of the lesson still lie in PLAY: none of them is a play
        assert table.actions == [] and svc.status == "ok"
    finally:
        svc.stop()


def test_the_buttons_keep_and_retake_while_teaching(tmp_path):
    t = teacher(Camera(), tmp_path, kinds=("r1", "r2"))
    assert t.press("ok")[0] is False  # nothing is taught: the button is refused
    t.start("base")
    t.session.lesson.take(np.zeros((finder.CROP[1], finder.CROP[0], 3), np.uint8))
    assert t.state()["status"] == "captured"
    assert t.press("undo")[0] and t.state()["asked"] == "r1"
    assert t.press("hint")[0] is False and t.state()["asked"] == "r1"
    lock = threading.Event()
    t.listeners.append(lock.set)
    t.cancel()
    assert lock.is_set()


def fitting_lesson(tmp_path, hold):
    """A lesson of two kinds taken and being fitted: ``hold(teacher)`` runs once the first kind's
    copies are described; the event is set then."""
    t = teacher(Camera(), tmp_path, kinds=("r1", "g4"))
    t.start("base")
    for colour in (60, 200):
        t.session.lesson.take(np.full((finder.CROP[1], finder.CROP[0], 3), colour, np.uint8))
        t.confirm()
    fitting = threading.Event()

    def described(done, total):
        fitting.set()
        hold(t)
    t._progress = described
    t.finish()
    return t, fitting


def test_a_deck_being_fitted_when_the_box_stops_is_saved_and_fitted_at_the_next_start(tmp_path):
    settings = tmp_path / "config.toml"
    settings.write_text("[camera]\n")
    # the first kind's copies are described when the box is stopped
    t, fitting = fitting_lesson(tmp_path, lambda t: t._closing.wait(10))
    assert fitting.wait(60) and t.state()["status"] == "fitting"
    started = time.monotonic()
    assert t.close(10) is True
    assert time.monotonic() - started < 5 and not t._thread.is_alive()
    st = t.state()
    assert st["status"] == "saved" and st["profile"] == str(tmp_path / "deck.npz") and not st["active"]
    kept = Profile.load(st["profile"])
    assert sorted(kept.crops) == ["g4", "r1"] and kept.deck is None  # the lesson is kept, not yet fitted
    assert load_config(str(settings)).camera.profile == st["profile"]
    Classifier(profile=kept)  # the next start fits it
    assert kept.deck is not None and sorted(set(kept.deck.labels)) == ["g4", "r1"]


def test_a_lesson_is_on_disk_and_in_the_settings_while_it_is_fitted(tmp_path):
    """A power cut in the minute of fitting (or a stop that outlasts the service's wait, when the
    process ends without the fit) loses no lesson: the pictures are saved and named first."""
    settings = tmp_path / "config.toml"
    settings.write_text("[camera]\nprofile = \"old-deck.npz\"\n")
    cut = threading.Event()
    t, fitting = fitting_lesson(tmp_path, lambda t: cut.wait(30))  # the power is cut while the copies are described
    try:
        assert fitting.wait(60)
        on_disk = Profile.load(str(tmp_path / "deck.npz"))
        assert sorted(on_disk.crops) == ["g4", "r1"] and on_disk.deck is None
        assert load_config(str(settings)).camera.profile == str(tmp_path / "deck.npz")
    finally:
        cut.set()
    t.wait(120)
    st = t.state()
    assert st["status"] == "saved" and st["error"] is None
    assert Profile.load(st["profile"]).deck is not None  # then fitted and saved over the pictures
