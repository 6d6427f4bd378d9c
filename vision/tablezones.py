"""Zones without a printed mat, for families who do not print: the PLAY and DISCARD zones are
rectangles in the camera picture, set in the config. With no markers and no white patches, the
rectangle stands for the printed zone's size (about two cards wide and two tall), the camera's own
white balance is trusted, and what the empty table looks like is learnt from the first frame:
the zones must be empty when the camera starts (as they are before a game)."""
from __future__ import annotations

from dataclasses import dataclass, field

import cv2
import numpy as np

from . import finder, mat

Rect = tuple[float, float, float, float]  # x0, y0, x1, y1 in frame pixels


class ZoneOutsidePicture(ValueError):
    """A configured zone does not fit the camera's picture."""


def check_rect(zone: str, rect: Rect) -> None:
    x0, y0, x1, y1 = rect
    if not (0 <= x0 < x1 and 0 <= y0 < y1):
        raise ValueError(f"the {zone} zone must be [left, top, right, bottom] in pixels of the camera "
                         f"picture, left < right and top < bottom; got {list(rect)}")


@dataclass
class TableZones:
    rects: dict[str, Rect]
    _poses: dict[str, mat.MatPose] = field(init=False, repr=False)
    _empty: dict[str, finder.EmptyZone] = field(init=False, repr=False, default_factory=dict)

    def __post_init__(self) -> None:
        self._poses = {}
        for zone, rect in self.rects.items():
            check_rect(zone, rect)
            x0, y0, x1, y1 = mat.ZONES[zone]
            mm = np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]], np.float32)
            a, b, c, d = rect
            px = np.array([[a, b], [c, b], [c, d], [a, d]], np.float32)
            h = cv2.getPerspectiveTransform(mm, px)
            self._poses[zone] = mat.MatPose(h, np.linalg.inv(h), 0)

    def look(self, frame: np.ndarray) -> tuple[mat.MatPose, dict[str, finder.ZoneView]]:
        height, width = frame.shape[:2]
        half = finder.half_size(frame)
        views = {}
        for zone, pose in self._poses.items():
            x1, y1 = self.rects[zone][2:]
            if x1 > width or y1 > height:
                raise ZoneOutsidePicture(f"the {zone} zone reaches ({x1:.0f}, {y1:.0f}), outside the camera "
                                         f"picture of {width}x{height}: correct {zone}_zone under [camera]")
            if zone not in self._empty:
                self._empty[zone] = finder.EmptyZone.from_half(finder.zone_pixels(frame, pose, zone, half).half)
            views[zone] = finder.look_at_zone(frame, pose, zone, None, self._empty[zone], half)
        return next(iter(self._poses.values())), views
