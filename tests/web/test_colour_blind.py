"""The table page for colour-blind players, in headless Chromium: every card carries its suit's
letter, rainbow and black carry a pattern, and both survive a simulated deuteranopia and protanopia
(Machado et al. 2009, severity 1, applied as an SVG colour matrix to the whole page). Also the
high-contrast theme, the pace readout and the alert for a lost last copy or a pace of 0.

Screenshots are kept in tests/artifacts/ for people to look at.
"""
from __future__ import annotations

import io
import json
import os
import re
from typing import Any

import numpy as np
import pytest
from flask import Flask
from hypothesis import HealthCheck, given, settings, target
from hypothesis import strategies as st
from PIL import Image
from playwright.sync_api import Browser, Locator, Page, expect

from companion.game.table import Change, CommandError, Table
from web.i18n import translations
from web.pages import client_strings

from .conftest import ARTIFACTS, DESKTOP, PHONE, PIN, TIMEOUT_MS, LiveServer
from .test_browser import api

# Machado, Oliveira & Fernandes (2009), severity 1.0; rows give linear R', G', B' from R, G, B.
MACHADO = {
    "deuteranopia": ((0.367322, 0.860646, -0.227968), (0.280085, 0.672501, 0.047413),
                     (-0.011820, 0.042940, 0.968881)),
    "protanopia": ((0.152286, 1.052583, -0.204868), (0.114503, 0.786281, 0.099216),
                   (-0.003882, -0.048116, 1.051998)),
}
SEVEN_SUITS = {"preset": "rainbow", "black_powder": True}  # r y g b w m k
FIRST_PLAYS = ["r1", "y1", "g1", "b1", "w1", "m1", "k5"]  # black is built from 5 down
LETTER_CONTRAST = 60  # grey levels (of 255) a letter's strokes differ from the tile under it
PLAIN, PATTERNED = 6.0, 15.0  # spread of grey levels in a tile's bare strip: flat hue vs. a pattern


PLACEHOLDER = re.compile(r"%\((\w+)\)s")


# The app is only read (for its words), so one app serves every example.
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.sampled_from([f"{s}{v}" for s in "rygbw" for v in range(1, 6)]), max_size=40),
       st.sampled_from(["en", "pl", "de", "cs"]))
def test_the_page_has_words_for_every_alert_with_the_params_it_names(app: Flask, discards: list[str],
                                                                      lang: str) -> None:
    """Whatever is discarded, each alert the table raises is worded on the page from its own params."""
    table, told = Table(), []
    table.add_listener(lambda _, change: told.append(change))
    table.new_game(2)
    for card in discards:
        try:
            table.act({"type": "hint"})
            table.act({"type": "discard", "card": card})
        except CommandError:
            break  # the game is over, or no copy of that card is left
    with app.test_request_context(f"/?lang={lang}"):
        app.preprocess_request()
        words = client_strings()
    alerts: list[Change] = [c for c in told if c.kind in ("last_copy_lost", "pace_zero")]
    target(float(len(alerts)))  # steer towards games that raise many alerts
    for change in alerts:
        assert set(PLACEHOLDER.findall(words[change.kind])) <= set(change.params), change
    lost = {c.params["card"] for c in alerts if c.kind == "last_copy_lost"}
    assert lost <= set(discards)


def open_page(browser: Browser, size: dict[str, int], problems: list[str], **context: Any) -> Page:
    page = browser.new_context(viewport=size, **context).new_page()
    page.set_default_timeout(TIMEOUT_MS)
    page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: problems.append(str(e)))
    return page


def paired(page: Page, url: str) -> None:
    page.goto(f"{url}/pin?next=/")
    page.fill("#pin", PIN)
    page.click("button[type=submit]")
    expect(page.locator("#game")).to_be_visible()


def shot(page: Page, name: str) -> None:
    os.makedirs(ARTIFACTS, exist_ok=True)
    page.screenshot(path=os.path.join(ARTIFACTS, f"{name}.png"), full_page=True)


def letter(tile: Locator) -> str:
    """The letter the stylesheet draws in a card's corner (empty when it draws none)."""
    content = tile.evaluate("e => getComputedStyle(e, '::before').content")
    return "" if content in ("none", "normal") else json.loads(content)


def simulate(page: Page, kind: str) -> None:
    """View the whole page as a person with this colour vision deficiency would see it."""
    rows = [list(r) + [0, 0] for r in MACHADO[kind]] + [[0, 0, 0, 1, 0]]
    page.evaluate("""([id, values]) => {
        const ns = "http://www.w3.org/2000/svg";
        const svg = document.createElementNS(ns, "svg");
        svg.setAttribute("width", "0");
        svg.setAttribute("height", "0");
        const filter = document.createElementNS(ns, "filter");
        filter.id = id;
        filter.setAttribute("color-interpolation-filters", "linearRGB");
        const matrix = document.createElementNS(ns, "feColorMatrix");
        matrix.setAttribute("type", "matrix");
        matrix.setAttribute("values", values);
        filter.append(matrix);
        svg.append(filter);
        document.body.append(svg);
        document.documentElement.style.filter = `url(#${id})`;
    }""", [kind, " ".join(str(v) for row in rows for v in row)])


def pixels(tile: Locator) -> np.ndarray:
    """The tile as the screen shows it (filters included), RGB floats."""
    return np.asarray(Image.open(io.BytesIO(tile.screenshot())).convert("RGB"), dtype=float)


def grey(rgb: np.ndarray) -> np.ndarray:
    """What is left without colour: luminance (Rec. 601 weights)."""
    return rgb @ np.array([0.299, 0.587, 0.114])


def bare_strip(rgb: np.ndarray) -> np.ndarray:
    """The bottom of a firework tile, below its value and inside its border: only the suit's face."""
    h, w = rgb.shape[:2]
    return rgb[int(h * 0.8):h - 5, 5:w - 5]


def seven_suit_table(table: Table) -> None:
    """Every suit on the fireworks and in the discards, and an unsure card waiting."""
    table.new_game(["Ann", "Ben", "Cat"], SEVEN_SUITS)
    for card in FIRST_PLAYS:
        table.act({"type": "play", "card": card})
    for card in ["r4", "y4", "g4", "b4", "w4", "m4", "k4"]:
        table.act({"type": "hint"})
        table.act({"type": "discard", "card": card})
    table.propose({"type": "play", "card": "r2"}, 0.4, ["r2", "g2"])


@pytest.mark.slow  # drives Chromium
@pytest.mark.parametrize("kind", sorted(MACHADO))
def test_suits_stay_distinguishable_under_colour_blindness(browser: Browser, live: LiveServer, table: Table,
                                                           kind: str) -> None:
    seven_suit_table(table)
    problems: list[str] = []
    page = open_page(browser, DESKTOP, problems)
    paired(page, live.url)
    expect(page.locator("#pending")).to_be_visible()
    tiles = {t.get_attribute("data-suit"): t for t in page.locator("#fireworks .card").all()}
    letters = {suit: letter(t) for suit, t in tiles.items()}
    assert letters == {s: s.upper() for s in "rygbwmk"}  # seven suits, seven different letters

    cards = page.locator("#game .card:visible")  # fireworks, discards, the unsure card, the event, picker, log
    assert cards.count() >= 7 + 7 + 2 + 1 + 35
    for card in cards.all():
        suit = card.get_attribute("data-suit")
        assert suit and letter(card) == suit.upper(), card.evaluate("e => e.outerHTML")
    expect(page.locator("#pending-card .card")).to_have_attribute("data-letter", "R")
    expect(page.locator("#event .card")).to_have_attribute("data-letter", "R")

    seen = {suit: pixels(t) for suit, t in tiles.items()}
    simulate(page, kind)
    shot(page, f"colour-blind-{kind}-desktop")
    filtered = {suit: pixels(t) for suit, t in tiles.items()}
    # The filter works: red and green, far apart on a normal screen, come out close in colour.
    face = {suit: bare_strip(rgb).mean(axis=(0, 1)) for suit, rgb in filtered.items()}
    before = np.linalg.norm(bare_strip(seen["r"]).mean(axis=(0, 1)) - bare_strip(seen["g"]).mean(axis=(0, 1)))
    assert np.linalg.norm(face["r"] - face["g"]) < 0.5 * before, (face["r"], face["g"])
    # What tells them apart then: each letter is drawn in a lightness the tile does not have...
    page.evaluate("document.querySelectorAll('#fireworks .card').forEach(e => delete e.dataset.letter)")
    for suit, tile in tiles.items():
        assert letter(tile) == ""
        strokes = np.abs(grey(filtered[suit]) - grey(pixels(tile)))
        assert (strokes >= LETTER_CONTRAST).sum() >= 40, (kind, suit, strokes.max())
    # ...and rainbow and black wear a pattern, which the plain suits (blue among them) do not.
    spread = {suit: float(grey(bare_strip(rgb)).std()) for suit, rgb in filtered.items()}
    assert all(spread[s] < PLAIN for s in "rygbw"), spread
    assert spread["m"] > PATTERNED and spread["k"] > PATTERNED, spread
    assert not problems, problems


@pytest.mark.slow  # drives Chromium
def test_pace_readout_and_alerts_for_a_lost_last_copy_and_pace_zero(browser: Browser, live: LiveServer) -> None:
    api(live.url, "/api/games", {"players": ["Ann", "Ben"], "variant": "base"})
    problems: list[str] = []
    page = open_page(browser, PHONE, problems, device_scale_factor=2)
    paired(page, live.url)

    def act(action: dict[str, Any]) -> dict[str, Any]:
        code, body = api(live.url, "/api/actions", action)
        assert code == 200, (action, body)
        st = api(live.url, "/api/state")[1]
        expect(page.locator("#log li")).to_have_count(st["actions"])
        expect(page.locator("#pace")).to_have_text(str(st["pace"]))
        return st

    st = api(live.url, "/api/state")[1]
    expect(page.locator("#pace")).to_have_text(str(st["pace"]))
    assert st["pace"] == 40 + 2 - 25  # deck after dealing, plus one turn each, minus cards to build
    page.click("#pace-toggle")
    expect(page.locator("#pace-help")).to_be_visible()
    expect(page.locator("#pace-help")).to_contain_text("every further discard loses points")
    expect(page.locator("#pace-toggle")).to_have_attribute("aria-expanded", "true")
    page.click("#pace-toggle")
    expect(page.locator("#pace-help")).to_be_hidden()

    act({"type": "hint"})
    st = act({"type": "discard", "card": "r5"})  # the only red 5
    assert st["last_event"]["kind"] == "last_copy_lost", st["last_event"]
    alert = page.locator("#alert")
    expect(alert).to_be_visible()
    expect(alert).to_contain_text("red 5")
    expect(alert).to_contain_text("24")
    expect(alert.locator(".card")).to_have_attribute("data-letter", "R")
    expect(page.locator("#event")).not_to_contain_text("Last copy")  # said once, in the alert
    shot(page, "alert-last-copy-phone")
    page.click("#alert-close")
    expect(alert).to_be_hidden()
    expect(page.locator("#event")).to_contain_text("Last copy of red 5 lost")

    act({"type": "hint"})
    act({"type": "discard", "card": "y2"})
    expect(alert).to_be_hidden()  # another yellow 2 is still in the game
    act({"type": "hint"})
    act({"type": "discard", "card": "y2"})
    expect(alert).to_contain_text("yellow 2")
    expect(alert).to_contain_text("20")  # yellow stops at 1
    st = act({"type": "hint"})
    expect(alert).to_be_hidden()  # the next action ends the alert
    assert st["pace"] == 14

    safe = ["r1", "r1", "y1", "y1", "g1", "g1", "b1", "b1", "w1", "w1", "g2", "b2", "w2", "g3"]
    for card in safe:
        st = act({"type": "discard", "card": card})
        if st["pace"] > 0:
            expect(alert).to_be_hidden()
            expect(page.locator("#pace-toggle")).to_have_attribute("data-level", "ok")
            st = act({"type": "hint"})
    assert st["pace"] == 0 and st["last_event"]["kind"] == "pace_zero", st["last_event"]
    expect(alert).to_be_visible()
    expect(alert).to_contain_text("Pace 0")
    expect(page.locator("#pace-toggle")).to_have_attribute("data-level", "zero")
    shot(page, "alert-pace-zero-phone")

    page.goto(f"{live.url}/?lang=de")  # a page opened later still shows it, in its language
    de = translations("de").gettext("Pace %(pace)s: from now on every discard loses points") % {"pace": 0}
    expect(page.locator("#alert-lines")).to_have_text(de)
    assert not problems, problems


@pytest.mark.slow  # drives Chromium
def test_high_contrast_theme_is_kept_and_follows_the_system(browser: Browser, live: LiveServer) -> None:
    api(live.url, "/api/games", {"players": ["Ann", "Ben"], "variant": SEVEN_SUITS})
    problems: list[str] = []
    page = open_page(browser, DESKTOP, problems)
    page.goto(live.url)
    root, toggle = page.locator("html"), page.locator("#contrast-toggle")
    expect(root).to_have_attribute("data-contrast", "normal")
    expect(toggle).to_have_attribute("aria-pressed", "false")
    toggle.click()
    expect(root).to_have_attribute("data-contrast", "more")
    expect(toggle).to_have_attribute("aria-pressed", "true")
    assert page.evaluate("getComputedStyle(document.body).backgroundColor") == "rgb(0, 0, 0)"
    page.goto(f"{live.url}/history")  # every page, and after a reload
    expect(page.locator("html")).to_have_attribute("data-contrast", "more")
    page.goto(live.url)
    shot(page, "high-contrast-desktop")

    system = open_page(browser, PHONE, problems, contrast="more", device_scale_factor=2)
    system.goto(live.url)
    expect(system.locator("html")).to_have_attribute("data-contrast", "more")
    expect(system.locator("#contrast-toggle")).to_have_attribute("aria-pressed", "true")
    shot(system, "high-contrast-phone")
    system.click("#contrast-toggle")  # the user's own choice wins over the system's
    system.reload()
    expect(system.locator("html")).to_have_attribute("data-contrast", "normal")
    assert not problems, problems
