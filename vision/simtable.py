"""The demo's simulated mat as a camera sees it: turns a table scene (which cards lie in which
zone, and whether a hand is over one) into a rendered ``synth.Scene``, laying each new card once,
a little askew, the way a player would."""
from __future__ import annotations

from typing import Any

import numpy as np

from . import synth


class SimulatedMat:
    """``source()`` is a camera source for ``table_scene`` (anything with ``snapshot()`` giving
    piles, the zone under a hand and a version number)."""

    def __init__(self, table_scene: Any, seed: int = 0):
        self.table_scene, self.seed = table_scene, seed
        self.design = synth.CardDesign.from_seed(seed)
        self._laid: dict[str, list[synth.Placed]] = {"play": [], "discard": []}
        self._version = -1
        self._scene = synth.Scene()

    def scene(self) -> synth.Scene:
        piles, hand, version = self.table_scene.snapshot()
        if version != self._version:
            for zone, cards in piles.items():
                laid = self._laid[zone]
                if len(cards) < len(laid) or [p.card for p in laid] != cards[:len(laid)]:
                    laid.clear()  # a new game: the mat was cleared
                for i in range(len(laid), len(cards)):
                    rng = np.random.default_rng((self.seed, zone == "play", i))
                    laid.append(synth.lay(cards[i], zone, self.design, rng, pile=i))
            cards_on_mat = self._laid["play"] + self._laid["discard"]
            self._scene = synth.Scene(cards_on_mat, hand_zone=hand, hand_seed=version)
            self._version = version
        return self._scene

    def source(self) -> Any:
        from .camera import SimulatedSource
        return SimulatedSource(self.scene, self.seed)
