"""How far apart white ink and a pale ink of the face's own suit measure (``classifier.ink_saturation``)
on faces of one suit's colour, as the box cuts its cards and as a webcam's frames give them: the
floor that tells white by it (``WHITE_INK_FULL_COLOUR`` for a card cut out of the Pi camera's larger
picture, ``WHITE_INK_SATURATION`` for one cut out of a frame) is chosen from these.

Each deck's white kinds and its face's suit's kinds are laid alone in PLAY under a random camera
(up to 40 degrees off vertical) and light. Per deck: the measure's lowest, median and highest for
white and for the face's suit, and the cards misread; per floor: the white cards measured at or
over it (taken for the suit) and the suit's cards under it (taken for white).

    python bench/bench_white_ink.py                                  # deep-blue stand-ins as the box cuts them
    python bench/bench_white_ink.py --jpeg                           # the same decks from a webcam's frames
    python bench/bench_white_ink.py --frames-only                    # raw frames alone (no larger stream)
    python bench/bench_white_ink.py --family coloured-face --decks 20 --first-deck 220000
"""
from __future__ import annotations

import argparse
import dataclasses
import os
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import cv2  # noqa: E402
import numpy as np  # noqa: E402
from bench_decks import ALTERED, DEEP_BLUE, deck_of  # noqa: E402
from bench_teach import bar  # noqa: E402

from vision import camera, classifier, designs, synth  # noqa: E402
from vision.recognize import Recognizer  # noqa: E402

FLOORS = (0.12, 0.15, 0.18, 0.20, 0.22, 0.25, 0.28)
DETAIL = camera.DETAIL[0] / camera.WATCHED[0]  # the Pi camera's larger picture beside its frames


def face_suit(family: str, deck: designs.DeckDesign) -> str | None:
    """The suit whose colour the deck's face shows strongly enough to be doubted (``FaceDoubt``), if
    any: blue on the benchmark's own blue-faced decks (``ALTERED``), whose gradient's ends may lie
    either side of blue's hues."""
    if family in ALTERED:
        return "b"
    face = cv2.cvtColor(np.array([[deck.colours[-1]]], np.uint8), cv2.COLOR_BGR2Lab)[0].astype(np.float64)
    doubted = int(classifier.FaceDoubt.of(face, np.zeros((1, 2)), []).suit[0])  # a pale ink, as white's
    return designs.SUITS[doubted] if doubted >= 0 else None


def measure(family: str, first: int, decks: int, views: int, jpeg: bool, seed: int,
            frames_only: bool = False) -> list[dict]:
    """Per card laid: its deck, the kind laid, the kind read, whether white, and its ink's measure.
    ``frames_only``: raw frames, each card cut out of the frame itself (a Pi camera without its
    larger stream)."""
    rng, reader, rows, t0 = np.random.default_rng(seed), Recognizer(), [], time.time()
    tried, done = first, 0
    while done < decks:
        deck, tried = deck_of(family, tried), tried + 1
        suit = face_suit(family, deck)
        if suit is None:
            continue
        bar(done, decks, t0, family)
        done += 1
        for card in [f"{s}{v}" for s in "w" + suit for v in range(1, 6)]:
            for _ in range(views):
                scene = synth.Scene([synth.lay(card, "play", deck, rng)])
                cam, light = synth.Camera.random(rng, max_tilt=40), synth.Light.random(rng)
                if not jpeg:
                    light = dataclasses.replace(light, jpeg=None, exposure=camera.BOX_EV)
                frame = synth.render_frame(scene, cam, light, 0)
                larger = None if jpeg else synth.render_larger(scene, cam, light, 1.0 if frames_only else DETAIL, 0)
                result = reader.analyse(frame, None, larger)
                crop = result.views["play"].crop if result.views else None
                if crop is None or not result.cards:
                    continue
                rows.append({"deck": tried - 1, "laid": card, "read": result.cards[0].card,
                             "white": card[0] == "w", "ink": classifier.ink_saturation(crop)})
    bar(decks, decks, t0, family)
    print(file=sys.stderr)
    return rows


def report(rows: list[dict]) -> None:
    def spread(values: list[float]) -> str:
        return " ".join(f"{v:.2f}" for v in np.percentile(values, [0, 50, 100])) if values else "-"
    print("deck     white: lowest median highest   suit: lowest median highest   misread")
    for deck in sorted({r["deck"] for r in rows}):
        mine = [r for r in rows if r["deck"] == deck]
        white = [r["ink"] for r in mine if r["white"]]
        suit = [r["ink"] for r in mine if not r["white"] and r["ink"] < 1.0]  # 1: no ink found
        wrong = sum(r["read"] != r["laid"] for r in mine)
        print(f"{deck:<8} {spread(white):>26}   {spread(suit):>26}   {wrong} of {len(mine)}")
    white = np.array([r["ink"] for r in rows if r["white"] and r["ink"] < 1.0])
    suit = np.array([r["ink"] for r in rows if not r["white"] and r["ink"] < 1.0])
    print(f"\n{len(white)} white cards and {len(suit)} of the face's suit with ink found; "
          "per floor, on the wrong side:")
    for floor in FLOORS:
        over, under = int((white >= floor).sum()), int((suit < floor).sum())
        print(f"  {floor:.2f}: white at or over it {over:4}, suit under it {under:4}")


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--family", default=DEEP_BLUE,
                   help=f"a design family of vision/designs.py, or one of {', '.join(ALTERED)}")
    p.add_argument("--decks", type=int, default=2, help="decks whose face shows a suit's colour")
    p.add_argument("--first-deck", type=int, default=4300, help="seed of the first deck tried")
    p.add_argument("--views", type=int, default=1, help="times each kind is laid")
    p.add_argument("--seed", type=int, default=7, help="seed of the cameras and lights")
    p.add_argument("--jpeg", action="store_true",
                   help="cards cut out of a webcam's JPEG frames, not out of the Pi camera's larger picture")
    p.add_argument("--frames-only", action="store_true",
                   help="cards cut out of the Pi camera's raw frames themselves, as without its larger stream")
    args = p.parse_args()
    rows = measure(args.family, args.first_deck, args.decks, args.views, args.jpeg, args.seed, args.frames_only)
    how = ("a webcam's JPEG frames" if args.jpeg else "the Pi camera's raw frames, the box's exposure"
           if args.frames_only else "the Pi camera's larger picture, raw, the box's exposure")
    print(f"{args.family}, {args.decks} decks from {args.first_deck}, each kind laid {args.views} times, "
          f"cards cut out of {how}:")
    report(rows)


if __name__ == "__main__":
    main()
