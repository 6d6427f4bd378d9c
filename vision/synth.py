"""The renderer: Hanabi cards in many designs, laid on the play mat and seen by a simulated camera.

It feeds training (``vision/train.py``), the tests, the benchmarks and the demo. A *design* is a
family of card faces (light or dark face, white/black/no border, digit font, firework art); the
held-out test set uses design seeds never seen in training. Decks like printed editions come
from the design families of ``vision/designs.py``; scenes take either kind. A *scene* is what
lies on the mat; ``render_frame`` shows it through a camera at an angle, under warm, cold or
uneven light, with glare, blur, sensor noise and JPEG artefacts.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from typing import Protocol

import cv2
import numpy as np

from . import mat
from .camera import WATCHED

CARD_PX = (176, 272)  # canonical face image (w, h): 4 px per mm of a 44 x 68 mm card
SUIT_BGR = {"r": (45, 45, 215), "y": (40, 205, 235), "g": (60, 165, 45), "b": (210, 120, 35),
            "w": (235, 235, 235), "m": (0, 0, 0), "k": (25, 25, 25)}
FONTS = (cv2.FONT_HERSHEY_SIMPLEX, cv2.FONT_HERSHEY_DUPLEX, cv2.FONT_HERSHEY_COMPLEX,
         cv2.FONT_HERSHEY_TRIPLEX, cv2.FONT_HERSHEY_PLAIN, cv2.FONT_HERSHEY_COMPLEX_SMALL)
RAINBOW = np.array([(40, 40, 220), (30, 140, 240), (40, 210, 235), (60, 170, 50), (210, 130, 40),
                    (160, 50, 120)], np.float32)


@dataclass(frozen=True)
class CardDesign:
    """One edition's look. Made from a seed so train and test designs never overlap."""

    face: tuple[int, int, int]
    dark: bool
    border: str          # white, black, none
    border_mm: float
    font: int
    thickness: int
    art: str             # burst, rings, dots, none
    tint: float          # how far suit colours drift from the standard ones

    @staticmethod
    def from_seed(seed: int) -> CardDesign:
        rng = np.random.default_rng(seed)
        dark = bool(rng.random() < 0.6)
        b, g, r = (int(v) for v in (rng.integers(10, 60, 3) if dark else rng.integers(205, 250, 3)))
        face = (b, g, r)
        border = str(rng.choice(["white", "black", "none"], p=[0.45, 0.35, 0.2]))
        return CardDesign(face=face, dark=dark, border=border, border_mm=float(rng.uniform(1.5, 4.0)),
                          font=int(rng.choice(FONTS)), thickness=int(rng.integers(0, 3)),
                          art=str(rng.choice(["burst", "rings", "dots", "none"])),
                          tint=float(rng.uniform(0, 25)))

    def render(self, card: str, seed: int = 0) -> np.ndarray:
        return render_card(card, self, seed)


class Design(Protocol):
    """Anything that draws a deck's card faces: a ``CardDesign`` here, or a deck of a family in
    ``vision/designs.py``. Faces are BGR, or BGRA where the card's rounded corners let the mat show."""

    def render(self, card: str, seed: int = 0) -> np.ndarray: ...


def _suit_colour(design: CardDesign, suit: str, rng: np.random.Generator) -> tuple[int, int, int]:
    if suit == "w":
        return (238, 238, 238) if design.dark else (150, 150, 150)
    if suit == "k":
        return (120, 120, 120) if design.dark else (20, 20, 20)
    base = np.array(SUIT_BGR[suit], np.float32) + rng.normal(0, design.tint, 3)
    b, g, r = (int(v) for v in np.clip(base, 0, 255))
    return b, g, r


def _rainbow_fill(img: np.ndarray, mask: np.ndarray) -> None:
    h, w = mask.shape
    xs = np.linspace(0, len(RAINBOW) - 1, w)
    grad = np.stack([np.interp(xs, np.arange(len(RAINBOW)), RAINBOW[:, c]) for c in range(3)], -1)
    img[mask > 0] = np.broadcast_to(grad[None], (h, w, 3))[mask > 0].astype(np.uint8)


def render_card(card: str, design: CardDesign, seed: int = 0) -> np.ndarray:
    """The face of ``card`` (like "r3") as a BGR image of CARD_PX, portrait."""
    rng = np.random.default_rng(seed)
    suit, value = card[0], int(card[1])
    w, h = CARD_PX
    img = np.empty((h, w, 3), np.uint8)
    img[:] = design.face if suit != "k" else (18, 18, 18)
    if suit == "k":  # black powder: a soot hatch that no other suit has
        for x in range(-h, w, 14):
            cv2.line(img, (x, 0), (x + h, h), (55, 55, 55), 3)
    colour = _suit_colour(design, suit, rng)
    ink = np.zeros((h, w), np.uint8)  # where the suit colour goes
    cx, cy = w // 2, h // 2
    if design.art == "burst":
        for k in range(12 + value * 2):
            a = 2 * math.pi * k / (12 + value * 2) + rng.uniform(-0.1, 0.1)
            r0, r1 = 25, int(rng.uniform(60, 85))
            cv2.line(ink, (int(cx + r0 * math.cos(a)), int(cy + r0 * math.sin(a))),
                     (int(cx + r1 * math.cos(a)), int(cy + r1 * math.sin(a))), 110, 2)
    elif design.art == "rings":
        for r in range(30, 88, 14):
            cv2.circle(ink, (cx, cy), r, 110, 2)
    elif design.art == "dots":
        for _ in range(40):
            p = (int(rng.uniform(15, w - 15)), int(rng.uniform(40, h - 40)))
            cv2.circle(ink, p, int(rng.integers(2, 5)), 110, -1)
    text = str(value)
    scale = 4.2 if design.font != cv2.FONT_HERSHEY_PLAIN else 7.5
    thick = 6 + design.thickness * 3
    (tw, th), _ = cv2.getTextSize(text, design.font, scale, thick)
    cv2.putText(ink, text, (cx - tw // 2, cy + th // 2), design.font, scale, 255, thick, cv2.LINE_AA)
    small = 1.3 if design.font != cv2.FONT_HERSHEY_PLAIN else 2.4
    (sw, sh), _ = cv2.getTextSize(text, design.font, small, 3)
    corner = np.zeros((sh + 14, sw + 14), np.uint8)
    cv2.putText(corner, text, (7, sh + 7), design.font, small, 255, 3, cv2.LINE_AA)
    bm = int(design.border_mm * 4) + 6
    ink[bm:bm + corner.shape[0], bm:bm + corner.shape[1]] = np.maximum(
        ink[bm:bm + corner.shape[0], bm:bm + corner.shape[1]], corner)
    rot = corner[::-1, ::-1]
    ink[h - bm - rot.shape[0]:h - bm, w - bm - rot.shape[1]:w - bm] = np.maximum(
        ink[h - bm - rot.shape[0]:h - bm, w - bm - rot.shape[1]:w - bm], rot)
    layer = img.copy()
    if suit == "m":
        _rainbow_fill(layer, np.full((h, w), 255, np.uint8))
    else:
        layer[:] = colour
    alpha = (ink.astype(np.float32) / 255.0)[..., None]
    img = (img * (1 - alpha) + layer * alpha).astype(np.uint8)
    if suit in "wk":  # outline so white-on-light and black-on-dark stay readable
        edge = cv2.morphologyEx((ink > 128).astype(np.uint8), cv2.MORPH_GRADIENT, np.ones((3, 3), np.uint8))
        img[edge > 0] = (15, 15, 15) if suit == "w" and not design.dark else (235, 235, 235)
    if design.border != "none":
        b = int(design.border_mm * 4)
        col = (245, 245, 245) if design.border == "white" else (12, 12, 12)
        cv2.rectangle(img, (0, 0), (w - 1, h - 1), col, b * 2)
    return img


@dataclass
class Placed:
    """A card lying on the mat: centre (mm, mat plane), angle (degrees), face-up image."""

    card: str
    zone: str | None
    centre: tuple[float, float]
    angle: float
    face: np.ndarray = field(repr=False)

    def corners_mm(self) -> np.ndarray:
        w, h = mat.CARD_MM
        a = math.radians(self.angle)
        rot = np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])
        local = np.array([[-w / 2, -h / 2], [w / 2, -h / 2], [w / 2, h / 2], [-w / 2, h / 2]])
        return (local @ rot.T + np.array(self.centre)).astype(np.float32)


@dataclass
class Scene:
    """Cards on the mat (bottom first), plus an optional hand over a zone."""

    cards: list[Placed] = field(default_factory=list)
    hand_zone: str | None = None
    hand_seed: int = 0

    def top(self, zone: str) -> Placed | None:
        on = [p for p in self.cards if p.zone == zone]
        return on[-1] if on else None

    def before_tops(self) -> Scene:
        """The table a moment earlier, before each zone's top card was laid."""
        tops = [self.top(zone) for zone in mat.ZONES]
        return Scene([c for c in self.cards if all(c is not t for t in tops)])


def lay(card: str, zone: str, design: Design, rng: np.random.Generator, pile: int = 0) -> Placed:
    """A card laid in a zone the way people do: near the middle, a little askew, either way up."""
    x0, y0, x1, y1 = mat.ZONES[zone]
    spread = 7.0 if pile == 0 else 4.0
    centre = ((x0 + x1) / 2 + rng.uniform(-spread, spread), (y0 + y1) / 2 + rng.uniform(-spread * 1.5, spread * 1.5))
    angle = float(rng.uniform(-14, 14) + (180 if rng.random() < 0.5 else 0))
    return Placed(card, zone, centre, angle, design.render(card, int(rng.integers(1 << 30))))


PX_PER_MM = 3.0
_MAT_CACHE: dict[float, np.ndarray] = {}


def mat_plane(scene: Scene, rng: np.random.Generator, ppm: float = PX_PER_MM) -> np.ndarray:
    """The mat seen from straight above with the cards (and hand) on it, at ``ppm`` px per mm."""
    if ppm not in _MAT_CACHE:
        _MAT_CACHE[ppm] = mat.render_mat(ppm)
    img = _MAT_CACHE[ppm].copy()
    for p in scene.cards:
        if p.zone is None:
            continue  # off the mat: drawn onto the table by render_frame
        _paste(img, p.face, p.corners_mm() * ppm, shadow=True)
    if scene.hand_zone is not None:
        _draw_hand(img, scene.hand_zone, np.random.default_rng(scene.hand_seed), ppm)
    return img


def _paste(img: np.ndarray, face: np.ndarray, corners: np.ndarray, shadow: bool = False) -> None:
    """Draw ``face`` into ``img`` with its corners at ``corners`` (px), working only where it lands."""
    pad = 8
    x0, y0 = np.floor(corners.min(0)).astype(int) - pad
    x1, y1 = np.ceil(corners.max(0)).astype(int) + pad
    x0, y0 = max(x0, 0), max(y0, 0)
    x1, y1 = min(x1, img.shape[1]), min(y1, img.shape[0])
    if x1 <= x0 or y1 <= y0:
        return
    fh, fw = face.shape[:2]
    src = np.array([[0, 0], [fw, 0], [fw, fh], [0, fh]], np.float32)
    m = cv2.getPerspectiveTransform(src, (corners - [x0, y0]).astype(np.float32))
    size = (x1 - x0, y1 - y0)
    alpha = face[..., 3] if face.shape[2] == 4 else np.full((fh, fw), 255, np.uint8)
    warped = camera_warp(np.ascontiguousarray(face[..., :3]), m, size)
    mask = cv2.warpPerspective(alpha, m, size)
    roi = img[y0:y1, x0:x1]
    if shadow:
        soft = cv2.GaussianBlur(mask, (0, 0), 3).astype(np.float32)[..., None] / 255
        roi[:] = (roi * (1 - 0.25 * soft)).astype(np.uint8)
    roi[mask > 127] = warped[mask > 127]


SUPERSAMPLE = 2  # points gathered per pixel, each way: the mat's 3 px per mm into a frame's 1.2 to 2.6


def camera_warp(img: np.ndarray, m: np.ndarray, size: tuple[int, int]) -> np.ndarray:
    """``img`` seen through the homography ``m`` into an image of ``size`` (w, h), each pixel the
    mean of the light over it, as a sensor's pixel gathers it. ``cv2.warpPerspective`` takes one
    point per pixel whatever interpolation it is asked for, so a stroke thinner than a pixel would
    vanish or show at full strength by where it fell; drawn at ``SUPERSAMPLE`` times the size and
    averaged down, it shows faint and whole."""
    w, h = size
    k = SUPERSAMPLE
    c = (k - 1) / 2.0
    up = np.array([[k, 0, c], [0, k, c], [0, 0, 1]], np.float64) @ m
    big = cv2.warpPerspective(img, up, (w * k, h * k), flags=cv2.INTER_LINEAR)
    return cv2.resize(big, (w, h), interpolation=cv2.INTER_AREA)


def _draw_hand(img: np.ndarray, zone: str, rng: np.random.Generator, ppm: float) -> None:
    x0, y0, x1, y1 = mat.ZONES[zone]
    cx, cy = (x0 + x1) / 2 + rng.uniform(-15, 15), (y0 + y1) / 2 + rng.uniform(-20, 20)
    skin = tuple(int(v) for v in rng.uniform([90, 120, 170], [140, 170, 230]))
    cv2.ellipse(img, (int(cx * ppm), int(cy * ppm)), (int(45 * ppm), int(55 * ppm)), float(rng.uniform(0, 180)),
                0, 360, skin, -1)
    cv2.line(img, (int(cx * ppm), int(cy * ppm)), (int(cx * ppm), img.shape[0] + 200), skin, int(60 * ppm))


@dataclass(frozen=True)
class Camera:
    """Where the camera looks from: tilt off vertical, turn about the mat, distance, frame size."""

    tilt: float = 0.0        # degrees off vertical
    tilt_dir: float = 0.0    # which side the camera leans to (degrees)
    roll: float = 0.0        # rotation of the mat in the picture (degrees)
    fill: float = 0.8        # how much of the frame width the mat spans
    size: tuple[int, int] = WATCHED
    shift: tuple[float, float] = (0.0, 0.0)

    @staticmethod
    def random(rng: np.random.Generator, max_tilt: float = 40.0, size: tuple[int, int] = WATCHED) -> Camera:
        return Camera(tilt=float(rng.uniform(0, max_tilt)), tilt_dir=float(rng.uniform(0, 360)),
                      roll=float(rng.uniform(-180, 180)), fill=float(rng.uniform(0.55, 0.8)), size=size,
                      shift=(float(rng.uniform(-0.06, 0.06)), float(rng.uniform(-0.06, 0.06))))

    def larger(self, scale: float) -> Camera:
        """The same camera giving a frame ``scale`` times as large each way (a sensor's larger stream)."""
        return replace(self, size=(int(round(self.size[0] * scale)), int(round(self.size[1] * scale))))

    def homography(self) -> np.ndarray:
        """Mat millimetres → frame pixels, from a pinhole camera above the mat."""
        w, h = mat.MAT_W_MM, mat.MAT_H_MM
        pts = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float64) - [w / 2, h / 2]
        t, d, r = map(math.radians, (self.tilt, self.tilt_dir, self.roll))
        rz = np.array([[math.cos(r), -math.sin(r), 0], [math.sin(r), math.cos(r), 0], [0, 0, 1]])
        axis = np.array([math.cos(d), math.sin(d), 0.0])
        k = np.array([[0, -axis[2], axis[1]], [axis[2], 0, -axis[0]], [-axis[1], axis[0], 0]])
        rt = np.eye(3) + math.sin(t) * k + (1 - math.cos(t)) * k @ k
        p3 = np.c_[pts, np.zeros(4)] @ rz.T @ rt.T
        dist = 600.0
        proj = p3[:, :2] / (dist + p3[:, 2:3]) * dist
        span = proj.max(0) - proj.min(0)
        scale = self.fill * self.size[0] / max(span[0], span[1] * self.size[0] / self.size[1])
        centre = np.array(self.size) / 2 + np.array(self.shift) * self.size
        dst = (proj - proj.mean(0)) * scale + centre
        src = (pts + [w / 2, h / 2]).astype(np.float32)
        return cv2.getPerspectiveTransform(src, dst.astype(np.float32))


@dataclass(frozen=True)
class Light:
    """Colour of the light (warm or cold), an uneven falloff, glare, blur, noise and JPEG quality;
    where ``exposure`` is given, the level the Pi camera's exposure control sets."""

    gains: tuple[float, float, float] = (1.0, 1.0, 1.0)
    falloff: float = 0.0
    glare: float = 0.0
    blur: float = 0.0
    noise: float = 2.0
    jpeg: int | None = 90    # None: uncompressed, as the Pi camera's RGB888 frames come
    seed: int = 0
    noise_seed: int | None = None  # another frame under the same light: the same glare, other noise
    exposure: float | None = None  # the Pi camera's exposure value (stops) under the box's settings: the
    # level follows the picture as the camera's control sets it (``_exposure``), ``gains`` only tint it
    across: float = 0.0  # a lamp on one side, a window on the other: red's and blue's gains each change
    # by this much from the frame's left edge to its right, the other way round (a single white
    # balance cannot take that away)

    @staticmethod
    def random(rng: np.random.Generator) -> Light:
        warmth = rng.uniform(-1, 1)
        level = rng.uniform(0.7, 1.15)
        gains = (float((1.0 - 0.22 * warmth) * level), float(level), float((1.0 + 0.22 * warmth) * level))
        return Light(gains=gains, falloff=float(rng.uniform(0, 0.45)),
                     glare=float(rng.uniform(0, 0.6) if rng.random() < 0.4 else 0), blur=float(rng.uniform(0, 1.4)),
                     noise=float(rng.uniform(1, 7)), jpeg=int(rng.integers(45, 95)), seed=int(rng.integers(1 << 30)))

    def apply(self, img: np.ndarray) -> np.ndarray:
        rng = np.random.default_rng(self.seed)
        h, w = img.shape[:2]
        f: np.ndarray = img.astype(np.float32) * np.array(self.gains, np.float32)
        # a row and a column of coordinates, broadcast: the same values as whole grids, a tenth of the work
        xx, yy = np.arange(w, dtype=np.float32)[None, :], np.arange(h, dtype=np.float32)[:, None]
        if self.across:
            side = self.across * (xx[0] / w - 0.5)  # warm on the left, cold on the right (BGR)
            f *= np.stack([1 + side, np.ones_like(side), 1 - side], axis=1)[None]
        if self.falloff:
            cx, cy = rng.uniform(0, w), rng.uniform(0, h)
            d = np.sqrt((xx - cx) ** 2 + (yy - cy) ** 2) / max(w, h)
            f *= (1 - self.falloff * d)[..., None]
        if self.glare:
            gx, gy = rng.uniform(0.2, 0.8) * w, rng.uniform(0.2, 0.8) * h
            f += (255 * self.glare * np.exp(-((xx - gx) ** 2 + (yy - gy) ** 2) / (2 * (0.06 * w) ** 2)))[..., None]
        if self.exposure is not None:
            f *= _exposure(f, self.exposure)
        if self.blur > 0.3:
            f = cv2.GaussianBlur(f, (0, 0), self.blur)
        noise = rng if self.noise_seed is None else np.random.default_rng(self.noise_seed)
        f += noise.normal(0, self.noise, f.shape).astype(np.float32)
        out = np.clip(f, 0, 255).astype(np.uint8)
        if self.jpeg is None:
            return out
        ok, buf = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, self.jpeg])
        decoded = cv2.imdecode(buf, cv2.IMREAD_COLOR) if ok else None
        return out if decoded is None else decoded


LUMA = np.array([0.114, 0.587, 0.299], np.float32)  # a BGR pixel's luminance
GAMMA = 2.2  # frames' levels against light: a level v shows light (v / 255) ** GAMMA


def _exposure(f: np.ndarray, ev: float) -> float:
    """How much the Pi camera's exposure control scales ``f`` (levels of the lamp's light) with
    the box's settings (``camera.BOX_CONTROLS``): the picture's mean luminance at the control's
    target, its brightest 2% raised to at least their lower bound and, the highlight constraint,
    kept under their upper one, all three moved by ``ev`` stops (the Pi cameras' tuning files: 0.16,
    0.2 and 0.8 of full light). Measured as the sensor gives the light, a channel capped at its top;
    a few rounds, as the control converges over frames. Returns the factor on levels."""
    sample = f[::4, ::4].reshape(-1, 3)
    scale, stops = 1.0, 2.0 ** ev
    for _ in range(4):
        y = (np.minimum(sample * scale, 255.0) / 255.0) ** GAMMA @ LUMA
        k = max(1, len(y) // 50)
        top = max(float(np.partition(y, len(y) - k)[-k:].mean()), 1e-4)
        gain = 0.16 * stops / max(float(y.mean()), 1e-4)
        gain = min(max(gain, 0.2 * stops / top), 0.8 * stops / top)
        scale *= gain ** (1 / GAMMA)
    return scale


def _table_background(size: tuple[int, int], rng: np.random.Generator) -> np.ndarray:
    w, h = size
    base = rng.uniform([40, 70, 100], [90, 130, 170])
    small = rng.normal(0, 12, (max(2, h // 40), max(2, w // 8), 1)).astype(np.float32)
    grain = cv2.resize(small, (w, h), interpolation=cv2.INTER_CUBIC)[..., None]
    return np.clip(base + grain, 0, 255).astype(np.uint8)


def plane_ppm(camera: Camera) -> float:
    """How finely the mat is drawn for ``camera``: ``PX_PER_MM`` for the watched frame (``WATCHED``),
    and as fine against the pixels of a larger one (a sensor's larger mode shows the card with more
    pixels)."""
    return PX_PER_MM * max(1.0, camera.size[0] / WATCHED[0])


def render_frame(scene: Scene, camera: Camera, light: Light, background_seed: int = 0,
                 printed_mat: bool = True) -> np.ndarray:
    """What the camera sees: the mat plane warped into the frame over a table, then the light.
    Without ``printed_mat`` the cards lie on the bare table where the mat's zones would be."""
    rng = np.random.default_rng(background_seed)
    frame = _table_background(camera.size, rng)
    for p in scene.cards:
        if p.zone is None or not printed_mat:
            corners = cv2.perspectiveTransform(p.corners_mm().reshape(-1, 1, 2), camera.homography())
            _paste(frame, p.face, corners.reshape(4, 2), shadow=p.zone is not None)
    if printed_mat:
        ppm = plane_ppm(camera)
        plane = mat_plane(scene, rng, ppm)
        hmg = camera.homography() @ np.diag([1 / ppm, 1 / ppm, 1.0])
        warped = camera_warp(plane, hmg, camera.size)
        mask = cv2.warpPerspective(np.full(plane.shape[:2], 255, np.uint8), hmg, camera.size)
        frame[mask > 127] = warped[mask > 127]
    return light.apply(frame)


def render_larger(scene: Scene, camera: Camera, light: Light, scale: float, background_seed: int = 0) -> np.ndarray:
    """The same moment in the camera's larger stream, ``scale`` times the frame's size each way:
    uncompressed whatever ``light`` says, as only the Pi camera gives one."""
    return render_frame(scene, camera.larger(scale), replace(light, jpeg=None), background_seed)


def random_scene(rng: np.random.Generator, design: Design, cards: list[str] | None = None,
                 pile_max: int = 3, others: bool = True) -> Scene:
    """Piles in both zones (each may be empty), sometimes a stray card beside the mat zones."""
    from .labels import LABELS
    scene = Scene()
    for zone in ("play", "discard"):
        n = int(rng.integers(0 if cards is None else 1, pile_max + 1))
        for i in range(n):
            card = cards.pop() if cards else str(rng.choice(LABELS))
            scene.cards.append(lay(card, zone, design, rng, pile=i))
    if others and rng.random() < 0.5:  # a card lying on the table beside the mat
        x = float(rng.choice([-32.0, mat.MAT_W_MM + 32.0]))
        card = str(rng.choice(LABELS))
        scene.cards.insert(0, Placed(card, None, (x, float(rng.uniform(40, 150))), float(rng.uniform(0, 360)),
                                     design.render(card, int(rng.integers(1 << 30)))))
    return scene
