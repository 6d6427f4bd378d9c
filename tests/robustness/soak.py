"""An accelerated game night: `companion demo` plays games back to back at high speed while 20
phones keep the live page open. Memory must stay flat after the first games, threads and open
files must not pile up, and every game must reach the history.

RSS goes up and down by tens of MB within a game (frames rendered for the simulated camera come
and go, and the deck learned from the last game is fitted again, 80 MB for a few seconds), so single
readings, peaks and even medians say little: a median rose 13% from one game to the next when the
machine was busy and a fit took more of the game. Memory is read twice a second, and each game's floor
(its lowest tenth of readings, between fits) is compared: the last game's with the highest of the games
before it. A leak raises the floor; a fit does not. The first ``WARM_UP`` games are left out: the
deck's profile gathers its pictures then, and the lowest readings climb for the first half-dozen games
(from 163 to 198 MB by game 6 of seed 11, then level to game 20 within 194 to 201 MB).

    python -m tests.robustness.soak --games 55     # `make soak`: an 8-hour night (about half an hour)
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import tempfile
import threading
import time
import urllib.request
from dataclasses import dataclass

from .boxproc import BoxProcess

CLIENTS = 20
WARM_UP = 2  # games before memory is compared: the learned deck's profile fills up meanwhile


def proc_figures(pid: int) -> tuple[float, int, int]:
    """RSS in MB, threads, open file descriptors."""
    with open(f"/proc/{pid}/status") as f:
        status = {k: v.split()[0] for k, _, v in (line.partition(":") for line in f) if v.split()}
    return int(status["VmRSS"]) / 1024, int(status["Threads"]), len(os.listdir(f"/proc/{pid}/fd"))


def listen(port: int, stop: threading.Event, counts: list[int], i: int) -> None:
    """One phone: keeps the live stream open, reconnecting when the box ends it."""
    while not stop.is_set():
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/events", timeout=10) as r:
                for line in r:
                    if line.startswith(b"event: state"):
                        counts[i] += 1
                    if stop.is_set():
                        return
        except OSError:
            time.sleep(0.2)


def floor(readings: list[float]) -> float:
    """A game's memory between fits: where its lowest tenth of readings ends (a single lowest
    reading is one moment; this leaves out a fit unless it fills nine tenths of the game)."""
    return float(statistics.quantiles(readings, n=10, method="inclusive")[0]) if len(readings) > 1 else readings[0]


@dataclass
class SoakResult:
    games: int
    history: int
    rss_start: float   # highest floor of a game after the warm-up, before the last game, MB
    rss_end: float     # the floor of the last game, MB
    threads: tuple[int, int]
    fds: tuple[int, int]
    events_per_client: list[int]

    @property
    def growth(self) -> float:
        return (self.rss_end - self.rss_start) / self.rss_start


def soak(games: int, speed: float = 25.0, data: str | None = None) -> SoakResult:
    """``games`` after the warm-up are the measure the last game is compared with."""
    data = data or tempfile.mkdtemp(prefix="soak-")
    box = BoxProcess(data, command="demo", extra=("--speed", str(speed), "--seed", "11"))
    box.start(timeout=30)
    stop = threading.Event()
    counts = [0] * CLIENTS
    threads = [threading.Thread(target=listen, args=(box.port, stop, counts, i), daemon=True) for i in range(CLIENTS)]
    for t in threads:
        t.start()
    try:
        stats_path = os.path.join(data, "demo-stats.json")

        def played() -> int:
            try:
                return json.load(open(stats_path))["games"]
            except (OSError, ValueError):
                return 0

        # game number → the highest threads and open files seen during it (phones reconnecting come
        # and go, so single readings swing; the peaks of a leak-free box stay level), and its RSS readings
        peaks: dict[int, tuple[int, int]] = {}
        rss: dict[int, list[float]] = {}
        last = WARM_UP + games
        while (game := played()) <= last:
            mb, *now = proc_figures(box.proc.pid)
            peaks[game] = tuple(max(a, b) for a, b in zip(peaks.get(game, (0, 0)), now, strict=True))
            rss.setdefault(game, []).append(mb)
            time.sleep(0.5)
            assert box.proc.poll() is None, "the companion died during the soak"
        rss0 = max(floor(rss[g]) for g in range(WARM_UP, last))
        rss1 = floor(rss[last])
        # threads and files are counted once the first game has warmed up
        th0, fd0 = (max(peaks[g][i] for g in range(1, last)) for i in (0, 1))
        th1, fd1 = peaks[last]
        history = box.get("/api/games")
    finally:
        stop.set()
        box.stop()
    rows = history["games"] if isinstance(history, dict) else history
    finished = [g for g in rows if g["outcome"] in ("won", "lost", "finished")]
    return SoakResult(games, len(finished), rss0, rss1, (th0, th1), (fd0, fd1), counts)


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--games", type=int, default=55)
    p.add_argument("--speed", type=float, default=25.0)
    args = p.parse_args()
    t0 = time.time()
    r = soak(args.games, args.speed)
    minutes = (time.time() - t0) / 60
    print(f"soak: {r.games} games in {minutes:.1f} min ({minutes * args.speed / 60:.1f} h at the table), "
          f"{r.history} finished games in the history; "
          f"RSS {r.rss_start:.0f} → {r.rss_end:.0f} MB ({r.growth:+.1%}); threads {r.threads[0]} → {r.threads[1]}; "
          f"open files {r.fds[0]} → {r.fds[1]}; live events per phone min {min(r.events_per_client)}")


if __name__ == "__main__":
    main()
