"""How the doubt of a pale suit on a face of its colour (``classifier.FaceDoubt``) fares card by
card: every kind of each deck laid alone in PLAY under a random camera and light, read untaught,
and the doubt applied with several floors of the face's chroma (``classifier.FACE_CHROMA`` and
``BLUE_FACE_CHROMA``; the shipped floors first), with blue faces' hues ending elsewhere
(``classifier.FACE_HUES``), with a ceiling of the face's lightness (faces
lighter than that not doubted: white ink would not show on them), and with greyer faces doubted
only where the ink is white (``classifier.ink_saturation``). A deck whose faces show suits' colours
far apart is not doubted, as the box stops doubting once it has seen such faces
(``classifier.faces_apart``). Per deck: the face's Lab chroma as seen, the share of cards doubted
and the cards read wrongly with confidence >= 0.9 (white ones among them). Per family and limits:
read right, right and sure, wrong and sure.

``--faint-blue``: coloured-face training decks of a blue to teal face, their blue printed as a tint
of the face paler than the training decks' (0.22 to 0.6 saturated) beside plain white, as blue-faced
editions print light blue on blue (the white and blue kinds laid ``--views`` times, the others once).

Choose on training and tuning families; a held-out family's decks only say where the doubt misses.

    python bench/bench_face_doubt.py --families coloured-face,tinted-face --decks 30 --first-deck 98000
    python bench/bench_face_doubt.py --families random-face,sepia-print,blueprint-grid --decks 20 --first-deck 98000
    python bench/bench_face_doubt.py --faint-blue --decks 30 --views 3 --first-deck 122000
    python bench/bench_face_doubt.py --faint-blue --decks 30 --views 3 --first-deck 130000 --no-jpeg
    python bench/bench_face_doubt.py --families blue-low-contrast --decks 5 --first-deck 97000
"""
import argparse
import dataclasses
import os
import sys
import time
from dataclasses import dataclass

ROOT = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(ROOT))
sys.path.insert(0, ROOT)

import cv2  # noqa: E402
import numpy as np  # noqa: E402
from bench_decks import faint_blue  # noqa: E402
from bench_quick import decks_read  # noqa: E402
from bench_teach import bar  # noqa: E402

from vision import classifier, designs, synth, teach  # noqa: E402
from vision.classifier import FaceDoubt, ink_summary, inks_of  # noqa: E402
from vision.labels import LABELS  # noqa: E402
from vision.recognize import Recognizer  # noqa: E402

NO_CEILING = 255.0  # Lab lightness: every face doubted, as shipped


@dataclass(frozen=True)
class Limits:
    """Which faces are doubted: chroma from ``floor`` (blue ones from ``blue``, the same if None),
    blue ones of Lab hues ``blue_hues`` (as shipped if None), lightness up to ``ceiling``; and faces
    of chroma from ``white_from`` up to the floor only where the ink is white."""

    floor: float
    blue: float | None = None
    ceiling: float = NO_CEILING
    white_from: float | None = None
    blue_hues: tuple[float, float] | None = None

    def __str__(self) -> str:
        blue = "" if self.blue is None else f", blue faces from {self.blue:.0f}"
        if self.blue_hues is not None:
            blue += f", blue faces of hues {self.blue_hues[0]:.0f} to {self.blue_hues[1]:.0f}"
        ceiling = "" if self.ceiling == NO_CEILING else f", faces lighter than {self.ceiling:.0f} not doubted"
        white = "" if self.white_from is None else f", from {self.white_from:.0f} where the ink is white"
        return f"face chroma from {self.floor:.0f}{blue}{ceiling}{white}"


SHIPPED = Limits(classifier.FACE_CHROMA, classifier.BLUE_FACE_CHROMA)
LIMITS = (SHIPPED, Limits(classifier.FACE_CHROMA), *(Limits(f) for f in (28.0, 26.0, 24.0, 22.0)),
          *(Limits(classifier.FACE_CHROMA, blue=f) for f in (26.0, 18.0, 14.0)),
          *(Limits(classifier.FACE_CHROMA, classifier.BLUE_FACE_CHROMA, blue_hues=(low, -53.0))
            for low in (-103.0, -120.0, -150.0)),
          *(Limits(classifier.FACE_CHROMA, ceiling=c) for c in (160.0, 140.0)),
          *(Limits(classifier.FACE_CHROMA, white_from=f) for f in (24.0, 18.0, 12.0)))
SURE = 0.9


@dataclass
class DeckCards:
    """One deck's cards as the networks read them, before the doubt."""

    seed: int
    crops: list[np.ndarray]
    truth: np.ndarray
    probs: np.ndarray
    faces: np.ndarray  # Lab, per card
    inks: np.ndarray   # ``inks_of``
    own_faces: bool    # its faces show suits' colours far apart, as the box tells such a deck, whatever the floor

    def doubt(self, floor: float, blue: float | None = None,
              blue_hues: tuple[float, float] | None = None) -> FaceDoubt:
        shipped = classifier.FACE_CHROMA, classifier.BLUE_FACE_CHROMA, classifier.FACE_HUES["b"]
        classifier.FACE_CHROMA, classifier.BLUE_FACE_CHROMA = floor, floor if blue is None else blue
        classifier.FACE_HUES["b"] = shipped[2] if blue_hues is None else blue_hues
        try:
            return FaceDoubt.of(self.faces, self.inks, self.crops, self.own_faces).measured()
        finally:
            classifier.FACE_CHROMA, classifier.BLUE_FACE_CHROMA, classifier.FACE_HUES["b"] = shipped

    def read(self, limits: Limits) -> tuple[np.ndarray, np.ndarray, FaceDoubt]:
        """Labels read and their confidence, with the doubt under ``limits``."""
        doubt = self.doubt(limits.floor, limits.blue, limits.blue_hues)
        if limits.white_from is not None:
            lower = self.doubt(limits.white_from)
            white = (doubt.suit < 0) & (lower.share == classifier.WHITE_INK_DOUBT)
            doubt = FaceDoubt(np.where(white, lower.suit, doubt.suit), np.where(white, lower.share, doubt.share))
        doubt = FaceDoubt(np.where(self.faces[:, 0] <= limits.ceiling, doubt.suit, -1), doubt.share)
        probs = doubt.applied(self.probs)
        return np.array(LABELS)[probs.argmax(1)], probs.max(1), doubt


def deck_cards(reader: Recognizer, deck: designs.DeckDesign, rng: np.random.Generator, views: int,
               laid_again: str = designs.SUITS, jpeg: bool = True) -> DeckCards:
    """Each kind of ``deck`` laid alone in PLAY and read untaught; those of the suits ``laid_again``
    ``views`` times, the others once. ``jpeg``: False leaves the frames uncompressed, as the Pi
    camera gives them."""
    crops, truth = [], []
    for card in LABELS:
        for _ in range(views if card[0] in laid_again else 1):
            scene = synth.Scene([synth.lay(card, "play", deck, rng)])
            camera, light = synth.Camera.random(rng), synth.Light.random(rng)
            frame = synth.render_frame(scene, camera, light if jpeg else dataclasses.replace(light, jpeg=None), 0)
            crop = reader.look(frame)[1]["play"].crop
            if crop is not None:
                crops.append(crop)
                truth.append(card)
    probs, _, blob = reader.classifier._run(crops, described=False)
    faces = teach.face_colours(crops)
    return DeckCards(deck.seed, crops, np.array(truth), probs, faces, inks_of(ink_summary(blob)),
                     classifier.faces_apart(classifier.face_hues(faces, crops)))


def faint_blue_decks(reader: Recognizer, args: argparse.Namespace) -> list[DeckCards]:
    """``args.decks`` decks of ``faint_blue``, from the first blue-faced seed at ``args.first_deck`` on."""
    rng, seed, decks, t0 = np.random.default_rng(args.seed), args.first_deck, [], time.time()
    while len(decks) < args.decks:
        deck = faint_blue(seed, rng)
        seed += 1
        if deck is not None:
            bar(len(decks), args.decks, t0, "faint-blue")
            decks.append(deck_cards(reader, deck, rng, args.views, laid_again="bw", jpeg=not args.no_jpeg))
    print(file=sys.stderr)
    return decks


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--decks", type=int, default=3, help="decks per family")
    p.add_argument("--views", type=int, default=1, help="times each kind is laid")
    p.add_argument("--families", default="tuning", help="a group of vision/designs.py's GROUPS, or names")
    p.add_argument("--first-deck", type=int, default=98_000, help="seed of each family's first deck")
    p.add_argument("--seed", type=int, default=2026, help="seed of the cameras and lights")
    p.add_argument("--faint-blue", action="store_true",
                   help="coloured-face decks of a blue to teal face, their blue a faint tint of it (see above)")
    p.add_argument("--no-jpeg", action="store_true",
                   help="frames uncompressed, as the Pi camera gives them, not as a webcam's JPEG")
    args = p.parse_args()
    cv2.setNumThreads(1)
    reader = Recognizer()
    if args.faint_blue:
        read = [("faint-blue", faint_blue_decks(reader, args))]
    else:
        read = decks_read(args, lambda f, s, rng: deck_cards(reader, designs.design(f, s), rng, args.views,
                                                                  jpeg=not args.no_jpeg))
    for family, decks in read:
        role = "coloured-face decks altered" if args.faint_blue else designs.role(family)
        print(f"{family} ({role}), {sum(len(d.truth) for d in decks)} cards:")
        for d in decks:
            read, conf, doubt = d.read(SHIPPED)
            sure_wrong = (read != d.truth) & (conf >= SURE)
            _, chroma = classifier.hue_chroma(d.faces)
            print(f"  deck {d.seed}: face chroma {chroma.min():.0f} to {chroma.max():.0f}, doubted "
                  f"{np.mean(doubt.suit >= 0):.0%}, wrong and sure {sure_wrong.sum()} "
                  f"(white {(sure_wrong & np.char.startswith(d.truth, 'w')).sum()})")
        for limits in LIMITS:
            right = sure_right = sure_wrong = 0
            for d in decks:
                read, conf, _ = d.read(limits)
                right += int((read == d.truth).sum())
                sure_right += int(((read == d.truth) & (conf >= SURE)).sum())
                sure_wrong += int(((read != d.truth) & (conf >= SURE)).sum())
            n = sum(len(d.truth) for d in decks)
            print(f"  {limits}: read right {right / n:.1%}, "
                  f"right and sure {sure_right / n:.1%}, wrong and sure {sure_wrong} ({sure_wrong / n:.2%})")


if __name__ == "__main__":
    main()
