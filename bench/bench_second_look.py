"""How far the first network's reading of an untaught card can be trusted: per pile of tuning decks
found while watching, every network's reading of each end. For each way of sparing the other
networks (``classifier.SECOND_LOOK`` at several thresholds, both others reading what the first
leaves unsure; the third only where the first two together are unsure, as the box reads; the
others only on the ends the first is unsure of) it prints how many networks read a card on
average, which sets an untaught frame's time, and the piles read right, asked about and read
wrongly with confidence >= 0.9. Also the networks' probabilities averaged instead of their
log-probabilities.

Tuning families only by default: such choices are made on them.

    python bench/bench_second_look.py                              # 1 deck per family, 20 scenes each
    python bench/bench_second_look.py --decks 3 --frames 100       # the figures in models/README.md
"""
import os
import sys
from dataclasses import dataclass

ROOT = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(ROOT))
sys.path.insert(0, ROOT)

import cv2  # noqa: E402
import numpy as np  # noqa: E402
from bench_quick import deck_arguments, decks_read, right, sure_wrong, watched  # noqa: E402

from vision import designs, teach  # noqa: E402
from vision.classifier import SECOND_LOOK, UNSURE, Classifier, FaceDoubt, card_probabilities, ink_summary, inks_of  # noqa: E402
from vision.recognize import Recognizer  # noqa: E402

THRESHOLDS = (0.9, 0.95, 0.97, 0.99)


@dataclass
class Readings:
    """Piles found while watching: every network's log-probabilities per end (rows 2k and 2k+1 are
    card k's ends; one column per network), and the doubt of a pale suit the box reads them with."""

    suit: np.ndarray
    value: np.ndarray
    doubt: FaceDoubt
    truth: np.ndarray

    @staticmethod
    def join(parts: list["Readings"]) -> "Readings":
        joined = lambda f: np.concatenate([f(p) for p in parts])  # noqa: E731
        return Readings(joined(lambda p: p.suit), joined(lambda p: p.value),
                        FaceDoubt(joined(lambda p: p.doubt.suit), joined(lambda p: p.doubt.share)),
                        joined(lambda p: p.truth))

    def read(self, read_by: np.ndarray, mixture: bool = False) -> np.ndarray:
        """The cards' probabilities, each end read by its first ``read_by`` networks; their
        log-probabilities averaged (as the box does), or with ``mixture`` their probabilities."""
        taken = np.arange(self.suit.shape[1])[None, :, None] < read_by[:, None, None]

        def combine(lp: np.ndarray) -> np.ndarray:
            if mixture:
                return np.log((np.exp(lp) * taken).sum(1) / read_by[:, None])
            return (lp * taken).sum(1) / read_by[:, None]
        probs = card_probabilities(combine(self.suit), combine(self.value))
        return self.doubt.applied(probs)


def readings(reader: Classifier, family: str, deck_seed: int, frames: int, rng: np.random.Generator,
             plain: Recognizer) -> Readings:
    deck = designs.design(family, deck_seed)
    suits, values, crops, faces, inks, truth = [], [], [], [], [], []
    for cut, laid in watched(deck, frames, rng, plain):
        if not cut:
            continue
        look = reader._first_look(cut)
        more = [reader._read(net, look.blob) for net in reader._nets[1:]]
        suits.append(np.stack([look.suit] + [m[0] for m in more], 1))
        values.append(np.stack([look.value] + [m[1] for m in more], 1))
        crops += cut
        faces.append(teach.face_colours(cut))
        inks.append(inks_of(ink_summary(look.blob)))
        truth += laid
    return Readings(np.concatenate(suits), np.concatenate(values),
                    FaceDoubt.of(np.concatenate(faces), np.concatenate(inks), crops).measured(), np.array(truth))


def ways(r: Readings) -> dict[str, np.ndarray]:
    """How many networks read each end, per way of sparing the others (as many as were read)."""
    def surely(by: int) -> np.ndarray:  # per end: the first ``by`` networks read its card surely
        return np.repeat(card_probabilities(r.suit[:, :by].mean(1), r.value[:, :by].mean(1)).max(1), 2)
    first, first_two, every = surely(1), surely(2), r.suit.shape[1]
    end_sure = np.exp(r.suit[:, 0].max(1) + r.value[:, 0].max(1)) >= SECOND_LOOK
    out = {f"second look below {t}": np.where(first < t, every, 1) for t in THRESHOLDS}
    out["every network"] = np.full(len(first), every)
    out[f"the third only where the first two are unsure ({SECOND_LOOK}, shipped)"] = np.where(
        first >= SECOND_LOOK, 1, np.where(first_two >= SECOND_LOOK, 2, every))
    out[f"others only on the ends the first is unsure of ({SECOND_LOOK})"] = np.where(
        (first < SECOND_LOOK) & ~end_sure, every, 1)
    return out


def main() -> None:
    args = deck_arguments(__doc__.split("\n\n")[0])
    cv2.setNumThreads(1)
    reader = Classifier()
    plain = Recognizer(reader)
    print(f"the second look of untaught cards ({args.decks} deck(s) per family from {args.first_deck}, "
          f"{args.frames} scenes each, watching):")
    for family, parts in decks_read(args, lambda family, seed, rng: readings(reader, family, seed, args.frames,
                                                                             rng, plain)):
        r = Readings.join(parts)
        print(f"  {family}: {len(r.truth)} piles")
        spared = ways(r)
        for name, read_by in spared.items():
            line(name, read_by, r.read(read_by), r.truth)
        shipped = spared[f"the third only where the first two are unsure ({SECOND_LOOK}, shipped)"]
        line("probabilities averaged, not logs", shipped, r.read(shipped, mixture=True), r.truth)


def line(name: str, read_by: np.ndarray, probs: np.ndarray, truth: np.ndarray) -> None:
    print(f"    {name:64} networks per card {read_by.mean():.2f}: {right(probs, truth):6.1%} right, "
          f"{(probs.max(1) < UNSURE).mean():5.1%} asked, {sure_wrong(probs, truth):.2%} wrong with confidence >= 0.9")


if __name__ == "__main__":
    main()
