"""The OLED and the page show the same words for the same thing, in every language: a line the page
also shows is the page's own message, and a short form of the OLED uses the page's words (only
shorter); the suit names and the rating lines the page's script gets are the OLED's."""
from __future__ import annotations

import json
import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.game.rating import LINES, rating_line
from companion.game.store import Store
from companion.game.table import Table
from companion.words import LANGUAGES, SUITS, gettext, pgettext
from hardware import messages
from hardware.messages import card_name, text
from web import close_app, create_app

# OLED lines that are the page's message itself
SAME = {"deck": "Deck", "score": "Score", "resumed": "Game resumed", "new_game": "New game",
        "status.pin_label": "PIN"}
# OLED short forms of something the page says: fuses, misplays, hints, the final round, pace, the camera
SHORT = {
    "fuses": "Fuses",
    "no_game": "No game yet",
    "misplay": "Misplay: fuse %(fuses_used)s of %(fuse_tokens)s",
    "misplay.detail": "Misplay: fuse %(fuses_used)s of %(fuse_tokens)s",
    "tile.fuse": "a fuse back",
    "hint": "Hint given: %(hints)s tokens left",
    "final_round": "Final round: %(turns_left)s turns left",
    "pace": "pace",
    "pace_zero": "Pace %(pace)s: from now on every discard loses points",
}
WORD = re.compile(r"%\(\w+\)s|[^\W\d_]+(?:-[^\W\d_]+)*")


def words(line: str) -> set[str]:
    """The words of a line, lower case, without placeholders, numbers and marks (✓, ✗, :, !)."""
    return {w.lower() for w in WORD.findall(line) if not w.startswith("%")}


def bare(line: str) -> str:
    """Only the words of a line, in order, lower case."""
    return " ".join(w.lower() for w in WORD.findall(line) if not w.startswith("%"))


def test_shared_lines_are_the_pages_own_messages() -> None:
    for key, msgid in SAME.items():
        assert messages.LINES[key].context is None and messages.LINES[key].text == msgid, key
        for lang in LANGUAGES:
            assert text(lang, key) == gettext(msgid, lang), (lang, key)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_short_forms_use_the_pages_words(lang: str) -> None:
    for key, msgid in SHORT.items():
        oled, page = text(lang, key), gettext(msgid, lang)
        if len(bare(oled)) >= len(bare(page)):
            assert bare(oled) == bare(page), (lang, key, oled, page)
        else:
            assert words(oled) <= words(page), f"{lang} {key}: {oled!r} says what the page's {page!r} does not"


def test_the_fuse_and_the_multicolour_suit_have_the_editions_words() -> None:
    """German from the Abacus rulebook, Polish from the special edition's, Czech from its edition's."""
    assert [gettext("multicolour", lang) for lang in LANGUAGES] == ["multicolour", "wielokolorowa", "bunt", "duhová"]
    assert [text(lang, "misplay.detail", used=1, tokens=3) for lang in LANGUAGES] == \
        ["Fuse 1 of 3", "Kafelek 1 z 3", "Blitz 1 von 3", "Žeton 1 z 3"]
    assert [text(lang, "misplay") for lang in LANGUAGES] == ["Misplay ✗", "Pomyłka ✗", "Fehler ✗", "Chyba ✗"]
    assert [gettext("Fuse tokens", lang) for lang in LANGUAGES] == \
        ["Fuse tokens", "Kafelki pomyłki", "Gewitter-Plättchen", "Červené žetony"]
    assert [gettext("Hint tokens", lang) for lang in LANGUAGES] == \
        ["Hint tokens", "Żetony wskazówek", "Hinweis-Plättchen", "Modré žetony"]
    assert pgettext("oled", "Fuses", "de") == gettext("Fuses", "de") == "Gewitter"


@given(st.sampled_from(LANGUAGES), st.sampled_from(sorted(SUITS)), st.integers(1, 5))
def test_a_card_is_named_alike_on_the_oled_and_the_page(lang: str, suit: str, value: int) -> None:
    assert card_name(lang, f"{suit}{value}") == f"{gettext(SUITS[suit].text, lang)} {value}"


@pytest.fixture(scope="module")
def pages(tmp_path_factory):  # type: ignore[no-untyped-def]
    store = Store(str(tmp_path_factory.mktemp("store") / "games.sqlite"))
    app = create_app(Table(store), store, pin="2468")
    yield app.test_client()
    close_app(app)
    store.close()


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_pages_script_gets_the_oleds_suits_and_rating_lines(pages, lang: str) -> None:
    html = pages.get(f"/?lang={lang}").data.decode()
    boot = json.loads(re.search(r'<script type="application/json" id="boot">(.*?)</script>', html, re.S)[1])
    assert boot["lang"] == lang
    assert {suit: f"{name} 3" for suit, name in boot["suits"].items()} == \
        {suit: card_name(lang, f"{suit}3") for suit in SUITS}
    assert set(boot["ratings"]) == set(LINES)
    for score in range(26):
        assert rating_line(score, 25, lang) in boot["ratings"].values()
