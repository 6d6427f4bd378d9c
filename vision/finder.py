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
    if top is None:
        top = _fit_card(biggest, img, mask)
    if top is None and area <= 2.2 * CARD_AREA:
        top = biggest  # a tall, untidy pile: its outline is close enough for the classifier
    if top is None:
        return view
    rect = cv2.minAreaRect(top)
    box = _portrait(cv2.boxPoints(rect))
    view.rect_px = box
    view.crop = upright_crop(img, box)
    return view


def card_mask(img: np.ndarray, zone: str) -> np.ndarray:
    """Pixels that differ from the empty printed mat (card faces, borders, hands). Worked out at
    half resolution (1.5 px per mm is plenty for outlines), returned at full resolution."""
    small = cv2.resize(img, (img.shape[1] // 2, img.shape[0] // 2), interpolation=cv2.INTER_AREA)
    lab = cv2.cvtColor(small, cv2.COLOR_BGR2LAB).astype(np.int16)
    low, high, ab = (m[:small.shape[0] * 2:2, :small.shape[1] * 2:2] for m in empty_zone(zone))
    grey = _mat_grey(lab, low, high)
    lightness = lab[..., 0].astype(np.float32)
    d_l = np.maximum(low * grey - lightness, 0) + np.maximum(lightness - high * grey, 0)
    dist = d_l + 1.5 * np.abs(lab[..., 1:] - ab).sum(axis=2)
    mask = (dist > 38).astype(np.uint8) * 255
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((2, 2), np.uint8))
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((5, 5), np.uint8))
    mask = cv2.resize(mask, (img.shape[1], img.shape[0]), interpolation=cv2.INTER_LINEAR)
    mask = (mask > 127).astype(np.uint8) * 255
    # a card's inside can be as grey as the mat: fill the holes of each outline
    filled = np.zeros_like(mask)
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    big = [c for c in contours if cv2.contourArea(c) > 0.05 * CARD_AREA]
    cv2.drawContours(filled, big, -1, 255, -1)
    return filled


def _mat_grey(lab: np.ndarray, low: np.ndarray, high: np.ndarray) -> np.ndarray:
    """The lightness the plain mat grey has at each pixel (light falls unevenly): a smooth
    quadratic surface fitted to the neutral mid-grey pixels where nothing is printed, refitted
    without the pixels that stray from it (card faces of a similar grey, shadows)."""
    h, w = lab.shape[:2]
    step = 3
    sub = lab[::step, ::step]
    ys, xs = np.mgrid[0:sub.shape[0], 0:sub.shape[1]]
    plain = (np.abs(low[::step, ::step] - 1) < 0.05) & (np.abs(high[::step, ::step] - 1) < 0.05)
    ok = plain & (np.abs(sub[..., 1] - 128) < 10) & (np.abs(sub[..., 2] - 128) < 10) \
        & (sub[..., 0] > 70) & (sub[..., 0] < 215)
    x, y, light = xs[ok] / sub.shape[1], ys[ok] / sub.shape[0], sub[..., 0][ok].astype(np.float64)
    if len(light) < 60:
        return np.full((h, w), MAT_GREY_L, np.float32)
    design = np.stack([np.ones_like(x), x, y, x * x, y * y, x * y], 1)
    keep = np.ones(len(light), bool)
    for _ in range(3):
        a, b = design[keep], light[keep]
        coef = np.linalg.solve(a.T @ a + 1e-6 * np.eye(6), a.T @ b)
        keep = np.abs(design @ coef - light) < 12
        if keep.sum() < 30:
            return np.full((h, w), float(np.median(light)), np.float32)
    gy, gx = np.mgrid[0:sub.shape[0], 0:sub.shape[1]]
    gx, gy = gx / sub.shape[1], gy / sub.shape[0]
    small = coef[0] + coef[1] * gx + coef[2] * gy + coef[3] * gx * gx + coef[4] * gy * gy + coef[5] * gx * gy
    return cv2.resize(small.astype(np.float32), (w, h), interpolation=cv2.INTER_LINEAR)


def _card_shaped(contour: np.ndarray) -> bool:
    """Fills its rectangle and has a card's proportions (not a glare spot or a stray shape)."""
    (_, _), (w, h), _ = cv2.minAreaRect(contour)
    if min(w, h) == 0:
        return False
    fill = cv2.contourArea(contour) / (w * h)
    ratio = max(w, h) / min(w, h)
    return fill > 0.8 and 1.2 < ratio < 2.0 and w * h < 1.5 * CARD_AREA


SLIVERS = [cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k)) for k in (1, 13, 23, 31)]  # 0-21 mm at half size


def _top_card(contour: np.ndarray, shape: tuple[int, ...]) -> np.ndarray | None:
    """In a pile only the top card shows whole; the cards below peek out as slivers. Opening the
    pile's outline with ever wider discs removes the slivers until a card-shaped top is left
    (worked at half resolution: outlines need no more)."""
    blob = np.zeros((shape[0] // 2, shape[1] // 2), np.uint8)
    cv2.drawContours(blob, [contour // 2], -1, 255, -1)
    for disc in SLIVERS:
        opened = cv2.morphologyEx(blob, cv2.MORPH_OPEN, disc) if disc.shape[0] > 1 else blob
        contours, _ = cv2.findContours(opened, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        if not contours:
            return None
        best = max(contours, key=cv2.contourArea) * 2
        if cv2.contourArea(best) < 0.6 * CARD_AREA:
            return None
        if _card_shaped(best):
            return best
    return None


CARD_PX = (mat.CARD_MM[0] * PPM, mat.CARD_MM[1] * PPM)


def _fit_card(contour: np.ndarray, img: np.ndarray, mask: np.ndarray) -> np.ndarray | None:
    """A pile whose lower card sticks out too far for opening: try a card-sized rectangle against
    each straight stretch of the pile's outline and keep the one whose whole border lies on image
    edges (the top card's border is seen all round; a lower card's is hidden under the top one)."""
    edges = cv2.dilate(cv2.Canny(cv2.cvtColor(img, cv2.COLOR_BGR2GRAY), 40, 120), np.ones((5, 5), np.uint8))
    poly = cv2.approxPolyDP(contour, 4, True).reshape(-1, 2).astype(np.float32)
    centre = poly.mean(axis=0)
    best, best_score = None, 0.55
    t = np.linspace(0, 1, 24, endpoint=False)
    for i in range(len(poly)):
        p, q = poly[i], poly[(i + 1) % len(poly)]
        length = float(np.linalg.norm(q - p))
        if length < 0.4 * CARD_PX[0]:
            continue
        u = (q - p) / length
        n = np.array([-u[1], u[0]])
        if np.dot(centre - p, n) < 0:
            n = -n
        for side, other in (CARD_PX, CARD_PX[::-1]):
            for anchor in (p, q - u * side):
                box = np.array([anchor, anchor + u * side, anchor + u * side + n * other, anchor + n * other])
                border = np.concatenate([a + np.outer(t, b - a) for a, b in zip(box, np.roll(box, -1, 0))])
                inner = box.mean(0) + 0.8 * (border - box.mean(0))
                if not (_sample(mask, inner) > 0).mean() > 0.97:
                    continue
                score = float((_sample(edges, border) > 0).mean())
                if score > best_score:
                    best, best_score = box, score
    return None if best is None else best.reshape(-1, 1, 2).astype(np.int32)


def _sample(img: np.ndarray, pts: np.ndarray) -> np.ndarray:
    xy = np.round(pts).astype(int)
    ok = (xy[:, 0] >= 0) & (xy[:, 1] >= 0) & (xy[:, 0] < img.shape[1]) & (xy[:, 1] < img.shape[0])
    out = np.zeros(len(xy), img.dtype)
    out[ok] = img[xy[ok, 1], xy[ok, 0]]
    return out


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
