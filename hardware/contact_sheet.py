"""Every screen in every language on one image, for a person to look over.

    python -m hardware.contact_sheet --out screens.png [--scale 2]
"""
from __future__ import annotations

import argparse
from pathlib import Path

from PIL import Image, ImageDraw

from .canvas import HEIGHT, WIDTH, font
from .messages import LANGUAGES
from .samples import SAMPLES
from .screens import render

LIT, DARK, PAPER, INK = (150, 220, 255), (8, 12, 20), (245, 245, 240), (30, 30, 30)
LABEL_W, HEAD_H, PAD = 170, 24, 8


def contact_sheet(scale: int = 2) -> Image.Image:
    """A grid: one row per screen, one column per language, each OLED pixel ``scale`` wide."""
    cell_w, cell_h = WIDTH * scale + PAD, HEIGHT * scale + PAD
    sheet = Image.new("RGB", (LABEL_W + cell_w * len(LANGUAGES), HEAD_H + cell_h * len(SAMPLES)), PAPER)
    draw = ImageDraw.Draw(sheet)
    for col, lang in enumerate(LANGUAGES):
        draw.text((LABEL_W + col * cell_w + 4, 4), lang, font=font(14, True), fill=INK)
    for row, (name, screen) in enumerate(SAMPLES.items()):
        y = HEAD_H + row * cell_h
        draw.text((4, y + cell_h // 2 - 8), name, font=font(12), fill=INK)
        for col, lang in enumerate(LANGUAGES):
            oled = render(screen, lang).resize((WIDTH * scale, HEIGHT * scale), Image.Resampling.NEAREST)
            lit = Image.new("RGB", oled.size, LIT)
            panel = Image.new("RGB", oled.size, DARK)
            panel.paste(lit, mask=oled)
            sheet.paste(panel, (LABEL_W + col * cell_w, y))
    return sheet


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path("screens.png"), help="PNG file to write")
    parser.add_argument("--scale", type=int, default=2, choices=range(1, 9), metavar="1-8",
                        help="screen pixels per OLED pixel")
    args = parser.parse_args(argv)
    contact_sheet(args.scale).save(args.out)
    print(f"{args.out}: {len(SAMPLES)} screens x {len(LANGUAGES)} languages")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
