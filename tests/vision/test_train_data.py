"""The classifier's training samples (no torch needed to make them): crops the size the network
takes, labelled with the card that really lies on top."""
import numpy as np
import pytest

from vision import finder, mat, synth, train
from vision.classifier import Classifier
from vision.labels import LABELS


@pytest.mark.renderer_digits
def test_frame_samples_are_the_top_cards_of_a_whole_rendered_frame():
    rng = np.random.default_rng(3)
    detector = mat.MatDetector()
    samples = [s for k in range(4) for s in train.frame_samples(rng, synth.CardDesign.from_seed(k), detector)]
    assert len(samples) >= 6  # both zones of most frames
    for crop, card in samples:
        assert crop.shape == (finder.CROP[1], finder.CROP[0], 3) and card in LABELS
    # the label belongs to the crop: the shipped classifier agrees on nearly all of them
    guesses = Classifier().classify([crop for crop, _ in samples])
    agree = sum(g.candidates[0] == card for g, (_, card) in zip(guesses, samples))
    assert agree >= 0.8 * len(samples)


def test_a_worker_returns_exactly_the_samples_asked_for():
    xs, ys = train._make((11, 6, train.TRAIN_DESIGNS.start, 0.5))
    assert len(xs) == len(ys) == 6 and all(0 <= y < len(LABELS) for y in ys)
