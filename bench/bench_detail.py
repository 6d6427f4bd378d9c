"""What a sharper picture of the table gives the reader: each scene seen in the 1280x720 frame the
box watches, read alone, and read with a larger picture of the same moment beside it, as a
camera's larger stream gives one (the Pi camera's 2304x1296 is 1.8 times as large each way): the
zones and the cards' outlines are found in the frame as ever, and each card is cut out of the
larger picture (``Recognizer.analyse``'s ``detail``). The larger picture is drawn from a mat as
fine against its pixels as the frame's, and the light's blur is the same in pixels, so it shows a
card with more pixels and less blur, as a sensor's larger mode does, and uncompressed, as only
the Pi camera gives one (``--no-jpeg``: the frames too, as the Pi camera's). Untaught, each frame
read as a game's first card.

Per family and frame size: the top cards found, read right, asked (null) and read wrongly with
confidence >= 0.9, and the commonest of those sure mistakes.

    python bench/bench_detail.py                                     # small: tuning families, 20 scenes
    python bench/bench_detail.py --families sepia-print --frames 300 --first-deck 90000
    python bench/bench_detail.py --families sepia-print --thin-type --frames 300 --decks 10 --first-deck 200000
    python bench/bench_detail.py --faint-blue --frames 300 --first-deck 3700 --no-jpeg
"""
import argparse
import collections
import dataclasses
import os
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import cv2  # noqa: E402
import numpy as np  # noqa: E402
from bench_decks import FAINT_BLUE, bar, chosen_families, deck_of  # noqa: E402

from vision import synth  # noqa: E402
from vision.recognize import Recognizer  # noqa: E402

SURE = 0.9


@dataclasses.dataclass
class Tally:
    """One family's top cards at one frame size."""

    tops: int = 0
    found: int = 0
    right: int = 0
    asked: int = 0
    sure_wrong: collections.Counter = dataclasses.field(default_factory=collections.Counter)

    def row(self) -> str:
        worst = ", ".join(f"{k} ({n})" for k, n in self.sure_wrong.most_common(4)) or "-"
        return (f"found {self.found / self.tops:6.1%}  right {self.right / self.found:6.1%}  "
                f"asked {self.asked / self.found:5.1%}  wrong>=0.9 {sum(self.sure_wrong.values()):3d} of {self.found}"
                f"  {worst}")


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--families", default="tuning", help="design families, or a group (tuning, training, ...)")
    p.add_argument("--faint-blue", action="store_true", help="instead of --families: bench_decks' faint-blue decks")
    p.add_argument("--thin-type", action="store_true", help="each deck in one of the thinnest training typefaces")
    p.add_argument("--frames", type=int, default=20, help="scenes per family")
    p.add_argument("--decks", type=int, default=5, help="decks per family (the scenes are shared out among them)")
    p.add_argument("--first-deck", type=int, default=90000, help="seed of each family's first deck")
    p.add_argument("--scales", type=float, nargs="+", default=[1.8],
                   help="sizes of the larger picture, as multiples of 1280x720 (1.8: the Pi camera's 2304x1296)")
    p.add_argument("--no-jpeg", action="store_true", help="the frames uncompressed too, as the Pi camera gives them")
    p.add_argument("--seed", type=int, default=2026, help="seed of the scenes, cameras and lights")
    args = p.parse_args()
    families = (FAINT_BLUE,) if args.faint_blue else chosen_families(args.families)
    cv2.setNumThreads(1)
    reader = Recognizer()
    t0, done = time.time(), 0
    for family in families:
        tallies = {s: Tally() for s in [1.0, *args.scales]}
        rng = np.random.default_rng(args.seed)
        per_deck = max(1, args.frames // args.decks)
        for n in range(args.frames):
            deck = deck_of(family, args.first_deck + n // per_deck % args.decks, args.thin_type)
            scene = synth.random_scene(rng, deck, others=False)
            camera, light, background = synth.Camera.random(rng), synth.Light.random(rng), int(rng.integers(1 << 16))
            tops = {z: scene.top(z) for z in ("play", "discard")}
            frame = synth.render_frame(scene, camera, dataclasses.replace(light, jpeg=None) if args.no_jpeg else light,
                                       background)
            for scale, tally in tallies.items():
                reader.classifier.new_game()  # each frame read alone, as a first card
                detail = None if scale == 1.0 else synth.render_larger(scene, camera, light, scale, background)
                result = reader.analyse(frame, detail=detail)
                read = {c.zone: c for c in result.cards}
                for zone, top in tops.items():
                    if top is None:
                        continue
                    tally.tops += 1
                    card = read.get(zone)
                    if card is None:
                        continue
                    tally.found += 1
                    if card.card is None:
                        tally.asked += 1
                    elif card.card == top.card:
                        tally.right += 1
                    elif card.confidence >= SURE:
                        tally.sure_wrong[f"{top.card}->{card.card}"] += 1
            done += 1
            bar(done, args.frames * len(families), t0, family)
        print(file=sys.stderr)
        print(f"{family}{' (thinnest typefaces)' if args.thin_type else ''}: {args.frames} scenes, "
              f"{args.decks} decks from {args.first_deck}, untaught, each frame read alone, "
              f"frames {'uncompressed' if args.no_jpeg else 'JPEG'}, the larger pictures uncompressed")
        for scale, tally in tallies.items():
            w, h = synth.Camera().larger(scale).size
            print(f"  {'the frame alone' if scale == 1.0 else f'cut from {w}x{h}':18}  {tally.row()}")


if __name__ == "__main__":
    main()
