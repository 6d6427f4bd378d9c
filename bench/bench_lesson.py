"""The Teach page's lesson as a family that never looks up would give it: every kind of the 35 laid
once, in order, on the PLAY pile, a hand over the zone before each card, a random camera (up to 40
degrees off vertical) and light per deck, no glare. A card the watcher does not see laid is never
taken, and every later picture is then named after the kind before it; the lesson's doubt (a
picture the general network surely reads as another value, vision/guided.py) is what points that
out. Here the doubt is recorded but not acted on, so each picture's fate is counted as it came.

Per family: kinds never taken, pictures of the card asked for and how many of those were put in
doubt (a false alarm: the family presses OK), pictures of another card and how many of those were
put in doubt (a skip caught), of which of another value.

    python bench/bench_lesson.py                      # small: 1 deck per family
    python bench/bench_lesson.py --decks 6 --families sepia-print,light-plain --first-deck 73000
"""
import argparse
import collections
import dataclasses
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import cv2  # noqa: E402
import numpy as np  # noqa: E402
from bench_decks import Ticks, chosen_families  # noqa: E402

from vision import designs, synth  # noqa: E402
from vision.guided import GuidedSession  # noqa: E402
from vision.labels import LABELS  # noqa: E402
from vision.recognize import Recognizer  # noqa: E402
from vision.watcher import Watcher  # noqa: E402


class Recorded(GuidedSession):
    """A lesson that records the value each picture seems to show and never acts on it."""

    looks: str | None = None

    def _looks_like(self, crop: np.ndarray) -> str | None:
        self.looks = super()._looks_like(crop)
        return None


def lesson(family: str, seed: int, recognizer: Recognizer, count: collections.Counter, tick) -> None:
    deck = designs.design(family, seed)
    rng = np.random.default_rng([7, seed])
    camera, light = synth.Camera.random(rng, max_tilt=40), synth.Light.random(rng)
    light = dataclasses.replace(light, glare=0.0)
    session = Recorded(tuple(LABELS), Watcher(recognizer))
    scene, t, n = synth.Scene(), 0.0, 0

    def frames(k: int) -> list[str]:
        nonlocal n, t
        taken = []
        for _ in range(k):
            n += 1
            got = session.feed(synth.render_frame(scene, camera, dataclasses.replace(light, noise_seed=n), 0), t)
            t += 0.1
            if got:
                taken.append(got)
        return taken

    for kind in LABELS:
        scene.hand_zone, scene.hand_seed = "play", n
        frames(2)
        scene.hand_zone = None
        scene.cards.append(synth.lay(kind, "play", deck, rng, pile=len(scene.cards)))
        for got in frames(6):
            doubt = session.looks is not None and session.looks != got[1:]
            mine = "asked" if kind == got else "other"
            count[mine] += 1
            count[f"{mine} in doubt"] += doubt
            count["other value"] += mine == "other" and kind[1:] != got[1:]
        tick()
    count["never taken"] += len(session.lesson.missing)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--families", default="sepia-print,light-plain",
                   help="comma-separated design families, or a group: held-out, tuning, training")
    p.add_argument("--decks", type=int, default=1)
    p.add_argument("--first-deck", type=int, default=73_000)
    args = p.parse_args()
    cv2.setNumThreads(1)
    families = chosen_families(args.families)
    recognizer, rows = Recognizer(), {}
    tick = Ticks(len(families) * args.decks * len(LABELS))
    for family in families:
        tick.label = family
        count: collections.Counter = collections.Counter()
        for d in range(args.decks):
            lesson(family, args.first_deck + d, recognizer, count, tick)
        rows[family] = count
    print(file=sys.stderr)
    print(f"lessons ({args.decks} per family from deck {args.first_deck}, each kind laid once in order, "
          "a hand before each card):")
    print(f"  {'family':<20}{'never taken':>12}{'of the kind':>13}{'in doubt':>10}{'of another':>12}"
          f"{'(value)':>9}{'in doubt':>10}")
    for family, c in rows.items():
        print(f"  {family:<20}{c['never taken']:>12}{c['asked']:>13}{c['asked in doubt']:>10}{c['other']:>12}"
              f"{c['other value']:>9}{c['other in doubt']:>10}")


if __name__ == "__main__":
    main()
