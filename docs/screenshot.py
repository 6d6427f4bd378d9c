"""Make the README's picture: the demo's table page (with the emulated OLED) in a phone-sized
and a desktop-sized browser. Usage: python docs/screenshot.py (needs Debian's chromium)."""
import os
import sys
import tempfile
import time

from playwright.sync_api import sync_playwright

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from tests.robustness.boxproc import BoxProcess  # noqa: E402


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
                browser.close()
        finally:
            box.stop()


if __name__ == "__main__":
    main()
