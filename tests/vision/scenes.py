"""Rendered frames for vision tests: one camera, one light, a scene changed step by step."""
from dataclasses import replace

import numpy as np

from vision import synth
from vision.camera import DETAIL, WATCHED


class Table:
    """A mat seen by a fixed camera; each ``frame()`` has fresh sensor noise."""

    def __init__(self, seed=3, design=5):
        rng = np.random.default_rng(seed)
        self.camera = synth.Camera.random(rng, max_tilt=30)
        self.light = synth.Light(gains=(1.05, 1.0, 0.92), falloff=0.2, blur=0.6, noise=3, jpeg=80)
        self.design = synth.CardDesign.from_seed(design)
        self.scene = synth.Scene()
        self.rng = rng
        self.n = 0

    def frame(self):
        self.n += 1
        return synth.render_frame(self.scene, self.camera, replace(self.light, noise_seed=self.n), 0)

    def detail(self, scale=DETAIL[0] / WATCHED[0]):
        """The last frame's moment as the Pi camera's larger stream shows it (other sensor noise)."""
        return synth.render_larger(self.scene, self.camera, replace(self.light, noise_seed=1_000_000 + self.n), scale)

    def lay(self, card, zone, pile=None):
        pile = sum(1 for p in self.scene.cards if p.zone == zone) if pile is None else pile
        placed = synth.lay(card, zone, self.design, self.rng, pile=pile)
        self.scene.cards.append(placed)
        return placed
