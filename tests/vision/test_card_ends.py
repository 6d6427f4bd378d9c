"""The reader's arithmetic: each card is read at both ends, and suit and value combine into the 35
labels (``vision/labels.py``)."""
from concurrent.futures import ThreadPoolExecutor

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from companion.game.cards import SUITS
from vision import classifier, finder
from vision.classifier import CHANNELS, PATCH_ROWS, card_probabilities, ends, to_blob
from vision.labels import LABELS

logits = st.integers(1, 4).flatmap(lambda n: st.tuples(
    arrays(np.float64, (2 * n, 7), elements=st.floats(-20, 20)),
    arrays(np.float64, (2 * n, 5), elements=st.floats(-20, 20))))


@settings(max_examples=60, deadline=None)
@given(logits)
def test_a_cards_probabilities_sum_to_one_and_do_not_depend_on_which_end_is_read_first(pair):
    suit, value = pair
    p = card_probabilities(suit, value)
    assert p.shape == (len(suit) // 2, len(LABELS))
    assert np.allclose(p.sum(1), 1.0)
    swapped = np.arange(len(suit)).reshape(-1, 2)[:, ::-1].ravel()
    assert np.allclose(p, card_probabilities(suit[swapped], value[swapped]))


def test_ends_that_disagree_leave_the_card_less_certain_than_ends_that_agree():
    sure_red, sure_blue = np.full(7, -5.0), np.full(7, -5.0)
    sure_red[0], sure_blue[3] = 5.0, 5.0
    three = np.full((2, 5), -5.0)
    three[:, 2] = 5.0
    agree = card_probabilities(np.stack([sure_red, sure_red]), three)[0]
    disagree = card_probabilities(np.stack([sure_red, sure_blue]), three)[0]
    assert LABELS[int(agree.argmax())] == "r3" and agree.max() > 0.99
    assert disagree.max() < 0.6  # below UNSURE or near it: the box asks


def _end(**shares: float) -> np.ndarray:
    """One end's suit logits from the shares the network gives it (the rest split evenly)."""
    p = np.full(7, (1.0 - sum(shares.values())) / (7 - len(shares)))
    for suit, share in shares.items():
        p[SUITS.index(suit)] = share
    return np.log(p)


def test_ends_that_show_two_coloured_suits_are_read_as_the_rainbow():
    # a rainbow card drawn one colour per numeral: blue at the top, yellow at the bottom; each end
    # alone looks like a plain card, with little said for the rainbow
    blue, yellow = _end(b=0.9, y=0.03, m=0.03), _end(y=0.9, b=0.03, m=0.03)
    three = np.full((2, 5), -5.0)
    three[:, 2] = 5.0
    two_colours = card_probabilities(np.stack([blue, yellow]), three)[0]
    one_colour = card_probabilities(np.stack([blue, blue]), three)[0]
    assert LABELS[int(two_colours.argmax())] == "m3"
    assert two_colours.max() < 0.9   # still asked: a misread end also makes ends differ
    assert LABELS[int(one_colour.argmax())] == "b3" and one_colour.max() > 0.8


def test_both_ends_are_cut_the_same_way_up_and_described_against_their_own_face():
    crop = np.full((finder.CROP[1], finder.CROP[0], 3), (40, 120, 200), np.uint8)   # a face of any colour
    crop[5:25, 5:20] = 250                                                          # a numeral top left
    crop[-25:-5, -20:-5] = 250                                                      # and bottom right, turned
    top, bottom = ends([crop])
    assert top.shape == bottom.shape == (PATCH_ROWS, finder.CROP[0], 3)
    assert np.array_equal(top, bottom)
    blob = to_blob([top, np.full_like(top, 30)])
    assert blob.shape == (2, CHANNELS, PATCH_ROWS, finder.CROP[0])
    ink = blob[0, 3]
    assert ink[10, 10] > 0.9 and abs(ink[35, 50]) < 0.05      # ink on the numeral, none on the face
    assert np.allclose(blob[1, 3], 0) and np.allclose(blob[1, 0], 0)   # a blank end shows no ink


class _Network:
    """Stands in for one ``cv2.dnn`` network: the same logits and features for every end it reads."""

    def __init__(self, suit: np.ndarray, value: np.ndarray, features: np.ndarray):
        self.out, self.ends = {"suit": suit, "value": value, "features": features}, 0

    def setInput(self, blob: np.ndarray) -> None:  # noqa: N802  (cv2.dnn's name)
        self.ends = len(blob)

    def forward(self, names: list[str]) -> list[np.ndarray]:
        return [np.tile(self.out[name], (self.ends, 1)) for name in names]


def test_the_networks_read_a_card_together_and_each_ones_features_describe_it(monkeypatch):
    three = np.log(np.array([0.02, 0.02, 0.9, 0.04, 0.02]))
    blue, white = _end(b=0.9, w=0.05), _end(w=0.9, b=0.05)
    first, second = np.arange(1.0, 97.0), np.arange(96.0, 0.0, -1.0)
    crop = np.full((finder.CROP[1], finder.CROP[0], 3), 128, np.uint8)
    read = {}
    for name, nets in {"blue": [_Network(blue, three, first)], "white": [_Network(white, three, first)],
                       "both": [_Network(blue, three, first), _Network(white, three, second)]}.items():
        monkeypatch.setattr(classifier, "load_models", lambda nets=nets: nets)
        reader = classifier.Classifier()
        read[name] = reader.general([crop])[0]
        seen = [np.tile(f.out["features"], 2) for f in nets]    # both ends' features of each network
        view = reader.describe([crop])[0, :len(seen) * 192]
        assert np.allclose(view, np.concatenate([f / np.linalg.norm(f) for f in seen]) / np.sqrt(len(seen)))
    assert LABELS[int(read["blue"].argmax())] == "b3" and LABELS[int(read["white"].argmax())] == "w3"
    both = read["both"]
    assert max(both[LABELS.index("b3")], both[LABELS.index("w3")]) < classifier.UNSURE  # they disagree: the box asks
    assert np.allclose(both, card_probabilities(np.stack([(blue + white) / 2] * 2), np.stack([three] * 2)))


def test_a_card_the_first_network_reads_surely_is_left_to_it_unless_a_taught_deck_needs_every_network(monkeypatch):
    sure = np.log(np.array([0.0025, 0.0025, 0.99, 0.0025, 0.0025]))
    blue, white = _end(b=0.995), _end(w=0.9, b=0.05)
    crop = np.full((finder.CROP[1], finder.CROP[0], 3), 128, np.uint8)
    first, second = _Network(blue, sure, np.arange(1.0, 97.0)), _Network(white, sure, np.ones(96))
    monkeypatch.setattr(classifier, "load_models", lambda: [first, second])
    reader = classifier.Classifier()
    alone = reader.general([crop])[0]
    assert second.ends == 0      # not asked
    assert LABELS[int(alone.argmax())] == "b3" and alone.max() >= classifier.SECOND_LOOK
    reader.describe([crop])
    assert second.ends == 2      # a deck's model is fitted on both networks' features


def test_the_third_network_reads_only_what_the_first_two_together_leave_unsure(monkeypatch):
    sure = np.log(np.array([0.0025, 0.0025, 0.99, 0.0025, 0.0025]))
    crop = np.full((finder.CROP[1], finder.CROP[0], 3), 128, np.uint8)
    features = np.arange(1.0, 97.0)
    first = _Network(_end(b=0.9), sure, features)                   # unsure alone
    for second_end, third_asked in ((_end(b=0.9999), 0), (_end(b=0.5, w=0.4), 2)):
        second, third = _Network(second_end, sure, features), _Network(_end(b=0.99), sure, features)
        monkeypatch.setattr(classifier, "load_models", lambda nets=(first, second, third): list(nets))
        reader = classifier.Classifier()
        read = reader.general([crop])[0]
        assert second.ends == 2 and third.ends == third_asked
        read_by = 2 if third_asked == 0 else 3
        mean = sum(n.out["suit"] for n in (first, second, third)[:read_by]) / read_by
        assert np.allclose(read, card_probabilities(np.stack([mean] * 2), np.stack([sure] * 2)))
        reader.describe([crop])
        assert third.ends == 2   # a deck's model is fitted on every network's features


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 4).flatmap(lambda n: st.integers(1, 40).flatmap(
    lambda pixels: arrays(np.uint8, (n, pixels, 3)))))
def test_each_ends_face_colour_counted_in_a_histogram_is_the_median_a_sort_gives(lab):
    # the face under each end's ink is its median colour; counted over the 256 levels, not sorted
    sorted_out = np.stack([classifier._quantile(lab[..., c].astype(np.float32), 0.5) for c in range(3)], -1)
    counted = classifier._medians(lab)
    assert counted.dtype == np.float32 and np.array_equal(counted, sorted_out)


def test_every_reader_of_a_process_shares_one_set_of_networks_and_threads_reading_at_once_read_alike():
    # the camera's classifier, a game's growing deck and a lesson's fit read in threads of one
    # process: one set of networks (and OpenCV's copies of their weights) serves them all, one
    # forward pass at a time
    first, second = classifier.Classifier(), classifier.Classifier()
    assert len(first._nets) == len(classifier.MODEL_NAMES)
    assert all(a is b for a, b in zip(first._nets, second._nets, strict=True))
    rng = np.random.default_rng(7)
    crops = [rng.integers(0, 256, (finder.CROP[1], finder.CROP[0], 3), np.uint8) for _ in range(6)]
    alone = [first.describe([crop]) for crop in crops]
    with ThreadPoolExecutor(4) as pool:
        together = list(pool.map(lambda crop: (first if crop[0, 0, 0] % 2 else second).describe([crop]), crops * 4))
    for i, view in enumerate(together):
        assert np.allclose(view, alone[i % len(crops)], atol=1e-5)
