"""Recorded whole frames of held-out designs read right on whichever OpenCV this is: 5.x here, the 4.x
that pip gives a Pi (``make vision-pi``). See ``record_frames`` for why they are stored."""
import json
import os

import cv2

from vision.recognize import Recognizer

from .record_frames import FOLDER, TRUTH


def test_recorded_held_out_frames_are_read_right():
    recognizer = Recognizer()
    with open(TRUTH) as f:
        truth = json.load(f)
    right = total = 0
    for name, tops in sorted(truth.items()):
        result = recognizer.analyse(cv2.imread(os.path.join(FOLDER, name)))
        assert result.mat, name
        seen = {card.zone: card.card for card in result.cards}
        assert set(seen) == set(tops), (name, seen)  # each pile found, and nothing else
        total += len(tops)
        right += sum(seen[zone] == card for zone, card in tops.items())
    assert total == 24 and right >= 23, (right, total)
