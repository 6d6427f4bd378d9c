"""What sets the piles read wrongly with confidence >= 0.9 apart from those read right as surely,
untaught, as the box reads a pile during a game (the decks bench's ``--watching`` scenes). Two
signs are measured that could let the box ask instead (the OLED's OK prompt):

- how faint the fainter end's ink is: the 97th percentile of each pixel's distance from the
  face's colour, the scale ``classifier.to_blob`` divides the ink by (a hairline numeral blurred
  into the face is faint, and the networks then read it scaled up);
- whether the two ends, read alone by the networks together, name the same card, and how sure the
  less sure of them is.

    python bench/bench_sure_mistakes.py --family sepia-print --frames 300 --first-deck 90000
    python bench/bench_sure_mistakes.py --family coloured-face --frames 300 --decks 10 --first-deck 200000 --thin-type
"""
import argparse
import os
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import numpy as np  # noqa: E402
from bench_decks import DECKS, bar, before_top_cards, deck_of  # noqa: E402

from vision import synth  # noqa: E402
from vision.classifier import INK_QUANTILE, Classifier, _quantile, against_face, ends, to_blob  # noqa: E402
from vision.labels import LABELS  # noqa: E402
from vision.recognize import Recognizer  # noqa: E402

SURE = 0.9
PERCENTILES = (1, 5, 10, 25, 50)


Pile = tuple[int, str, str | None, float, np.ndarray]


def piles(family: str, frames: int, first_deck: int, decks: int, thin: bool) -> list[Pile]:
    """(scene, top card, reading, confidence, crop) of every pile found, each deck read as one game."""
    rng = np.random.default_rng([2026, sum(map(ord, family))])
    plain = Recognizer(Classifier())
    out = []
    per_deck, t0 = -(-frames // decks), time.time()
    for k in range(frames):
        if k % per_deck == 0:
            deck = deck_of(family, first_deck + k // per_deck, thin)
            plain.classifier.new_game()
        scene = synth.random_scene(rng, deck, cards=[str(c) for c in rng.choice(LABELS, 6)])
        camera, light = synth.Camera.random(rng, max_tilt=40), synth.Light.random(rng)
        frame = synth.render_frame(scene, camera, light, k)
        before = {z: v.image for z, v in plain.look(before_top_cards(scene, camera, light, k))[1].items()}
        result = plain.analyse(frame, before)
        out += [(k, scene.top(s.zone).card, s.card, s.confidence, result.views[s.zone].crop) for s in result.cards
                if result.views[s.zone].crop is not None]
        bar(k + 1, frames, t0, family)
    return out


def judged(seen: list[Pile]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per pile: how sure its reading was, whether it was read right, and whether a card was named."""
    return (np.array([c for _, _, _, c, _ in seen]), np.array([card == top for _, top, card, _, _ in seen]),
            np.array([card is not None for _, _, card, _, _ in seen]))


def faintness(crops: list[np.ndarray]) -> np.ndarray:
    """Per card, the 97th percentile of the ink's distance from the face on its fainter end."""
    _, _, ink = against_face(ends(crops))
    return _quantile(ink, INK_QUANTILE).reshape(-1, 2).min(1)


def ends_alone(reader: Classifier, crops: list[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    """Per card: whether its two ends, each read alone by every network (log-probabilities
    averaged), name the same card; and how sure the less sure end is of the card it names."""
    blob = to_blob(ends(crops))
    suit = value = 0.0
    for net in reader._nets:
        s, v, _ = reader._read(net, blob)
        suit, value = suit + s, value + v
    suit, value = np.exp(suit / len(reader._nets)), np.exp(value / len(reader._nets))
    suit, value = suit / suit.sum(1, keepdims=True), value / value.sum(1, keepdims=True)
    best = suit.argmax(1) * 10 + value.argmax(1)
    sure = (suit.max(1) * value.max(1)).reshape(-1, 2)
    return best[0::2] == best[1::2], sure.min(1)


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--family", default="sepia-print")
    p.add_argument("--frames", type=int, default=100, help="scenes (two piles each)")
    p.add_argument("--first-deck", type=int, default=90_000)
    p.add_argument("--decks", type=int, default=DECKS)
    p.add_argument("--thin-type", action="store_true", help="the decks' numerals in the thinnest training typefaces")
    args = p.parse_args()
    seen = piles(args.family, args.frames, args.first_deck, args.decks, args.thin_type)
    crops = [crop for *_, crop in seen]
    conf, right, named = judged(seen)
    wrong = (conf >= SURE) & ~right & named
    sure_right = (conf >= SURE) & right
    faint = faintness(crops)
    same, weaker = ends_alone(Classifier(), crops)
    print(f"{args.family}{', thinnest typefaces' if args.thin_type else ''}: {len(seen)} piles, read right "
          f"{right.mean():.1%}, right with confidence >= {SURE} {sure_right.sum()}, wrong so {wrong.sum()}")
    named = [f"{top}->{card}" for (_, top, card, _, _), w in zip(seen, wrong, strict=True) if w]
    print(f"  wrong and sure: {', '.join(named) or 'none'}")
    for name, x in (("fainter end's ink (97th pct. distance from the face)", faint),
                    ("less sure end alone", weaker)):
        cuts = ", ".join(f"p{q} {np.percentile(x[sure_right], q):.2f}" for q in PERCENTILES)
        print(f"  {name}: wrong and sure {', '.join(f'{v:.2f}' for v in np.sort(x[wrong])) or 'none'}; "
              f"right and sure, percentiles {cuts}")
    print(f"  ends naming different cards: of the wrong and sure {int((~same & wrong).sum())}, "
          f"of the right and sure {int((~same & sure_right).sum())}")


if __name__ == "__main__":
    main()
