"""A QR code on the OLED: dark modules on a lit square, each module a whole number of pixels.

A phone reads dark-on-light codes; on an OLED, light is a lit pixel, so the code's square and its
quiet zone are lit and the modules left dark. The modules are as large as the square allows (two
pixels each on the status screen): on a 0.96" screen one pixel is a sixth of a millimetre, too
small for many phones' cameras.
"""
from __future__ import annotations

from functools import lru_cache

import qrcode
from qrcode.constants import ERROR_CORRECT_L

from .canvas import OFF, Canvas

Box = tuple[int, int, int, int]  # left, top, right, bottom (inclusive), as Pillow draws rectangles


@lru_cache(maxsize=16)
def matrix(data: str) -> tuple[tuple[bool, ...], ...]:
    """The modules of the smallest code holding ``data`` (True = dark), without a quiet zone.

    The lowest error correction keeps the code small: a screen neither smudges nor tears.
    """
    code = qrcode.QRCode(error_correction=ERROR_CORRECT_L, border=0)
    code.add_data(data)
    code.make(fit=True)
    return tuple(tuple(row) for row in code.get_matrix())


def draw(c: Canvas, data: str, box: Box, quiet: int = 1) -> int:
    """Light ``box`` and draw the code of ``data`` centred in it, with at least ``quiet`` modules of
    lit margin on every side; returns the pixels per module. Raises ValueError when it cannot fit."""
    modules = matrix(data)
    n = len(modules)
    left, top, right, bottom = box
    side = min(right - left, bottom - top) + 1
    scale = side // (n + 2 * quiet)
    if scale < 1:
        raise ValueError(f"a QR code of {n}x{n} modules does not fit in {side}x{side} pixels; "
                         "shorten what it holds")
    c.invert(box)
    x0 = left + (right - left + 1 - n * scale) // 2
    y0 = top + (bottom - top + 1 - n * scale) // 2
    for row, line in enumerate(modules):
        for col, dark in enumerate(line):
            if dark:
                x, y = x0 + col * scale, y0 + row * scale
                c.draw.rectangle((x, y, x + scale - 1, y + scale - 1), fill=OFF)
    return scale
