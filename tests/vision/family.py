"""A family in front of a rendered mat: lays cards in PLAY the way a hand does (each on top of the
pile, a little askew), seen through a fixed simulated camera with fresh sensor noise per frame."""
from __future__ import annotations

import threading
import time
from typing import Any

import numpy as np

from vision import synth
from vision.camera import SimulatedSource

FPS = 10.0


class Family:
    def __init__(self, seed: int = 4, design: int = 7):
        self.design = synth.CardDesign.from_seed(design)
        self.rng = np.random.default_rng(seed)
        self.scene = synth.Scene()
        self.camera = SimulatedSource(lambda: self.scene, seed)
        self.now = 0.0

    def lay(self, card: str) -> synth.Placed:
        pile = sum(1 for p in self.scene.cards if p.zone == "play")
        placed = synth.lay(card, "play", self.design, self.rng, pile=pile)
        self.scene = synth.Scene(self.scene.cards + [placed])  # a new scene: the camera renders it once
        return placed

    def frames(self, n: int):
        """``n`` frames at FPS, with the time each was taken."""
        for _ in range(n):
            self.now += 1.0 / FPS
            yield self.camera.read(), self.now


class ShowsAsked:
    """A camera in front of a family that lays each card the box asks for, and a retaken card again
    (``teacher``: anything with ``state()`` as ``/api/teach`` gives it and ``listeners``)."""

    def __init__(self, teacher: Any, family: Family):
        self.teacher, self.family = teacher, family
        self.asked: str | None = None
        self.pictures = 0   # pictures taken when the last card was laid
        self.to_lay: list[str] = []
        self._lock = threading.Lock()
        teacher.listeners.append(self.changed)

    def changed(self) -> None:
        """Lay the kind asked for when it is a new one, or when it is asked again after its card
        was taken (a retake). Listeners are told from the camera's thread and the buttons' thread,
        in either order, so a retake is told by the pictures taken, not by a change of the kind
        asked (the news of the capture may come after the retake's)."""
        with self._lock:
            st = self.teacher.state()
            asked = st["asked"] if st["active"] else None
            if asked is not None and (asked != self.asked or st["pictures"] > self.pictures):
                self.to_lay.append(asked)
                self.pictures = st["pictures"]
            self.asked = asked

    def read(self) -> np.ndarray:
        while self.to_lay:
            self.family.lay(self.to_lay.pop(0))
        time.sleep(0.02)
        return self.family.camera.read()

    def close(self) -> None:
        pass
