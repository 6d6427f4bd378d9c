"""Make the README's picture: the demo's table page (with the emulated OLED) in a phone-sized
and a desktop-sized browser, the table in the high-contrast theme with a lost card's alert, and
the history page's statistics.
Usage: python docs/screenshot.py (needs Debian's chromium)."""
import os
import sys
import tempfile
import time

from playwright.sync_api import sync_playwright

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from companion.game.table import Table  # noqa: E402
from tests.robustness.boxproc import BoxProcess  # noqa: E402
from tests.web.conftest import PIN, LiveServer  # noqa: E402
from web import create_app  # noqa: E402

SIZES = {"phone": {"width": 390, "height": 844}, "desktop": {"width": 1280, "height": 800}}
# Every suit on the table, then the only red 5 discarded: the page's alert names the lost card.
LOST_LAST_COPY = [{"type": "play", "card": c} for c in ("r1", "y1", "g1", "b1", "m1", "k5", "r2")] + [
    {"type": "hint"}, {"type": "discard", "card": "w4"}, {"type": "hint"}, {"type": "discard", "card": "r5"}]


def high_contrast_with_alert(browser) -> None:
    """docs/table-high-contrast-{phone,desktop}.png: suit letters and patterns, pace, the alert."""
    table = Table()
    table.new_game(["Ann", "Ben", "Cat"], {"preset": "rainbow", "black_powder": True})
    for action in LOST_LAST_COPY:
        table.act(action)
    server = LiveServer(create_app(table, pin=PIN))
    try:
        for name, size in SIZES.items():
            context = browser.new_context(viewport=size, device_scale_factor=2 if name == "phone" else 1)
            context.add_init_script("localStorage.setItem('contrast', 'more')")
            page = context.new_page()
            page.goto(f"{server.url}/pin?next=/")
            page.fill("#pin", PIN)
            page.click("button[type=submit]")
            page.wait_for_selector("#alert:not([hidden])")
            page.screenshot(path=os.path.join(ROOT, "docs", f"table-high-contrast-{name}.png"))
            context.close()
    finally:
        server.stop()


def history_with_statistics(browser) -> None:
    """docs/history.png: statistics per variant, the chart, downloads, cards with their letters."""
    from companion.game.store import Store
    with tempfile.TemporaryDirectory() as data:
        store = Store(os.path.join(data, "table.db"))
        table = Table(store)
        for k, plays in enumerate((("r1", "y1", "g1"), ("r1", "r2", "b1", "w1", "g1"), ("y1", "y2"))):
            table.new_game(["Ann", "Ben"], "base" if k < 2 else "rainbow")
            for card in plays:
                table.act({"type": "play", "card": card})
            table.end_game()
        server = LiveServer(create_app(table, store, pin=PIN))
        try:
            page = browser.new_page(viewport=SIZES["desktop"])
            page.goto(f"{server.url}/history")
            page.screenshot(path=os.path.join(ROOT, "docs", "history.png"), full_page=True)
            page.close()
        finally:
            server.stop()
            store.close()


def main() -> None:
    with tempfile.TemporaryDirectory() as data:
        box = BoxProcess(data, command="demo", extra=("--seed", "5", "--speed", "3"))
        box.start(timeout=30)
        try:
            time.sleep(25)  # let a good part of a game go by
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path="/usr/bin/chromium", headless=True,
                                            args=["--no-sandbox", "--disable-gpu", "--disable-background-networking"])
                page = browser.new_page(viewport={"width": 1200, "height": 900})
                page.goto(f"http://127.0.0.1:{box.port}/")
                page.wait_for_timeout(1500)
                page.screenshot(path=os.path.join(ROOT, "docs", "demo.png"), full_page=True)
                high_contrast_with_alert(browser)
                history_with_statistics(browser)
                browser.close()
        finally:
            box.stop()


if __name__ == "__main__":
    main()
