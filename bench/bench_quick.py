"""How far a taught deck's quick look can be trusted: per pile of taught decks, the reading of the
first network with the deck's quick model (``classifier.QUICK_SURE``) against the reading of every
network with the deck's whole model. For each threshold: the share of piles the quick look keeps
(read by the first network alone: what sets a taught box's time per frame), how many of those the
whole reading reads otherwise, and the piles read right and wrongly with confidence >= 0.9.

Tuning families only by default: the threshold is chosen on them.

    python bench/bench_quick.py                                   # 1 deck per family, 20 scenes each
    python bench/bench_quick.py --decks 3 --frames 50 --first-deck 94000   # the figures in models/README.md
"""
import argparse
import os
import sys
import time
from collections.abc import Callable, Iterator
from typing import TypeVar

ROOT = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(ROOT))
sys.path.insert(0, ROOT)

import cv2  # noqa: E402
import numpy as np  # noqa: E402
from bench_decks import before_top_cards  # noqa: E402
from bench_teach import bar  # noqa: E402
from bench_vision import teach  # noqa: E402

from vision import classifier, designs, synth  # noqa: E402
from vision.classifier import Classifier  # noqa: E402
from vision.labels import LABELS  # noqa: E402
from vision.recognize import Recognizer  # noqa: E402

THRESHOLDS = (0.9, 0.95, 0.97, 0.99, 0.999)
T = TypeVar("T")


def watched(deck: synth.Design, frames: int, rng: np.random.Generator,
            plain: Recognizer) -> Iterator[tuple[list[np.ndarray], list[int]]]:
    """Per scene of ``deck``, as the box watches a game (each pile cut out knowing the zone before
    its top card was laid): the crops found and the cards laid on top of them."""
    for k in range(frames):
        scene = synth.random_scene(rng, deck, cards=[str(c) for c in rng.choice(LABELS, 6)])
        camera, light = synth.Camera.random(rng, max_tilt=40), synth.Light.random(rng)
        before = {z: v.image for z, v in plain.look(before_top_cards(scene, camera, light, k))[1].items()}
        _, views = plain.look(synth.render_frame(scene, camera, light, k), before=before)
        found = [v for v in views.values() if v.crop is not None]
        yield [v.crop for v in found], [LABELS.index(scene.top(v.zone).card) for v in found]


def deck_arguments(description: str) -> argparse.Namespace:
    """The decks and scenes a bench of tuning piles reads: how many of each, of which families."""
    p = argparse.ArgumentParser(description=description)
    p.add_argument("--frames", type=int, default=20, help="scenes per deck (two piles each)")
    p.add_argument("--decks", type=int, default=1, help="decks per family")
    p.add_argument("--families", default="tuning", help="a group of vision/designs.py's GROUPS, or names")
    p.add_argument("--first-deck", type=int, default=94_000, help="seed of each family's first deck")
    p.add_argument("--seed", type=int, default=2026, help="seed of the scenes, cameras and lights")
    return p.parse_args()


def decks_read(args: argparse.Namespace,
               read: Callable[[str, int, np.random.Generator], T]) -> Iterator[tuple[str, list[T]]]:
    """Each family of ``args`` (``deck_arguments``) with its decks read by ``read(family, deck seed,
    the family's random numbers)``, a progress bar on the way."""
    families = designs.GROUPS.get(args.families) or tuple(args.families.split(","))
    t0 = time.time()
    for f, family in enumerate(families):
        rng = np.random.default_rng([args.seed, sum(map(ord, family))])
        parts = []
        for d in range(args.decks):
            bar(f * args.decks + d, len(families) * args.decks, t0, family)
            parts.append(read(family, args.first_deck + d, rng))
        print(file=sys.stderr)
        yield family, parts


def readings(family: str, deck_seed: int, frames: int, rng: np.random.Generator,
             plain: Recognizer) -> tuple[dict[float, tuple[np.ndarray, np.ndarray]], np.ndarray, np.ndarray]:
    """Per pile found while watching: for each threshold, the reading and whether the quick look
    kept the pile; the reading of every network; the card laid."""
    deck = designs.design(family, deck_seed)
    reader = Classifier(profile=teach(deck, rng))
    read_by_all: list[set[int]] = []
    run = reader._run
    reader._run = lambda crops, described=True, look=None: (  # type: ignore[method-assign]
        read_by_all.append({id(c) for c in crops}), run(crops, described, look))[1]
    by_threshold: dict[float, tuple[list, list]] = {t: ([], []) for t in THRESHOLDS}
    whole, truth = [], []
    for crops, laid in watched(deck, frames, rng, plain):
        for t, (probs, kept) in by_threshold.items():
            classifier.QUICK_SURE = t
            read_by_all.clear()
            probs += list(reader.probabilities(crops, remember=False)[0]) if crops else []
            kept += [id(c) not in set().union(*read_by_all) for c in crops]
        classifier.QUICK_SURE = 2.0  # every card read by every network, and remembered: the deck is on the table
        whole += list(reader.probabilities(crops)[0]) if crops else []
        truth += laid
    return ({t: (np.array(p), np.array(k, bool)) for t, (p, k) in by_threshold.items()},
            np.array(whole), np.array(truth))


def main() -> None:
    args = deck_arguments(__doc__.split("\n\n")[0])
    cv2.setNumThreads(1)
    plain = Recognizer(Classifier())
    print(f"the quick look of taught decks ({args.decks} deck(s) per family from {args.first_deck}, "
          f"{args.frames} scenes each, watching):")
    for family, parts in decks_read(args, lambda family, seed, rng: readings(family, seed, args.frames, rng, plain)):
        whole, truth = (np.concatenate([part[n] for part in parts]) for n in (1, 2))
        print(f"  {family}: {len(truth)} piles, every network: {right(whole, truth):.1%} right, "
              f"{sure_wrong(whole, truth):.2%} wrong with confidence >= 0.9")
        for t in THRESHOLDS:
            probs, kept = (np.concatenate([part[0][t][n] for part in parts]) for n in (0, 1))
            otherwise = (kept & (probs.argmax(1) != whole.argmax(1))).sum()
            print(f"    at {t}: kept {kept.mean():6.1%}, kept and read otherwise than by every network {otherwise}; "
                  f"{right(probs, truth):.1%} right, {sure_wrong(probs, truth):.2%} wrong with confidence >= 0.9")


def right(probs: np.ndarray, truth: np.ndarray) -> float:
    return float(((probs.argmax(1) == truth) & (probs.max(1) >= classifier.UNSURE)).mean())


def sure_wrong(probs: np.ndarray, truth: np.ndarray) -> float:
    return float(((probs.argmax(1) != truth) & (probs.max(1) >= 0.9)).mean())


if __name__ == "__main__":
    main()
