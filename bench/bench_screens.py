"""How long the OLED screens take to draw: every screen in every language, and a full button press.

    python bench/bench_screens.py [--repeat N]

Fails (exit 1) if any screen's median render takes more than the 5 ms budget.
"""
from __future__ import annotations

import argparse
import functools
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from companion.game.table import Table  # noqa: E402
from hardware.box import Box  # noqa: E402
from hardware.display import get_display  # noqa: E402
from hardware.messages import LANGUAGES  # noqa: E402
from hardware.samples import SAMPLES  # noqa: E402
from hardware.screens import render  # noqa: E402

BUDGET_MS = 5.0


def timed(fn, repeat: int) -> list[float]:
    out = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        out.append((time.perf_counter() - t) * 1000)
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=50)
    args = parser.parse_args()

    first = timed(lambda: render(SAMPLES["dashboard"], "en"), 1)[0]  # loads the fonts
    rows = []
    for name, screen in SAMPLES.items():
        for lang in LANGUAGES:
            ms = timed(functools.partial(render, screen, lang), args.repeat)
            rows.append((statistics.median(ms), max(ms), f"{name}.{lang}"))
    rows.sort(reverse=True)
    medians = [r[0] for r in rows]

    table = Table()
    table.new_game(["Ann", "Ben", "Cat"])
    box = Box(table, get_display({"driver": "dummy"}), schedule=lambda delay, fn: None)

    def hint_and_undo() -> None:
        box.press("hint")
        box.press("undo")

    press = [ms / 2 for ms in timed(hint_and_undo, args.repeat)]

    print(f"first render (loads the fonts): {first:.2f} ms")
    print(f"render, {len(rows)} screens x {args.repeat} runs: median of medians "
          f"{statistics.median(medians):.3f} ms, slowest median {rows[0][0]:.3f} ms ({rows[0][2]}), "
          f"slowest single run {max(r[1] for r in rows):.3f} ms")
    for med, worst, name in rows[:5]:
        print(f"  {name:40s} median {med:.3f} ms  max {worst:.3f} ms")
    print(f"button press to new image on the emulated OLED: median {statistics.median(press):.3f} ms")
    if rows[0][0] > BUDGET_MS:
        print(f"FAIL: {rows[0][2]} takes {rows[0][0]:.2f} ms, over the {BUDGET_MS} ms budget")
        return 1
    print(f"ok: every screen within {BUDGET_MS} ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
