"""A deck the networks find hard (``Classifier.hard_deck``): untaught, once most of a game's latest
cards were read unsurely, no reading is sure enough to be judged at once. The piles are read as the
box reads them during a game (the decks bench's ``--watching`` scenes, each deck one game) with the
rule switched off, then the rule is replayed on the same readings. It changes only how sure a
reading is, never which card, and it goes by the readings before it changed them, so the replay is
what the box would have said (but for the rounding of a confidence to four places). Per family:
piles read wrongly and rightly with confidence >= 0.9, without and with the rule, and the decks on
which it held.

    python bench/bench_hard_deck.py --families sepia-print,blueprint-grid --frames 300 --first-deck 90000
    python bench/bench_hard_deck.py --families sepia-print --frames 300 --decks 10 --first-deck 200000 --thin-type
"""
import argparse
import collections
import os
import sys

ROOT = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(ROOT))
sys.path.insert(0, ROOT)

import numpy as np  # noqa: E402
from bench_decks import DECKS  # noqa: E402
from bench_sure_mistakes import SURE, Pile, judged, piles  # noqa: E402

from vision import classifier  # noqa: E402


def replayed(seen: list[Pile], conf: np.ndarray, per_deck: int) -> tuple[np.ndarray, np.ndarray]:
    """Each pile's confidence (``conf`` without the rule) as the box with the rule would give it,
    and whether its game was taken for a hard deck when it was read. The piles of one scene are
    read together, so each is judged on the cards before its scene."""
    by_scene: dict[int, list[int]] = collections.defaultdict(list)
    for i, (k, *_) in enumerate(seen):
        by_scene[k].append(i)
    out, hard = conf.copy(), np.zeros(len(seen), bool)
    lately: list[float] = []
    for k in sorted(by_scene):
        if k % per_deck == 0:
            lately = []  # a new game
        if classifier.read_unsurely(lately):
            hard[by_scene[k]] = True
            out[by_scene[k]] = np.minimum(conf[by_scene[k]], classifier.HARD_DECK_MOST)
        lately += [float(conf[i]) for i in by_scene[k]]
    return out, hard


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--families", default="sepia-print,blueprint-grid", help="names separated by commas")
    p.add_argument("--frames", type=int, default=300, help="scenes per family (two piles each)")
    p.add_argument("--first-deck", type=int, default=90_000)
    p.add_argument("--decks", type=int, default=DECKS)
    p.add_argument("--thin-type", action="store_true", help="the decks' numerals in the thinnest training typefaces")
    args = p.parse_args()
    per_deck = -(-args.frames // args.decks)
    rule = classifier.HARD_SHARE
    for family in args.families.split(","):
        classifier.HARD_SHARE = float("inf")  # read as without the rule; replayed below
        seen = piles(family, args.frames, args.first_deck, args.decks, args.thin_type)
        classifier.HARD_SHARE = rule
        conf, right, named = judged(seen)
        capped, hard = replayed(seen, conf, per_deck)
        decks = sorted({args.first_deck + seen[i][0] // per_deck for i in np.flatnonzero(hard)})
        print(f"{family}{', thinnest typefaces' if args.thin_type else ''}: {len(seen)} piles, read right "
              f"{right.mean():.1%}; confidence >= {SURE}, wrong / right: without the rule "
              f"{int(((conf >= SURE) & named & ~right).sum())} / {int(((conf >= SURE) & right).sum())}, with it "
              f"{int(((capped >= SURE) & named & ~right).sum())} / {int(((capped >= SURE) & right).sum())}; "
              f"piles read as of a hard deck {int(hard.sum())} ({len(decks)} decks: "
              f"{', '.join(map(str, decks)) or 'none'})")


if __name__ == "__main__":
    main()
