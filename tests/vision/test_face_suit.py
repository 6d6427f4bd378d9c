"""Untaught, a reading of the face's own suit on a strongly coloured face, in a pale ink, is never
sure: white ink blurred into such a face takes its hue (the blue-faced editions). Where the ink is
white at full strength, white is the guess. Taught, the network's say beside the deck's own model
carries the quarter of that doubt, and the ink's measure is left to the deck's model. A deck giving
each suit a face of its own colour is not doubted."""
from types import SimpleNamespace

import cv2
import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from companion.game.cards import SUITS
from vision import classifier, designs, synth, teach
from vision.classifier import Classifier, FaceDoubt, ends, to_blob
from vision.finder import CROP
from vision.labels import LABELS
from vision.recognize import Recognizer


def lab(bgr: tuple[int, int, int]) -> np.ndarray:
    return cv2.cvtColor(np.array([[bgr]], np.uint8), cv2.COLOR_BGR2Lab)[0].astype(np.float32)


BLUE_FACE, GREEN_FACE, CREAM_FACE, GREY_FACE = (190, 105, 35), (60, 150, 40), (165, 198, 222), (128, 128, 128)


PALE, VIVID_BLUE = np.zeros((1, 2)), np.array([[5.0 / 25, -45.0 / 25]])  # inks' mean a*, b* over 25


def plain(face: tuple[int, int, int]) -> list[np.ndarray]:
    """A card of ``face`` with no ink at all: nothing to tell white by."""
    return [np.full((CROP[1], CROP[0], 3), face, np.uint8)]


def printed(face: tuple[int, int, int], ink: tuple[int, int, int], blur: float = 1.2) -> np.ndarray:
    """A card of ``face`` with numerals and a burst in ``ink``, blurred as a far camera blurs them."""
    card = np.full((CROP[1] * 4, CROP[0] * 4, 3), face, np.uint8)
    for x, y, turn in ((14, 60, False), (250, 380, True)):
        layer = np.zeros_like(card)
        cv2.putText(layer, "3", (x, y), cv2.FONT_HERSHEY_SIMPLEX, 2.0, (1, 1, 1), 7)
        layer = layer[::-1, ::-1] if turn else layer
        card[layer[..., 0] > 0] = ink
    cv2.circle(card, (132, 204), 60, ink, 8)
    small = cv2.resize(card, CROP, interpolation=cv2.INTER_AREA)
    return cv2.GaussianBlur(small, (0, 0), blur)


def doubt_face_suit(probs: np.ndarray, faces: np.ndarray, inks: np.ndarray, crops: list[np.ndarray]) -> np.ndarray:
    return FaceDoubt.of(faces, inks, crops).applied(probs)


def one_hot(card: str, p: float = 0.98) -> np.ndarray:
    probs = np.full((1, len(LABELS)), (1 - p) / (len(LABELS) - 1))
    probs[0, LABELS.index(card)] = p
    return probs


def test_on_a_face_of_a_suits_own_colour_that_suit_is_asked_with_white_beside_it():
    for face, card, white in ((BLUE_FACE, "b3", "w3"), (GREEN_FACE, "g5", "w5")):
        out = doubt_face_suit(one_hot(card), lab(face), PALE, plain(face))[0]
        assert out[LABELS.index(card)] < 0.9 and out.argmax() == LABELS.index(card)  # still the guess, asked
        assert sorted(out.argsort()[-2:]) == sorted([LABELS.index(card), LABELS.index(white)])


def test_other_suits_vivid_inks_and_faces_of_little_colour_are_left_as_read():
    red, blue = LABELS.index("r3"), plain(BLUE_FACE)
    assert doubt_face_suit(one_hot("r3"), lab(BLUE_FACE), PALE, blue)[0, red] == one_hot("r3")[0, red]  # red is red
    assert np.allclose(doubt_face_suit(one_hot("b3"), lab(BLUE_FACE), VIVID_BLUE, blue), one_hot("b3"))  # no white
    for face in (CREAM_FACE, GREY_FACE):  # cream paper and grey card: no suit's colour
        assert np.allclose(doubt_face_suit(one_hot("y3"), lab(face), PALE, plain(face)), one_hot("y3"))


def test_a_greyish_blue_face_is_doubted_where_paper_of_as_little_colour_is_not():
    """Paper is printed cream or grey, never pale blue: a blue face as grey as cream paper is a blue
    face in a warm or dim light, where white ink takes its hue as on the blue face itself."""
    greyish_blue, khaki = (170, 130, 100), (100, 145, 160)  # Lab chroma 25 and 26, hues near blue's and yellow's
    assert classifier.BLUE_FACE_CHROMA < 25 < 26 < classifier.FACE_CHROMA
    out = doubt_face_suit(one_hot("b4"), lab(greyish_blue), PALE, plain(greyish_blue))[0]
    assert out[LABELS.index("b4")] < 0.9 and out[LABELS.index("w4")] > 0.2
    assert np.allclose(doubt_face_suit(one_hot("y4"), lab(khaki), PALE, plain(khaki)), one_hot("y4"))


MIXED = [printed(BLUE_FACE, (250, 250, 250)), *plain(GREY_FACE), printed(BLUE_FACE, (250, 205, 150)), *plain(BLUE_FACE)]


@settings(max_examples=80, deadline=None)
@given(arrays(np.float64, (4, len(LABELS)), elements=st.floats(-10, 10)),
       arrays(np.float64, (4, 3), elements=st.floats(0, 255)), arrays(np.float64, (4, 2), elements=st.floats(-3, 3)))
def test_doubt_only_moves_a_suits_share_to_white_of_the_same_value(logits, faces, inks):
    probs = classifier.softmax(logits)
    out = doubt_face_suit(probs, faces, inks, MIXED)  # white ink, none, a tint
    assert np.allclose(out.sum(1), 1.0)
    by_value = lambda p: p.reshape(-1, len(SUITS), 5).sum(1)  # noqa: E731
    assert np.allclose(by_value(out), by_value(probs))  # the value is never doubted
    suits = out.reshape(-1, len(SUITS), 5).sum(2) - probs.reshape(-1, len(SUITS), 5).sum(2)
    assert (suits[:, SUITS.index("w")] >= -1e-12).all()
    assert (np.delete(suits, SUITS.index("w"), axis=1) <= 1e-12).all()
    assert np.allclose(suits[:, SUITS.index("m")], 0) and np.allclose(suits[:, SUITS.index("k")], 0)


@pytest.mark.parametrize("face", [BLUE_FACE, GREEN_FACE, (40, 40, 150)])
@pytest.mark.parametrize("blur", [0.6, 1.0, 1.4])
def test_white_ink_is_white_however_blurred_and_a_light_tint_of_the_face_is_not(face, blur):
    """The face's own hue printed as a light tint as pale as any training deck prints it (0.40
    saturated, ``designs.TINT_FLOOR``), or paler (0.32), stays apart from white; its saturation is
    measured near what was printed."""
    hue = cv2.cvtColor(np.array([[face]], np.uint8), cv2.COLOR_BGR2HSV)[0, 0, 0]
    assert classifier.ink_saturation(printed(face, (250, 250, 250), blur)) < classifier.WHITE_INK_SATURATION
    for saturation in (designs.TINT_FLOOR, 0.32):
        tint = cv2.cvtColor(np.array([[(hue, saturation * 255, 250)]], np.uint8), cv2.COLOR_HSV2BGR)[0, 0]
        tinted = classifier.ink_saturation(printed(face, (int(tint[0]), int(tint[1]), int(tint[2])), blur))
        assert classifier.WHITE_INK_SATURATION < tinted and abs(tinted - saturation) < 0.2


DEEP_BLUE_FACE = (140, 60, 20)  # the deep blue of a blue-faced edition, where its light blue is paler still


@pytest.mark.parametrize("face", [DEEP_BLUE_FACE, GREEN_FACE, (40, 40, 150)])
@pytest.mark.parametrize("blur", [0.6, 1.0, 1.4])
def test_in_the_cameras_larger_picture_white_stays_under_the_lower_floor_and_the_palest_light_blue_above(face, blur):
    """A card cut out of the Pi camera's larger picture has its colour at every pixel, so white ink
    measures far from a tint there, and the floor white is told by is lower
    (``WHITE_INK_FULL_COLOUR``): a tint of the face 0.25 saturated, as pale as the palest light blue
    of the blue-faced stand-in decks (``bench_decks.deep_faced``), is above it."""
    hue = cv2.cvtColor(np.array([[face]], np.uint8), cv2.COLOR_BGR2HSV)[0, 0, 0]
    assert classifier.ink_saturation(printed(face, (250, 250, 250), blur)) < classifier.WHITE_INK_FULL_COLOUR
    tint = cv2.cvtColor(np.array([[(hue, 0.25 * 255, 250)]], np.uint8), cv2.COLOR_HSV2BGR)[0, 0]
    assert classifier.ink_saturation(printed(face, (int(tint[0]), int(tint[1]), int(tint[2])), blur)) \
        > classifier.WHITE_INK_FULL_COLOUR
    assert classifier.WHITE_INK_FULL_COLOUR < classifier.WHITE_INK_SATURATION


def test_a_pale_light_blue_cut_from_the_larger_picture_stays_blue_where_a_frames_cut_would_turn_white():
    """An ink measured between the two floors (a light blue 0.14 saturated on a deep blue face) is
    white in a frame whose colour may be at half resolution, and the face's suit in the camera's
    larger picture; asked about either way."""
    light_blue = printed(DEEP_BLUE_FACE, (250, 227, 216))
    measured = classifier.ink_saturation(light_blue)
    assert classifier.WHITE_INK_FULL_COLOUR < measured < classifier.WHITE_INK_SATURATION
    frame, larger = (FaceDoubt.of(lab(DEEP_BLUE_FACE), PALE, [light_blue], full_colour=full).applied(one_hot("b2"))[0]
                     for full in (False, True))
    assert frame.argmax() == LABELS.index("w2") and larger.argmax() == LABELS.index("b2")
    assert frame.max() < 0.9 and larger.max() < 0.9


@pytest.mark.parametrize("border_mm", [1.5, 2.5, 4.0])
def test_a_white_border_is_not_taken_for_the_cards_ink(border_mm):
    """Many decks frame the face in white. On a blue face that frame steps from the face as white
    ink does, so a light blue card of a white-bordered blue deck measured as white; the border is
    left out, printed as wide as decks print it (1.5 to 4 mm, 1.5 px per mm)."""
    hue = cv2.cvtColor(np.array([[BLUE_FACE]], np.uint8), cv2.COLOR_BGR2HSV)[0, 0, 0]
    tint = cv2.cvtColor(np.array([[(hue, designs.TINT_FLOOR * 255, 250)]], np.uint8), cv2.COLOR_HSV2BGR)[0, 0]
    card = printed(BLUE_FACE, (int(tint[0]), int(tint[1]), int(tint[2])), 1.0)
    width = round(border_mm * 1.5)
    cv2.rectangle(card, (0, 0), (CROP[0] - 1, CROP[1] - 1), (242, 242, 242), 2 * width)
    assert classifier.ink_saturation(card) > classifier.WHITE_INK_SATURATION


def test_a_pale_card_whose_ink_is_white_is_read_as_white_and_still_asked():
    white, tint = printed(BLUE_FACE, (250, 250, 250)), printed(BLUE_FACE, (250, 205, 150))
    both = doubt_face_suit(np.concatenate([one_hot("b3"), one_hot("b3")]), np.concatenate([lab(BLUE_FACE)] * 2),
                           np.concatenate([PALE, PALE]), [white, tint])
    assert both[0].argmax() == LABELS.index("w3") and both[0].max() < 0.9 and both[0, LABELS.index("b3")] > 0.2
    assert both[1].argmax() == LABELS.index("b3") and both[1].max() < 0.9


def test_a_card_with_no_ink_shows_no_white_ink():
    assert classifier.ink_saturation(plain(BLUE_FACE)[0]) == 1.0


def test_each_suits_faces_hold_its_usual_inks_and_no_face_is_of_two_suits():
    for suit, (low, high) in classifier.FACE_HUES.items():
        for ink in (designs.STANDARD[suit], designs.BRIGHT[suit]):
            assert low + 15 <= classifier.hue_chroma(lab(ink))[0][0] <= high - 15, (suit, ink)
    windows = sorted(classifier.FACE_HUES.values())
    assert all(one[1] < the_next[0] for one, the_next in zip(windows, windows[1:], strict=False))


@pytest.mark.parametrize("opencv_hue,lab_hue", [(100, (-120, -100)), (95, (-140, -130))])
def test_white_on_an_azure_or_teal_face_read_as_blue_is_doubted(opencv_hue: int, lab_hue: tuple[int, int]):
    """Blue faces run to azure and teal, where white ink read as blue was taken surely."""
    face = designs._hue(opencv_hue, 0.8, 0.7)
    assert lab_hue[0] < classifier.hue_chroma(lab(face))[0][0] < lab_hue[1]
    read = doubt_face_suit(one_hot("b3"), lab(face), PALE, [printed(face, (250, 250, 250))])
    assert read[0].max() < 0.9 and read[0, LABELS.index("w3")] > 0.2


def test_a_card_read_alone_on_a_blue_face_is_asked(monkeypatch):
    """The untaught reader, end to end: the network's sure blue 3 on a blue card waits for OK."""
    reader = Classifier()
    crop = np.zeros((CROP[1], CROP[0], 3), np.uint8)
    crop[:] = BLUE_FACE
    monkeypatch.setattr(reader, "_run", lambda crops, described=True: (one_hot("b3", 0.99), None, to_blob(ends(crops))))
    guess = reader.classify([crop])[0]
    assert guess.card == "b3" and guess.confidence < 0.9 and "w3" in guess.candidates


@pytest.mark.slow  # renders 20 mat scenes (about 20 s)
def test_white_cards_of_a_green_faced_deck_are_read_as_white_and_asked_about():
    """A training family's green-faced deck whose white the network took for green with confidence
    (coloured-face deck 76006): laid in PLAY under a few cameras, untaught, every white card is read
    as white (its ink is white), not surely, and its green cards are still read as green."""
    deck = designs.design("coloured-face", 76006)
    rng = np.random.default_rng(3)
    reader = Recognizer()
    for card in [f"{s}{v}" for s in "wg" for v in range(1, 6)]:
        for camera in (synth.Camera(tilt=10, roll=20, fill=0.7), synth.Camera(tilt=35, roll=-140, fill=0.6)):
            scene = synth.Scene([synth.lay(card, "play", deck, rng)])
            seen = reader.analyse(synth.render_frame(scene, camera, synth.Light(), 0)).cards
            top = next(s for s in seen if s.zone == "play")
            assert top.card == card, (card, top)
            if card[0] == "w":
                assert top.confidence < 0.9, (card, top)


class UndecidedDeck:
    """A taught deck's model that cannot tell its white 3 from its blue 3 (the camera's blur makes
    them alike), and is sure it is one of the two."""

    labels = tuple(LABELS)
    quick = None  # read by every network at once

    def posterior(self, x: np.ndarray, faces: np.ndarray, order: tuple[str, ...]) -> tuple[np.ndarray, np.ndarray]:
        p = np.full((len(x), len(order)), 1e-4)
        p[:, [order.index("w3"), order.index("b3")]] = 0.5
        return p / p.sum(1, keepdims=True), np.zeros(len(x))


def sure_blue_network(reader: Classifier, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every network reads every card as a blue 3, surely."""
    monkeypatch.setattr(reader, "_run", lambda crops, described=True, look=None: (
        np.concatenate([one_hot("b3", 0.99)] * len(crops)), np.ones((len(crops), 192), np.float32),
        to_blob(ends(crops))))


def test_a_taught_deck_undecided_between_white_and_the_face_suit_leaves_the_card_asked(monkeypatch):
    """Taught, the network's say comes with the quarter of its doubt: on a blue face its sure blue 3
    does not settle what the deck's model leaves open between white and blue, so the box asks about
    the white card and the tint alike, with the other candidate beside the guess."""
    reader = Classifier(profile=SimpleNamespace(deck=UndecidedDeck(), fitted=True))  # type: ignore[arg-type]
    sure_blue_network(reader, monkeypatch)
    for card in reader.classify([printed(BLUE_FACE, (250, 250, 250)), printed(BLUE_FACE, (250, 205, 150))]):
        assert card.confidence < 0.9 and {card.card, *card.candidates} >= {"w3", "b3"}, card


class LeaningDeck(UndecidedDeck):
    """A taught deck's model that reads its card as a blue 3 at 0.8, white 3 the other candidate."""

    def posterior(self, x: np.ndarray, faces: np.ndarray, order: tuple[str, ...]) -> tuple[np.ndarray, np.ndarray]:
        p = np.full((len(x), len(order)), 1e-4)
        p[:, order.index("b3")], p[:, order.index("w3")] = 0.8, 0.2
        return p / p.sum(1, keepdims=True), np.zeros(len(x))


class LeaningQuickDeck(LeaningDeck):
    """The same with a quick model as sure: each card read by the first network and the quick model
    first."""

    quick = LeaningDeck()


@pytest.mark.parametrize("deck", [LeaningDeck(), LeaningQuickDeck()])
def test_a_taught_deck_reading_its_light_blue_is_not_turned_white_by_the_inks_measure(monkeypatch, deck):
    """A light blue numeral on a deep blue face may measure as white ink (the camera's blur mixes it
    with the face); the deck's model was taught this deck's light blue and white, so its reading
    stands and the ink is not measured (models/README.md, *The ink's measure left to a taught
    deck's model*). Untaught, the same card is made white by the measure."""
    measured = []
    real = classifier.ink_saturation
    monkeypatch.setattr(classifier, "ink_saturation", lambda crop: measured.append(crop) or real(crop))
    reader = Classifier(profile=SimpleNamespace(deck=deck, fitted=True))  # type: ignore[arg-type]
    sure_blue_network(reader, monkeypatch)
    network = np.concatenate([one_hot("b3", 0.99)] * 2)
    nearly_white = [printed(BLUE_FACE, (250, 250, 250)), printed(BLUE_FACE, (250, 240, 228))]
    for card in reader.classify(nearly_white):
        assert card.card == "b3", card
    assert not measured
    untaught = FaceDoubt.of(np.concatenate([lab(BLUE_FACE)] * 2), np.zeros((2, 2)), nearly_white).applied(network)
    assert [LABELS[i] for i in untaught.argmax(1)] == ["w3", "w3"] and len(measured) == 2


class FarDeck(UndecidedDeck):
    """A taught deck's model to which every card lies far: a card of another deck, or the first cards
    of a game before the profile is known to fit."""

    def posterior(self, x: np.ndarray, faces: np.ndarray, order: tuple[str, ...]) -> tuple[np.ndarray, np.ndarray]:
        return super().posterior(x, faces, order)[0], np.full(len(x), 5.0)


def test_a_card_that_does_not_fit_the_taught_deck_is_read_with_the_inks_measure_as_untaught(monkeypatch):
    """Beside a profile, a card that does not fit it is read as untaught, its white ink measured:
    the network's sure blue 3 on a blue face becomes a white 3, asked about."""
    reader = Classifier(profile=SimpleNamespace(deck=FarDeck(), fitted=True))  # type: ignore[arg-type]
    sure_blue_network(reader, monkeypatch)
    card, fits = reader.probabilities([printed(BLUE_FACE, (250, 250, 250))])
    assert fits is not None and not fits[0]
    assert LABELS[card[0].argmax()] == "w3" and card[0].max() < 0.9


def test_the_ink_is_measured_only_where_the_reading_gives_the_doubted_suit_a_say(monkeypatch):
    """A white card read surely as white on a blue face keeps the doubt but skips ``ink_saturation``
    (its reading moves less than ``MEASURE_FROM`` whatever the ink); one read as blue is measured."""
    measured = []
    real = classifier.ink_saturation
    monkeypatch.setattr(classifier, "ink_saturation", lambda crop: measured.append(crop) or real(crop))
    cards = [printed(BLUE_FACE, (250, 250, 250)), printed(BLUE_FACE, (250, 250, 250))]
    faces = np.concatenate([lab(BLUE_FACE)] * 2)
    probs = np.concatenate([one_hot("w3", 0.999), one_hot("b3", 0.9)])
    doubt = FaceDoubt.of(faces, np.zeros((2, 2)), cards)
    read = doubt.applied(probs)
    assert len(measured) == 1 and measured[0] is cards[1]
    assert list(doubt.suit) == [SUITS.index("b")] * 2
    assert LABELS[read[1].argmax()] == "w3" and read[1].max() < 0.9  # white ink: white is the guess, asked
    exact = doubt.measured().applied(probs)  # the first card measured too
    assert len(measured) == 2
    assert np.abs(exact - read).max() < classifier.MEASURE_FROM


RED_FACE = (40, 40, 200)


def test_on_a_deck_giving_each_suit_a_face_of_its_own_colour_the_face_tells_the_suit(monkeypatch):
    """Some decks print each suit on a face of its own colour in white ink: there a blue face with
    white ink is a blue card. Once the cards seen lately show faces of suits' colours far apart
    (a red one beside a blue one), the network's sure reading of the face's suit stays sure; the
    doubt comes back once the last ``FACES_SEEN`` cards no longer show such faces, or at once when a
    new game starts (it may be played with a blue-faced edition)."""
    reader = Classifier()
    read_as = {BLUE_FACE: "b3", RED_FACE: "r3", GREY_FACE: "w3"}
    monkeypatch.setattr(reader, "_run", lambda crops, described=True: (
        np.concatenate([one_hot(read_as[tuple(int(v) for v in c[50, 5])], 0.99) for c in crops]), None,
        to_blob(ends(crops))))
    blue, red, grey = (printed(face, (250, 250, 250), 0.3) for face in (BLUE_FACE, RED_FACE, GREY_FACE))
    assert tuple(blue[50, 5]) == BLUE_FACE and tuple(red[50, 5]) == RED_FACE
    assert reader.classify([blue])[0].confidence < 0.9  # a blue face alone: maybe a blue-faced edition's white
    first_blue, first_red = reader.classify([blue, red])  # two faces far apart in one look
    assert (first_blue.card, first_red.card) == ("b3", "r3") and min(first_blue.confidence, first_red.confidence) > 0.9
    assert reader.classify([blue])[0].confidence > 0.9  # remembered
    reader.new_game()
    assert reader.classify([blue])[0].confidence < 0.9
    reader.classify([blue, red])
    for _ in range(classifier.FACES_SEEN):
        reader.classify([grey])
    assert reader.classify([blue])[0].confidence < 0.9
    looks = Classifier()  # several looks at one card are not further cards seen
    monkeypatch.setattr(looks, "_run", reader._run)
    looks.classify_looks([red, red])
    assert looks.classify([blue])[0].confidence < 0.9


def firework_over(face: tuple[int, int, int], colour: tuple[int, int, int]) -> np.ndarray:
    """A card of ``face`` with one big glowing firework of ``colour`` over its middle."""
    card = np.full((CROP[1], CROP[0], 3), face, np.uint8)
    cv2.circle(card, (CROP[0] // 2, CROP[1] // 2), 22, colour, -1)
    return cv2.GaussianBlur(card, (0, 0), 4)


def test_a_big_firework_over_a_shared_face_is_no_sign_of_faces_of_their_own_colours(monkeypatch):
    """A green firework glowing over most of a greyish blue face moves the middle's median colour
    to green, far from the blue of the deck's other cards; the middle is no plain face, so it says
    nothing of the deck's faces and the blue card beside it stays doubted."""
    glow, blue = firework_over((150, 110, 70), (60, 170, 40)), printed(BLUE_FACE, (250, 250, 250), 0.3)
    faces = teach.face_colours([glow, blue])
    apart = classifier.hue_chroma(faces)[0]
    assert abs((apart[0] - apart[1] + 180) % 360 - 180) > classifier.FACES_APART  # the median alone would say so
    assert list(classifier.plain_faces(faces, [glow, blue])) == [False, True]
    reader = Classifier()
    monkeypatch.setattr(reader, "_run", lambda crops, described=True: (
        np.concatenate([one_hot("g3", 0.99), one_hot("b3", 0.99)]), None, to_blob(ends(crops))))
    assert reader.classify([glow, blue])[1].confidence < 0.9


@settings(max_examples=60, deadline=None)
@given(arrays(np.float64, st.integers(0, 8), elements=st.floats(-180, 180)), st.floats(-720, 720))
def test_faces_apart_depends_only_on_the_hues_gaps(hues, turn):
    """Turning every hue round the circle by the same angle, listing them in another order, or adding
    a face of no hue (NaN) says the same; two hues alone are apart exactly when their gap is over ``FACES_APART``."""
    gaps = np.abs((hues[:, None] - hues[None, :] + 180.0) % 360.0 - 180.0)
    assume(not np.isclose(gaps, classifier.FACES_APART, atol=1e-6).any())  # rounding may tip a gap of exactly that
    assert classifier.faces_apart(hues) == classifier.faces_apart((hues + turn + 180.0) % 360.0 - 180.0)
    assert classifier.faces_apart(hues) == classifier.faces_apart(hues[::-1])
    assert classifier.faces_apart(hues) == classifier.faces_apart(np.append(hues, np.nan))  # a face of no hue
    if len(hues) == 2:
        gap = abs((hues[0] - hues[1] + 180.0) % 360.0 - 180.0)
        assert classifier.faces_apart(hues) == (gap > classifier.FACES_APART)


@pytest.mark.slow  # renders 7 mat scenes (about 5 s)
def test_a_deck_of_suit_coloured_faces_is_read_surely_once_two_faces_far_apart_are_seen():
    """A training family's deck that prints each suit on a face of its colour in white ink
    (tinted-face deck 101003): its blue 3 seen first is asked about, as it might be a blue-faced
    edition's white; once a red and a blue card have been seen, every card is read right and sure."""
    deck = designs.design("tinted-face", 101003)
    rng = np.random.default_rng(3)
    reader = Recognizer()
    camera = synth.Camera(tilt=10, roll=20, fill=0.7)

    def read(*cards: str) -> list:
        zones = ("play", "discard")[:len(cards)]
        scene = synth.Scene([synth.lay(c, zone, deck, rng) for c, zone in zip(cards, zones, strict=True)])
        seen = reader.analyse(synth.render_frame(scene, camera, synth.Light(), 0)).cards
        return [next(s for s in seen if s.zone == zone) for zone in zones]

    first = read("b3")[0]
    assert first.confidence < 0.9 and "b3" in first.candidates
    for cards in (("r2", "b4"), ("g1",), ("b3",), ("r5",), ("y2",), ("b1",)):
        for card, seen in zip(cards, read(*cards), strict=True):
            assert seen.card == card and seen.confidence >= 0.9, (card, seen)
