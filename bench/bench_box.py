"""The whole box: time from `companion run` to the page answering, and the memory of the process
during a game (`companion run` fed a recorded game, and `companion demo` with the vision pipeline)."""
import json
import os
import statistics
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from bench_memory import rss_mb  # noqa: E402

from tests.robustness.boxproc import BoxProcess  # noqa: E402


def startup() -> None:
    times = []
    with tempfile.TemporaryDirectory() as d:
        for _ in range(5):
            box = BoxProcess(d)
            times.append(box.start())
            box.stop()
    print(f"companion run → page answering: median {statistics.median(times):.2f} s, max {max(times):.2f} s (5 starts)")


def run_game() -> None:
    actions = json.loads(open(os.path.join(ROOT, "tests", "data", "ah2ac2-3p.jsonl")).readline())["log"]["actions"]
    with tempfile.TemporaryDirectory() as d:
        box = BoxProcess(d)
        box.start()
        box.post("/api/games", {"players": ["A", "B", "C"], "variant": "base"})
        peak = 0.0
        for a in actions:
            box.post("/api/actions", a)
            peak = max(peak, rss_mb(box.proc.pid))
        box.stop()
    print(f"companion run, a whole recorded game through the API: peak RSS {peak:.0f} MB")


def demo(seconds: int = 60) -> None:
    with tempfile.TemporaryDirectory() as d:
        box = BoxProcess(d, command="demo", extra=("--speed", "3"))
        box.start(timeout=30)
        samples = []
        t0 = time.time()
        while time.time() - t0 < seconds:
            samples.append(rss_mb(box.proc.pid))
            time.sleep(1)
        state = box.get("/api/state")
        box.stop()
        stats = json.load(open(os.path.join(d, "demo-stats.json")))
    print(f"companion demo ({seconds} s, vision on): RSS peak {max(samples):.0f} MB, last {samples[-1]:.0f} MB; "
          f"{state['actions']} actions in the current game; {stats}")


if __name__ == "__main__":
    startup()
    run_game()
    demo()
