"""Plays the watcher loses or doubles: cards laid one by one on the PLAY pile as in a game, a hand
over the zone before each card and a hand passing with no card after it, a lamp dimmed by 12%
halfway, a random camera (up to 40 degrees off vertical) and light per deck, 1.5 s of frames at
10 per second after each. The bench's own piles (bench_decks.py) are read without the watcher;
this is what decides whether a card laid is judged at all. With --zones play,discard each card
goes to either zone, as in a game, so a hand over one zone lies beside the other's pile; --hold
frames is how long the hand stays over the zone before each card (a player who pauses);
--corrected puts each misread card right on the page, as a family does: the box then tells the
watcher the card the record holds (``Watcher.known``).

Per family: cards laid, plays never announced (and how many of those lay on a card of their own
kind, which changes nothing a camera can see), plays announced twice, plays announced while a
hand passed with no card, and plays read right.

    python bench/bench_watcher.py                   # small: 2 decks of 10 cards per family
    python bench/bench_watcher.py --decks 6 --cards 20 --first-deck 73000 \\
        --families sepia-print,light-plain,coloured-face
    python bench/bench_watcher.py --zones play,discard --hold 8   # both piles, a hand that pauses
    python bench/bench_watcher.py --corrected       # misread cards put right on the page
"""
import argparse
import collections
import dataclasses
import os
import sys
from collections.abc import Callable

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import cv2  # noqa: E402
import numpy as np  # noqa: E402
from bench_decks import Ticks, chosen_families  # noqa: E402

from companion.game.camera import CardPlaced  # noqa: E402
from vision import designs, synth  # noqa: E402
from vision.labels import LABELS  # noqa: E402
from vision.recognize import Recognizer  # noqa: E402
from vision.watcher import Watcher  # noqa: E402

LAMP = 0.88  # the lamp dimmed halfway through each deck's game


def play_deck(family: str, seed: int, cards: int, recognizer: Recognizer, count: collections.Counter,
              tick: Callable[[], None], zones: tuple[str, ...] = ("play",), hold: int = 2,
              corrected: bool = False) -> None:
    deck = designs.design(family, seed)
    rng = np.random.default_rng([9, seed])
    camera, light = synth.Camera.random(rng, max_tilt=40), synth.Light.random(rng)
    watcher, scene = Watcher(recognizer), synth.Scene()
    clock = {"n": 0, "t": 0.0}

    def frames(n: int) -> list[CardPlaced]:
        placed = []
        for _ in range(n):
            clock["n"] += 1
            frame = synth.render_frame(scene, camera, dataclasses.replace(light, noise_seed=clock["n"]), 0)
            placed += [e for e in watcher.feed(frame, clock["t"]) if isinstance(e, CardPlaced)]
            clock["t"] += 0.1
        return placed

    for i in range(cards):
        if i == cards // 2:
            light = dataclasses.replace(light, gains=tuple(g * LAMP for g in light.gains))
        zone = str(rng.choice(zones)) if len(zones) > 1 else zones[0]
        scene.hand_zone, scene.hand_seed = zone, 2 * i
        count["while a hand passed"] += len(frames(hold))
        scene.hand_zone = None
        count["while a hand passed"] += len(frames(4))
        scene.hand_zone, scene.hand_seed = zone, 2 * i + 1
        count["while a hand passed"] += len(frames(1))
        scene.hand_zone = None
        kind = str(rng.choice(LABELS))
        top = scene.top(zone)
        under = top.card if top is not None else None
        scene.cards.append(synth.lay(kind, zone, deck, rng, pile=sum(c.zone == zone for c in scene.cards)))
        placed = frames(15)
        count["laid"] += 1
        count["never announced"] += not placed
        count["never announced, on its own kind"] += not placed and under == kind
        count["announced twice"] += len(placed) > 1
        count["read right"] += bool(placed) and placed[0].card == kind
        if corrected and placed:
            watcher.known(zone, kind)
        tick()


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--families", default="sepia-print,light-plain,coloured-face",
                   help="comma-separated design families (vision/designs.py), or a group: held-out, tuning, training")
    p.add_argument("--decks", type=int, default=2)
    p.add_argument("--cards", type=int, default=10, help="cards laid per deck")
    p.add_argument("--first-deck", type=int, default=73_000)
    p.add_argument("--zones", default="play", help="zones the cards are laid in, separated by commas")
    p.add_argument("--hold", type=int, default=2, help="frames the hand stays over the zone before each card")
    p.add_argument("--corrected", action="store_true",
                   help="misread cards are put right on the page, and the watcher is told the card (Watcher.known)")
    args = p.parse_args()
    cv2.setNumThreads(1)
    families = chosen_families(args.families)
    recognizer, rows = Recognizer(), {}
    tick = Ticks(len(families) * args.decks * args.cards)
    for family in families:
        tick.label = family
        count: collections.Counter = collections.Counter()
        for d in range(args.decks):
            play_deck(family, args.first_deck + d, args.cards, recognizer, count, tick,
                      tuple(args.zones.split(",")), args.hold, args.corrected)
        rows[family] = count
    print(file=sys.stderr)
    print(f"watcher ({args.decks} decks x {args.cards} cards per family from deck {args.first_deck}, "
          f"laid in {args.zones}, a hand held {args.hold / 10:g} s before each card and one passing after it, "
          f"a lamp dimmed halfway{', misread cards put right' if args.corrected else ''}):")
    print(f"  {'family':<16}{'laid':>6}{'never announced':>18}{'(own kind)':>12}{'twice':>8}"
          f"{'hand only':>11}{'read right':>12}")
    for family, c in rows.items():
        laid = max(c["laid"], 1)
        print(f"  {family:<16}{c['laid']:>6}{100 * c['never announced'] / laid:>17.1f}%"
              f"{c['never announced, on its own kind']:>12}{c['announced twice']:>8}{c['while a hand passed']:>11}"
              f"{100 * c['read right'] / laid:>11.1f}%")


if __name__ == "__main__":
    main()
