"""A card read unsurely is looked at again: the watcher reads it in a few more frames (other sensor
noise) before it tells it, and the looks are read as one card."""
import numpy as np
import pytest

from vision import designs, synth
from vision.classifier import Classifier, Profile, guess, softmax
from vision.recognize import Recognizer
from vision.watcher import CardPlaced, make_watcher

from .scenes import Table

FPS = 10


@pytest.fixture(scope="module")
def recognizer():
    return Recognizer()


def crops_of(recognizer, cards, seed):
    """Top cards of rendered piles, cut out as the watcher cuts them (play and discard)."""
    rng = np.random.default_rng(seed)
    deck = designs.design("coloured-face", seed)
    scene = synth.Scene([synth.lay(cards[0], "play", deck, rng), synth.lay(cards[1], "discard", deck, rng)])
    frame = synth.render_frame(scene, synth.Camera(tilt=20, roll=4, fill=0.7), synth.Light.random(rng), 0)
    _, views = recognizer.look(frame)
    return [views[z].crop for z in ("play", "discard")]


def test_looks_are_read_as_one_card_by_the_mean_of_their_log_probabilities(recognizer):
    c = recognizer.classifier
    crops = crops_of(recognizer, ("r2", "r2"), 5)  # one kind, seen twice
    probs, _ = c.probabilities(crops)
    both = c.classify_looks(crops)
    expected = guess(softmax(np.log(probs + 1e-9).mean(0)))
    assert (both.card, both.candidates) == (expected.card, expected.candidates)
    assert abs(both.confidence - expected.confidence) < 1e-3
    again = c.classify_looks([crops[0], crops[0]])  # the same look twice is that look
    alone = c.classify([crops[0]])[0]
    assert again.card == alone.card and abs(again.confidence - alone.confidence) < 1e-3


def test_looks_at_one_card_are_not_counted_as_cards_seen(recognizer):
    """A taught deck is said to be another deck by the cards seen lately; three looks at one card
    are one card."""
    crops = crops_of(recognizer, ("r1", "b2"), 7) + crops_of(recognizer, ("w3", "w3"), 7)[:1]
    taught = dict(zip(("r1", "b2", "w3"), crops, strict=True))
    classifier = Classifier(profile=Profile({k: [v] for k, v in taught.items()}))
    classifier.classify([taught["r1"]])
    seen = len(classifier._recent)
    classifier.classify_looks([taught["b2"]] * 3)
    assert len(classifier._recent) == seen == 1


def frames_with_a_card(card, zone, hand_after=None, total=10):
    """Frames of a fixed table: two empty, then ``card`` laid in ``zone``; a hand passes over the
    zone ``hand_after`` frames after it was laid, for three frames."""
    table = Table(seed=8, design=11)
    out = [table.frame() for _ in range(2)]
    table.lay(card, zone)
    for i in range(total):
        if hand_after is not None:
            table.scene.hand_zone = zone if hand_after <= i < hand_after + 3 else None
            table.scene.hand_seed = i  # a hand moving over the zone
        out.append(table.frame())
    return out


def told(watcher, frames):
    return [(i, e.card) for i, f in enumerate(frames) for e in watcher.feed(f, i / FPS) if isinstance(e, CardPlaced)]


def test_a_card_read_unsurely_is_told_after_the_further_looks():
    frames = frames_with_a_card("g3", "discard")
    sure, unsure = make_watcher(), make_watcher()
    unsure.again = 1.01  # every reading counts as unsure
    [(first, card)] = told(sure, frames)
    assert card == "g3"
    assert told(unsure, frames) == [(first + unsure.looks - 1, "g3")]


def test_a_card_read_unsurely_is_told_at_once_when_a_hand_comes_over_it():
    plain = told(make_watcher(), frames_with_a_card("g3", "discard"))
    [(first, _)] = plain
    unsure = make_watcher()
    unsure.again = 1.01
    frames = frames_with_a_card("g3", "discard", hand_after=first - 1)  # the frame after it was judged
    assert told(unsure, frames) == [(first + 1, "g3")]
    assert told(make_watcher(), frames) == [(first, "g3")]  # told once either way
