"""Finding the top card in each zone: look at the zone from straight above (through the mat's
homography), balance the colours on the mat's white patches, separate cards from the grey mat,
and cut the top card out as a small upright image for the classifier."""
from __future__ import annotations

import functools
import itertools
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np

from . import mat


def scalar(*values: float) -> Any:
    """A scalar for OpenCV's arithmetic, which takes one wherever an array goes: some versions' stubs
    say so and some do not, so typed as anything."""
    return values[0] if len(values) == 1 else values


PPM = 3.0                     # zone images: pixels per millimetre
MARGIN_MM = 14.0              # looked at around each zone: cards may hang over its edge
CROP = (66, 102)              # the top card, upright (w, h): 1.5 px per mm, numerals 12-21 px tall
CARD_AREA = mat.CARD_MM[0] * mat.CARD_MM[1] * PPM * PPM
CARD_PX = (mat.CARD_MM[0] * PPM, mat.CARD_MM[1] * PPM)
MAT_GREY_L = 140  # the mat's grey in Lab lightness once the white patches read white
WHITE_TARGET = 235.0


@dataclass
class ZoneView:
    """One zone seen from above: its picture, the card mask and what was found."""

    zone: str
    image: np.ndarray              # half size, as the camera saw it (not colour-balanced)
    mask: np.ndarray
    crop: np.ndarray | None        # the top card, upright, CROP size, colour-balanced
    rect_px: np.ndarray | None     # its four corners in the zone image
    corners: np.ndarray | None     # the same corners in the frame
    area: float                    # card-coloured area of the patches whose middle lies in the zone (the
                                   # pile, not a hand reaching in nor a neighbour's card), in card areas
    occluded: bool                 # something other than cards is over the zone (a hand)
    soft_edged: bool = False       # the card's edge steps less than a sharp card's (``SOFT_CARD_EDGE``):
                                   # a blurred picture, read but not learned from
    full_colour: bool = False      # the crop was cut out of the camera's raw picture (``detail``), whose
                                   # colour is at every pixel's resolution (a frame's may be at half: JPEG, YUV)


def _zone_transform(zone: str) -> tuple[np.ndarray, tuple[int, int]]:
    """Mat millimetres → zone image pixels."""
    x0, y0, x1, y1 = mat.ZONES[zone]
    x0, y0, x1, y1 = x0 - MARGIN_MM, y0 - MARGIN_MM, x1 + MARGIN_MM, y1 + MARGIN_MM
    t = np.array([[PPM, 0, -x0 * PPM], [0, PPM, -y0 * PPM], [0, 0, 1]], np.float64)
    return t, (int(round((x1 - x0) * PPM)), int(round((y1 - y0) * PPM)))


def _mat_pixels(frame: np.ndarray, pose: mat.MatPose, rects: tuple, inset: float) -> np.ndarray:
    """The frame's pixels over rectangles of the mat (mm), one per row."""
    samples = []
    for x0, y0, x1, y1 in rects:
        t = np.array([[1, 0, -(x0 + inset)], [0, 1, -(y0 + inset)], [0, 0, 1]], np.float64)
        size = (int(x1 - x0 - 2 * inset), int(y1 - y0 - 2 * inset))
        samples.append(cv2.warpPerspective(frame, t @ pose.frame_to_mm, size, flags=cv2.INTER_LINEAR).reshape(-1, 3))
    return np.concatenate(samples).astype(np.float32)


def white_gains(frame: np.ndarray, pose: mat.MatPose) -> np.ndarray:
    """Per-channel gains that make the mat's white patches neutral white (warm or cold light).
    A channel the light drives past the camera's top reads too dark on the white: the mat's grey,
    scaled up by how much darker it is printed, stands in for it then."""
    pixels = _mat_pixels(frame, pose, mat.WHITE_PATCHES, 3.0)
    bright = pixels[pixels.sum(1) >= np.percentile(pixels.sum(1), 30)]  # skip a shadow or a finger
    grey = np.median(_mat_pixels(frame, pose, mat.GREY_STRIPS, 1.0), axis=0)  # a card over the edge is no matter
    white = np.maximum(bright.mean(0), grey * 255.0 / mat.BACKGROUND_GREY)
    return (WHITE_TARGET / np.maximum(white, 20.0)).astype(np.float32)


@dataclass(frozen=True)
class EmptyZone:
    """What the background of a zone (the printed mat, or a table) looks like with nothing on it,
    at half resolution: the lowest and highest Lab lightness within a few pixels (the homography
    is never exact) relative to its main grey, the colour, and what following the light needs."""

    low: np.ndarray        # float32
    high: np.ndarray       # float32
    lab: np.ndarray        # uint8, lightness channel zeroed: compared on colour only
    fit_at: tuple[np.ndarray, np.ndarray]   # rows, columns of plain background, every 6th pixel
    fit_design: np.ndarray                  # the quadratic surface's terms at those pixels
    fit_light: np.ndarray                   # the background's relative lightness there
    fit_colour: np.ndarray                  # and its colour (Lab a, b)
    surface: np.ndarray                     # the terms on the whole every-6th-pixel grid
    typical: float                          # its lightness under the light it was seen in

    @staticmethod
    def from_lab(lab: np.ndarray, low: np.ndarray, high: np.ndarray, plain: np.ndarray, typical: float) -> EmptyZone:
        """``low``, ``high``: lightness relative to the background's main grey, lowest and highest
        nearby; ``plain``: where the background is even enough to follow the light on."""
        colour = np.ascontiguousarray(lab)
        colour[..., 0] = 0
        gy, gx = np.mgrid[0:low.shape[0]:FIT_STEP, 0:low.shape[1]:FIT_STEP]
        gx, gy = gx / FIT_STEP / gx.shape[1], gy / FIT_STEP / gy.shape[0]
        rows, cols = np.nonzero(plain[::FIT_STEP, ::FIT_STEP])
        at = (rows * FIT_STEP, cols * FIT_STEP)
        return EmptyZone(low, high, colour, at, _quadratic_terms(gx[rows, cols], gy[rows, cols]),
                         (low[at] + high[at]) / 2, colour[at][:, 1:].astype(np.int16),
                         _quadratic_terms(gx, gy).astype(np.float32), typical)

    @staticmethod
    def from_half(half: np.ndarray) -> EmptyZone:
        """The background of a zone with nothing on it (a table without a printed mat), from its
        half-size image."""
        lab = cv2.cvtColor(half, cv2.COLOR_BGR2LAB)
        lightness = lab[..., 0].astype(np.float32)
        typical = max(float(np.median(lightness)), 1.0)
        k = np.ones((5, 5), np.uint8)  # the table's grain and a little camera shake
        low, high = cv2.erode(lightness, k) / typical, cv2.dilate(lightness, k) / typical
        return EmptyZone.from_lab(lab, low, high, (high - low < 0.12) & (low > 0.2), typical)


_EMPTY: dict[tuple[str, tuple[int, int]], EmptyZone] = {}
FIT_STEP = 6


def _quadratic_terms(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    return np.stack([np.ones_like(x), x, y, x * x, y * y, x * y], -1)


def empty_zone(zone: str, half: tuple[int, int]) -> EmptyZone:
    """The printed mat around a zone; ``half``: (height, width) of the half-size zone image."""
    key = (zone, half)
    if key not in _EMPTY:
        t, size = _zone_transform(zone)
        empty = cv2.warpPerspective(mat.render_mat(PPM), t @ np.diag([1 / PPM, 1 / PPM, 1.0]), size,
                                    flags=cv2.INTER_AREA, borderValue=(mat.BACKGROUND_GREY,) * 3)
        lab = cv2.cvtColor(empty, cv2.COLOR_BGR2LAB)
        grey_l = cv2.cvtColor(np.full((1, 1, 3), mat.BACKGROUND_GREY, np.uint8), cv2.COLOR_BGR2LAB)[0, 0, 0]
        light = lab[..., 0].astype(np.float32) / float(grey_l)  # relative to the mat's grey
        k = np.ones((7, 7), np.uint8)
        h, w = half
        low, high, lab = (np.ascontiguousarray(m[:h * 2:2, :w * 2:2])
                          for m in (cv2.erode(light, k), cv2.dilate(light, k), lab))
        plain = (np.abs(low - 1) < 0.05) & (np.abs(high - 1) < 0.05)  # the mat's grey, away from the print
        _EMPTY[key] = EmptyZone.from_lab(lab, low, high, plain, MAT_GREY_L)
    return _EMPTY[key]


def half_size(frame: np.ndarray) -> np.ndarray:
    """The frame at half size, each pixel the mean of four (the same as a zone image made at full
    size and then halved, for a fraction of the work)."""
    return cv2.resize(frame, (frame.shape[1] // 2, frame.shape[0] // 2), interpolation=cv2.INTER_AREA)


def zone_pixels(frame: np.ndarray, pose: mat.MatPose, zone: str, frame_half: np.ndarray | None = None,
                detail: np.ndarray | None = None) -> ZonePixels:
    """``frame_half``: ``half_size(frame)`` when several zones are looked at; ``detail``: see
    ``ZonePixels.of_frame``."""
    t, size = _zone_transform(zone)
    return ZonePixels.of_frame(frame, half_size(frame) if frame_half is None else frame_half,
                               t @ pose.frame_to_mm, size, detail)


def to_detail(frame: np.ndarray, detail: np.ndarray) -> np.ndarray:
    """Frame pixels → the pixels of ``detail``, a larger picture of the same moment (a camera's
    larger stream), pixel centres onto pixel centres."""
    sx, sy = detail.shape[1] / frame.shape[1], detail.shape[0] / frame.shape[0]
    return np.array([[sx, 0, (sx - 1) / 2], [0, sy, (sy - 1) / 2], [0, 0, 1]], np.float64)


@dataclass
class ZonePixels:
    """A zone seen from above: the half-size image that outlines are found in, and the full-size
    pixels, made only where they are needed (the top card, or a hard pile)."""

    half: np.ndarray
    size: tuple[int, int]                                   # full size (w, h)
    region: Callable[[int, int, int, int], np.ndarray]      # full-size pixels of x0, y0, x1, y1
    cut: Callable[[np.ndarray], np.ndarray] | None = None   # the card with corners ``box``, straight from the source

    @staticmethod
    def of_image(img: np.ndarray) -> ZonePixels:
        return ZonePixels(half_size(img), (img.shape[1], img.shape[0]), lambda x0, y0, x1, y1: img[y0:y1, x0:x1])

    @staticmethod
    def of_frame(frame: np.ndarray, frame_half: np.ndarray, to_zone: np.ndarray, size: tuple[int, int],
                 detail: np.ndarray | None = None) -> ZonePixels:
        """``frame_half``: ``half_size(frame)``; ``to_zone``: frame pixels → full-size zone pixels.
        ``detail``: a larger picture of the same moment (the camera's larger stream), which the
        full-size pixels, the top card's among them, are taken from: outlines are found in the
        frame as ever, and the card is cut out with more pixels and less blur. A camera without the
        larger stream gives its raw frame itself here (``camera.Picamera2Source``)."""
        zone_to_half = np.array([[0.5, 0, -0.25], [0, 0.5, -0.25], [0, 0, 1]])  # a half pixel covers two
        half_to_frame = np.array([[2, 0, 0.5], [0, 2, 0.5], [0, 0, 1]])
        half = cv2.warpPerspective(frame_half, zone_to_half @ to_zone @ half_to_frame,
                                   (size[0] // 2, size[1] // 2), flags=cv2.INTER_LINEAR)
        source, to_full = frame, to_zone
        if detail is not None:
            source, to_full = detail, to_zone @ np.linalg.inv(to_detail(frame, detail))

        def region(x0: int, y0: int, x1: int, y1: int) -> np.ndarray:
            shift = np.array([[1, 0, -x0], [0, 1, -y0], [0, 0, 1]], np.float64)
            return cv2.warpPerspective(source, shift @ to_full, (x1 - x0, y1 - y0), flags=cv2.INTER_LINEAR)

        def cut(box: np.ndarray) -> np.ndarray:
            return soften(cv2.warpPerspective(source, _to_crop(box) @ to_full, CROP, flags=cv2.INTER_LINEAR))
        return ZonePixels(half, size, region, cut)

    def full(self) -> np.ndarray:
        return self.region(0, 0, *self.size)

    def crop(self, box: np.ndarray) -> np.ndarray:
        """The card with corners ``box`` (full-size zone pixels), upright: cut straight out of the
        frame (or the larger picture) where there is one, else from just its region."""
        if self.cut is not None:
            return self.cut(box)
        x0, y0 = np.maximum(np.floor(box.min(0)).astype(int) - 2, 0)
        x1, y1 = np.minimum(np.ceil(box.max(0)).astype(int) + 3, self.size)
        return upright_crop(self.region(x0, y0, x1, y1), box - [x0, y0])


def look_at_zone(frame: np.ndarray, pose: mat.MatPose, zone: str, gains: np.ndarray | None,
                 empty: EmptyZone | None = None, frame_half: np.ndarray | None = None,
                 before: np.ndarray | None = None, detail: np.ndarray | None = None) -> ZoneView:
    """``empty``: what the zone looks like with nothing on it (default: the printed mat);
    ``frame_half``: ``half_size(frame)`` when several zones are looked at; ``before``: the
    zone's picture before its top card was laid (``find_in_view``); ``detail``: a larger picture
    of the same moment to cut the card out of (``ZonePixels.of_frame``)."""
    t, _ = _zone_transform(zone)
    view = find_in_view(zone_pixels(frame, pose, zone, frame_half, detail), zone, gains, empty, before)
    view.full_colour = detail is not None
    if view.rect_px is not None:
        back = np.linalg.inv(t @ pose.frame_to_mm)
        view.corners = cv2.perspectiveTransform(view.rect_px.reshape(-1, 1, 2), back).reshape(4, 2)
    return view


LEVELS = np.arange(256, dtype=np.uint8).reshape(1, 256, 1).repeat(3, axis=2)  # every 8-bit level, per channel


def balance(img: np.ndarray, gains: np.ndarray | None) -> np.ndarray:
    """The image under neutral light: each channel times its gain (saturating). An 8-bit image
    looks its levels up in a table of the same product, several times quicker per pixel."""
    if gains is None:
        return img
    gain = scalar(*(float(g) for g in gains), 0.0)
    if img.dtype != np.uint8 or img.ndim != 3 or img.shape[2] != 3:
        return cv2.multiply(img, gain)
    return cv2.LUT(img, cv2.multiply(LEVELS, gain))


CUT = 38.0                 # how far from the empty mat's colour a card's pixels are, at least
FAINT_CUTS = (30.0, 18.0)  # the same in glare or dim light, when a second look is needed


def find_in_view(img: np.ndarray | ZonePixels, zone: str, gains: np.ndarray | None = None,
                 empty: EmptyZone | None = None, before: np.ndarray | None = None) -> ZoneView:
    """The top card in a zone seen from above (an image, or its ``ZonePixels``); ``gains`` balance
    its colours (None: they are balanced already). Only the half-size image and the crop are
    balanced. Something faint but no card (and no glare spot): further looks take smaller
    differences from the empty mat for a card (a white card in glare), if its outline shows as a
    card's. ``before``: the zone's half-size image as it was before the top card was laid
    (``ZoneView.image`` of then), which tells the new card from the pile under it."""
    pixels = ZonePixels.of_image(img) if isinstance(img, np.ndarray) else img
    full = functools.cache(pixels.full)
    view, glare = _look_for_card(pixels, full, zone, gains, empty, CUT)
    if view.crop is None and not view.occluded and not glare and view.area >= 0.02:
        for cut in FAINT_CUTS:
            second, _ = _look_for_card(pixels, full, zone, gains, empty, cut)
            if second.crop is not None:
                view = second
                break
    if before is not None and view.crop is not None and not view.occluded:
        # the new card's edges in balanced colours: under a dim lamp a worn edge is too faint otherwise
        laid = _laid_since(pixels, lambda: balance(full(), gains), zone, gains, before, view.mask)
        if laid is not None:
            view.rect_px, view.crop = laid, balance(pixels.crop(laid), gains)
    return view


CHANGED_AREA = (0.03, 1.25)  # the part of a zone that changed since one card was laid on it, in card areas
SPECK = 0.004                # changed patches smaller than this (card areas) are noise; a numeral is 0.01
LAID_FLOOR = 0.3             # least share of the new card's border on edges (blurred worn edges on a like card)
LIFTED = 0.1                 # card areas that changed outside the pile: a card was taken away
SHRANK = 0.03                # and by how much a pile's area may shrink without one taken away
SEGMENTS = 40                # the longest straight edges tried as a side of the new card


def _laid_since(pixels: ZonePixels, full: Callable[[], np.ndarray], zone: str, gains: np.ndarray | None,
                before: np.ndarray, pile: np.ndarray) -> np.ndarray | None:
    """The card laid on a pile since ``before``. A card cut out of the pile's outline may hold a
    corner of the card under it, numeral and all; every pixel that changed since lies on the new
    card (where it covers a card of the same face only its numerals and art show as a change,
    so the change alone is no outline): the card is the card-sized box within the pile that holds
    all of the change and whose border lies most on edges. None when the change is not one card's
    laid (cards were lifted off or pushed about): the pile's own outline stands."""
    changed = card_mask(pixels.half, pixels.size, zone, gains, EmptyZone.from_half(balance(before, gains)), least=SPECK)
    gone = cv2.countNonZero(cv2.bitwise_and(changed, cv2.bitwise_not(pile)))
    shrank = cv2.countNonZero(card_mask(before, pixels.size, zone, gains)) - cv2.countNonZero(pile)
    if gone > LIFTED * CARD_AREA or shrank > SHRANK * CARD_AREA:
        return None  # where a card lay there is mat now, or the pile got smaller: one was lifted off
    changed = cv2.bitwise_and(changed, pile)
    area = cv2.countNonZero(changed)
    if not CHANGED_AREA[0] * CARD_AREA <= area <= CHANGED_AREA[1] * CARD_AREA:
        return None
    contours, _ = cv2.findContours(changed, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    marks = [c for c in contours if cv2.contourArea(c) > SPECK * CARD_AREA]  # not a speck of noise
    if not marks:
        return None
    points = cv2.convexHull(np.concatenate(marks)).reshape(-1, 2).astype(np.float64)  # a box holds all or none
    canny = _faint_edges(full(), pile)
    rects = _boxes_on_segments(canny, SEGMENTS)  # a face printed with a grid has hundreds of edges
    if rects is None:
        return None
    corner, u_side, n_side = rects[:, 0], rects[:, 1] - rects[:, 0], rects[:, 3] - rects[:, 0]
    rel = points[None] - corner[:, None]                                     # (boxes, points, 2)
    a = np.einsum("bpk,bk->bp", rel, u_side) / np.einsum("bk,bk->b", u_side, u_side)[:, None]
    b = np.einsum("bpk,bk->bp", rel, n_side) / np.einsum("bk,bk->b", n_side, n_side)[:, None]
    slack = 4.0 / CARD_PX[0]
    holds = ((a > -slack) & (a < 1 + slack) & (b > -slack) & (b < 1 + slack)).all(1)
    if not holds.any():
        return None
    rects = rects[holds]
    t = np.linspace(0, 1, 24, endpoint=False)
    edges = cv2.dilate(canny, np.ones((5, 5), np.uint8))
    score = (_sample(edges, _border(rects, t).reshape(-1, 2)) > 0).reshape(len(rects), -1).mean(1)
    k = _best_within(rects, score, LAID_FLOOR, pile, t)
    return None if k is None else _portrait(cv2.boxPoints(cv2.minAreaRect(rects[k].astype(np.float32))))  # clockwise


def _look_for_card(pixels: ZonePixels, full: Callable[[], np.ndarray], zone: str, gains: np.ndarray | None,
                   empty: EmptyZone | None, cut: float) -> tuple[ZoneView, bool]:
    """The zone's view, and whether what stood out was a glare spot rather than a card."""
    size = pixels.size
    mask = card_mask(pixels.half, size, zone, gains, empty, cut)
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    areas = [cv2.contourArea(c) for c in contours]
    inside = [(a, c) for c, a in zip(contours, areas, strict=True) if _centre_in_zone(c, zone)]
    view = ZoneView(zone, pixels.half, mask, None, None, None, float(sum(a for a, _ in inside) / CARD_AREA),
                    any(_occluding(c, a, size) for c, a in zip(contours, areas, strict=True)))
    if not inside:
        return view, False
    area, biggest = max(inside, key=lambda ac: ac[0])
    strict = cut < CUT  # a faint outline must be a card's; no guessing from a rough shape
    if area < (0.55 if strict else 0.3) * CARD_AREA or (strict and _touches_edge(biggest, size)):
        return view, False  # too small, or a faint patch reaching out of the picture: glare
    glare = False
    if area < 0.55 * CARD_AREA:  # part of a card, the rest lost in glare as bright as its face
        top = _fit_card(biggest, full(), mask, partial=True)
    else:
        top = _top_card(biggest, mask.shape) if area <= 2.6 * CARD_AREA else None
        if top is not None and not strict:
            step = _edge_step(top, pixels.half, gains)
            view.soft_edged = step < SHARP_EDGE
            if step < (SOFT_CARD_EDGE if _whole_card(top, size) else SHARP_EDGE):
                top, glare, view.soft_edged = None, True, False  # a glare spot cut straight by the picture's edge
        if top is None:  # a lower card sticks out far, or the pile merged with a shade on the mat
            top = _fit_card(biggest, full(), mask)
        if top is None and area <= 2.2 * CARD_AREA and not strict:
            step = _edge_step(biggest, pixels.half, gains)
            if step >= SHARP_EDGE:
                top = biggest  # a tall, untidy pile: its outline is close enough for the classifier
            else:  # a glare spot's rim; an edge a blurred card's could be leaves the finer looks to tell
                glare = step < SOFT_CARD_EDGE
        if top is None:  # dim or washed-out light: the card's edges are faint
            top = _fit_card(biggest, full(), mask, faint=True)
        if top is None and not strict:  # no stretch of the outline is the top card's
            top = _search_card(full(), mask)
    if top is None:
        return view, glare
    rect = cv2.minAreaRect(top)
    box = _portrait(cv2.boxPoints(rect))
    if strict and not (_card_sized(rect) and (box >= 4).all() and (box < np.array(size) - 4).all()):
        return view, False  # a faint outline not of one whole card: glare, or cut by the mat's edge
    view.rect_px = box
    view.crop = balance(pixels.crop(box), gains)
    return view, False


COLOUR_WEIGHT = 1.5  # a difference in colour (Lab a*, b*) counts half again as much as one in lightness
DIST_WEIGHTS = np.array([[0.0, COLOUR_WEIGHT, COLOUR_WEIGHT]], np.float32)


def card_mask(half: np.ndarray, size: tuple[int, int], zone: str, gains: np.ndarray | None = None,
              empty: EmptyZone | None = None, cut: float = CUT, least: float = 0.05) -> np.ndarray:
    """Pixels that differ from the empty background (card faces, borders, hands), in patches of at
    least ``least`` card areas. Worked out on the half-size image (1.5 px per mm is plenty for
    outlines), returned at full ``size``."""
    small = balance(half, gains)
    lab = cv2.cvtColor(small, cv2.COLOR_BGR2LAB)
    empty = empty or empty_zone(zone, small.shape[:2])
    grey = _background_light(lab, empty)
    lightness = lab[..., 0].astype(np.float32)
    too_dark = cv2.max(cv2.subtract(cv2.multiply(empty.low, grey), lightness), scalar(0.0))
    too_light = cv2.max(cv2.subtract(lightness, cv2.multiply(empty.high, grey)), scalar(0.0))
    colour = cv2.transform(cv2.absdiff(lab, empty.lab), DIST_WEIGHTS)  # saturates at 255: far above the cut
    dist = cv2.add(cv2.add(too_dark, too_light), colour, dtype=cv2.CV_32F)
    mask = cv2.compare(dist, scalar(cut), cv2.CMP_GT)
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((2, 2), np.uint8))
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((5, 5), np.uint8))
    mask = cv2.resize(mask, size, interpolation=cv2.INTER_LINEAR)
    mask = cv2.compare(mask, scalar(127), cv2.CMP_GT)
    # a card's inside can be as grey as the mat: fill the holes of each outline
    filled = np.zeros_like(mask)
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    big = [c for c in contours if cv2.contourArea(c) > least * CARD_AREA]
    cv2.drawContours(filled, big, -1, 255, -1)
    return filled


def _background_light(lab: np.ndarray, empty: EmptyZone) -> np.ndarray:
    """How light the background is now at each pixel, in units of its relative lightness (light
    falls unevenly and changes): a smooth quadratic surface fitted to the plain background pixels
    that kept their colour, refitted without the pixels that stray from it (card faces of a
    similar colour, shadows)."""
    h, w = lab.shape[:2]
    sub = lab[empty.fit_at].astype(np.int16)
    ok = (np.abs(sub[:, 1:] - empty.fit_colour) < 10).all(axis=1) & (sub[:, 0] > 70) & (sub[:, 0] < 215)
    design, light = empty.fit_design[ok], sub[ok, 0] / empty.fit_light[ok].astype(np.float64)
    if len(light) < 60:
        return np.full((h, w), empty.typical, np.float32)
    keep = np.ones(len(light), bool)
    for _ in range(3):
        a, b = design[keep], light[keep]
        coef = np.linalg.solve(a.T @ a + 1e-6 * np.eye(6), a.T @ b)
        keep = np.abs(design @ coef - light) < 12
        if keep.sum() < 30:
            return np.full((h, w), float(np.median(light)), np.float32)
    small = empty.surface @ coef.astype(np.float32)
    return cv2.resize(small, (w, h), interpolation=cv2.INTER_LINEAR)


SHARP_EDGE = 5.0      # levels per half-size pixel across an outline: a card's edge, not a glare spot's rim
# the same for an outline of one whole card's shape and size inside the picture: a glare spot is round
# and lies anywhere, so a softer step will do (a cream face blurred into the mat under a warm lamp
# steps 4 to 5 levels, a glare spot's rim 2 to 3)
SOFT_CARD_EDGE = 3.5


def _whole_card(contour: np.ndarray, size: tuple[int, int]) -> bool:
    """One card's outline, whole: clear of the picture's edges and within a fifth of a card's size (a
    pile of two nearly square on each other, or a blurred cream face that lost a strip to the mat)."""
    return _card_sized(cv2.minAreaRect(contour), within=0.2) and not _touches_edge(contour, size)


def _edge_step(contour: np.ndarray, half: np.ndarray, gains: np.ndarray | None) -> float:
    """How sharply the light or the colour changes across the outline (median over it, in levels per
    half-size pixel of ``half`` with its colours balanced by ``gains``): a card's edge is a step
    even when blurred (13 or more for 99% of piles on rendered frames), a glare spot's rim a gentle
    slope (2 to 3). The colour counts for a card whose edge is as light as the mat but not as grey
    (a brown vignette on sepia paper). Balanced, as a dim lamp shrinks every step: the faded edges
    of a borderless worn deck measured 4 to 5 levels as the camera saw them, 5 to 6 balanced."""
    x, y, w, h = cv2.boundingRect(contour // 2)
    x0, y0 = max(x - 2, 0), max(y - 2, 0)
    lab = cv2.cvtColor(balance(half[y0:y + h + 2, x0:x + w + 2], gains), cv2.COLOR_BGR2Lab)
    slopes = [cv2.magnitude(cv2.Sobel(c, cv2.CV_32F, 1, 0), cv2.Sobel(c, cv2.CV_32F, 0, 1)) * weight
              for c, weight in zip(cv2.split(lab), (1 / 8, COLOUR_WEIGHT / 8, COLOUR_WEIGHT / 8), strict=True)]
    slope: np.ndarray = cv2.max(cv2.max(slopes[0], slopes[1]), slopes[2])
    slope = cv2.dilate(slope, np.ones((5, 5), np.uint8))  # the step may lie two pixels off the outline
    return float(np.median(_sample(slope, _evenly_along(contour.reshape(-1, 2) / 2.0 - [x0, y0]))))


def _evenly_along(poly: np.ndarray, step: float = 1.0) -> np.ndarray:
    """Points every ``step`` pixels along a closed outline (its corners alone crowd at curves)."""
    ends = np.vstack([poly, poly[:1]]).astype(np.float64)
    at = np.concatenate([[0.0], np.cumsum(np.linalg.norm(np.diff(ends, axis=0), axis=1))])
    walk = np.arange(0.0, at[-1], step)
    return np.stack([np.interp(walk, at, ends[:, 0]), np.interp(walk, at, ends[:, 1])], axis=1)


def _card_shaped(contour: np.ndarray) -> bool:
    """Fills its rectangle and has a card's proportions (not a glare spot or a stray shape)."""
    (_, _), (w, h), _ = cv2.minAreaRect(contour)
    if min(w, h) == 0:
        return False
    fill = cv2.contourArea(contour) / (w * h)
    ratio = max(w, h) / min(w, h)
    return fill > 0.8 and 1.2 < ratio < 2.0 and w * h < 1.5 * CARD_AREA


def _card_sized(rect: tuple, within: float = 0.12) -> bool:
    """Within an eighth (or ``within``) of a card's width and length (a glare spot may be as round as a pile)."""
    short, long_ = sorted(rect[1])
    return abs(short / CARD_PX[0] - 1) < within and abs(long_ / CARD_PX[1] - 1) < within


SLIVERS = [cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k)) for k in (1, 13, 23, 31)]  # 0-21 mm at half size


def _top_card(contour: np.ndarray, shape: tuple[int, ...]) -> np.ndarray | None:
    """In a pile only the top card shows whole; the cards below peek out as slivers. Opening the
    pile's outline with ever wider discs removes the slivers until a card-shaped top is left
    (worked at half resolution: outlines need no more)."""
    half = contour // 2
    x, y, w, h = cv2.boundingRect(half)
    # only the pile and a disc's reach round it: the opening is the same there, at a fraction of the work
    reach = SLIVERS[-1].shape[0] // 2 + 1
    x0, y0 = max(x - reach, 0), max(y - reach, 0)
    x1, y1 = min(x + w + reach, shape[1] // 2), min(y + h + reach, shape[0] // 2)
    blob = np.zeros((y1 - y0, x1 - x0), np.uint8)
    cv2.drawContours(blob, [half], -1, 255, -1, offset=(-x0, -y0))
    for disc in SLIVERS:
        opened = cv2.morphologyEx(blob, cv2.MORPH_OPEN, disc) if disc.shape[0] > 1 else blob
        contours, _ = cv2.findContours(opened, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE, offset=(x0, y0))
        if not contours:
            return None
        best = max(contours, key=cv2.contourArea) * 2
        if cv2.contourArea(best) < 0.6 * CARD_AREA:
            return None
        if _card_shaped(best):
            return best
    return None


def _fit_card(contour: np.ndarray, img: np.ndarray, mask: np.ndarray, partial: bool = False,
              faint: bool = False) -> np.ndarray | None:
    """A pile whose lower card sticks out too far for opening: try a card-sized rectangle against
    each straight stretch of the pile's outline and keep the one whose whole border lies on image
    edges (the top card's border is seen all round; a lower card's is hidden under the top one).
    ``partial``: the outline is only part of a card; the rectangle must hold all of it instead of
    lying within it, and more of its border must be seen. ``faint``: weaker edges count (dim or
    washed-out light)."""
    low, high = (20, 60) if partial or faint else (40, 120)  # glare leaves the far edges faint
    edges = cv2.dilate(cv2.Canny(cv2.cvtColor(img, cv2.COLOR_BGR2GRAY), low, high), np.ones((5, 5), np.uint8))
    poly = cv2.approxPolyDP(contour, 4, True).reshape(-1, 2).astype(np.float32)
    centre = poly.mean(axis=0)
    best, best_score = None, 0.75 if partial else 0.55
    t = np.linspace(0, 1, 24, endpoint=False)
    shifts = [(a, b) for a in range(-8, 9, 2) for b in range(-8, 9, 2)]  # the outline sits a few px off the edge
    boxes, sides = [], []
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
                boxes.append(_rect(anchor, u, n, side, other))
                sides.append((u, n))
    if not boxes:
        return None
    rough = np.array(boxes)
    seen = (_sample(edges, _border(rough, t).reshape(-1, 2)) > 0).reshape(len(rough), -1).mean(1)
    order = np.argsort(-seen, kind="stable")  # stable: ties in the order of the outline
    offsets = np.array(shifts, np.float32)
    # only the likeliest are moved about: the best four, and the best two that already hold (in
    # faint light the mat's texture gives stray edges that can outscore the card)
    holding = itertools.islice((r for r in order[4:] if _holds(rough[r], poly, mask, t, partial)), 2)
    for r in [*order[:4], *holding]:
        box, (u, n) = rough[r], sides[r]
        moves = offsets[:, :1] * u + offsets[:, 1:] * n                      # (shifts, 2)
        border = _border(box, t)[None] + moves[:, None]                      # (shifts, points, 2)
        scores = (_sample(edges, border.reshape(-1, 2)) > 0).reshape(len(moves), -1).mean(1)
        for k in np.argsort(-scores):
            if scores[k] <= best_score:
                break
            if _holds(box + moves[k], poly, mask, t, partial):
                best, best_score = box + moves[k], float(scores[k])
                break
    return None if best is None else best.reshape(-1, 1, 2).astype(np.int32)


SEARCH_SEEN = (0.55, 0.75)  # share of each side, and of the whole border, on edges at least


def _search_card(img: np.ndarray, mask: np.ndarray) -> np.ndarray | None:
    """A pile merged with glare or shade all round its top card, so that no stretch of the outline
    belongs to the card: slide a card-sized rectangle along every straight edge seen within the
    outline, and keep the one that lies within it and has edges under all four of its sides (a
    glare spot's soft rim gives no straight edges; the mat's printed lines give one side only)."""
    canny = _faint_edges(img, mask)
    rects = _boxes_on_segments(canny)
    if rects is None:
        return None
    t = np.linspace(0, 1, 24, endpoint=False)
    edges = cv2.dilate(canny, np.ones((5, 5), np.uint8))
    seen = (_sample(edges, _border(rects, t).reshape(-1, 2)) > 0).reshape(len(rects), 4, -1).mean(2)
    score = np.where(seen.min(1) >= SEARCH_SEEN[0], seen.mean(1), 0.0)
    k = _best_within(rects, score, SEARCH_SEEN[1], mask, t)
    return None if k is None else rects[k].reshape(-1, 1, 2).astype(np.int32)


def _best_within(rects: np.ndarray, score: np.ndarray, floor: float, mask: np.ndarray, t: np.ndarray) -> int | None:
    """Of the 20 best-scoring boxes scoring at least ``floor``, the best that lies on the mask."""
    for k in np.argsort(-score)[:20]:
        if score[k] < floor:
            break
        if _within(rects[k], mask, t):
            return int(k)
    return None


def _faint_edges(img: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """Edges in ``img`` on or just off ``mask``, faint ones too (a card's edge over one of the same face)."""
    grey = cv2.GaussianBlur(cv2.cvtColor(img, cv2.COLOR_BGR2GRAY), (5, 5), 0)
    return cv2.bitwise_and(cv2.Canny(grey, 10, 30), cv2.dilate(mask, np.ones((9, 9), np.uint8)))


def _boxes_on_segments(canny: np.ndarray, longest: int | None = None) -> np.ndarray | None:
    """Card-sized boxes with a side along a straight edge of ``canny`` (only its ``longest``
    edges, if given), on either side of it and slid along it: (boxes, 4, 2) corners, or None."""
    segments = cv2.HoughLinesP(canny, 1, np.pi / 180, 20, minLineLength=0.3 * CARD_PX[0], maxLineGap=8)
    if segments is None:
        return None
    segments = segments.reshape(-1, 2, 2).astype(np.float64)
    if longest is not None:
        segments = segments[np.argsort(-np.linalg.norm(segments[:, 1] - segments[:, 0], axis=1))[:longest]]
    offs = np.array([-3.0, 0.0, 3.0])  # the edge is a few px wide
    boxes = []
    for p, q in segments:
        length = float(np.linalg.norm(q - p))
        u = (q - p) / length
        for n in (np.array([-u[1], u[0]]), np.array([u[1], -u[0]])):    # the card lies on either side
            for side, other in (CARD_PX, CARD_PX[::-1]):
                along = np.arange(length - side - 6, 6.1, 3.0)           # the side holds the segment
                if not len(along):
                    continue  # the segment is longer than the side: no box of this shape holds it
                corners = (p + along[:, None, None] * u + offs[None, :, None] * n).reshape(-1, 1, 2)
                boxes.append(corners + np.array([0 * u, u * side, u * side + n * other, n * other]))
    return np.concatenate(boxes) if boxes else None


def _rect(corner: np.ndarray, u: np.ndarray, n: np.ndarray, side: float, other: float) -> np.ndarray:
    """The four corners of a rectangle from one corner, its first side ``side`` long along ``u``
    and its second ``other`` long along ``n``."""
    return np.array([corner, corner + u * side, corner + u * side + n * other, corner + n * other])


def _border(box: np.ndarray, t: np.ndarray) -> np.ndarray:
    """Points at ``t`` along each side of a box, side by side; of many boxes at once for
    (..., 4, 2) corners."""
    ends = np.roll(box, -1, axis=-2)
    return np.concatenate([box[..., i:i + 1, :] + t[:, None] * (ends[..., i:i + 1, :] - box[..., i:i + 1, :])
                           for i in range(4)], axis=-2)


def _holds(box: np.ndarray, poly: np.ndarray, mask: np.ndarray, t: np.ndarray, partial: bool) -> bool:
    """A top card lies within its pile's outline; part of a card lies within the card."""
    if partial:
        corners = box.astype(np.float32)
        return min(cv2.pointPolygonTest(corners, (float(x), float(y)), True) for x, y in poly) >= -4
    return _within(box, mask, t)


def _within(box: np.ndarray, mask: np.ndarray, t: np.ndarray) -> bool:
    """The box, a little shrunk, lies on the mask (a card's border may sit just off the outline)."""
    inner = box.mean(0) + 0.8 * (_border(box, t) - box.mean(0))
    return bool((_sample(mask, inner) > 0).mean() > 0.97)


def _sample(img: np.ndarray, pts: np.ndarray) -> np.ndarray:
    xy = np.round(pts).astype(int)
    ok = (xy[:, 0] >= 0) & (xy[:, 1] >= 0) & (xy[:, 0] < img.shape[1]) & (xy[:, 1] < img.shape[0])
    out = np.zeros(len(xy), img.dtype)
    out[ok] = img[xy[ok, 1], xy[ok, 0]]
    return out


def _occluding(contour: np.ndarray, area: float, size: tuple[int, int]) -> bool:
    """A hand (or arm) over the zone: bigger than a small pile, or reaching in from outside."""
    return area > 2.8 * CARD_AREA or (area > 1.2 * CARD_AREA and _touches_edge(contour, size))


def _touches_edge(contour: np.ndarray, size: tuple[int, int]) -> bool:
    """Reaches the edge of the zone's picture (comes from outside it)."""
    x, y, w, h = cv2.boundingRect(contour)
    return x <= 1 or y <= 1 or x + w >= size[0] - 1 or y + h >= size[1] - 1


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
    """The card with corners ``box`` at the crop's size, one point per pixel: the frame shows a card
    at about the crop's 1.5 px per mm (1.3 to 2.1), and a crop averaged from twice the size read
    thin numerals no better (the model card's *The crop's resolution, and the renderer's camera*)."""
    return cv2.warpPerspective(img, _to_crop(box), CROP, flags=cv2.INTER_LINEAR)  # what INTER_AREA gave here too


def _to_crop(box: np.ndarray) -> np.ndarray:
    """The transform from the pixels ``box`` is given in to the upright crop's."""
    w, h = CROP
    dst = np.array([[0, 0], [w - 1, 0], [w - 1, h - 1], [0, h - 1]], np.float32)
    return cv2.getPerspectiveTransform(np.asarray(box, np.float32), dst)


# A crop used to be cut in two warps: the frame's pixels into the zone's picture at 3 px per mm, and
# that into the crop at 1.5. The networks and the doubt of a pale suit's ink learnt crops with the
# second warp's blur, which a cut straight from the frame lacks: a linear interpolation at a random
# phase between pixels half a crop pixel apart spreads a pixel by 1/24 of a crop pixel squared, a
# three-tap kernel [a, 1 - 2a, a] with a = 1/48. Fitted on 240 cards of five families (from the frame
# and from the larger picture), a = 0.025 brought the sharpness (the Laplacian's variance) within 3%
# of the two warps' crops, where the unsoftened cut is 15% to 20% sharper.
SOFTEN = np.array([0.025, 0.95, 0.025], np.float32)


def soften(crop: np.ndarray) -> np.ndarray:
    """A crop cut in one warp, blurred as a second warp would have blurred it (``SOFTEN``)."""
    return cv2.sepFilter2D(crop, -1, SOFTEN, SOFTEN, borderType=cv2.BORDER_REPLICATE)
