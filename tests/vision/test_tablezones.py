"""Zones without a printed mat: rectangles in the picture, cards on a bare table, the empty
table learnt from the first frame, and the camera's own white balance."""
from dataclasses import replace

import cv2
import numpy as np
import pytest

from companion.app.config import parse_config
from companion.app.wiring import camera_from_config
from vision import mat, synth
from vision.labels import LABELS
from vision.recognize import Recognizer
from vision.tablezones import TableZones, ZoneOutsidePicture
from vision.train import TEST_DESIGN_BASE
from vision.watcher import CardPlaced

NEUTRAL = synth.Light(falloff=0.25, blur=0.6, noise=3, jpeg=80)  # the camera balances its colours


def zone_rects(camera: synth.Camera) -> dict:
    """Where a family would draw the zones: around the spots where they lay the cards."""
    rects = {}
    for zone, (x0, y0, x1, y1) in mat.ZONES.items():
        corners = np.array([[[x0, y0]], [[x1, y0]], [[x1, y1]], [[x0, y1]]], np.float32)
        px = cv2.perspectiveTransform(corners, camera.homography()).reshape(4, 2)
        rects[zone] = tuple(int(v) for v in (*px.min(0).round(), *px.max(0).round()))
    return rects


@pytest.mark.renderer_digits
def test_cards_on_a_bare_table_are_found_in_their_zones_and_recognised():
    rng = np.random.default_rng(12)
    right = total = 0
    for trial in range(12):
        camera = synth.Camera(tilt=float(rng.uniform(0, 12)), tilt_dir=float(rng.uniform(0, 360)),
                              roll=float(rng.uniform(-5, 5)), fill=0.8)
        light = replace(NEUTRAL, seed=trial)
        recognizer = Recognizer(zones=TableZones(zone_rects(camera)))
        _, views = recognizer.look(synth.render_frame(synth.Scene(), camera, light, trial, printed_mat=False))
        assert all(v.crop is None for v in views.values())  # the empty table is learnt, not a card
        design = synth.CardDesign.from_seed(TEST_DESIGN_BASE + 500 + trial)
        scene = synth.random_scene(rng, design, cards=[str(c) for c in rng.choice(LABELS, 6)], others=False)
        _, views = recognizer.look(synth.render_frame(scene, camera, light, trial, printed_mat=False))
        assert {z for z, v in views.items() if v.crop is not None} == {"play", "discard"}
        for seen in recognizer.classify(views):
            right += seen.card == scene.top(seen.zone).card
            total += 1
    assert right / total >= 0.9, f"{right}/{total}"


def test_the_watcher_reports_a_card_laid_on_a_bare_table():
    camera = synth.Camera(tilt=5, roll=2, fill=0.8)
    zones = zone_rects(camera)
    settings = {"source": "folder:.", "play_zone": list(zones["play"]), "discard_zone": list(zones["discard"])}
    watcher = camera_from_config(parse_config({"camera": settings})).make_watcher()
    rng = np.random.default_rng(4)
    scene = synth.Scene()
    events = []
    for i in range(20):
        if i == 5:
            scene.cards.append(synth.lay("g3", "play", synth.CardDesign.from_seed(TEST_DESIGN_BASE + 7), rng))
        frame = synth.render_frame(scene, camera, replace(NEUTRAL, seed=i), 1, printed_mat=False)
        events += watcher.feed(frame, i / 10)
    assert [(e.zone, e.card) for e in events if isinstance(e, CardPlaced)] == [("play", "g3")]


def test_a_zone_outside_the_picture_says_which_setting_to_correct():
    zones = TableZones({"play": (10, 10, 300, 400), "discard": (320, 10, 2000, 400)})
    with pytest.raises(ZoneOutsidePicture, match="discard_zone under \\[camera\\]"):
        zones.look(np.zeros((720, 1280, 3), np.uint8))


@pytest.mark.parametrize("camera,needle", [
    ({"play_zone": [1, 2, 3, 4]}, "set both play_zone and discard_zone"),
    ({"play_zone": [1, 2, 3], "discard_zone": [5, 6, 7, 8]}, "play_zone = [1, 2, 3] is not allowed: [left, top, "
                                                            "right, bottom]"),
    ({"play_zone": [10, 2, 3, 4], "discard_zone": [5, 6, 7, 8]}, "like [100, 80, 560, 640]"),
    ({"play_zone": "left", "discard_zone": [5, 6, 7, 8]}, 'play_zone = "left" is not allowed'),
])
def test_bad_zone_settings_are_explained(camera, needle):
    with pytest.raises(Exception) as e:
        parse_config({"camera": camera})
    assert needle in str(e.value)
