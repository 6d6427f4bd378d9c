"""`make screens`: one image with every screen in every language."""
from __future__ import annotations

from PIL import Image

from hardware.contact_sheet import main
from hardware.messages import LANGUAGES
from hardware.samples import SAMPLES


def test_contact_sheet_holds_every_screen_in_every_language(tmp_path, capsys):
    out = tmp_path / "screens.png"
    assert main(["--out", str(out), "--scale", "1"]) == 0
    sheet = Image.open(out)
    assert sheet.width > 128 * len(LANGUAGES) and sheet.height > 64 * len(SAMPLES)
    assert f"{len(SAMPLES)} screens x {len(LANGUAGES)} languages" in capsys.readouterr().out
    colours = {c for _, c in sheet.getcolors(maxcolors=1 << 16)}
    assert len(colours) > 3   # paper, label ink, lit and dark OLED pixels
