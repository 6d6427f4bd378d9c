"""The classifier's training samples (no torch needed to make them): crops the size the network
takes, labelled with the card that really lies on top."""
import numpy as np
import pytest

from vision import classifier, designs, finder, mat, synth, train
from vision.classifier import Classifier, card_probabilities
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
    agree = sum(g.candidates[0] == card for g, (_, card) in zip(guesses, samples, strict=True))
    assert agree >= 0.8 * len(samples)


def test_a_worker_returns_exactly_the_samples_asked_for():
    xs, ys = train._make((11, 6, train.TRAIN_DESIGNS.start, 0.5, 0.0, False))
    assert len(xs) == len(ys) == 6 and all(0 <= y < len(LABELS) for y in ys)


def test_a_direct_sample_is_a_crop_of_the_card_asked_for():
    """The cheap samples alter a drawn face the way a camera would: the crop keeps the card's look
    (its numeral corner differs from another value's of the same deck)."""
    rng = np.random.default_rng(5)
    deck = designs.design("light-plain", 3)
    crop = train.direct_sample(rng, deck, "g2")
    assert crop.shape == (finder.CROP[1], finder.CROP[0], 3) and crop.dtype == np.uint8
    clean = [train.face_crop(deck, c, np.random.default_rng(0)).astype(np.float32) for c in ("g2", "g5")]
    corner = (slice(0, 30), slice(0, 25))
    assert np.abs(clean[0][corner] - clean[1][corner]).mean() > 5


def test_the_check_crops_come_from_training_family_decks_training_never_draws(monkeypatch):
    drawn = []
    original = designs.design

    def spy(family, seed):
        drawn.append((family, seed))
        return original(family, seed)
    monkeypatch.setattr(designs, "design", spy)
    xs, ys = train._make((2, 4, 0, 1.0, 0.0, True))
    assert len(xs) == 4
    assert all(f in designs.TRAINING and s >= train.FAMILY_SEEDS for f, s in drawn)


def test_the_model_file_is_checked_before_training(tmp_path):
    """A folder that cannot be made stops training at once, with what to do, not after an hour."""
    nested = tmp_path / "new" / "models" / "cards.onnx"
    assert train.writable_out(str(nested)) == str(nested) and nested.parent.is_dir()
    (tmp_path / "a-file").write_text("")
    with pytest.raises(SystemExit, match="cannot write the model .* pass --out"):
        train.writable_out(str(tmp_path / "a-file" / "cards.onnx"))


def test_a_distilled_network_learns_what_the_shipped_networks_read_together():
    """The targets of ``--teachers`` are each end's reading by the networks together, as the box
    combines them: for a card, the product of its two ends' targets is the box's own reading."""
    rng = np.random.default_rng(4)
    crops = np.stack([train.direct_sample(rng, designs.design("dark-plain", 5), card) for card in ("r1", "w4", "m5")])
    suit, value = train.ensemble_targets(crops, [str(classifier.model_resource(n)) for n in classifier.MODEL_NAMES],
                                         batch=4)
    assert suit.shape == (6, 7) and value.shape == (6, 5)
    assert np.allclose(suit.sum(1), 1, atol=1e-5) and np.allclose(value.sum(1), 1, atol=1e-5)
    box = Classifier()._run(list(crops))[0]  # every network reads every end
    ours = card_probabilities(np.log(suit), np.log(value))
    assert np.allclose(ours, box, atol=1e-4)
