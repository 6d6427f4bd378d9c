"""A deck the networks find hard: untaught, once most of a game's latest cards were read unsurely,
no reading of that deck is sure enough to be judged at once (``Classifier.hard_deck``)."""
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from vision import classifier as cl
from vision.classifier import HARD_DECK_MOST, Classifier, Profile, no_surer_than
from vision.labels import LABELS
from vision.recognize import Recognizer

from .test_second_look import crops_of


@pytest.fixture(scope="module")
def sure_and_blank():
    """Two cards the networks read surely, and a face with nothing printed on it (read unsurely)."""
    crops = crops_of(Recognizer(), ("r2", "g4"), 5)
    blank = np.full_like(crops[0], np.median(crops[0].reshape(-1, 3), 0).astype(np.uint8))
    return crops, blank


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), most=st.floats(0.5, 0.95), spread=st.floats(0.05, 20.0))
def test_a_capped_reading_keeps_its_order_and_sums_to_one(seed, most, spread):
    rng = np.random.default_rng(seed)
    probs = cl.softmax(rng.normal(0, spread, (5, len(LABELS))))
    out = no_surer_than(probs, most)
    assert np.allclose(out.sum(1), 1.0)
    for before, after in zip(probs, out, strict=True):
        assert after.argmax() == before.argmax()
        if before.max() > most:
            assert abs(after.max() - most) < 1e-9
            rest = np.delete(np.arange(len(LABELS)), before.argmax())
            share = (before[rest] + 1e-12) / (before[rest] + 1e-12).sum()  # the others as they stood
            assert np.allclose(after[rest], (1 - most) * share, rtol=1e-6, atol=1e-15)
        else:
            assert np.array_equal(after, before)


def test_a_game_of_cards_read_unsurely_makes_every_reading_of_it_unsure(sure_and_blank):
    (r2, g4), blank = sure_and_blank
    reader = Classifier()
    first = reader.classify([r2])[0]
    assert first.card == "r2" and first.confidence >= 0.9
    for _ in range(cl.HARD_SEEN):
        assert reader.classify([blank])[0].confidence < cl.HARD_SURE
    assert reader.hard_deck
    later = reader.classify([g4])[0]
    assert later.card == "g4" and later.confidence <= HARD_DECK_MOST + 1e-9  # still the guess; the box asks
    looked = reader.classify_looks([r2, r2])
    assert looked.card == "r2" and looked.confidence <= HARD_DECK_MOST + 1e-9
    reader.new_game()  # perhaps another deck: nothing is known of it yet
    assert not reader.hard_deck
    again = reader.classify([r2])[0]
    assert again.card == "r2" and again.confidence >= 0.9


def test_a_deck_read_surely_stays_sure_and_an_unsure_card_now_and_then_does_not_matter(sure_and_blank):
    (r2, g4), blank = sure_and_blank
    reader = Classifier()
    for k in range(3 * cl.HARD_RECENT):
        # one card in six read unsurely (a hand's shadow, glare): well under HARD_SHARE
        card = blank if k % 6 == 5 else (r2 if k % 2 else g4)
        reader.classify([card])
        assert not reader.hard_deck, k
    assert reader.classify([r2])[0].confidence >= 0.9


def test_looks_at_one_card_are_not_cards_read_unsurely(sure_and_blank):
    """A card looked at again (the watcher's further frames) is one card, not several."""
    _, blank = sure_and_blank
    reader = Classifier()
    for _ in range(cl.HARD_RECENT):
        reader.classify_looks([blank, blank])
    assert not reader.hard_deck


def test_a_deck_grown_from_the_game_is_still_found_hard_but_a_taught_one_is_not(sure_and_blank):
    """The first cards of a game grow the deck's own model (``learning.GameDeck``); it reads with
    the networks, so a deck they find hard stays so. A deck the family taught knows its cards."""
    (r2, g4), blank = sure_and_blank
    profile = Profile({"r2": [r2], "g4": [g4]})  # fitted once, by the first reader
    for grown in (True, False):
        reader = Classifier()
        reader.use(profile, grown=grown)
        assert reader.classify([r2])[0].confidence >= 0.9
        for _ in range(cl.HARD_SEEN):
            reader.classify([blank])
        assert reader.hard_deck == grown
        read = reader.classify([r2])[0]
        assert read.card == "r2" and (read.confidence <= HARD_DECK_MOST + 1e-9) == grown
