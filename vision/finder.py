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
MAT_GREY_L = 140  # the mat's grey in Lab lightness once the white patches read white
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


_EMPTY: dict[str, tuple[np.ndarray, np.ndarray, np.ndarray]] = {}


def empty_zone(zone: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """What the printed mat looks like around a zone with nothing on it, in Lab: the lowest and
    highest lightness within 3 px (the homography is never exact) and the colour."""
    if zone not in _EMPTY:
        t, size = _zone_transform(zone)
        empty = cv2.warpPerspective(mat.render_mat(PPM), t @ np.diag([1 / PPM, 1 / PPM, 1.0]), size,
                                    flags=cv2.INTER_AREA, borderValue=(mat.BACKGROUND_GREY,) * 3)
        lab = cv2.cvtColor(empty, cv2.COLOR_BGR2LAB)
        grey_l = cv2.cvtColor(np.full((1, 1, 3), mat.BACKGROUND_GREY, np.uint8), cv2.COLOR_BGR2LAB)[0, 0, 0]
        light = lab[..., 0].astype(np.float32) / float(grey_l)  # relative to the mat's grey
        k = np.ones((7, 7), np.uint8)
        _EMPTY[zone] = (cv2.erode(light, k), cv2.dilate(light, k), lab[..., 1:].astype(np.int16))
    return _EMPTY[zone]


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
    mask = card_mask(img, zone)
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
    top = _top_card(biggest, mask.shape)
    if not _card_shaped(top):
        return view
    rect = cv2.minAreaRect(top)
    box = _portrait(cv2.boxPoints(rect))
    view.rect_px = box
    view.crop = upright_crop(img, box)
    return view


def card_mask(img: np.ndarray, zone: str) -> np.ndarray:
    """Pixels that differ from the empty printed mat (card faces, borders, hands)."""
    lab = cv2.cvtColor(img, cv2.COLOR_BGR2LAB).astype(np.int16)
    low, high, ab = empty_zone(zone)
    grey = _mat_grey(lab, low, high)
    lightness = lab[..., 0].astype(np.float32)
    d_l = np.maximum(low * grey - lightness, 0) + np.maximum(lightness - high * grey, 0)
    dist = d_l + 1.5 * np.abs(lab[..., 1:] - ab).sum(axis=2)
    mask = (dist > 38).astype(np.uint8) * 255
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((9, 9), np.uint8))
    # a card's inside can be as grey as the mat: fill the holes of each outline
    filled = np.zeros_like(mask)
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    big = [c for c in contours if cv2.contourArea(c) > 0.05 * CARD_AREA]
    cv2.drawContours(filled, big, -1, 255, -1)
    return filled


def _mat_grey(lab: np.ndarray, low: np.ndarray, high: np.ndarray) -> float:
    """The lightness of the mat's plain grey here (light falls unevenly): the median of the
    neutral, mid-grey pixels around the view's edge where nothing is printed. Hands are not
    neutral; card faces are far darker or lighter."""
    edge = np.zeros(lab.shape[:2], bool)
    edge[:12], edge[-12:], edge[:, :12], edge[:, -12:] = True, True, True, True
    plain = edge & (np.abs(low - 1) < 0.05) & (np.abs(high - 1) < 0.05)
    px = lab[plain]
    grey = px[(np.abs(px[:, 1] - 128) < 10) & (np.abs(px[:, 2] - 128) < 10) & (px[:, 0] > 80) & (px[:, 0] < 200)]
    if len(grey) < 0.1 * max(len(px), 1):
        return float(MAT_GREY_L)
    return float(np.median(grey[:, 0]))


def _card_shaped(contour: np.ndarray) -> bool:
    """Fills its rectangle and has a card's proportions (not a glare spot or a stray shape)."""
    (_, _), (w, h), _ = cv2.minAreaRect(contour)
    if min(w, h) == 0:
        return False
    fill = cv2.contourArea(contour) / (w * h)
    ratio = max(w, h) / min(w, h)
    return fill > 0.82 and 1.2 < ratio < 2.0


SLIVER = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (27, 27))  # 9 mm


def _top_card(contour: np.ndarray, shape: tuple[int, ...]) -> np.ndarray:
    """In a pile only the top card shows whole; the cards below peek out as slivers a few mm
    wide. Opening the pile's outline with a 9 mm disc removes the slivers and keeps the top card."""
    blob = np.zeros(shape[:2], np.uint8)
    cv2.drawContours(blob, [contour], -1, 255, -1)
    opened = cv2.morphologyEx(blob, cv2.MORPH_OPEN, SLIVER)
    contours, _ = cv2.findContours(opened, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    if not contours:
        return contour
    best = max(contours, key=cv2.contourArea)
    return best if cv2.contourArea(best) >= 0.5 * CARD_AREA else contour


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
