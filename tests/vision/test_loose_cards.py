"""Cards on a plain table with no mat in view: found anywhere in the picture, read, and reported
in no zone (`"zone": null`)."""
import json
import subprocess
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from vision import finder, loose, synth
from vision.labels import LABELS
from vision.recognize import Recognizer
from vision.train import TEST_DESIGN_BASE

FRAMES = Path(__file__).parent / "frames"
SPOTS = [(45.0, 50.0), (132.0, 50.0), (220.0, 50.0), (45.0, 145.0), (132.0, 145.0), (220.0, 145.0)]
CALM = synth.Light(falloff=0.2, blur=0.5, noise=3, jpeg=85)


def table_scene(rng, design, cards):
    """``cards`` lying apart on the table, at some of the spots, any way round."""
    spots = rng.choice(len(SPOTS), len(cards), replace=False)
    return synth.Scene([synth.Placed(card, None, (SPOTS[s][0] + rng.uniform(-5, 5), SPOTS[s][1] + rng.uniform(-5, 5)),
                                     float(rng.uniform(0, 360)), design.render(card, int(rng.integers(1000))))
                        for card, s in zip(cards, spots, strict=True)])


def centres_px(scene, camera):
    mm = np.array([[p.centre] for p in scene.cards], np.float64)
    return cv2.perspectiveTransform(mm, camera.homography()).reshape(-1, 2)


@pytest.mark.renderer_digits
def test_cards_anywhere_on_a_plain_table_are_found_and_read_in_no_zone():
    rng = np.random.default_rng(21)
    recognizer = Recognizer()
    laid = found = right = 0
    for trial in range(8):
        design = synth.CardDesign.from_seed(TEST_DESIGN_BASE + 300 + trial)
        scene = table_scene(rng, design, [str(c) for c in rng.choice(LABELS, int(rng.integers(2, 5)))])
        camera = synth.Camera(tilt=float(rng.uniform(0, 25)), tilt_dir=float(rng.uniform(0, 360)),
                              roll=float(rng.uniform(-180, 180)), fill=float(rng.uniform(0.6, 0.8)))
        frame = synth.render_frame(scene, camera, replace(CALM, seed=trial), trial, printed_mat=False)
        result = recognizer.analyse(frame)
        assert not result.mat
        truth = centres_px(scene, camera)
        laid += len(scene.cards)
        for seen in result.cards:
            assert seen.zone is None and seen.as_dict()["zone"] is None
            near = np.linalg.norm(truth - seen.corners.mean(0), axis=1)
            assert near.min() < 20, "a card reported where none lies"
            found += 1
            right += seen.card == scene.cards[int(near.argmin())].card
    assert found >= 0.9 * laid, f"{found}/{laid}"
    assert right >= 0.8 * laid, f"{right}/{laid}"


def test_an_empty_table_has_no_cards():
    rng = np.random.default_rng(5)
    for k in range(4):
        frame = synth.render_frame(synth.Scene(), synth.Camera.random(rng), replace(CALM, seed=k), k, printed_mat=False)
        assert loose.find_cards(frame) == []


@settings(max_examples=8, deadline=None)
@given(angle=st.floats(0, 360), spot=st.integers(0, len(SPOTS) - 1), design=st.integers(0, 10**5),
       background=st.integers(0, 1000))
def test_one_card_alone_on_a_table_is_found_whatever_its_angle(angle, spot, design, background):
    face = synth.CardDesign.from_seed(TEST_DESIGN_BASE + design).render("g2", 1)
    scene = synth.Scene([synth.Placed("g2", None, SPOTS[spot], angle, face)])
    camera = synth.Camera(tilt=10, roll=4, fill=0.7)
    frame = synth.render_frame(scene, camera, CALM, background, printed_mat=False)
    cards = loose.find_cards(frame)
    assert len(cards) == 1
    assert np.linalg.norm(cards[0].corners.mean(0) - centres_px(scene, camera)[0]) < 20  # a grain streak may cling on
    assert cards[0].crop.shape == (finder.CROP[1], finder.CROP[0], 3)


def test_recognize_a_saved_photo_of_a_table_without_a_mat(companion_cmd):
    """A saved frame: three cards (r2, g4, b5) lying apart on a wooden table, no mat."""
    photo = FRAMES / "table-no-mat-r2-g4-b5.jpg"
    p = subprocess.run(companion_cmd + ["recognize", str(photo), "--json"], capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    out = json.loads(p.stdout)
    assert out["mat"] is False
    assert [c["zone"] for c in out["cards"]] == [None, None, None]
    assert sorted(c["card"] for c in out["cards"]) == ["b5", "g4", "r2"]
    p = subprocess.run(companion_cmd + ["recognize", str(photo)], capture_output=True, text=True)
    assert p.returncode == 0 and "table: " in p.stdout and "no play mat found" in p.stdout
