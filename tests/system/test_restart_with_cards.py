"""`companion run` watching a mat whose piles lie as the game left them: a box started with its
camera in the middle of a game, or killed (a power cut) and started again, finds the piles and
counts none of their cards a second time (a play told again is a misplay: a fuse token lost)."""
from __future__ import annotations

import time

import cv2
import numpy as np
import pytest

from tests.robustness.boxproc import BoxProcess
from vision import synth

pytestmark = pytest.mark.slow  # starts the box as a process, twice


def camera_settled(box: BoxProcess, seconds: float) -> dict:
    """The table once the camera has read frames for ``seconds``."""
    deadline = time.monotonic() + 30
    while box.get("/api/state").get("camera") != "ok":
        assert time.monotonic() < deadline, box.get("/api/state")
        time.sleep(0.1)
    time.sleep(seconds)
    return box.get("/api/state")


def test_the_piles_on_the_mat_are_not_told_again_after_a_power_cut(tmp_path):
    frames = tmp_path / "frames"
    frames.mkdir()
    rng = np.random.default_rng(4)
    camera = synth.Camera.random(rng, max_tilt=30)
    design = synth.CardDesign.from_seed(12)
    scene = synth.Scene([synth.lay("r1", "play", design, rng), synth.lay("b4", "discard", design, rng)])
    cv2.imwrite(str(frames / "table.png"), synth.render_frame(scene, camera, synth.Light(noise=2, noise_seed=1), 0))
    data = tmp_path / "data"
    data.mkdir()
    no_camera, camera_on = tmp_path / "no-camera.toml", tmp_path / "camera.toml"
    no_camera.write_text('[camera]\nsource = "none"\n[display]\ndriver = "dummy"\n')
    camera_on.write_text(f'[camera]\nsource = "folder:{frames}"\nfps = 10\n[display]\ndriver = "dummy"\n')
    box = BoxProcess(str(data), extra=("--config", str(no_camera)))
    box.start(timeout=60)
    try:  # the game so far, entered by hand: the cards on the mat
        assert box.post("/api/games", {"players": ["Ann", "Ben"], "variant": "base"})[0] in (200, 201)
        for action in ({"type": "play", "card": "r1"}, {"type": "hint"}, {"type": "discard", "card": "b4"}):
            assert box.post("/api/actions", action)[0] == 200
        game = box.get("/api/state")
    finally:
        box.stop()
    box = BoxProcess(str(data), extra=("--config", str(camera_on)))
    box.start(timeout=60)
    try:
        first = camera_settled(box, 3.0)  # 30 frames of the piles, read by a box that never saw them laid
        box.kill()
        box.start(timeout=60)
        again = camera_settled(box, 3.0)
    finally:
        box.stop()
    for state in (first, again):
        assert state["log"] == game["log"]
        assert state["fuses_used"] == 0
