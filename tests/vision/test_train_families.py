"""Training draws decks of the training design families, never of the held-out ones."""
import numpy as np

from vision import designs, finder, synth, train
from vision.labels import LABELS


def test_training_draws_only_training_families_and_the_renderers_designs():
    rng = np.random.default_rng(1)
    drawn = [train.pick_design(rng, train.TRAIN_DESIGNS.start, 0.7) for _ in range(300)]
    decks = [d for d in drawn if isinstance(d, designs.DeckDesign)]
    assert 150 < len(decks) < 260  # about 70% from the families
    assert {d.family for d in decks} == set(designs.TRAINING)
    assert all(d.seed < train.FAMILY_SEEDS for d in decks)
    assert all(isinstance(d, synth.CardDesign) for d in drawn if d not in decks)


def test_without_families_training_draws_the_renderers_designs_alone():
    rng = np.random.default_rng(2)
    assert all(isinstance(train.pick_design(rng, 0, 0.0), synth.CardDesign) for _ in range(50))


def test_a_worker_makes_samples_of_family_decks():
    xs, ys = train._make((4, 5, train.TRAIN_DESIGNS.start, 1.0, 0.0, False))
    assert len(xs) == len(ys) == 5 and all(0 <= y < len(LABELS) for y in ys)
    assert all(x.shape == (finder.CROP[1], finder.CROP[0], 3) for x in xs)


def test_a_share_of_family_decks_is_drawn_with_hairline_numerals():
    rng = np.random.default_rng(3)
    decks = [train.pick_design(rng, 0, 1.0, thin=0.3) for _ in range(300)]
    thin = [d for d in decks if isinstance(d, designs.DeckDesign) and d.style == "thin"]
    assert 60 < len(thin) < 120  # about 30%
    rng = np.random.default_rng(3)
    assert not any(getattr(train.pick_design(rng, 0, 1.0), "style", "") == "thin" for _ in range(300))
