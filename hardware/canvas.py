"""Drawing on a 128x64 1-bit canvas with the bundled font: text that fits, and the token pips.

The font ships inside the package, so an image comes out the same on the Pi, a laptop and CI.
Text never spills: a line too wide is set in a smaller size, then shortened with an ellipsis.
"""
from __future__ import annotations

import io
from dataclasses import dataclass, field
from functools import cache, lru_cache
from importlib import resources

from PIL import Image, ImageDraw, ImageFont

WIDTH, HEIGHT = 128, 64
FONTS = resources.files("hardware").joinpath("fonts")
_FILES = {False: "DejaVuSansCondensed.ttf", True: "DejaVuSansCondensed-Bold.ttf"}
ON, OFF = 1, 0


@cache
def font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    """The bundled font; loading one takes milliseconds, so each size is loaded once."""
    with FONTS.joinpath(_FILES[bold]).open("rb") as f:
        return ImageFont.truetype(io.BytesIO(f.read()), size)


@lru_cache(maxsize=4096)
def width(text: str, size: int, bold: bool = False) -> int:
    return int(round(font(size, bold).getlength(text)))


@dataclass
class Canvas:
    """One screen being drawn: a 1-bit image and the pen that writes on it."""

    image: Image.Image = field(default_factory=lambda: Image.new("1", (WIDTH, HEIGHT), OFF))

    def __post_init__(self) -> None:
        self.draw = ImageDraw.Draw(self.image)
        self.draw.fontmode = "1"  # crisp pixels: a 1-bit screen has no grey to smooth with

    def fit(self, text: str, max_width: int, sizes: tuple[int, ...], bold: bool = False) -> int:
        """The largest of ``sizes`` that sets ``text`` within ``max_width`` (else the smallest)."""
        for size in sizes:
            if width(text, size, bold) <= max_width:
                return size
        return sizes[-1]

    def text(self, xy: tuple[int, int], text: str, sizes: tuple[int, ...], bold: bool = False,
             max_width: int | None = None, align: str = "left", fill: int = ON) -> None:
        """Write one line with its top at ``xy[1]``. Without ``max_width``, x is where the line is
        anchored (its left end, centre or right end, by ``align``); with it, x is the left of the
        box the line is aligned in."""
        x, y = xy
        room = max_width if max_width is not None else (
            WIDTH - x if align == "left" else WIDTH if align == "center" else x)
        size = self.fit(text, room, sizes, bold)
        text = _clip(text, room, size, bold)
        w = width(text, size, bold)
        if align == "center":
            x = x - w // 2 if max_width is None else x + (room - w) // 2
        elif align == "right":
            x = x - w
        self.draw.text((x, y), text, font=font(size, bold), fill=fill)  # y: the line's ascender

    def wrap(self, top: int, text: str, sizes: tuple[int, ...], bottom: int = HEIGHT, bold: bool = False,
             line_gap: int = 1) -> None:
        """Centre ``text`` in the band from ``top`` to ``bottom``, word-wrapped in the largest of
        ``sizes`` whose lines all fit there (the smallest size is clipped with an ellipsis)."""
        for size in sizes:
            lines = _lines(text, WIDTH - 2, size, bold)
            rows = max(1, (bottom - top - _depth(size, bold)) // (size + line_gap) + 1)
            if len(lines) <= rows:
                break
        if len(lines) > rows:
            lines = lines[:rows - 1] + [" ".join(lines[rows - 1:])]
        step = size + line_gap
        y = top + (bottom - top - (len(lines) - 1) * step - _depth(size, bold)) // 2
        for line in lines:
            self.text((WIDTH // 2, y), line, (size,), bold, align="center")
            y += step

    def invert(self, box: tuple[int, int, int, int]) -> None:
        """Light a bar that dark text is then written on."""
        self.draw.rectangle(box, fill=ON)

    def pips(self, x: int, y: int, lit: int, total: int, diameter: int, gap: int) -> None:
        """Hint tokens: a filled circle for each on the table, a ring for each spent."""
        for i in range(total):
            left = x + i * (diameter + gap)
            box = (left, y, left + diameter - 1, y + diameter - 1)
            self.draw.ellipse(box, fill=ON if i < lit else OFF, outline=ON)

    def fuses(self, x: int, y: int, burnt: int, total: int, size: int, gap: int) -> None:
        """Fuse tokens: an outlined triangle for each left, a filled one for each burnt."""
        for i in range(total):
            left = x + i * (size + gap)
            tri = [(left, y + size - 1), (left + size // 2, y), (left + size - 1, y + size - 1)]
            self.draw.polygon(tri, fill=ON if i < burnt else OFF, outline=ON)


@cache
def _depth(size: int, bold: bool) -> int:
    """Pixels from a line's top to the bottom of its lowest letters (accents and descenders)."""
    return int(font(size, bold).getbbox("ÁÅgjy")[3])


def _clip(text: str, room: int, size: int, bold: bool) -> str:
    if width(text, size, bold) <= room:
        return text
    while text and width(text + "…", size, bold) > room:
        text = text[:-1]
    return text.rstrip() + "…"


def _lines(text: str, room: int, size: int, bold: bool) -> list[str]:
    """Greedy word wrap; a single word wider than the screen is clipped when drawn."""
    lines: list[str] = []
    for word in text.split():
        if lines and width(f"{lines[-1]} {word}", size, bold) <= room:
            lines[-1] = f"{lines[-1]} {word}"
        else:
            lines.append(word)
    return lines
