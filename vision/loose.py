"""Cards lying loose on a plain table, with no printed mat in view: so a family can see what the
box sees before they print the mat. The table is whatever fills most of the picture; its light
may fall unevenly, so its lightness is followed by a smooth surface fitted to the pixels of the
table's colour. Whatever stands out from it with a card's proportions and straight sides is a
card; the camera's own white balance is trusted."""
from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from . import finder

WORK_PX = 480           # the picture's long side while looking for outlines
CUT = 28.0              # how far (Lab, colour counted half again) a card's pixels are from the table
AREA = (0.003, 0.3)     # a card's share of the picture, smallest and largest
RATIO = (1.15, 2.05)    # long side over short side (44 x 68 mm is 1.55; perspective stretches it)
FILL = 0.75             # a card fills its rectangle (a pile or a stray shape does not)
CLEAN = 0.88            # ...and fills it this well when no grain streak or shadow clings on


@dataclass
class LooseCard:
    corners: np.ndarray   # in the frame: TL TR BR BL of the upright card
    crop: np.ndarray      # upright, the classifier's size


def _terms(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    return np.stack([np.ones_like(x), x, y, x * x, y * y, x * y], -1)


def table_distance(lab: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """How far each pixel is from the table under the light where it lies, and the same without
    what is only lighter than the table (a glare spot is that; a card seldom is alone)."""
    h, w = lab.shape[:2]
    f = lab.astype(np.float32)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    terms = _terms(xx.ravel() / w, yy.ravel() / h)
    colour = np.median(f.reshape(-1, 3)[::7, 1:], axis=0)
    near = np.abs(f[..., 1:] - colour).sum(-1).ravel() < 12  # the table's colour, any lightness
    lightness = f[..., 0].ravel()
    inliers = near if near.sum() > 50 else np.ones_like(near)
    for _ in range(2):  # fit, drop what stands out from the fit, fit again
        coef, *_ = np.linalg.lstsq(terms[inliers][::7], lightness[inliers][::7], rcond=None)
        surface = terms @ coef
        inliers = near & (np.abs(lightness - surface) < 15)
        if inliers.sum() < 50:
            break
    colour_dist = 1.5 * np.abs(f[..., 1:] - colour).sum(-1).ravel()
    darker = np.maximum(surface - lightness, 0)
    return ((np.abs(lightness - surface) + colour_dist).reshape(h, w),
            (darker + colour_dist).reshape(h, w))


def find_cards(frame: np.ndarray) -> list[LooseCard]:
    """Every whole card lying apart on the table (cards in an untidy pile are not reported)."""
    h, w = frame.shape[:2]
    scale = WORK_PX / max(h, w)
    small = cv2.resize(frame, (max(1, int(w * scale)), max(1, int(h * scale))), interpolation=cv2.INTER_AREA)
    dist, not_lighter = table_distance(cv2.cvtColor(small, cv2.COLOR_BGR2LAB))
    total = dist.shape[0] * dist.shape[1]
    boxes = _card_boxes(_mask(dist), total, _mask(not_lighter))
    return [LooseCard(box / scale, finder.upright_crop(frame, box / scale)) for box in boxes]


def _mask(dist: np.ndarray) -> np.ndarray:
    mask: np.ndarray = (dist > CUT).astype(np.uint8) * 255
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((2, 2), np.uint8))
    return cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((3, 3), np.uint8))


def _card_boxes(mask: np.ndarray, total: int, not_lighter: np.ndarray | None = None) -> list[np.ndarray]:
    """Card-shaped outlines in ``mask``; one that is not gets a second look, with the table's
    grain and a card's soft shadow opened away, and without what is only lighter than the table
    (a glare spot beside the card) where ``not_lighter`` is given."""
    boxes = []
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    for contour in contours:
        area = cv2.contourArea(contour)
        if not AREA[0] * total <= area <= AREA[1] * total:
            continue
        rect = cv2.minAreaRect(contour)
        short, long_ = sorted(rect[1])
        card_like = short > 0 and RATIO[0] <= long_ / short <= RATIO[1] and area >= FILL * short * long_
        if not_lighter is None or (card_like and area >= CLEAN * short * long_):
            if card_like:
                boxes.append(finder._portrait(cv2.boxPoints(rect)))
            continue
        alone = np.zeros_like(mask)
        cv2.drawContours(alone, [contour], -1, 255, -1)
        k = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (5, 5))
        opened = _card_boxes(cv2.morphologyEx(alone, cv2.MORPH_OPEN, k), total)
        if card_like and len(opened) != 1:  # the streak was not what spoiled it: keep the card as drawn
            opened = [finder._portrait(cv2.boxPoints(rect))]
        boxes += opened or _card_boxes(cv2.morphologyEx(cv2.bitwise_and(alone, not_lighter), cv2.MORPH_OPEN, k),
                                       total)
    return boxes
