"""The words on the screens: complete in every language, and every table change has its flash."""
from __future__ import annotations

import pytest

from companion.game.table import Table
from companion.words import SUITS, suit_name
from hardware.box import NO_FLASH
from hardware.messages import LANGUAGES, LINES, UnknownLanguage, card_name, text
from hardware.screens import Flash, render


def test_every_language_has_every_line():
    assert set(SUITS) == set("rygbwmk")
    for lang in LANGUAGES:
        lines = [text(lang, key) for key in LINES]
        assert all(line.strip() for line in lines), lang
        if lang != "en":  # translated: no English line left over, but for names the same everywhere
            same = {key for key in LINES if text(lang, key) == text("en", key)}
            assert same <= {"status.pin", "status.pin_label", "camera.ok", "pace", "pace_zero"}, (lang, same)


def test_cards_are_named_in_the_language():
    assert card_name("en", "r3") == "red 3"
    assert card_name("pl", "y1") == "żółta 1"
    assert card_name("de", "w5") == "weiß 5"
    assert card_name("cs", "k2") == "černá 2"


def test_an_unknown_language_is_an_error():
    with pytest.raises(UnknownLanguage, match="en, pl, de, cs"):
        text("fr", "deck")


def every_change_kind() -> list:
    """Play a rewards game through every kind of change the table reports."""
    changes = []
    t = Table()
    t.add_listener(lambda table, change: changes.append(change))
    t.new_game(["Ann", "Ben"], {"preset": "five-magnificent", "fuse_tokens": 2})
    t.act({"type": "hint"})
    t.act({"type": "discard", "card": "b1"})
    t.act({"type": "play", "card": "w4"})                     # misplay
    t.undo()
    for v in range(1, 6):
        t.act({"type": "play", "card": f"r{v}"})              # completes red: a reward tile
    t.act({"type": "reward", "tile": "hint"})
    t.correct(1, "b2")
    t.propose({"type": "play", "card": "g1"}, 0.5, ["g1", "y1"])
    t.undo()                                                  # dismissed
    t.end_game()
    t.undo()                                                  # resumed
    for card in ("w4", "w5"):
        t.act({"type": "play", "card": card})                 # misplays to the last fuse
    return changes


def test_every_change_kind_from_the_table_renders_in_every_language():
    changes = every_change_kind()
    kinds = {c.kind for c in changes}
    assert kinds >= {"new_game", "hint", "discarded", "played", "misplay", "undo", "reward_revealed",
                     "reward", "corrected", "pending", "dismissed", "game_over", "resumed"}
    for change in (c for c in changes if c.kind not in NO_FLASH):
        flash = Flash.of(change)
        for lang in LANGUAGES:
            assert render(flash, lang).getbbox() is not None


def test_flashes_carry_what_they_show():
    changes = {c.kind: c for c in every_change_kind()}
    assert Flash.of(changes["misplay"]) == Flash("misplay", card="w5", number=2, total=2)
    assert Flash.of(changes["corrected"]) == Flash("corrected", card="b2", old="b1")
    assert Flash.of(changes["reward"]) == Flash("reward", tile="hint")
    assert Flash.of(changes["undo"]) == Flash("undo", card="w4")


def glyph(f, ch: str) -> bytes:
    from PIL import Image, ImageDraw
    im = Image.new("1", (24, 24))
    ImageDraw.Draw(im).text((2, 2), ch, font=f, fill=1)
    return im.tobytes()


def test_every_letter_on_the_screens_is_in_the_bundled_font():
    from hardware.canvas import font
    lines = [text(lang, key) for lang in LANGUAGES for key in LINES]
    lines += [suit_name(suit, lang) for lang in LANGUAGES for suit in SUITS] + ["▶…"]
    for bold in (False, True):
        f = font(12, bold)
        missing_glyph = glyph(f, "\ue000")     # a private-use code point: no glyph
        absent = {ch for line in lines for ch in line
                  if not ch.isspace() and glyph(f, ch) == missing_glyph}
        assert not absent, f"letters missing from the font (bold={bold}): {sorted(absent)}"


def test_no_line_on_any_sample_screen_is_cut_short(monkeypatch):
    import hardware.canvas as canvas
    from hardware.samples import SAMPLES
    clip, cut = canvas._clip, []

    def watching_clip(text, room, size, bold):
        out = clip(text, room, size, bold)
        if out != text:
            cut.append(text)
        return out

    monkeypatch.setattr(canvas, "_clip", watching_clip)
    for name, screen in SAMPLES.items():
        for lang in LANGUAGES:
            render(screen, lang)
            assert not cut, f"{name}.{lang}: {cut} does not fit"
