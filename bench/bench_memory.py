"""The vision process's memory (RSS) as the box lives it: after loading the networks, while reading
cards untaught, at its highest while a first game's deck grows card by card (35 cards; its own
networks describe each card's altered copies), while a deck of 35 kinds is taught (the fit loads
networks of its own and describes 6,000 altered copies; learning a deck after a game fits the same
way), and while reading with the taught profile. Each card is cut out of a 2304x1296 picture of
the moment, as the Pi camera gives one beside each frame (9 MB each, made one at a time). The
frames and photos are drawn here and handed to a fresh process that allocates as the box does
(``companion.app.memory.keep_level``), so drawing them is not counted.
Usage: python bench/bench_memory.py [--family sepia-print] [--deck 94000]"""
import argparse
import contextlib
import json
import os
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

import cv2  # noqa: E402
import numpy as np  # noqa: E402

FRAMES = 20


def rss_mb(pid: int, field: str = "VmRSS") -> float:
    """``VmRSS``: all resident pages; ``RssAnon``: those the process allocated itself. The rest are
    its libraries' pages, as many as the page cache holds around those it touched: the same run
    gave 68 and 97 MB after loading, as the cache stood."""
    with open(f"/proc/{pid}/status") as f:
        return int(next(line for line in f if line.startswith(field + ":")).split()[1]) / 1024


def resident() -> tuple[float, float]:
    return rss_mb(os.getpid()), rss_mb(os.getpid(), "RssAnon")


def draw(folder: str, family: str, deck_seed: int) -> None:
    """Frames of four cards of the deck, each with its larger picture, and one photo of each kind on
    the mat (``bench_vision.teach``)."""
    from bench_vision import teach

    from vision import designs, synth
    from vision.camera import DETAIL, WATCHED
    rng = np.random.default_rng(5)
    scale = DETAIL[0] / WATCHED[0]  # the Pi camera's larger picture against the watched frame
    deck = designs.design(family, deck_seed)
    for i in range(FRAMES):
        scene = synth.random_scene(rng, deck, cards=["r1", "b3", "g2", "w4"])
        camera, light = synth.Camera.random(rng), synth.Light.random(rng)
        cv2.imwrite(os.path.join(folder, f"frame-{i}.png"), synth.render_frame(scene, camera, light, i))
        cv2.imwrite(os.path.join(folder, f"detail-{i}.png"), synth.render_larger(scene, camera, light, scale, i))
    teach(deck, rng).save(os.path.join(folder, "lesson.npz"))


@contextlib.contextmanager
def highest() -> Iterator[list[float]]:
    """The highest RSS and anonymous part while the block runs, read every 10 ms."""
    peak, done = [0.0, 0.0], threading.Event()

    def watch() -> None:
        while not done.is_set():
            peak[:] = [max(a, b) for a, b in zip(peak, resident(), strict=True)]
            time.sleep(0.01)
    watcher = threading.Thread(target=watch)
    watcher.start()
    try:
        yield peak
    finally:
        done.set()
        watcher.join()


def measure(folder: str) -> dict[str, tuple[float, float]]:
    """In the fresh process: the figures, RSS and its anonymous part, in MB."""
    from companion.app import memory
    from vision.classifier import Profile
    from vision.guided import fit_profile
    from vision.learning import GameDeck
    from vision.recognize import Recognizer
    memory.keep_level()

    def read(i: int) -> None:  # one frame at a time: twenty would take 55 MB, their larger pictures 180
        frame = cv2.imread(os.path.join(folder, f"frame-{i % FRAMES}.png"))
        rec.analyse(frame, detail=cv2.imread(os.path.join(folder, f"detail-{i % FRAMES}.png")))
    out = {}
    rec = Recognizer()
    rec.analyse(np.zeros((720, 1280, 3), np.uint8))
    out["loaded"] = resident()
    for i in range(FRAMES):
        read(i)
    out["reading"] = resident()
    lesson = Profile.load(os.path.join(folder, "lesson.npz")).crops
    # a first game of a deck the box has no profile of: its deck grows card by card (the lesson's
    # photos standing in for the cards the game settles), read with as it grows
    deck, named = GameDeck(None), {}
    with highest() as peak:
        for place, (card, crops) in enumerate(lesson.items()):
            named[place] = (card, crops[0])
            grown = deck.update(dict(named))
            if grown is not None:
                rec.classifier.use(grown, grown=True)
            read(place)
    out["a first game's deck, highest"] = (peak[0], peak[1])
    del deck, grown
    rec.classifier.use(None)
    out["game over"] = resident()
    path = os.path.join(folder, "profile.npz")
    with highest() as peak:
        fit_profile(lesson, path)
    out["teaching, highest"] = (peak[0], peak[1])
    out["taught"] = resident()
    rec.classifier.use(Profile.load(path))
    for i in range(FRAMES):
        read(i)
    out["reading taught"] = resident()
    return out


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--family", default="sepia-print")
    p.add_argument("--deck", type=int, default=94_000)
    p.add_argument("--child", help=argparse.SUPPRESS)
    args = p.parse_args()
    if args.child:
        print(json.dumps(measure(args.child)))
        return
    sys.path.insert(0, os.path.join(ROOT, "bench"))
    with tempfile.TemporaryDirectory() as folder:
        draw(folder, args.family, args.deck)
        run = subprocess.run([sys.executable, os.path.abspath(__file__), "--child", folder],
                             capture_output=True, text=True, cwd=ROOT, check=True)
    figures = json.loads(run.stdout.strip().splitlines()[-1])
    print(f"vision process RSS (of it allocated by the process), {args.family} deck {args.deck}: " +
          ", ".join(f"{name} {mb:.0f} ({anon:.0f}) MB" for name, (mb, anon) in figures.items()))


if __name__ == "__main__":
    main()
