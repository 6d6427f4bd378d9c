"""Replay throughput: actions folded per second over the whole reference corpus (one core)."""
import json
import os
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from companion.game.tablelog import parse_log  # noqa: E402


def main() -> None:
    logs = []
    for name in ("ah2ac2-3p.jsonl", "hanabidata-2p.jsonl"):
        with open(os.path.join(ROOT, "tests", "data", name)) as f:
            logs += [parse_log(json.loads(line)["log"]) for line in f]
    actions = sum(len(log.actions) for log in logs)
    best = float("inf")
    for _ in range(3):
        t0 = time.perf_counter()
        for log in logs:
            log.fold()
        best = min(best, time.perf_counter() - t0)
    print(f"replay: {len(logs)} games, {actions} actions in {best:.2f} s "
          f"= {actions / best:,.0f} actions/s ({len(logs) / best:,.0f} games/s), best of 3, one core")


if __name__ == "__main__":
    main()
