"""A deck profile the box cannot read with yet (saved unfitted when the box stopped during a lesson,
or fitted by an older version) is fitted in the background at start: the camera reads with the
network alone meanwhile, and the fitted profile is saved and then read with."""
from __future__ import annotations

import threading
import time

import numpy as np

from companion.app.config import parse_config
from companion.app.fitting import ProfileFitter
from companion.app.wiring import Companion, RunOptions, build_watcher
from tests.core.test_teaching import wait
from vision import finder
from vision.classifier import Classifier, Profile
from vision.teach import Stopped


def unfitted(path) -> str:
    """A lesson of two kinds, saved before it was fitted (as a box stopped during the fit leaves it)."""
    crops = {card: [np.full((finder.CROP[1], finder.CROP[0], 3), colour, np.uint8)]
             for card, colour in (("r1", 60), ("g4", 200))}
    Profile(crops).save(str(path))
    return str(path)


def box_reading(tmp_path, profile: str) -> Companion:
    settings = {"display": {"driver": "dummy"}, "camera": {"source": "none", "profile": profile, "learn": False}}
    return Companion(parse_config(settings), RunOptions("127.0.0.1", 0, "1357", str(tmp_path / "data")))


def test_the_camera_reads_at_once_and_the_profile_is_fitted_saved_and_then_read_with(tmp_path):
    path = unfitted(tmp_path / "deck.npz")
    assert build_watcher(path).recognizer.classifier.profile is None  # no wait for the fit: the network reads
    box = box_reading(tmp_path, path)
    try:
        assert box.fitter is not None
        box.fitter.start()
        wait(lambda: box.fitter.done, timeout=60)
        kept = Profile.load(path)
        assert kept.fitted and sorted(set(kept.deck.labels)) == ["g4", "r1"]  # the next start fits nothing
        assert box.camera._update is not None  # taken up before the camera's next frame
        watcher = build_watcher(path)
        box.camera._update(watcher)
        assert watcher.recognizer.classifier.profile.fitted
        assert box.camera._make_watcher().recognizer.classifier.profile.fitted  # a camera opened again too
    finally:
        box.close()


def test_a_fitted_profile_or_none_needs_no_fitting(tmp_path):
    path = unfitted(tmp_path / "deck.npz")
    profile = Profile.load(path)
    profile.fit(Classifier())
    profile.save(path)
    for named in (path, ""):
        box = box_reading(tmp_path, named)
        try:
            assert box.fitter is None
        finally:
            box.close()
    assert build_watcher(path).recognizer.classifier.profile.fitted  # read with at once


def stopped_fit(started: threading.Event):
    def fit(profile, stop):
        started.set()
        while not stop():
            time.sleep(0.01)
        raise Stopped
    return fit


def test_a_box_stopped_while_fitting_exits_at_once_and_keeps_the_profile_as_it_was(tmp_path):
    path = unfitted(tmp_path / "deck.npz")
    before = (tmp_path / "deck.npz").read_bytes()
    used = []
    started = threading.Event()
    fitter = ProfileFitter(path, Profile.load(path), used.append, fit=stopped_fit(started))
    fitter.start()
    assert started.wait(10)
    t0 = time.monotonic()
    assert fitter.close(5) is True
    assert time.monotonic() - t0 < 1 and fitter.done
    assert (tmp_path / "deck.npz").read_bytes() == before and used == []


def test_a_profile_replaced_while_it_was_fitted_is_left_as_replaced(tmp_path):
    path = unfitted(tmp_path / "deck.npz")
    newer = {"b2": [np.full((finder.CROP[1], finder.CROP[0], 3), 120, np.uint8)]}
    used = []

    def fit(profile, stop):  # a lesson ends meanwhile and saves the family's new deck there
        time.sleep(0.05)
        Profile(newer).save(path)
    fitter = ProfileFitter(path, Profile.load(path), used.append, fit=fit)
    fitter.start()
    wait(lambda: fitter.done, timeout=60)
    assert sorted(Profile.load(path).crops) == ["b2"] and used == []
