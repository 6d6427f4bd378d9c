"""Design families: parameterised generators of whole card decks that look like printed editions.

Printed Hanabi decks mostly give every suit the same face (a blue gradient, a night sky, a city
skyline, cream paper, white, black) and carry the suit only in the colour of the numerals and the
art; the value is a numeral in some display font in two or four corners (half upside down), often
beside a small glyph, sometimes also as that many bursts or as pips down the long sides. A
*family* draws random decks of one such structure. Families marked ``held_out`` are structurally
unlike every training family and never used for training. Of these, the ``tuning`` families may be
looked at while the reader and the teaching are developed (choices of features, weights,
thresholds); the rest (``HELD_OUT``) exist only to measure how well the reader copes with a deck
it was never taught, and must never be used for training or tuning.
"""
from __future__ import annotations

import functools
import glob
import math
import os
import re
import zlib
from collections.abc import Callable, Iterable
from dataclasses import dataclass

import cv2
import numpy as np

from .synth import CARD_PX

PX_MM = 4.0  # the canonical face is drawn at 4 px per mm
BGR = tuple[int, int, int]
FONT_DIRS = ("/usr/share/fonts", "/usr/local/share/fonts", os.path.expanduser("~/.fonts"))
# fonts with no usable digits (symbols, music, icons)
NOT_DIGITS = ("symbol", "dingbat", "awesome", "euterpe", "math", "emoji", "d050000l", "cursor", "opensymbol")
HERSHEY = (cv2.FONT_HERSHEY_SIMPLEX, cv2.FONT_HERSHEY_DUPLEX, cv2.FONT_HERSHEY_COMPLEX,
           cv2.FONT_HERSHEY_TRIPLEX, cv2.FONT_HERSHEY_SCRIPT_SIMPLEX, cv2.FONT_HERSHEY_SCRIPT_COMPLEX)
SUITS = "rygbwmk"
STANDARD: dict[str, BGR] = {"r": (40, 40, 215), "y": (30, 200, 240), "g": (55, 165, 40), "b": (205, 110, 30),
                            "w": (240, 240, 240), "k": (30, 30, 30), "m": (180, 60, 160)}
BRIGHT: dict[str, BGR] = {"r": (70, 70, 255), "y": (70, 235, 255), "g": (90, 235, 90), "b": (255, 175, 70),
                          "w": (250, 250, 250), "k": (80, 80, 80), "m": (230, 120, 230)}
BROWN = np.array((55, 85, 115), np.float32)  # what muted inks fade towards (BGR)
RAINBOW = np.array([(40, 40, 230), (30, 140, 245), (40, 220, 240), (60, 190, 50), (220, 140, 40),
                    (170, 50, 130)], np.float32)


# -- fonts ---------------------------------------------------------------------------------------
@functools.lru_cache(maxsize=1)
def system_fonts() -> tuple[str, ...]:
    """TrueType/OpenType files on this computer that draw the digits 1-5 as distinct shapes."""
    found = []
    for root in FONT_DIRS:
        for ext in ("ttf", "otf", "TTF", "OTF"):
            found += glob.glob(os.path.join(root, "**", f"*.{ext}"), recursive=True)
    usable = [f for f in sorted(set(found)) if not any(s in os.path.basename(f).lower() for s in NOT_DIGITS)
              and _draws_digits(f)]
    return tuple(usable)


def _draws_digits(path: str) -> bool:
    try:
        masks = [_ttf_mask(path, str(d), 40) for d in "12345"]
    except OSError:
        return False
    if any(m.size == 0 or m.max() == 0 for m in masks):
        return False
    sigs = {cv2.resize(m, (8, 12), interpolation=cv2.INTER_AREA).tobytes() for m in masks}
    return len(sigs) == 5


def font_split(held_out: bool) -> tuple[str, ...]:
    """About a quarter of the system's typefaces are kept for held-out families (a fixed split by
    typeface, so a held-out face's bold or italic never trains). Hershey fonts ("hershey:N") are
    always there, so a computer without font packages still draws every family."""
    fonts = system_fonts()
    mine = tuple(f for f in fonts if (zlib.crc32(typeface(f).encode()) % 4 == 0) == held_out)
    hershey = tuple(f"hershey:{h}" for k, h in enumerate(HERSHEY) if (k % 3 == 0) == held_out)
    return mine + hershey


# typefaces whose 1 to 5 are pictures (weather, little faces), not numerals, though distinct: a deck
# that draws one prints the next typeface of its list instead. They stay in the lists, so every
# other deck keeps the typeface it always had.
PICTURES = ("dsegweather", "seggchan")


def prints_numerals(font: str) -> bool:
    """Whether the font's 1 to 5 are numerals, not pictures (``PICTURES``)."""
    return not any(p in typeface(font) for p in PICTURES)


def numeral_typeface(fonts: tuple[str, ...], i: int) -> str:
    """The ``i``-th font of ``fonts``, or the first after it that prints numerals."""
    for k in range(len(fonts)):
        font = fonts[(i + k) % len(fonts)]
        if prints_numerals(font):
            return font
    raise ValueError("no typeface that prints numerals")


def typeface(path: str) -> str:
    """The typeface of a font file: its name up to the style (LiberationSans-BoldItalic.ttf →
    liberationsans)."""
    return re.split(r"[-_]", os.path.splitext(os.path.basename(path))[0])[0].lower()


def _ttf_mask(path: str, text: str, px: int) -> np.ndarray:
    from PIL import Image, ImageDraw, ImageFont
    font = ImageFont.truetype(path, px)
    box = font.getbbox(text)
    w, h = max(1, int(box[2] - box[0])), max(1, int(box[3] - box[1]))
    img = Image.new("L", (w + 4, h + 4), 0)
    ImageDraw.Draw(img).text((2 - box[0], 2 - box[1]), text, font=font, fill=255)
    return np.asarray(img, np.uint8)


THIN_SHARE = 0.045  # the thin style's strokes, a share of the numeral's height: hairline editions' 4 to 6%


def stroke_width(ink: np.ndarray) -> float:
    """How thick the strokes of a glyph (0/1 mask) are, in px: twice the median distance to the
    edge along their middle (the ridge of the distance to the edge)."""
    depth = cv2.distanceTransform(ink, cv2.DIST_L2, 3)
    ridge = depth[(depth >= cv2.dilate(depth, np.ones((3, 3), np.uint8)) - 1e-6) & (ink > 0)]
    return 2 * float(np.median(ridge)) if ridge.size else 0.0


def thinned(img: np.ndarray) -> np.ndarray:
    """The glyph (0-255) worn down to strokes ``THIN_SHARE`` of its height, or as near as it goes
    with no stroke broken or worn away (a 4 must not wear down to its stem): a hairline edition of
    any typeface."""
    ink = (img > 127).astype(np.uint8)
    parts = cv2.connectedComponents(ink)[0]
    h, w = ink.shape
    for r in range(int((stroke_width(ink) - THIN_SHARE * h) / 2), 0, -1):
        worn = cv2.erode(img, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * r + 1, 2 * r + 1)))
        left = (worn > 127).astype(np.uint8)
        if cv2.connectedComponents(left)[0] != parts:  # a stroke broken in two, or a part worn away
            continue
        _, _, lw, lh = cv2.boundingRect(left)
        if lw + 2 * r >= 0.9 * w and lh + 2 * r >= 0.9 * h:
            return worn
    return img


@functools.lru_cache(maxsize=4096)
def numeral_mask(font: str, text: str, height: int, style: str) -> np.ndarray:
    """``text`` drawn in ``font`` about ``height`` px tall, tightly cropped (0-255 coverage).
    Styles: fill, italic (sheared), bold (thickened), outline (hollow), thin (``thinned``)."""
    img: np.ndarray
    if font.startswith("hershey:"):
        face = int(font.split(":")[1])
        (w, h), base = cv2.getTextSize(text, face, 2.0, 3)
        img = np.zeros((h + base + 10, w + 10), np.uint8)
        cv2.putText(img, text, (5, h + 5), face, 2.0, 255, 3, cv2.LINE_AA)
    else:
        img = _ttf_mask(font, text, 96)
    ys, xs = np.nonzero(img > 40)
    if len(ys):
        img = img[ys.min():ys.max() + 1, xs.min():xs.max() + 1]
    if style == "thin":  # worn down before it is scaled, where the glyph is drawn finely
        img = thinned(img)
    scale = height / max(1, img.shape[0])
    img = cv2.resize(img, (max(1, int(img.shape[1] * scale)), height), interpolation=cv2.INTER_AREA)
    img = cv2.copyMakeBorder(img, 3, 3, 3 + height // 4, 3 + height // 4, cv2.BORDER_CONSTANT, value=0)
    if style == "italic":
        h = img.shape[0]
        m = np.array([[1, -0.22, 0.22 * h / 2], [0, 1, 0]], np.float32)
        img = cv2.warpAffine(img, m, (img.shape[1], h))
    elif style == "bold":
        img = cv2.dilate(img, np.ones((3, 3), np.uint8), iterations=max(1, height // 25))
    elif style == "outline":
        k = max(2, height // 14)
        img = cv2.subtract(cv2.dilate(img, np.ones((3, 3), np.uint8), iterations=k // 2 + 1),
                           cv2.erode(img, np.ones((3, 3), np.uint8), iterations=k // 2))
    return img


# -- one deck ------------------------------------------------------------------------------------
@dataclass(frozen=True)
class DeckDesign:
    """One deck of a family: everything needed to draw each of its cards the same way."""

    family: str
    seed: int
    face: str                  # solid, gradient, paper, texture, tinted, random, night, skyline, blue-gradient,
                               # sepia, grid
    colours: tuple[BGR, BGR]   # the face's colours (gradient ends, or base and texture)
    palette: tuple[BGR, ...]   # ink of each suit, in SUITS order
    outline: BGR | None        # drawn round inks that would vanish on the face
    rainbow: str               # gradient (down the card), elements (each one colour) or striped (each all)
    border: str                # white, black, none
    border_mm: float
    radius_mm: float           # rounded corners (0 for square)
    font: str
    numeral_mm: float
    style: str                 # fill, italic, bold, outline, thin (only ever given in training)
    corners: int               # 2 or 4 corner numerals, half upside down
    glyph: str                 # none, star, circle, diamond, flower: beside each corner numeral
    art: str                   # numeral, count, one, unrelated, bursts, pips, none
    shape: str                 # what ``count`` art repeats: circle, star, flower, ring

    def ink(self, suit: str) -> BGR:
        return self.palette[SUITS.index(suit)]

    def render(self, card: str, seed: int = 0) -> np.ndarray:
        """The face of ``card``. Every copy of a kind in a printed deck is the same print, so the
        copy's ``seed`` changes nothing here (the renderer's own designs vary their art by copy)."""
        return render_card(card, self, zlib.crc32(card.encode()))


def _gradient(c0: BGR, c1: BGR, vertical: bool) -> np.ndarray:
    w, h = CARD_PX
    t = np.linspace(0, 1, h if vertical else w, dtype=np.float32)
    ramp = np.array(c0, np.float32) * (1 - t[:, None]) + np.array(c1, np.float32) * t[:, None]
    return np.repeat(ramp[:, None], w, 1) if vertical else np.repeat(ramp[None], h, 0)


@functools.lru_cache(maxsize=256)
def _face(design: DeckDesign) -> np.ndarray:
    """The part of the face every card of the deck shares (float32 BGR)."""
    w, h = CARD_PX
    rng = np.random.default_rng(design.seed + 17)
    c0, c1 = design.colours
    if design.face in ("solid", "tinted"):
        img = np.empty((h, w, 3), np.float32)
        img[:] = c0
    elif design.face in ("gradient", "blue-gradient"):
        img = _gradient(c0, c1, vertical=bool(design.seed % 3))
    elif design.face == "paper":
        img = np.empty((h, w, 3), np.float32)
        img[:] = c0
        grain = cv2.resize(rng.normal(0, 6, (h // 6, w // 6)).astype(np.float32), (w, h))
        img += grain[..., None] + rng.normal(0, 3, (h, w, 1)).astype(np.float32)
        for _ in range(25):  # fibres
            p = rng.uniform([0, 0], [w, h]).astype(int)
            q = p + rng.normal(0, 6, 2).astype(int)
            cv2.line(img, tuple(int(v) for v in p), tuple(int(v) for v in q), tuple(float(v) - 25 for v in c0), 1)
    elif design.face == "texture":
        img = np.empty((h, w, 3), np.float32)
        img[:] = c0
        kind = design.seed % 3
        for k in range(60):
            if kind == 0:
                cv2.line(img, (int(-h + k * 12), 0), (int(k * 12), h), c1, 3)
            elif kind == 1:
                cv2.circle(img, tuple(int(v) for v in rng.uniform([0, 0], [w, h])), int(rng.integers(3, 14)), c1, -1)
            else:
                cv2.circle(img, (w // 2, h // 2), 10 + k * 6, c1, 2)
    elif design.face == "night":
        img = _gradient(c0, c1, vertical=True)
        for _ in range(90):  # stars
            star = tuple(int(v) for v in rng.uniform([0, 0], [w, h * 0.75]))
            cv2.circle(img, star, int(rng.integers(0, 2)), (235, 235, 250), -1)
        silhouette = tuple(float(v) * 0.35 for v in c0)
        base_y, x = h - 6, int(rng.uniform(0.3, 0.7) * w)
        for tier in range(4):  # a pagoda: tiers of roofs, narrower upwards
            half = 38 - tier * 8
            y = base_y - tier * 22
            roof = np.array([[x - half - 10, y - 12], [x + half + 10, y - 12], [x + half, y - 20], [x - half, y - 20]])
            cv2.rectangle(img, (x - half + 6, y - 12), (x + half - 6, y), silhouette, -1)
            cv2.fillPoly(img, [roof.astype(np.int32)], silhouette)
        cv2.line(img, (x, base_y - 88), (x, base_y - 110), silhouette, 3)
        cv2.rectangle(img, (0, h - 8), (w, h), silhouette, -1)
    elif design.face == "skyline":
        img = _gradient(c0, c1, vertical=True)
        x = 0
        while x < w:  # a city skyline with lit windows
            bw, bh = int(rng.integers(14, 30)), int(rng.integers(30, 95))
            dark = tuple(float(v) * 0.45 for v in c0)
            cv2.rectangle(img, (x, h - bh), (x + bw, h), dark, -1)
            for wy in range(h - bh + 5, h - 4, 8):
                for wx in range(x + 3, x + bw - 3, 6):
                    if rng.random() < 0.3:
                        cv2.rectangle(img, (wx, wy), (wx + 2, wy + 3), (90, 200, 230), -1)
            x += bw + int(rng.integers(0, 5))
    elif design.face == "random":  # any picture behind the print: shapes, dots and lines in the face's hues
        img = _gradient(c0, c1, vertical=bool(design.seed % 2))
        base = (np.array(c0, np.float32) + np.array(c1, np.float32)) / 2
        for _ in range(int(rng.integers(0, 5))):
            tone = tuple(float(v) for v in np.clip(base * rng.uniform(0.3, 1.7) + rng.normal(0, 12, 3), 0, 255))
            kind = int(rng.integers(5))
            layer: np.ndarray = img.copy()
            if kind == 0:  # silhouettes rising from the bottom (towers, roofs, trees)
                x = 0
                while x < w:
                    bw, bh = int(rng.integers(10, 45)), int(rng.uniform(0.1, 0.45) * h)
                    cv2.rectangle(layer, (x, h - bh), (x + bw, h), tone, -1)
                    x += bw + int(rng.integers(0, 12))
            elif kind == 1:  # stars or dots
                for _ in range(int(rng.integers(20, 120))):
                    cv2.circle(layer, tuple(int(v) for v in rng.uniform([0, 0], [w, h])), int(rng.integers(1, 3)),
                               tone, -1)
            elif kind == 2:  # lines: a grid, rays or stripes
                step = int(rng.integers(10, 30))
                for k in range(-h, w + h, step):
                    lean = int(rng.choice([0, h // 2, -h // 2]))
                    cv2.line(layer, (k, 0), (k + lean, h), tone, int(rng.integers(1, 3)))
            elif kind == 3:  # big soft blobs: clouds, smoke
                for _ in range(int(rng.integers(2, 7))):
                    cv2.circle(layer, tuple(int(v) for v in rng.uniform([0, 0], [w, h])), int(rng.integers(15, 60)),
                               tone, -1)
                layer = cv2.GaussianBlur(layer, (0, 0), 9)
            else:  # a frame inside the edge
                m = int(rng.integers(6, 24))
                cv2.rectangle(layer, (m, m), (w - m, h - m), tone, int(rng.integers(1, 4)))
            a = float(rng.uniform(0.3, 1.0))
            img = (img * (1 - a) + layer * a).astype(np.float32)
    elif design.face == "sepia":  # aged paper: grain, darkening towards the edges, foxing spots
        img = np.empty((h, w, 3), np.float32)
        img[:] = c0
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        edge = np.clip(((xx / w - 0.5) ** 2 + (yy / h - 0.5) ** 2) * 3.2, 0, 1)[..., None]
        img = img * (1 - edge) + np.array(c1, np.float32) * edge
        img += cv2.resize(rng.normal(0, 5, (h // 8, w // 8)).astype(np.float32), (w, h))[..., None]
        for _ in range(12):
            spot = tuple(int(v) for v in rng.uniform([0, 0], [w, h]))
            cv2.circle(img, spot, int(rng.integers(1, 4)), tuple(float(v) * 0.8 for v in c0), -1)
    elif design.face == "grid":  # a blueprint: fine lines every 5 mm, a bolder frame
        img = np.empty((h, w, 3), np.float32)
        img[:] = c0
        step = int(5 * PX_MM)
        for x in range(step // 2, w, step):
            cv2.line(img, (x, 0), (x, h), c1, 1)
        for y in range(step // 2, h, step):
            cv2.line(img, (0, y), (w, y), c1, 1)
        cv2.rectangle(img, (14, 14), (w - 15, h - 15), c1, 2)
    else:
        raise ValueError(f"unknown face {design.face!r}")
    return img


def _colour_layer(design: DeckDesign, suit: str, rng: np.random.Generator, shape: tuple[int, int],
                  whole: bool = False, rows: tuple[int, int] | None = None, pick: int | None = None) -> np.ndarray:
    """What an element of ``suit`` is painted with: one colour, or the rainbow (always all its
    colours when the ``whole`` face is painted). ``shape`` is the face's (h, w); only the
    ``rows`` (first, end) of it are made when given (the rainbow runs down the whole face).
    ``pick`` is the rainbow colour of an element when the caller chose it, else it is drawn."""
    h, w = shape
    y0, y1 = rows or (0, h)
    if suit != "m":
        layer = np.empty((y1 - y0, w, 3), np.float32)
        layer[:] = design.ink(suit)
        return layer
    if design.rainbow == "elements" and not whole:
        layer = np.empty((y1 - y0, w, 3), np.float32)
        layer[:] = RAINBOW[int(rng.integers(len(RAINBOW))) if pick is None else pick]
        return layer
    if design.rainbow == "striped" and not whole:  # every element carries all the colours, top to bottom
        xs = np.linspace(0, len(RAINBOW) - 1, y1 - y0)
    else:
        xs = np.linspace(0, len(RAINBOW) - 1, h)[y0:y1]
    grad = np.stack([np.interp(xs, np.arange(len(RAINBOW)), RAINBOW[:, c]) for c in range(3)], -1)
    return np.repeat(grad[:, None].astype(np.float32), w, 1)


def _paint(img: np.ndarray, mask: np.ndarray, design: DeckDesign, suit: str, rng: np.random.Generator,
           pick: int | None = None) -> None:
    """Ink ``mask`` (0-255, card-sized) in the suit's colour, with an outline where the ink would
    not stand out from the face. Works only on the box the mask covers. ``pick``: as for
    ``_colour_layer``."""
    ys, xs = np.nonzero(mask)
    if not len(ys):
        return
    h, w = mask.shape
    y0, y1, x0, x1 = max(0, ys.min() - 3), min(h, ys.max() + 4), max(0, xs.min() - 3), min(w, xs.max() + 4)
    roi, m = img[y0:y1, x0:x1], mask[y0:y1, x0:x1]
    if design.face == "tinted":  # on the suit's own face colour the ink is plain white or black
        layer = np.empty(roi.shape, np.float32)
        layer[:] = (245, 245, 245) if suit == "m" or np.mean(design.ink(suit)) < 150 else (20, 20, 20)
    else:
        layer = _colour_layer(design, suit, rng, (h, w), rows=(y0, y1), pick=pick)[:, x0:x1]
        if design.outline is not None and suit in "wk":
            ring = cv2.dilate(m, np.ones((5, 5), np.uint8)).astype(np.float32)[..., None] / 255
            roi[:] = roi * (1 - ring) + np.array(design.outline, np.float32) * ring
    a = m.astype(np.float32)[..., None] / 255
    roi[:] = roi * (1 - a) + layer * a


def _glyph(mask: np.ndarray, kind: str, cx: int, cy: int, r: int) -> None:
    if kind == "circle":
        cv2.circle(mask, (cx, cy), r, 255, -1, cv2.LINE_AA)
    elif kind == "diamond":
        cv2.fillPoly(mask, [np.array([[cx, cy - r], [cx + r, cy], [cx, cy + r], [cx - r, cy]], np.int32)], 255,
                     cv2.LINE_AA)
    elif kind == "star":
        pts = [(cx + (r if k % 2 == 0 else r * 0.45) * math.sin(k * math.pi / 5),
                cy - (r if k % 2 == 0 else r * 0.45) * math.cos(k * math.pi / 5)) for k in range(10)]
        cv2.fillPoly(mask, [np.array(pts, np.int32)], 255, cv2.LINE_AA)
    elif kind == "flower":
        for k in range(5):
            a = k * 2 * math.pi / 5
            cv2.circle(mask, (int(cx + r * 0.55 * math.cos(a)), int(cy + r * 0.55 * math.sin(a))), max(1, r // 2),
                       255, -1, cv2.LINE_AA)
    elif kind == "ring":
        cv2.circle(mask, (cx, cy), r, 255, max(1, r // 4), cv2.LINE_AA)


def _burst(mask: np.ndarray, cx: int, cy: int, r: float, rng: np.random.Generator) -> None:
    """A firework burst: rays out from a centre, each ending in a spark."""
    rays = int(rng.integers(10, 18))
    for k in range(rays):
        a = 2 * math.pi * k / rays + rng.uniform(-0.1, 0.1)
        r1 = r * rng.uniform(0.75, 1.0)
        p0 = (int(cx + 0.25 * r * math.cos(a)), int(cy + 0.25 * r * math.sin(a)))
        p1 = (int(cx + r1 * math.cos(a)), int(cy + r1 * math.sin(a)))
        cv2.line(mask, p0, p1, 255, max(1, int(r / 18)), cv2.LINE_AA)
        cv2.circle(mask, p1, max(1, int(r / 12)), 255, -1, cv2.LINE_AA)
    cv2.circle(mask, (cx, cy), max(2, int(r / 7)), 255, -1, cv2.LINE_AA)


LAYOUT = {1: [(0.5, 0.5)], 2: [(0.5, 0.3), (0.5, 0.7)], 3: [(0.5, 0.22), (0.5, 0.5), (0.5, 0.78)],
          4: [(0.3, 0.3), (0.7, 0.3), (0.3, 0.7), (0.7, 0.7)],
          5: [(0.3, 0.25), (0.7, 0.25), (0.5, 0.5), (0.3, 0.75), (0.7, 0.75)]}


def _art(design: DeckDesign, suit: str, value: int, rng: np.random.Generator, img: np.ndarray) -> None:
    w, h = CARD_PX
    inset = int((design.border_mm + 2) * PX_MM) if design.border != "none" else int(2 * PX_MM)
    x0, y0, x1, y1 = inset + 14, inset + 60, w - inset - 14, h - inset - 60  # the middle, clear of corners
    bw, bh = x1 - x0, y1 - y0
    if design.art == "numeral":
        m = numeral_mask(design.font, str(value), int(bh * 0.7), design.style)
        mask = np.zeros((h, w), np.uint8)
        mw = min(m.shape[1], w)
        px, py = (w - mw) // 2, (h - m.shape[0]) // 2
        mask[py:py + m.shape[0], px:px + mw] = m[:, :mw]
        _paint(img, mask, design, suit, rng)
    elif design.art in ("count", "bursts"):
        r = min(bw, bh) * (0.22 if value > 1 else 0.34) * (0.85 if value == 5 else 1.0)
        for fx, fy in LAYOUT[value]:
            mask = np.zeros((h, w), np.uint8)
            cx, cy = int(x0 + fx * bw), int(y0 + fy * bh)
            if design.art == "bursts":
                _burst(mask, cx, cy, r, rng)
            else:
                _glyph(mask, design.shape, cx, cy, int(r * 0.8))
            _paint(img, mask, design, suit, rng)
    elif design.art == "one":
        mask = np.zeros((h, w), np.uint8)
        _burst(mask, w // 2, (y0 + y1) // 2 - 10, min(bw, bh) * 0.45, np.random.default_rng(design.seed))
        cv2.line(mask, (w // 2, (y0 + y1) // 2 + 20), (w // 2 + 6, y1), 255, 2, cv2.LINE_AA)  # the rocket's trail
        _paint(img, mask, design, suit, rng)
    elif design.art == "unrelated":
        mask = np.zeros((h, w), np.uint8)
        for _ in range(int(rng.integers(3, 9))):
            cx, cy = int(rng.uniform(x0, x1)), int(rng.uniform(y0, y1))
            r = int(rng.uniform(6, 22))
            kind = ["ring", "circle", "star", "flower", "line"][int(rng.integers(5))]
            if kind == "line":
                cv2.line(mask, (cx, cy), (int(rng.uniform(x0, x1)), int(rng.uniform(y0, y1))), 255, 2, cv2.LINE_AA)
            else:
                _glyph(mask, kind, cx, cy, r)
        _paint(img, mask, design, suit, rng)
    elif design.art == "pips":
        mask = np.zeros((h, w), np.uint8)
        _burst(mask, w // 2, h // 2, min(bw, bh) * 0.35, np.random.default_rng(design.seed))
        _paint(img, mask, design, suit, rng)
        for side in (inset + 10, w - inset - 10):  # value pips down both long sides
            for k in range(value):
                mask = np.zeros((h, w), np.uint8)
                cy = int(h / 2 + (k - (value - 1) / 2) * 22)
                _glyph(mask, design.shape, side, cy, 7)
                _paint(img, mask, design, suit, rng)


def corner_numeral(design: DeckDesign, value: int) -> np.ndarray:
    """The value as the deck prints it in each corner (0-255 coverage, tightly cropped)."""
    return numeral_mask(design.font, str(value), int(design.numeral_mm * PX_MM), design.style)


def _corners(design: DeckDesign, suit: str, value: int, rng: np.random.Generator, img: np.ndarray) -> None:
    """The value in two or four corners, the lower ones upside down, each with its glyph."""
    w, h = CARD_PX
    m = corner_numeral(design, value)
    g = max(6, int(design.numeral_mm * PX_MM * 0.3))
    block = np.zeros((m.shape[0] + 2 * g + 4, max(m.shape[1], 2 * g + 2)), np.uint8)
    block[:m.shape[0], (block.shape[1] - m.shape[1]) // 2:][:, :m.shape[1]] = m
    _glyph(block, design.glyph, block.shape[1] // 2, m.shape[0] + g + 2, g)
    inset = int((design.border_mm + 1.5) * PX_MM) if design.border != "none" else int(2.5 * PX_MM)
    bh, bw = block.shape
    bw, bh = min(bw, w // 2 - inset), min(bh, h // 2 - inset)
    block = block[:bh, :bw]
    spots = [(inset, inset, False), (w - inset - bw, h - inset - bh, True)]
    if design.corners == 4:
        spots += [(w - inset - bw, inset, False), (inset, h - inset - bh, True)]
    # a rainbow of one colour per element still shows several in its corners: printed in one
    # colour alone it would be a card of that suit
    picks: list[int | None] = ([int(p) for p in rng.permutation(len(RAINBOW))[:len(spots)]]
                               if suit == "m" and design.rainbow == "elements" else [None] * len(spots))
    for (x, y, flip), pick in zip(spots, picks, strict=True):
        mask = np.zeros((h, w), np.uint8)
        mask[y:y + bh, x:x + bw] = block[::-1, ::-1] if flip else block
        _paint(img, mask, design, suit, rng, pick)


def render_card(card: str, design: DeckDesign, seed: int = 0) -> np.ndarray:
    """The face of ``card`` (like "r3") as a BGRA image of CARD_PX, portrait; alpha is 0 outside
    the rounded corners."""
    rng = np.random.default_rng(seed)
    suit, value = card[0], int(card[1])
    w, h = CARD_PX
    img = _face(design).copy()
    if design.face == "tinted":  # the suit's own face colour (the rainbow's is a rainbow)
        tint = (_colour_layer(design, suit, rng, (h, w), whole=True) if suit == "m"
                else np.array(design.ink(suit), np.float32))
        img = img * 0.35 + tint * 0.65
    _art(design, suit, value, rng, img)
    _corners(design, suit, value, rng, img)
    if design.border != "none":
        b = int(design.border_mm * PX_MM)
        col = (242, 242, 242) if design.border == "white" else (14, 14, 14)
        cv2.rectangle(img, (0, 0), (w - 1, h - 1), col, b * 2)
    out = np.clip(img, 0, 255).astype(np.uint8)
    alpha = np.full((h, w), 255, np.uint8)
    r = int(design.radius_mm * PX_MM)
    if r > 0:
        alpha[:] = 0
        cv2.rectangle(alpha, (r, 0), (w - 1 - r, h - 1), 255, -1)
        cv2.rectangle(alpha, (0, r), (w - 1, h - 1 - r), 255, -1)
        for cx, cy in ((r, r), (w - 1 - r, r), (r, h - 1 - r), (w - 1 - r, h - 1 - r)):
            cv2.circle(alpha, (cx, cy), r, 255, -1, cv2.LINE_AA)
    return np.dstack([out, alpha])


# -- families ------------------------------------------------------------------------------------
def _bgr(values: Iterable[float]) -> BGR:
    b, g, r = (int(v) for v in values)
    return b, g, r


def _jitter(c: BGR, rng: np.random.Generator, s: float) -> BGR:
    return _bgr(np.clip(np.array(c, np.float32) + rng.normal(0, s, 3), 0, 255))


def _palette(rng: np.random.Generator, dark: bool, **override: BGR) -> tuple[BGR, ...]:
    base = BRIGHT if dark else STANDARD
    inks = {s: _jitter(base[s], rng, 14) for s in SUITS}
    if not dark:
        inks["w"] = _jitter((175, 175, 175), rng, 8)  # white ink on a light face is printed grey
    inks.update(override)
    return tuple(inks[s] for s in SUITS)


def _common(rng: np.random.Generator, held_out: bool) -> dict:
    """What every family varies. Training decks also print the rainbow as stripes of all its
    colours within each numeral and burst, as several editions do; drawn last, so a held-out
    family's decks are the same as before it was added."""
    fonts = font_split(held_out)
    common = dict(border=str(rng.choice(["white", "black", "none"], p=[0.45, 0.3, 0.25])),
                  border_mm=float(rng.uniform(1.5, 4.0)), radius_mm=float(rng.choice([0.0, 2.0, 3.0, 4.0])),
                  font=numeral_typeface(fonts, int(rng.integers(len(fonts)))), numeral_mm=float(rng.uniform(8, 14)),
                  style=str(rng.choice(["fill", "fill", "italic", "bold", "outline"])),
                  corners=int(rng.choice([2, 4])),
                  glyph=str(rng.choice(["none", "star", "circle", "diamond", "flower"])),
                  shape=str(rng.choice(["circle", "star", "flower", "ring"])),
                  rainbow=str(rng.choice(["gradient", "elements"])))
    if not held_out and rng.random() < 0.4:
        common["rainbow"] = "striped"
    return common


def _light_plain(rng: np.random.Generator) -> dict:
    face = _jitter((238, 240, 242), rng, 6) if rng.random() < 0.5 else _jitter((205, 230, 240), rng, 8)
    return dict(face=str(rng.choice(["solid", "paper"])), colours=(face, face),
                palette=_palette(rng, False), outline=(60, 60, 60),
                art=str(rng.choice(["numeral", "count", "unrelated", "one", "none"])))


def _dark_plain(rng: np.random.Generator) -> dict:
    face = _jitter((28, 26, 24), rng, 8)
    return dict(face="solid", colours=(face, face), palette=_palette(rng, True), outline=(200, 200, 200),
                art=str(rng.choice(["numeral", "count", "unrelated", "one", "none"])))


def _tinted(rng: np.random.Generator) -> dict:
    dark = bool(rng.random() < 0.5)
    face = (30, 30, 30) if dark else (245, 245, 245)
    palette = _palette(rng, False, k=_jitter((20, 20, 20), rng, 4), w=_jitter((235, 235, 235), rng, 4))
    return dict(face="tinted", colours=(face, face), palette=palette,
                outline=None,
                art=str(rng.choice(["numeral", "count", "unrelated", "none"])))


# hues of the warm gradient faces, each with the
# suit whose ink may be printed low-contrast on it, as light blue is on the blue-faced edition
WARM_GRADIENTS = (((40, 120, 60), "g"), ((30, 60, 130), "r"), ((90, 90, 90), "w"), ((40, 110, 140), "y"),
                  ((100, 120, 40), "g"))


def _gradient_face(rng: np.random.Generator) -> dict:
    hue, suit = WARM_GRADIENTS[int(rng.integers(len(WARM_GRADIENTS)))]
    c = np.array(hue, np.float32)
    c0 = _jitter(_bgr(c * 1.5), rng, 10)
    c1 = _jitter(_bgr(c * 0.5), rng, 6)
    faint = {suit: _jitter(_bgr(np.clip(c * 1.5 + 70, 0, 255)), rng, 6)} if rng.random() < 0.5 else {}
    return dict(face="gradient", colours=(c0, c1), palette=_palette(rng, True, **faint), outline=(235, 235, 235),
                art=str(rng.choice(["count", "unrelated", "one", "none"])))


def _texture(rng: np.random.Generator) -> dict:
    dark = bool(rng.random() < 0.6)
    c0 = _jitter((40, 35, 30) if dark else (225, 225, 220), rng, 10)
    c1 = tuple(int(v) + (25 if dark else -25) for v in c0)
    return dict(face="texture", colours=(c0, c1), palette=_palette(rng, dark),
                outline=(220, 220, 220) if dark else (40, 40, 40),
                art=str(rng.choice(["count", "unrelated", "one", "numeral"])))


SUIT_HUES = (("r", 0), ("y", 28), ("g", 60), ("b", 110))  # OpenCV hues (0-180) of the coloured inks


def _hue(hue: float, saturation: float, value: float) -> BGR:
    hsv = np.array([[[hue % 180, saturation * 255, value * 255]]], np.float32).astype(np.uint8)
    return tuple(int(v) for v in cv2.cvtColor(hsv, cv2.COLOR_HSV2BGR)[0, 0])  # type: ignore[return-value]


# The box's white balance leaves a card's white up to 16% off per channel (the worst of 120 rendered
# piles; 7% at the 90th percentile), a saturation of about 0.15; a light tint numeral on a face of
# its own hue, blurred into that face by the camera, still looked white at 0.25-0.32 (even cut at
# 3 px per mm), and most confident misreadings of white cards were on such decks. No edition
# prints two suits alike, so no ink is paler than this floor.
TINT_FLOOR = 0.40


def _apart_from_white(inks: dict[str, BGR]) -> dict[str, BGR]:
    """The coloured inks, each at least ``TINT_FLOOR`` saturated: a light tint, however faint,
    stays a colour beside white (hue and lightness kept)."""
    out = dict(inks)
    for suit, ink in inks.items():
        if suit in "wk":
            continue
        h, sat, val = cv2.cvtColor(np.array([[ink]], np.uint8), cv2.COLOR_BGR2HSV)[0, 0] / [1.0, 255.0, 255.0]
        if sat < TINT_FLOOR:
            out[suit] = _hue(float(h), TINT_FLOOR, float(val))
    return out


# No edition prints a suit that vanishes into its face: a suit printed nearer the face's own colour
# than ``VANISHES`` in Lab (lightness 0-100) where any of its numerals lies (on a gradient, a card's
# two ends lie on different colours; its standard ink on a face of its hue, or a light tint on a face
# as light) is made to stand out by ``FACE_CONTRAST``, or as near it as the ink's hue allows; white
# and black, which keep their colour, are outlined instead. The networks learn each end of a card on
# its own: an end whose numeral vanished would teach them to name what they cannot see.
VANISHES, FACE_CONTRAST = 25.0, 40.0
LIGHTNESSES = np.arange(0.0, 100.1, 2.5)  # tried for an ink that vanishes, nearest its own first
# Lab chroma a coloured ink keeps when made darker to move it off its face (its own, if less): a
# green on a green face, kept only as far as it could be from everything at once, came out as dark
# as the deck's black, and a yellow on a yellow face black (chroma 5), cards no edition prints
CHROMA_KEPT = 35.0


def _lab(c: BGR) -> np.ndarray:
    return cv2.cvtColor(np.array([[c]], np.float32) / 255, cv2.COLOR_BGR2LAB)[0, 0].astype(np.float64)


def _chroma(lab: np.ndarray) -> float:
    """How colourful a Lab colour (``_lab``) is: its distance from grey."""
    return float(np.hypot(lab[1], lab[2]))


NUMERALS_LIE = (0.0, 0.1, 0.2, 0.3, 0.7, 0.8, 0.9, 1.0)  # along a gradient: in its first and last 30%


def _under(face: str, colours: tuple[BGR, BGR]) -> list[np.ndarray]:
    """The face's colours where numerals lie (Lab): a gradient's where it passes the card's corners
    (``NUMERALS_LIE``; which way it runs, the corners lie at its ends), the plain colour of the others."""
    if face != "gradient":
        return [_lab(colours[0])]
    c0, c1 = np.array(colours, np.float64)
    return [_lab(_bgr(c0 * (1 - t) + c1 * t)) for t in NUMERALS_LIE]


def _contrast(ink: BGR, under: list[np.ndarray]) -> float:
    """How far ``ink`` stands from the face where it stands least (Lab)."""
    return min(float(np.linalg.norm(_lab(ink) - f)) for f in under)


def _apart_from_face(palette: tuple[BGR, ...], face: str, colours: tuple[BGR, BGR]) -> tuple[BGR, ...]:
    """The coloured inks, each made lighter or darker where it is within ``VANISHES`` of a colour of
    the face its numerals lie on: hue kept, a light one still ``TINT_FLOOR`` saturated, a darker one
    still showing its colour (``CHROMA_KEPT``), the lightness nearest its own at which it stands
    ``FACE_CONTRAST`` from every such colour and from white and black, else the one at which it
    stands furthest."""
    under = _under(face, colours)
    plain = [_lab(palette[SUITS.index(s)]) for s in "wk"]

    def apart(ink: BGR) -> float:  # from the face, and not turned into white or black
        return min(_contrast(ink, under), *(float(np.linalg.norm(_lab(ink) - p)) for p in plain))

    out = list(palette)
    for suit in "rygb":
        i = SUITS.index(suit)
        if _contrast(palette[i], under) >= VANISHES:
            continue
        ink = _lab(palette[i])
        moved = []
        for lightness in sorted(LIGHTNESSES, key=lambda v: abs(v - ink[0])):
            lab = np.array([[[lightness, ink[1], ink[2]]]], np.float32)
            bgr = _bgr(np.clip(cv2.cvtColor(lab, cv2.COLOR_LAB2BGR)[0, 0] * 255 + 0.5, 0, 255))
            moved.append(_apart_from_white({suit: bgr})[suit])
        least = min(CHROMA_KEPT, _chroma(ink))
        moved = [m for m in moved if (shade := _lab(m))[0] >= ink[0] or _chroma(shade) >= least] or moved
        out[i] = next((m for m in moved if apart(m) >= FACE_CONTRAST), max(moved, key=apart))
    return tuple(out)


OUTLINES = {"k": (230, 230, 230), "w": (50, 50, 50), "wk": (128, 128, 128)}  # round black, white, both


def _outlined(palette: tuple[BGR, ...], face: str, colours: tuple[BGR, BGR], outline: BGR | None) -> BGR | None:
    """``outline``, or where there is none and white or black would vanish where a numeral lies,
    one that stands out round them (light round black, dark round white, grey round both)."""
    if outline is not None:
        return outline
    under = _under(face, colours)
    vanishing = "".join(s for s in "wk" if _contrast(palette[SUITS.index(s)], under) < VANISHES)
    return OUTLINES.get(vanishing)


def _nearest_suit(hue: float) -> tuple[str, float]:
    """The coloured suit whose ink hue is nearest ``hue`` (OpenCV's 0-180, round the circle), and how far."""
    return min(((s, min(abs(hue - h), 180 - abs(hue - h))) for s, h in SUIT_HUES), key=lambda t: t[1])


def _coloured_face(rng: np.random.Generator) -> dict:
    """A face of any hue shared by every suit (printed editions come in blue, purple, navy, red,
    green...), plain, gradient or textured. The suit nearest the face's hue is sometimes printed
    as a light tint of the face itself, and white and black without an outline, so the reader
    learns that the suit is the ink's colour whatever the face's."""
    hue = float(rng.uniform(0, 180))
    sat, val = float(rng.uniform(0.35, 0.95)), float(rng.uniform(0.2, 0.75))
    c0 = _hue(hue, sat, min(1.0, val * 1.45))
    c1 = _hue(hue + rng.normal(0, 8), sat, val * 0.55)
    face = str(rng.choice(["gradient", "gradient", "solid", "texture"]))
    if face == "texture":
        c1 = _hue(hue, sat * 0.8, min(1.0, val * 1.3))
    nearest, gap = _nearest_suit(hue)
    faint = {}
    if gap < 20 and rng.random() < 0.6:
        faint[nearest] = _hue(hue, max(TINT_FLOOR, sat * 0.6), 1.0)
    if rng.random() < (0.8 if faint else 0.5):  # the light tint beside plain white: two light inks to tell apart
        faint.update(w=_jitter((250, 250, 250), rng, 3), k=_jitter((35, 30, 30), rng, 4))
    outline = None if faint.get("w") else _jitter((230, 230, 230), rng, 8)
    palette = _apart_from_face(_palette(rng, True, **_apart_from_white(faint)), face, (c0, c1))
    return dict(face=face, colours=(c0, c1), palette=palette, outline=_outlined(palette, face, (c0, c1), outline),
                art=str(rng.choice(["count", "unrelated", "one", "numeral", "none"])))


def _random_face(rng: np.random.Generator) -> dict:
    """Any face of any lightness behind any inks: a random gradient with random shapes over it
    (silhouettes, stars, lines, clouds, frames), and each suit's ink standard, bright, muted or
    pastel, the suit nearest the face's hue sometimes a light tint of it. No printed edition looks
    like this; it teaches the reader that nothing but the ink's colour and shape counts."""
    hue = float(rng.uniform(0, 180))
    sat, val = float(rng.uniform(0.0, 0.9)), float(rng.uniform(0.1, 0.95))
    c0 = _hue(hue, sat, val)
    c1 = _hue(hue + rng.normal(0, 15), sat * rng.uniform(0.6, 1.2),
              float(np.clip(val * rng.uniform(0.4, 1.4), 0.05, 1)))
    dark = val < 0.55
    grey = np.array((128, 128, 128), np.float32)
    inks: dict[str, BGR] = {}
    for suit in "rygbm":
        c = np.array((BRIGHT if dark else STANDARD)[suit], np.float32)
        mode = int(rng.integers(4))
        if mode == 2:
            c = c * rng.uniform(0.5, 0.8) + (BROWN if rng.random() < 0.5 else grey) * rng.uniform(0.2, 0.5)
        elif mode == 3:
            c = c * rng.uniform(0.4, 0.7) + 255 * rng.uniform(0.3, 0.6)
        inks[suit] = _jitter(_bgr(np.clip(c, 0, 255)), rng, 12)
    nearest, gap = _nearest_suit(hue)
    if gap < 25 and sat > 0.3 and val < 0.6 and rng.random() < 0.5:  # a light tint shows only on a darker face
        inks[nearest] = _hue(hue, sat * 0.35, 1.0)
    inks["w"] = _jitter((250, 250, 250) if dark or rng.random() < 0.5 else (180, 180, 180), rng, 5)
    inks["k"] = _jitter((30, 30, 30) if not dark or rng.random() < 0.5 else (70, 70, 70), rng, 5)
    # black powder vanishes on a dark face without its outline; white ink on a light face is grey
    outline = (_jitter((230, 230, 230), rng, 8) if dark
               else None if rng.random() < 0.4 else _jitter((50, 50, 50), rng, 8))
    palette = _apart_from_face(_palette(rng, dark, **_apart_from_white(inks)), "gradient", (c0, c1))
    return dict(face="random", colours=(c0, c1), palette=palette,
                outline=_outlined(palette, "gradient", (c0, c1), outline),
                art=str(rng.choice(["count", "unrelated", "one", "numeral", "none"])))


def _night_bursts(rng: np.random.Generator) -> dict:
    """Held out: a purple night sky over a pagoda, the value also as that many bursts."""
    c0, c1 = _jitter((70, 20, 45), rng, 6), _jitter((120, 40, 90), rng, 8)
    return dict(face="night", colours=(c0, c1), palette=_palette(rng, True), outline=(230, 230, 230),
                art="bursts")


def _skyline_pips(rng: np.random.Generator) -> dict:
    """Held out: a dark navy sky over a city, the value also as pips down both long sides."""
    c0, c1 = _jitter((60, 25, 10), rng, 5), _jitter((110, 55, 25), rng, 8)
    return dict(face="skyline", colours=(c0, c1), palette=_palette(rng, True), outline=(225, 225, 225),
                art="pips")


def _blue_low_contrast(rng: np.random.Generator) -> dict:
    """Held out: the widespread blue-faced edition; blue is light blue on blue and white is white
    on blue, one firework on every card."""
    c0, c1 = _jitter((200, 120, 40), rng, 8), _jitter((140, 60, 15), rng, 8)
    palette = _palette(rng, True, b=_jitter((250, 215, 165), rng, 6), w=(250, 250, 250),
                       k=_jitter((35, 30, 30), rng, 4))
    return dict(face="blue-gradient", colours=(c0, c1), palette=palette, outline=None, art="one")


def _sepia_print(rng: np.random.Generator) -> dict:
    """Tuning: aged sepia paper, the inks muted towards brown, white ink outlined in brown."""
    c0, c1 = _jitter((165, 198, 222), rng, 8), _jitter((95, 130, 165), rng, 8)
    muted = {s: _bgr(np.array(STANDARD[s], np.float32) * 0.6 + BROWN * 0.4) for s in "rygbm"}
    palette = _palette(rng, False, **muted, w=_jitter((238, 244, 248), rng, 3), k=_jitter((30, 38, 48), rng, 4))
    return dict(face="sepia", colours=(c0, c1), palette=palette, outline=(60, 80, 100),
                art=str(rng.choice(["count", "one", "unrelated"])))


def _blueprint_grid(rng: np.random.Generator) -> dict:
    """Tuning: a dark teal blueprint with a grid, bright inks, the numerals drawn in outline."""
    c0, c1 = _jitter((75, 58, 18), rng, 6), _jitter((150, 125, 65), rng, 8)
    return dict(face="grid", colours=(c0, c1), palette=_palette(rng, True), outline=(240, 240, 240),
                art=str(rng.choice(["numeral", "unrelated", "none"])))


@dataclass(frozen=True)
class Family:
    """A parameterised generator of decks sharing one structure."""

    name: str
    held_out: bool
    make: Callable[[np.random.Generator], dict]
    tuning: bool = False   # held out from training, but looked at while developing (not a test figure)
    weight: float = 1.0    # how often training draws it, against the other training families

    def design(self, seed: int) -> DeckDesign:
        rng = np.random.default_rng([zlib.crc32(self.name.encode()), seed])
        params = self.make(rng)  # the family's own look first, then what every family varies
        return DeckDesign(family=self.name, seed=seed, **params, **_common(rng, self.held_out))


FAMILIES: dict[str, Family] = {f.name: f for f in (
    Family("light-plain", False, _light_plain),
    Family("dark-plain", False, _dark_plain),
    Family("tinted-face", False, _tinted),
    Family("warm-gradient", False, _gradient_face),
    Family("textured", False, _texture),
    Family("coloured-face", False, _coloured_face),
    Family("random-face", False, _random_face, weight=2.0),
    Family("night-bursts", True, _night_bursts),
    Family("skyline-pips", True, _skyline_pips),
    Family("blue-low-contrast", True, _blue_low_contrast),
    Family("sepia-print", True, _sepia_print, tuning=True),
    Family("blueprint-grid", True, _blueprint_grid, tuning=True),
)}
TRAINING = tuple(n for n, f in FAMILIES.items() if not f.held_out)
TRAINING_SHARES = np.array([FAMILIES[n].weight for n in TRAINING]) / sum(FAMILIES[n].weight for n in TRAINING)
TUNING = tuple(n for n, f in FAMILIES.items() if f.tuning)
HELD_OUT = tuple(n for n, f in FAMILIES.items() if f.held_out and not f.tuning)  # the test families
GROUPS = {"held-out": HELD_OUT, "tuning": TUNING, "training": TRAINING}  # what each family is for, by name


def role(family: str) -> str:
    """Which of ``GROUPS`` a family belongs to ("held-out": a test family)."""
    return next(name for name, members in GROUPS.items() if family in members)


def design(family: str, seed: int) -> DeckDesign:
    if family not in FAMILIES:
        raise ValueError(f"unknown design family {family!r}; choose from {', '.join(FAMILIES)}")
    return FAMILIES[family].design(seed)
