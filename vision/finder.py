"""Finding the top card in each zone: look at the zone from straight above (through the mat's
homography), balance the colours on the mat's white patches, separate cards from the grey mat,
and cut the top card out as a small upright image for the classifier."""
from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from . import mat

PPM = 3.0                     # zone images: pixels per millimetre
MARGIN_MM = 14.0              # looked at around each zone: cards may hang over its edge
CROP = (48, 72)               # classifier input (w, h), portrait
CARD_AREA = mat.CARD_MM[0] * mat.CARD_MM[1] * PPM * PPM
WHITE_TARGET = 235.0


@dataclass
class ZoneView:
    """One zone seen from above: colour-balanced image, card mask and what was found."""

    zone: str
    image: np.ndarray
    mask: np.ndarray
    crop: np.ndarray | None        # the top card, upright, CROP size
    rect_px: np.ndarray | None     # its four corners in the zone image
    corners: np.ndarray | None     # the same corners in the frame
    area: float                    # card-coloured area in the zone, in card areas
    occluded: bool                 # something other than cards is over the zone (a hand)


def _zone_transform(zone: str) -> tuple[np.ndarray, tuple[int, int]]:
    """Mat millimetres → zone image pixels."""
    x0, y0, x1, y1 = mat.ZONES[zone]
    x0, y0, x1, y1 = x0 - MARGIN_MM, y0 - MARGIN_MM, x1 + MARGIN_MM, y1 + MARGIN_MM
    t = np.array([[PPM, 0, -x0 * PPM], [0, PPM, -y0 * PPM], [0, 0, 1]], np.float64)
    return t, (int(round((x1 - x0) * PPM)), int(round((y1 - y0) * PPM)))


def white_gains(frame: np.ndarray, pose: mat.MatPose) -> np.ndarray:
    """Per-channel gains that make the mat's white patches neutral white (warm or cold light)."""
    samples = []
    for x0, y0, x1, y1 in mat.WHITE_PATCHES:
        inset = 3.0
        t = np.array([[1, 0, -(x0 + inset)], [0, 1, -(y0 + inset)], [0, 0, 1]], np.float64)
        size = (int(x1 - x0 - 2 * inset), int(y1 - y0 - 2 * inset))
        patch = cv2.warpPerspective(frame, t @ pose.frame_to_mm, size, flags=cv2.INTER_AREA)
        samples.append(patch.reshape(-1, 3))
    pixels = np.concatenate(samples).astype(np.float32)
    bright = pixels[pixels.sum(1) >= np.percentile(pixels.sum(1), 30)]  # skip a shadow or a finger
    mean = np.maximum(bright.mean(0), 20.0)
    return (WHITE_TARGET / mean).astype(np.float32)


_PRINTED: dict[str, np.ndarray] = {}


def printed(zone: str) -> np.ndarray:
    """Where the printed mat itself is not plain grey around a zone (markers, patches, lines,
    labels), widened a little for the homography's error: never mistaken for a card."""
    if zone not in _PRINTED:
        t, size = _zone_transform(zone)
        empty = cv2.warpPerspective(mat.render_mat(PPM), t @ np.diag([1 / PPM, 1 / PPM, 1.0]), size,
                                    flags=cv2.INTER_NEAREST, borderValue=(mat.BACKGROUND_GREY,) * 3)
        ink = (np.abs(empty.astype(np.int16) - mat.BACKGROUND_GREY).max(axis=2) > 20).astype(np.uint8)
        _PRINTED[zone] = cv2.dilate(ink, np.ones((9, 9), np.uint8)) > 0
    return _PRINTED[zone]


def look_at_zone(frame: np.ndarray, pose: mat.MatPose, zone: str, gains: np.ndarray) -> ZoneView:
    t, size = _zone_transform(zone)
    img = cv2.warpPerspective(frame, t @ pose.frame_to_mm, size, flags=cv2.INTER_LINEAR)
    img = np.clip(img.astype(np.float32) * gains, 0, 255).astype(np.uint8)
    view = find_in_view(img, zone)
    if view.rect_px is not None:
        back = np.linalg.inv(t @ pose.frame_to_mm)
        view.corners = cv2.perspectiveTransform(view.rect_px.reshape(-1, 1, 2), back).reshape(4, 2)
    return view


def zone_view_size(zone: str) -> tuple[int, int]:
    return _zone_transform(zone)[1]


def find_in_view(img: np.ndarray, zone: str) -> ZoneView:
    """The top card in a zone image (already seen from above and colour-balanced)."""
    size = (img.shape[1], img.shape[0])
    mask = card_mask(img, printed(zone))
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    areas = [cv2.contourArea(c) for c in contours]
    view = ZoneView(zone, img, mask, None, None, None, float(sum(areas) / CARD_AREA),
                    any(_occluding(c, a, size) for c, a in zip(contours, areas)))
    inside = [(a, c) for c, a in zip(contours, areas) if _centre_in_zone(c, zone)]
    if not inside:
        return view
    area, biggest = max(inside, key=lambda ac: ac[0])
    if not 0.55 * CARD_AREA <= area <= 2.6 * CARD_AREA:
        return view
    rect = cv2.minAreaRect(biggest)
    box = _portrait(cv2.boxPoints(rect))
    view.rect_px = box
    view.crop = upright_crop(img, box)
    return view


def card_mask(img: np.ndarray, ignore: np.ndarray) -> np.ndarray:
    """Pixels that are not the neutral mat grey (card faces, borders, hands), leaving out what is
    printed on the mat."""
    lab = cv2.cvtColor(img, cv2.COLOR_BGR2LAB).astype(np.int16)
    ring = np.concatenate([lab[:6].reshape(-1, 3), lab[-6:].reshape(-1, 3),
                           lab[:, :6].reshape(-1, 3), lab[:, -6:].reshape(-1, 3)])
    bg = np.median(ring, axis=0)
    diff = np.abs(lab - bg)
    dist = diff[..., 0] + 1.5 * (diff[..., 1] + diff[..., 2])
    mask = ((dist > 38) & ~ignore).astype(np.uint8) * 255
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((9, 9), np.uint8))
    # a card's inside can be as grey as the mat: fill the holes of each outline
    filled = np.zeros_like(mask)
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    big = [c for c in contours if cv2.contourArea(c) > 0.05 * CARD_AREA]
    cv2.drawContours(filled, big, -1, 255, -1)
    return filled


def _occluding(contour: np.ndarray, area: float, size: tuple[int, int]) -> bool:
    """A hand (or arm) over the zone: bigger than a small pile, or reaching in from outside."""
    x, y, w, h = cv2.boundingRect(contour)
    touches = x <= 1 or y <= 1 or x + w >= size[0] - 1 or y + h >= size[1] - 1
    return area > 2.8 * CARD_AREA or (touches and area > 1.2 * CARD_AREA)


def _centre_in_zone(contour: np.ndarray, zone: str) -> bool:
    """Cards belong to the zone their middle lies in (a neighbour's card may hang over the edge)."""
    m = cv2.moments(contour)
    if m["m00"] == 0:
        return False
    x0, y0, x1, y1 = mat.ZONES[zone]
    cx = m["m10"] / m["m00"] / PPM - MARGIN_MM + x0  # back to mat millimetres
    cy = m["m01"] / m["m00"] / PPM - MARGIN_MM + y0
    return x0 <= cx <= x1 and y0 <= cy <= y1


def _portrait(box: np.ndarray) -> np.ndarray:
    """Order corners so the first edge is a short one: TL, TR, BR, BL of an upright card."""
    box = np.asarray(box, np.float32)
    if np.linalg.norm(box[1] - box[0]) > np.linalg.norm(box[2] - box[1]):
        box = np.roll(box, -1, axis=0)
    return box


def upright_crop(img: np.ndarray, box: np.ndarray) -> np.ndarray:
    w, h = CROP
    dst = np.array([[0, 0], [w - 1, 0], [w - 1, h - 1], [0, h - 1]], np.float32)
    m = cv2.getPerspectiveTransform(np.asarray(box, np.float32), dst)
    return cv2.warpPerspective(img, m, (w, h), flags=cv2.INTER_AREA)
