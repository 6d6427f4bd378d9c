"""Every screen in every language against its approved image.

After a deliberate change to the screens, look at the new images (``make screens``) and approve
them with:  HANABI_GOLDEN=update python -m pytest tests/hardware/test_golden.py
"""
from __future__ import annotations

import os
from pathlib import Path

import pytest
from PIL import Image, ImageChops

from hardware.messages import LANGUAGES
from hardware.samples import SAMPLES
from hardware.screens import render

GOLDEN = Path(__file__).with_name("golden")
ARTIFACTS = Path(__file__).parents[1] / "artifacts" / "hardware"
UPDATE = os.environ.get("HANABI_GOLDEN") == "update"


def golden_path(name: str, lang: str) -> Path:
    return GOLDEN / f"{name}.{lang}.png"


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("name", list(SAMPLES))
def test_screen_matches_golden(name: str, lang: str) -> None:
    image = render(SAMPLES[name], lang)
    path = golden_path(name, lang)
    if UPDATE:
        image.save(path)
    assert path.exists(), f"no golden image {path.name}; approve one with HANABI_GOLDEN=update"
    golden = Image.open(path).convert("1")
    diff = ImageChops.difference(image.convert("L"), golden.convert("L")).getbbox()
    if diff is not None:
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        image.save(ARTIFACTS / path.name)
    assert diff is None, f"{path.name} differs in the box {diff}; the new image is in {ARTIFACTS}"


def test_every_golden_image_belongs_to_a_screen() -> None:
    expected = {golden_path(n, lang).name for n in SAMPLES for lang in LANGUAGES}
    stale = sorted(p.name for p in GOLDEN.glob("*.png") if p.name not in expected)
    assert not stale, f"golden images for screens that no longer exist: {stale}"


def test_screens_are_one_bit_128_by_64() -> None:
    for screen in SAMPLES.values():
        image = render(screen, "en")
        assert (image.mode, image.size) == ("1", (128, 64))
        assert image.getbbox() is not None, f"{screen} drew nothing"
