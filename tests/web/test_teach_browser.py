""""Teach our deck" in headless Chromium on the emulated box: the simulated mat shows each card the
box asks for, the page shows it, its picture, the kinds done, retakes, and (slow) the whole deck
of a real variant fitted, saved and put into the settings, with the OLED following along."""
from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, Route, expect

from companion.app.config import Config, load_config
from companion.app.demo import TableScene
from companion.app.demofamily import DemoFamily
from companion.app.wiring import Companion, RunOptions, demo_camera
from companion.game.variants import parse_variant
from hardware.screens import Teaching
from vision import finder
from vision.guided import card_kinds

from .conftest import ARTIFACTS, PHONE, PIN, LiveServer
from .test_browser import first_held, open_page

pytestmark = pytest.mark.slow  # drives Chromium

SUITS = {"r": "red", "y": "yellow", "g": "green", "b": "blue", "w": "white"}
FIT_TIMEOUT_MS = 300_000  # fitting a whole deck's profile: up to a few minutes on a busy machine


@pytest.fixture
def box(tmp_path: Any) -> Iterator[tuple[Companion, LiveServer]]:
    """The demo's box (simulated mat, real vision, emulated OLED) without the bot: only the family
    that lays the cards asked for."""
    scene = TableScene()
    companion = Companion(Config(), RunOptions(pin=PIN, data=str(tmp_path)), camera=demo_camera(scene, 3),
                          use_buttons=False)
    DemoFamily(companion.teacher, scene, delay=0.2)
    companion.camera.start()
    server = LiveServer(companion.app)
    yield companion, server
    server.stop()
    companion.close()


def pair(page: Page, url: str) -> None:
    page.goto(f"{url}/pin?next=/teach")
    page.fill("#pin", PIN)
    page.click("button[type=submit]")
    expect(page).to_have_url(f"{url}/teach")


def shot(page: Page, name: str) -> None:
    os.makedirs(ARTIFACTS, exist_ok=True)
    page.screenshot(path=os.path.join(ARTIFACTS, f"{name}.png"), full_page=True)


def expect_crop(page: Page, selector: str) -> None:
    """The picture shown is a real PNG of the card, as the finder cuts it out."""
    img = page.locator(selector)
    expect(img).to_be_visible()
    # A property check, not wait_for_function: the page's CSP forbids the string eval that polls it.
    expect(img).to_have_js_property("naturalWidth", finder.CROP[0])


def test_cards_are_taken_shown_and_retaken_then_cancelled(browser: Browser, box: Any) -> None:
    companion, server = box
    problems: list[str] = []
    page = open_page(browser, PHONE, problems)
    pair(page, server.url)
    page.select_option("#teach-variant", "rainbow")
    page.click("#teach-go")
    expect(page.locator("#teach-ask")).to_have_text("Lay this card in PLAY: red 1")
    expect(page.locator("#teach-count-text")).to_have_text("0 of 30 cards")
    expect(page.locator("#teach-kinds li")).to_have_count(30)
    expect(page.locator("#teach-status")).to_have_text("Got red 1. Is the picture right?")
    expect_crop(page, "#teach-crop")
    assert companion.box.screen() == Teaching("got", "r1", 1, 30, True)
    shot(page, "teach-phone-captured")
    page.click("#teach-ok")
    expect(page.locator("#teach-ask")).to_have_text("Lay this card in PLAY: red 2")
    expect(page.locator("#teach-kinds li[data-card=r1][data-state=taken] img")).to_be_visible()
    expect(page.locator("#teach-status")).to_have_text("Got red 2. Is the picture right?")
    page.click("#teach-retake")  # the family is not happy with the picture of red 2
    expect(page.locator("#teach-ask")).to_have_text("Lay this card in PLAY: red 2")
    expect(page.locator("#teach-status")).to_have_text("Got red 2. Is the picture right?")
    companion.box.press("ok")  # OK on the box keeps it too
    expect(page.locator("#teach-count-text")).to_have_text("2 of 30 cards")
    page.click("#teach-kinds li[data-card=r1] button")  # retake red 1 from the list
    expect(page.locator("#teach-ask")).to_have_text("Lay this card in PLAY: red 1")
    expect(page.locator("#teach-finish")).to_be_disabled()
    page.click("#teach-cancel")
    expect(page.locator("#teach-result-text")).to_have_text("Teaching cancelled.")
    expect(page.locator("#teach-start")).to_be_visible()
    assert companion.table.actions == [] and not companion.camera.paused  # no card taught was a play
    assert not isinstance(companion.box.screen(), Teaching)
    assert problems == []


def test_the_page_leads_in_polish_and_asks_for_the_pin(browser: Browser, box: Any) -> None:
    _, server = box
    problems: list[str] = []
    page = open_page(browser, PHONE, problems)
    page.goto(f"{server.url}/teach?lang=pl")
    expect(page.locator("h1")).to_have_text("Naucz naszej talii")
    page.click("#teach-go")
    expect(page.locator("#teach-error")).to_have_text("Wpisz PIN z ekranu pudełka, aby je uczyć.")
    pair(page, server.url)
    page.click("#teach-go")
    expect(page.locator("#teach-ask")).to_have_text("Połóż tę kartę na polu PLAY: czerwona 1")
    page.click("#teach-cancel")
    expect(page.locator("#teach-result-text")).to_have_text("Nauka przerwana.")
    assert [p for p in problems if "401" not in p] == []


def test_start_waits_for_the_page_script(browser: Browser, box: Any) -> None:
    """On a slow phone the page is shown before its script has run: Start is disabled until then,
    so an early tap cannot reload the page and be lost."""
    _, server = box
    problems: list[str] = []
    page = open_page(browser, PHONE, problems)
    pair(page, server.url)
    held: list[Route] = []
    page.route("**/teach.js*", lambda route: held.append(route))
    page.goto(f"{server.url}/teach", wait_until="commit")
    expect(page.locator("#teach-go")).to_be_disabled()
    script = first_held(page, held)
    expect(page.locator("#teach-go")).to_be_disabled()
    script.continue_()
    page.click("#teach-go")
    expect(page.locator("#teach-ask")).to_have_text("Lay this card in PLAY: red 1")
    page.click("#teach-cancel")
    expect(page.locator("#teach-result-text")).to_have_text("Teaching cancelled.")
    assert problems == []


def test_a_whole_deck_is_taught_fitted_saved_and_used(browser: Browser, box: Any) -> None:
    companion, server = box
    problems: list[str] = []
    page = open_page(browser, PHONE, problems)
    pair(page, server.url)
    page.select_option("#teach-variant", "base")
    page.click("#teach-go")
    for card in card_kinds(parse_variant("base")):
        name = f"{SUITS[card[0]]} {card[1]}"
        expect(page.locator("#teach-status")).to_have_text(f"Got {name}. Is the picture right?", timeout=30_000)
        page.click("#teach-ok")
        expect(page.locator(f"#teach-kinds li[data-card={card}][data-state=taken]")).to_be_visible()
    expect(page.locator("#teach-status")).to_have_text("Every card is taken: finish to teach the box.")
    shot(page, "teach-phone-complete")
    page.click("#teach-finish")
    expect(page.locator("#teach-fit-bar")).to_be_visible()
    expect(page.locator("#teach-result-text")).to_have_text(
        "Saved: the box now reads your deck with this profile.", timeout=FIT_TIMEOUT_MS)
    st = companion.teacher.state()
    expect(page.locator("#teach-settings")).to_have_text(f"The settings use it from now on: {st['settings']}")
    assert load_config(st["settings"]).camera.profile == st["profile"] and os.path.isfile(st["profile"])
    assert companion.config.camera.profile == st["profile"]
    shot(page, "teach-phone-saved")
    assert companion.table.actions == [] and problems == []
