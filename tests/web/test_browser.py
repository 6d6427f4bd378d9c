"""End to end in headless Chromium: pair, set up, play a whole recorded game live, correct a misread
card, reach the end screen in every language, the demo's buttons, and a restart of the box.

Screenshots at phone and desktop sizes are kept in tests/artifacts/ for people to look at.
"""
from __future__ import annotations

import json
import os
import urllib.error
import urllib.request
from typing import Any

import pytest
from PIL import Image, ImageDraw
from playwright.sync_api import Browser, Page, Route, expect

from companion.game.rating import lines, rating_key
from companion.game.store import Store
from companion.game.table import Table
from web import create_app
from web.i18n import translations

from .conftest import ARTIFACTS, DESKTOP, PHONE, PIN, TIMEOUT_MS, LiveServer

pytestmark = pytest.mark.slow  # drives Chromium

expect.set_options(timeout=TIMEOUT_MS)
DATA = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "data", "ah2ac2-3p.jsonl")


def open_page(browser: Browser, size: dict[str, int], problems: list[str]) -> Page:
    """A fresh browser context; console errors and refused resources end up in ``problems``."""
    page = browser.new_context(viewport=size, device_scale_factor=2 if size is PHONE else 1).new_page()
    page.set_default_timeout(TIMEOUT_MS)
    page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: problems.append(str(e)))
    return page


def first_held(page: Page, held: list[Route]) -> Route:
    """The first request a ``page.route`` handler put into ``held``, once the page has made it: a
    script held back so, as a slow phone is slow to run it, until the test lets it through."""
    for _ in range(100):
        if held:
            return held[0]
        page.wait_for_timeout(50)
    raise AssertionError("the page never asked for the held script")


def shot(page: Page, name: str) -> None:
    os.makedirs(ARTIFACTS, exist_ok=True)
    page.screenshot(path=os.path.join(ARTIFACTS, f"{name}.png"), full_page=True)


def api(url: str, path: str, body: Any = None) -> tuple[int, Any]:
    req = urllib.request.Request(url + path, data=None if body is None else json.dumps(body).encode(),
                                 method="GET" if body is None else "POST",
                                 headers={"Content-Type": "application/json", "X-Table-PIN": PIN})
    try:
        with urllib.request.urlopen(req, timeout=5) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read())


def expect_table(page: Page, st: dict[str, Any]) -> None:
    """The page shows what the API says, without reloading."""
    expect(page.locator("#hints")).to_have_text(f"{st['hints']}/{st['hint_tokens']}")
    expect(page.locator("#deck")).to_have_text(str(st["deck"]))
    expect(page.locator("#score")).to_have_text(str(st["score"]))
    expect(page.locator("#fuses")).to_have_text(f"{st['fuses_used']}/{st['fuse_tokens']}")
    expect(page.locator("#log li")).to_have_count(st["actions"])


def recorded_game() -> list[dict[str, Any]]:
    with open(DATA) as f:
        game = json.loads(f.readline())
    assert game["log"]["players"] == 3 and game["expected"]["score"] == 24
    return game["log"]["actions"]


def pair_and_set_up(page: Page, url: str) -> None:
    page.goto(f"{url}/pin?next=/setup")
    shot(page, "pin-phone")
    page.fill("#pin", PIN)
    page.click("button[type=submit]")
    expect(page).to_have_url(f"{url}/setup")
    for i, name in enumerate(["Ann", "Ben", "Cat", "", ""]):
        page.fill(f"#player{i}", name)
    shot(page, "setup-phone")
    page.click("button[type=submit]")
    expect(page).to_have_url(f"{url}/")
    expect(page.locator("#turn")).to_have_text("Ann to play")


def misread(url: str, true_card: str, kind: str) -> str:
    """Record a wrong card for this action (as a camera might), trying until one is legal."""
    suit, value = true_card[0], int(true_card[1])
    for wrong in [f"{s}{value}" for s in "rygbw" if s != suit] + [f"{suit}{v}" for v in range(1, 6) if v != value]:
        code, _ = api(url, "/api/actions", {"type": kind, "card": wrong})
        if code == 200:
            return wrong
    raise AssertionError(f"no legal misreading of {true_card}")


def test_whole_game_live_with_corrections_and_end_screen(browser: Browser, live: LiveServer) -> None:
    problems: list[str] = []
    page = open_page(browser, PHONE, problems)
    page.goto(live.url)
    expect(page.locator("#nogame")).to_be_visible()
    expect(page.locator("#conn")).to_have_attribute("data-state", "live")
    pair_and_set_up(page, live.url)
    watcher = open_page(browser, DESKTOP, problems)  # a second phone that only watches
    watcher.goto(live.url)
    corrected = False
    for i, action in enumerate(recorded_game()):
        if action["type"] == "hint" and i % 4 == 0:
            page.click("[data-act=hint]")  # entered by hand on the page
        elif action["type"] in ("play", "discard") and i % 5 == 0:
            page.click(f"#picker [data-card={action['card']}]")
            page.click(f"[data-act={action['type']}]")
        elif action["type"] == "discard" and not corrected and i > 10:
            wrong = misread(live.url, action["card"], "discard")
            expect(page.locator(f'#log li[data-n="{i}."] .card')).to_have_text(wrong[1])
            right = page.locator(f"#picker [data-card={action['card']}]")
            right.click()
            page.click(f'#log li[data-n="{i}."] button.fix')
            expect(page.locator(f'#log li[data-n="{i}."] .card')).to_have_attribute("title",
                                                                                  right.get_attribute("title"))
            corrected = True
        else:
            code, body = api(live.url, "/api/actions", action)
            assert code == 200, (i, action, body)
        expect(page.locator("#log li")).to_have_count(i + 1)  # a click returns before its request ends
        _, st = api(live.url, "/api/state")
        assert st["actions"] == i + 1, (i, action, st["last_event"])
        expect_table(page, st)
        if st["final_turns_left"] is not None and not st["over"]:
            expect(page.locator("#final")).to_contain_text(str(st["final_turns_left"]))
        if i == 30:
            expect_table(watcher, st)
            shot(page, "table-phone-midgame")
            shot(watcher, "table-desktop-midgame")
    assert corrected
    page.click("[data-act=hint]")  # the recorded game stops one turn before its final round ends
    expect(page.locator("#over")).to_be_visible()
    _, st = api(live.url, "/api/state")
    assert st["over"] and st["score"] == 24 and st["outcome"] == "finished"
    expect_table(watcher, st)
    for p in (page, watcher):
        expect(p.locator("#over")).to_be_visible()
        expect(p.locator("#over-score")).to_have_text("24")
        expect(p.locator("#over-rating")).to_have_text(lines("en")[rating_key(24, 25)])
    shot(page, "end-phone-en")
    for lang in ("en", "pl", "de", "cs"):
        for p, size in ((page, "phone"), (watcher, "desktop")):
            p.goto(f"{live.url}/?lang={lang}")
            expect(p.locator("#over-rating")).to_have_text(lines(lang)[rating_key(24, 25)])
            expect(p.locator("#over-title")).to_have_text(translations(lang).gettext("The show is over"))
            expect(p.locator("html")).to_have_attribute("lang", lang)
            shot(p, f"end-{size}-{lang}")
    page.goto(f"{live.url}/history?lang=en")
    expect(page.locator("svg.chart circle")).to_have_count(1)
    shot(page, "history-phone")
    assert not problems, problems


def test_unsure_card_and_demo_buttons(browser: Browser, store: Store) -> None:
    table = Table(store)

    def press(name: str) -> None:
        {"hint": lambda: table.act({"type": "hint"}), "undo": table.undo, "ok": table.confirm}[name]()

    def oled() -> Image.Image:
        img = Image.new("1", (128, 64), 0)
        ImageDraw.Draw(img).text((4, 4), f"hints {table.snapshot().get('hints')}", fill=1)
        return img

    server = LiveServer(create_app(table, store, pin=PIN, oled_image=oled, buttons=press))
    problems: list[str] = []
    try:
        table.new_game(["Ann", "Ben", "Cat"])
        page = open_page(browser, PHONE, problems)
        page.goto(f"{server.url}/pin?next=/")
        page.fill("#pin", PIN)
        page.click("button[type=submit]")
        expect(page.locator("#hints")).to_have_text("8/8")
        page.click("[data-button=hint]")
        expect(page.locator("#hints")).to_have_text("7/8")
        table.propose({"type": "play", "card": "r1"}, 0.41, ["r1", "y1"])
        expect(page.locator("#pending")).to_be_visible()
        expect(page.locator("#pending-text")).to_contain_text("red 1")
        shot(page, "demo-phone-unsure")
        page.click("#pending-candidates button")  # it was yellow
        expect(page.locator("#pending")).to_be_hidden()
        expect(page.locator("#fireworks [data-suit=y]")).to_have_text("1")
        page.click("[data-button=undo]")
        expect(page.locator("#fireworks [data-suit=y]")).to_have_text("–")
        expect(page.locator("#oled")).to_be_visible()
        # A property check, not wait_for_function: the page's CSP forbids the string eval that polls it.
        expect(page.locator("#oled")).to_have_js_property("naturalWidth", 128)
        page.click("[data-act=end]")  # the browser's confirm dialog is dismissed: nothing happens
        expect(page.locator("#over")).to_be_hidden()
        page.once("dialog", lambda d: d.accept())
        page.click("[data-act=end]")
        expect(page.locator("#over")).to_be_visible()
        page.click("#over [data-act=undo]")  # a game ended by mistake goes on
        expect(page.locator("#over")).to_be_hidden()
        expect(page.locator("#controls [data-act=hint]")).to_be_visible()
    finally:
        server.stop()
    assert not problems, problems


def test_turn_buttons_wait_for_the_page_script(browser: Browser, live: LiveServer, table: Table) -> None:
    """On a slow phone the table is shown before its script has run: the turn buttons are disabled
    until then, so a tap is visibly refused rather than silently lost."""
    table.new_game(3)
    problems: list[str] = []
    page = open_page(browser, PHONE, problems)
    page.goto(f"{live.url}/pin?next=/")
    page.fill("#pin", PIN)
    held: list[Route] = []
    page.route("**/table.js*", lambda route: held.append(route))
    page.click("button[type=submit]")
    expect(page.locator("[data-act=hint]")).to_be_disabled()
    script = first_held(page, held)
    expect(page.locator("[data-act=hint]")).to_be_disabled()
    script.continue_()
    page.click("[data-act=hint]")
    expect(page.locator("#hints")).to_have_text("7/8")
    for name in ("play", "discard", "undo", "end"):
        expect(page.locator(f"#controls [data-act={name}]")).to_be_enabled()
    assert problems == []


def test_watching_without_pin_and_refused_write_shows_why(browser: Browser, live: LiveServer, table: Table) -> None:
    table.new_game(3)
    table.propose({"type": "play", "card": "g1"}, 0.3, ["g1", "b1"])
    problems: list[str] = []
    page = open_page(browser, PHONE, problems)
    page.goto(live.url)
    expect(page.locator("#pending")).to_be_visible()
    expect(page.locator("[data-act]")).to_have_count(0)  # no entry controls before pairing
    expect(page.locator("#controls a[href^='/pin']")).to_be_visible()
    page.click("#pending-ok")
    expect(page.locator("#error")).to_contain_text("PIN")
    assert table.snapshot()["actions"] == 0 and table.pending is not None
    assert all("401" in p for p in problems), problems  # only the refused request is logged


def test_a_deck_the_camera_is_often_unsure_of_is_suggested_for_teaching(browser: Browser, live: LiveServer,
                                                                        table: Table) -> None:
    """Once the camera has asked about 5 cards of a game, a fifth of those laid or more, the page
    offers the Teach page; put aside, it stays away for that game and comes back in the next."""
    table.new_game(["Ann", "Ben"])
    problems: list[str] = []
    page = open_page(browser, PHONE, problems)
    page.goto(live.url)
    for k, card in enumerate(["r1", "y1", "g1", "b1"]):
        table.propose({"type": "play", "card": card}, 0.6, [card, "w1"])
        table.confirm()
        table.act({"type": "hint"})
        expect(page.locator("#hints")).to_have_text(f"{7 - k}/8")
    expect(page.locator("#teach-nudge")).to_be_hidden()  # 4 asked: not yet
    table.propose({"type": "discard", "card": "w2"}, 0.6, ["w2", "b2"])
    table.confirm()
    expect(page.locator("#teach-nudge")).to_be_visible()
    expect(page.locator("#teach-nudge-text")).to_contain_text("5 of the 5 cards")
    expect(page.locator("#teach-nudge a[href='/teach']")).to_be_visible()
    shot(page, "teach-nudge-phone")
    for card in ["r2", "y2", "g2", "b2", "r3", "y3", "g3", "b3", "r4", "y4", "g4", "b4"]:  # read surely
        table.act({"type": "play", "card": card})
    for card in ["w1", "w1", "w1", "w2", "w3", "w3", "w4", "w4", "w5"]:
        table.act({"type": "hint"})
        table.act({"type": "discard", "card": card})
    expect(page.locator("#teach-nudge")).to_be_hidden()  # 5 of 26: under a fifth
    table.propose({"type": "discard", "card": "r1"}, 0.6, ["r1"])
    table.confirm()
    expect(page.locator("#hints")).to_have_text("6/8")
    expect(page.locator("#teach-nudge-text")).to_contain_text("6 of the 27 cards")
    page.click("#teach-nudge-close")
    expect(page.locator("#teach-nudge")).to_be_hidden()
    page.reload()
    expect(page.locator("#hints")).to_have_text("6/8")
    expect(page.locator("#teach-nudge")).to_be_hidden()
    table.new_game(["Ann", "Ben"])
    for card in ["r1", "y1", "g1", "b1", "w1"]:
        table.propose({"type": "play", "card": card}, 0.6, [card])
        table.confirm()
    expect(page.locator("#teach-nudge")).to_be_visible()
    assert not problems, problems


def test_page_resumes_after_the_box_restarts(browser: Browser, store: Store) -> None:
    first = LiveServer(create_app(Table(store), store, pin=PIN))
    port = first.port
    api(first.url, "/api/games", {"players": ["Ann", "Ben"]})
    problems: list[str] = []
    page = open_page(browser, PHONE, problems)
    page.goto(first.url)
    expect(page.locator("#conn")).to_have_attribute("data-state", "live")
    first.stop()
    expect(page.locator("#conn")).to_have_attribute("data-state", "offline")
    second = LiveServer(create_app(Table(store), store, pin=PIN), port=port)
    try:
        expect(page.locator("#conn")).to_have_attribute("data-state", "live", timeout=10000)
        api(second.url, "/api/actions", {"type": "hint"})
        expect(page.locator("#hints")).to_have_text("7/8")
    finally:
        second.stop()


def test_setup_with_variant_options_starting_player_and_language(browser: Browser, live: LiveServer) -> None:
    problems: list[str] = []
    page = open_page(browser, DESKTOP, problems)
    page.goto(f"{live.url}/setup")
    page.click("button[type=submit]")  # not paired yet: the page asks for the PIN
    expect(page).to_have_url(f"{live.url}/pin?next=/setup")
    page.fill("#pin", PIN)
    page.click("button[type=submit]")
    for i, name in enumerate(["Ann", "", "Ben", "Cat", ""]):
        page.fill(f"#player{i}", name)
    page.check("#first3")
    page.select_option("#preset", "rainbow")
    page.click("details summary")
    page.select_option("#opt-hint_tokens", "9")
    page.select_option("#opt-allow_discard_at_max_hints", "true")
    page.select_option("#game-lang", "de")
    page.click("button[type=submit]")
    expect(page.locator("#turn")).to_have_text("Cat ist am Zug")
    expect(page.locator("#fireworks .card")).to_have_count(6)
    _, st = api(live.url, "/api/state")
    assert st["players"] == ["Cat", "Ann", "Ben"] and st["hint_tokens"] == 9 and st["lang"] == "de"
    assert st["variant"] == {"preset": "rainbow", "hint_tokens": 9, "allow_discard_at_max_hints": True}
    page.goto(f"{live.url}/setup")
    for i in range(5):
        page.fill(f"#player{i}", "Solo" if i == 0 else "")
    page.click("button[type=submit]")
    expect(page.locator("#setup-error")).to_contain_text("2 to 5")
    assert api(live.url, "/api/state")[1]["players"] == ["Cat", "Ann", "Ben"]
    assert all("401" in p or "400" in p for p in problems), problems  # only the refused requests


def test_reward_tile_is_entered_on_the_page(browser: Browser, live: LiveServer) -> None:
    api(live.url, "/api/games", {"players": ["Ann", "Ben"], "variant": "five-magnificent"})
    for v in range(1, 6):
        assert api(live.url, "/api/actions", {"type": "play", "card": f"r{v}"})[0] == 200
    problems: list[str] = []
    page = open_page(browser, PHONE, problems)
    page.goto(f"{live.url}/pin?next=/")
    page.fill("#pin", PIN)
    page.click("button[type=submit]")
    expect(page.locator("#reward")).to_be_visible()
    expect(page.locator("#reward-tiles button")).to_have_count(6)
    shot(page, "reward-phone")
    page.click("#reward-tiles [data-tile=fuse]")
    expect(page.locator("#reward")).to_be_hidden()
    expect(page.locator("#event")).to_contain_text("a fuse back")
    _, st = api(live.url, "/api/state")
    assert st["log"][-1] == {"type": "reward", "tile": "fuse"} and "fuse" not in st["reward_tiles_left"]
    assert not problems, problems


def test_synchronized_show_play_carries_the_announced_colour(browser: Browser, live: LiveServer) -> None:
    api(live.url, "/api/games", {"players": ["Ann", "Ben"],
                                 "variant": {"preset": "base", "synchronized_show": True}})
    api(live.url, "/api/actions", {"type": "hint"})
    problems: list[str] = []
    page = open_page(browser, PHONE, problems)
    page.goto(f"{live.url}/pin?next=/")
    page.fill("#pin", PIN)
    page.click("button[type=submit]")
    expect(page.locator("#announce")).to_be_visible()
    page.click("#picker [data-card=g1]")
    page.click("#announce-suits [data-announce=g]")
    page.click("[data-act=play]")
    expect(page.locator("#hints")).to_have_text("8/8")  # right colour: a hint token back
    _, st = api(live.url, "/api/state")
    assert st["log"][-1] == {"type": "play", "card": "g1", "announce": "g"}
    expect(page.locator("#announce-suits .chosen")).to_have_attribute("data-announce", "")
    assert not problems, problems
