"""Write the recorded held-out frames: whole 1280x720 camera frames of rendered designs that training
never used, with the truth beside them. They are stored, not rendered at test time, because the
renderer draws its numerals with OpenCV's own fonts, which OpenCV 4 (a Pi's) and 5 draw differently;
a stored frame is the same input for both. Run again only to replace them:
``python -m tests.vision.record_frames``."""
from __future__ import annotations

import json
import os

import cv2

from tests.vision.test_recognition import held_out_frames

FOLDER = os.path.join(os.path.dirname(__file__), "frames", "held-out")
TRUTH = os.path.join(FOLDER, "truth.json")
COUNT, SEED = 12, 4242


def main() -> None:
    os.makedirs(FOLDER, exist_ok=True)
    truth = {}
    for i, (scene, frame, _) in enumerate(held_out_frames(COUNT, seed=SEED)):
        name = f"frame-{i:02d}.jpg"
        cv2.imwrite(os.path.join(FOLDER, name), frame, [cv2.IMWRITE_JPEG_QUALITY, 90])
        truth[name] = {zone: scene.top(zone).card for zone in ("play", "discard")}
    with open(TRUTH, "w") as f:
        json.dump(truth, f, indent=1, sort_keys=True)
        f.write("\n")


if __name__ == "__main__":
    main()
