"""Teaching figures: how well a deck is read after one photo per card kind, on decks of the design
families the general network never saw (vision/designs.py's held-out families), and whether a
profile of another deck is noticed.

Per family: each deck is taught from one photo per kind lying in PLAY on the printed mat (cut out
by the same finder path as `companion teach`), then fresh mat scenes of other copies of the same
deck are read (piles of mini cards in PLAY and DISCARD, camera up to 40 degrees off vertical,
warm/cold/uneven light, glare). Figures are shares of the piles laid: identity untaught and
taught, share asked (null: the box asks), wrong with confidence >= 0.9, and the teaching time.
Then each family's scenes are read with the profile of a deck of another family: the share of
frames (after the first two) on which the box reports that the profile does not fit, and the
same share with the deck's own profile (false alarms).

    python bench/bench_teach.py                          # 200 scenes per family, one deck each
    python bench/bench_teach.py --families tuning    # while developing the teaching
    taskset -c 0 python bench/bench_teach.py --frames 700 --decks 2   # one core, as the budget says
"""
import argparse
import os
import sys
import time

ROOT = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(ROOT))
sys.path.insert(0, ROOT)

import cv2  # noqa: E402
import numpy as np  # noqa: E402
from bench_vision import teach  # noqa: E402

from vision import designs, synth  # noqa: E402
from vision.classifier import Classifier  # noqa: E402
from vision.labels import LABELS  # noqa: E402
from vision.recognize import Recognizer  # noqa: E402

FIRST_DECK = 95_000  # deck seeds of this benchmark's held-out figures (none used while developing the teaching)
SETTLE = 2           # frames read before the mismatch flag counts


def bar(done: int, total: int, t0: float, label: str) -> None:
    filled = 30 * done // max(1, total)
    print(f"\r  [{'#' * filled:<30}] {done}/{total} {label:<24} {time.time() - t0:5.0f} s", end="",
          file=sys.stderr, flush=True)


def scenes(deck: designs.DeckDesign, frames: int, rng: np.random.Generator,
           plain: Recognizer) -> list[tuple[list, list]]:
    """Per frame: the crops the finder cut out and the cards really on top."""
    out = []
    for k in range(frames):
        scene = synth.random_scene(rng, deck, cards=[str(c) for c in rng.choice(LABELS, 6)])
        frame = synth.render_frame(scene, synth.Camera.random(rng, max_tilt=40), synth.Light.random(rng), k)
        _, views = plain.look(frame)
        found = [v for v in views.values() if v.crop is not None]
        out.append(([v.crop for v in found], [scene.top(v.zone).card for v in found]))
    return out


def read(classifier: Classifier, frames: list[tuple[list, list]]) -> dict[str, float]:
    piles = 2 * len(frames)  # every scene has a pile in each zone; a pile not found counts as misread
    right = asked = wrong = flagged = 0
    for n, (crops, truth) in enumerate(frames):
        guesses = classifier.classify(crops)
        for g, card in zip(guesses, truth, strict=True):
            right += g.card == card
            asked += g.card is None
            wrong += g.card is not None and g.card != card and g.confidence >= 0.9
        flagged += n >= SETTLE and classifier.mismatch
    return {"identity": right / piles, "asked": asked / piles, "wrong>=0.9": wrong / piles,
            "flagged": flagged / max(1, len(frames) - SETTLE)}


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--frames", type=int, default=200, help="scenes per family (two piles each)")
    p.add_argument("--decks", type=int, default=1, help="decks per family (the scenes are shared out)")
    p.add_argument("--seed", type=int, default=2026, help="seed of the scenes, cameras and lights")
    p.add_argument("--families", default="held-out", choices=tuple(designs.GROUPS),
                   help="held-out (default), or tuning or training: develop the teaching on those only")
    p.add_argument("--first-deck", type=int, default=FIRST_DECK, help="seed of the first deck of each family")
    args = p.parse_args()
    cv2.setNumThreads(1)
    plain = Recognizer(Classifier())
    families = designs.GROUPS[args.families]
    rows: dict[str, dict[str, float]] = {}
    profiles: dict[str, list] = {}
    seen: dict[str, list] = {}
    t0 = time.time()
    total = len(families) * args.decks
    for f, family in enumerate(families):
        rng = np.random.default_rng([args.seed, sum(map(ord, family))])
        sums: dict[str, float] = {}
        for d in range(args.decks):
            deck = designs.design(family, args.first_deck + d)
            bar(f * args.decks + d, total, t0, f"{family} teaching")
            profile = teach(deck, rng)
            t = time.perf_counter()
            taught = Classifier(profile=profile)
            teaching = time.perf_counter() - t
            bar(f * args.decks + d, total, t0, f"{family} reading")
            frames = scenes(deck, args.frames // args.decks, rng, plain)
            figures = {"untaught": read(plain.classifier, frames)["identity"], **read(taught, frames),
                       "teach s": teaching}
            for k, v in figures.items():
                sums[k] = sums.get(k, 0.0) + v / args.decks
            profiles.setdefault(family, []).append(profile)
            seen.setdefault(family, []).append(frames)
        rows[family] = sums
    bar(total, total, t0, "other decks' profiles")
    for f, family in enumerate(families):
        other = families[(f + 1) % len(families)]
        flags = [read(Classifier(profile=profiles[other][d]), frames)["flagged"]
                 for d, frames in enumerate(seen[family])]
        rows[family]["mismatch found"] = float(np.mean(flags))
        rows[family]["other deck"] = other  # type: ignore[assignment]
    print(file=sys.stderr)
    print(f"teaching from one photo per kind on the mat ({args.frames} scenes per family, {args.decks} "
          f"deck(s) each, seed {args.seed}):")
    cols = ("untaught", "identity", "asked", "wrong>=0.9", "teach s", "flagged", "mismatch found")
    heads = ("untaught", "taught", "asked", "wrong>=0.9", "teach s", "false alarm", "mismatch")
    print(f"  {'family':<20}" + "".join(f"{h:>13}" for h in heads) + "  (profile of)")
    for family, r in rows.items():
        cells = [f"{r[c]:.1f}" if c == "teach s" else f"{r[c]:.1%}" for c in cols]
        print(f"  {family:<20}" + "".join(f"{c:>13}" for c in cells) + f"  ({r['other deck']})")
    print("false alarm: frames flagged 'profile does not fit' with the deck's own profile; mismatch: the same "
          "with the profile of a deck of the family in brackets")


if __name__ == "__main__":
    main()
