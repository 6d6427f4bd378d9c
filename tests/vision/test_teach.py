"""Teaching a deck of a family the general network never saw: a per-deck model fitted on altered copies of
one photo per kind, a profile of another deck noticed, old profile files, progress on screen."""
import argparse
import json
import subprocess

import cv2
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from vision import classifier, designs, finder, synth, teach
from vision.classifier import (
    UNSURE,
    UNVOUCHED_MOST,
    Classifier,
    Profile,
    asked_when_unvouched,
    ends,
    less_sure_when_far,
    softmax,
)
from vision.commands import card_crop, cmd_teach
from vision.labels import LABELS
from vision.recognize import Recognizer

DECK = ("night-bursts", 81_000)    # a held-out family: never used to train the network
OTHER = ("blue-low-contrast", 81_000)


def taught_crops(deck, rng, detector):
    """One photo per kind lying in PLAY, cut out as `companion teach` does."""
    camera = synth.Camera(tilt=8, roll=3, fill=0.75)
    crops = {}
    for label in LABELS:
        frame = synth.render_frame(synth.Scene([synth.lay(label, "play", deck, rng)]), camera, synth.Light(), 0)
        crops[label] = [card_crop(frame, detector)]
    return crops


def mat_frames(deck, n, seed):
    rng = np.random.default_rng(seed)
    for i in range(n):
        scene = synth.random_scene(rng, deck, cards=[str(c) for c in rng.choice(LABELS, 4)], others=False)
        yield scene, synth.render_frame(scene, synth.Camera.random(rng, max_tilt=40), synth.Light.random(rng), i)


@pytest.fixture(scope="module")
def plain():
    return Recognizer()


@pytest.fixture(scope="module")
def deck_profile(plain):
    profile = Profile(taught_crops(designs.design(*DECK), np.random.default_rng(1), plain.detector))
    classifier = Classifier(profile=profile)  # fitted here: the profile holds only pictures yet
    assert profile.deck is not None and profile.network
    return profile, classifier


def read(plain, classifier, deck, n, seed):
    right = {"untaught": 0, "taught": 0}
    total = 0
    for scene, frame in mat_frames(deck, n, seed):
        _, views = plain.look(frame)
        found = [v for v in views.values() if v.crop is not None]
        truth = [scene.top(v.zone).card for v in found]
        for name, clf in (("untaught", plain.classifier), ("taught", classifier)):
            right[name] += sum(g.card == t for g, t in zip(clf.classify([v.crop for v in found]), truth, strict=True))
        total += len(found)
    return right, total


@pytest.mark.slow  # fits a whole deck's profile (about 40 s)
def test_teaching_reads_a_deck_of_a_family_the_network_never_saw(plain, deck_profile):
    _, classifier = deck_profile
    right, total = read(plain, classifier, designs.design(*DECK), 12, 5)
    assert total >= 20
    assert right["taught"] >= 0.95 * total and right["taught"] >= right["untaught"], (right, total)
    assert not classifier.mismatch


@pytest.mark.slow  # fits a whole deck's profile (about 40 s)
def test_a_profile_of_another_deck_is_reported_and_not_trusted(plain, deck_profile, tmp_path, companion_cmd):
    profile, _ = deck_profile
    classifier = Classifier(profile=profile)
    other = designs.design(*OTHER)
    images = []
    for i, (_, frame) in enumerate(mat_frames(other, 4, 9)):
        _, views = plain.look(frame)
        guesses = classifier.classify([v.crop for v in views.values() if v.crop is not None])
        assert guesses and all(g.fits is not None for g in guesses)
        images.append(tmp_path / f"other{i}.jpg")
        cv2.imwrite(str(images[-1]), frame)
    assert classifier.mismatch and guesses[-1].mismatch
    path = tmp_path / "deck.profile"
    profile.save(str(path))
    p = subprocess.run(companion_cmd + ["recognize", "--json", "--profile", str(path)] + [str(i) for i in images],
                       capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, p.stderr
    assert json.loads(p.stdout.splitlines()[-1])["profile_mismatch"] is True
    assert "do not look like the deck taught" in p.stderr and "Traceback" not in p.stderr


@pytest.mark.slow  # fits a whole deck's profile (about 40 s)
def test_a_saved_profile_keeps_its_model_and_is_refitted_for_another_network(deck_profile, tmp_path):
    profile, _ = deck_profile
    path = tmp_path / "deck.profile"
    profile.save(str(path))
    again = Profile.load(str(path))
    assert again.network == profile.network and again.deck.labels == profile.deck.labels
    assert np.allclose(again.deck.centres, profile.deck.centres) and again.deck.temperature == profile.deck.temperature
    assert np.allclose(again.deck.quick.centres, profile.deck.quick.centres)
    again.network = "another network"
    few = Profile({k: again.crops[k] for k in ("r1", "b4")}, again.deck, "another network")
    Classifier(profile=few)
    assert few.network == profile.network and set(few.deck.labels) == {"r1", "b4"}


@pytest.mark.slow  # fits a whole deck's profile (about 40 s)
def test_a_taught_card_its_first_look_reads_surely_is_left_to_it(plain, deck_profile, monkeypatch):
    """Every network reading every card of a taught deck took a frame over its time budget; the
    first network and the deck's quick model read most cards of the deck surely, and those are left
    to them, read as every network would read them. The rest are read by all, as before."""
    profile, _ = deck_profile
    reader = Classifier(profile=profile)
    crops = [v.crop for _, frame in mat_frames(designs.design(*DECK), 8, 11)
             for v in plain.look(frame)[1].values() if v.crop is not None]
    read_by_all = []
    run = Classifier._run
    monkeypatch.setattr(Classifier, "_run", lambda self, part, described=True, look=None: (
        read_by_all.append({id(c) for c in part}), run(self, part, described, look))[1])

    def read(sure):
        monkeypatch.setattr(classifier, "QUICK_SURE", sure)
        read_by_all.clear()
        probs = reader.probabilities(crops, remember=False)[0]
        return probs, np.array([not any(id(c) in part for part in read_by_all) for c in crops])

    _, left = read(classifier.QUICK_SURE)
    assert left.mean() >= 0.7, left.mean()  # all 16 of these piles of a deck of a family the networks never saw
    quick, left = read(0.999)  # stricter, so that some cards are read by every network
    assert 0 < left.sum() < len(crops) and (quick[left].max(1) >= 0.999).all()
    whole, none_left = read(2.0)
    assert not none_left.any()
    assert (quick[left].argmax(1) == whole[left].argmax(1)).all()
    # the same to a millionth: a batch of another size rounds the deck's float32 products otherwise
    assert np.allclose(quick[~left], whole[~left], rtol=0, atol=1e-6)


def test_an_old_profile_of_pictures_only_still_loads_and_is_fitted(tmp_path):
    rng = np.random.default_rng(0)
    crops = {label: rng.integers(0, 255, (72, 48, 3), dtype=np.uint8) for label in ("r1", "g3", "k5")}
    path = tmp_path / "old.profile"
    with open(path, "wb") as f:
        np.savez_compressed(f, **{f"{label}__0": c for label, c in crops.items()})
    old = Profile.load(str(path))
    assert old.deck is None and sorted(old.crops) == ["g3", "k5", "r1"]
    assert all(c[0].shape == (finder.CROP[1], finder.CROP[0], 3) for c in old.crops.values())  # older, smaller crops
    Classifier(profile=old)
    assert old.deck is not None
    (tmp_path / "bad.profile").write_bytes(b"not a profile")
    with pytest.raises(ValueError, match="cannot read the deck profile .*make one with companion teach"):
        Profile.load(str(tmp_path / "bad.profile"))


def test_a_profile_whose_deck_model_is_of_the_older_form_is_fitted_again(tmp_path):
    """Deck models were saved as a whitening before they kept the covariance's inverse: such a
    profile loads with its pictures and is fitted again, as one taught with another network is."""
    rng = np.random.default_rng(1)
    crops = {label: rng.integers(0, 255, (finder.CROP[1], finder.CROP[0], 3), dtype=np.uint8) for label in ("r1", "b2")}
    path = tmp_path / "whitened.profile"
    whitened = {"labels": np.array(["r1", "b2"]), "mean": np.zeros(4, np.float32),
                "whiten": np.eye(4, dtype=np.float32), "centres": np.zeros((2, 4), np.float32),
                "temperature": np.array(1.0), "spread": np.array(1.0),
                "faces": np.zeros((2, 3), np.float32), "face_spread": np.array(6.0)}
    older = {f"_deck_{k}": v for k, v in whitened.items()}
    with open(path, "wb") as f:
        np.savez_compressed(f, _format=np.array(classifier.PROFILE_FORMAT), _network=np.array(classifier.model_hash()),
                            **{f"{label}__0": c for label, c in crops.items()}, **older)
    profile = Profile.load(str(path))
    assert profile.deck is None and not profile.fitted and sorted(profile.crops) == ["b2", "r1"]


@settings(max_examples=25, deadline=None)
@given(st.integers(2, 5), st.integers(3, 12), st.integers(0, 2**32 - 1))
def test_the_deck_models_distance_is_the_mahalanobis_distance_under_its_shrunk_covariance(kinds, width, seed):
    """``fit_lda`` inverts the shrunk within-class covariance in float32; the model's distances are
    those worked out in float64 from the definition, per dimension."""
    rng = np.random.default_rng(seed)
    classes = [(rng.normal(size=(30, width)) * rng.uniform(0.2, 2.0, width) + rng.normal(0, 3, width))
               .astype(np.float16) for _ in range(kinds)]
    mean, precision, centres = teach.fit_lda(classes)
    model = teach.DeckModel(tuple(f"k{i}" for i in range(kinds)), mean, precision, centres, 1.0, 1.0,
                            np.zeros((kinds, 3), np.float32), 1.0)
    x = rng.normal(0, 3, (7, width)).astype(np.float32)
    xs = [c.astype(np.float64) for c in classes]
    means = np.array([c.mean(0) for c in xs])
    within = sum((c - m).T @ (c - m) for c, m in zip(xs, means, strict=True)) / sum(len(c) for c in xs)
    shrunk = (1 - teach.SHRINK) * within + np.diag(teach.SHRINK * np.diag(within) + 1e-4)
    step = x[:, None, :].astype(np.float64) - means[None]
    expected = np.einsum("nci,ij,ncj->nc", step, np.linalg.inv(shrunk), step) / width
    assert np.allclose(model.distances(x), expected, rtol=1e-3, atol=1e-3)


def test_teaching_shows_progress(tmp_path, companion_cmd):
    deck = designs.design(*DECK)
    rng = np.random.default_rng(2)
    detector_camera = synth.Camera(tilt=8, fill=0.75)
    for label in ("r1", "y2", "b5"):
        scene = synth.Scene([synth.lay(label, "play", deck, rng)])
        cv2.imwrite(str(tmp_path / f"{label}.jpg"), synth.render_frame(scene, detector_camera, synth.Light(), 0))
    out = tmp_path / "deck.profile"
    p = subprocess.run(companion_cmd + ["teach", str(tmp_path), "--profile", str(out)],
                       capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, p.stderr
    assert "photos" in p.stderr and "learning" in p.stderr and "3/3" in p.stderr
    assert Profile.load(str(out)).deck is not None


def test_a_profile_that_cannot_be_saved_is_refused_before_the_photos_are_read(tmp_path, companion_cmd):
    cv2.imwrite(str(tmp_path / "r1.jpg"), np.full((720, 1280, 3), 120, np.uint8))
    p = subprocess.run(companion_cmd + ["teach", str(tmp_path), "--profile", str(tmp_path / "gone" / "deck.npz")],
                       capture_output=True, text=True, timeout=60)
    assert p.returncode == 1 and "no folder" in p.stderr and "Traceback" not in p.stderr
    assert "photos" not in p.stderr  # refused before any photo was read


def test_a_profile_the_disk_refuses_is_reported_without_a_traceback(tmp_path, monkeypatch, capsys):
    cv2.imwrite(str(tmp_path / "r1.jpg"), np.full((720, 1280, 3), 120, np.uint8))
    monkeypatch.setattr(Profile, "fit", lambda self, classifier, progress=None: None)

    def full_disk(self, path):
        raise OSError(28, "No space left on device")
    monkeypatch.setattr(Profile, "save", full_disk)
    args = argparse.Namespace(camera=False, folder=str(tmp_path), profile=str(tmp_path / "deck.npz"))
    assert cmd_teach(args, lambda a: None) == 1
    assert "cannot write the profile" in capsys.readouterr().err


def test_altered_copies_keep_the_crop_size_and_stay_near_the_taught_colours():
    rng = np.random.default_rng(4)
    crop = np.full((finder.CROP[1], finder.CROP[0], 3), (40, 40, 200), np.uint8)
    copies = [teach.augment(crop, crop, rng) for _ in range(20)]
    assert all(c.shape == crop.shape and c.dtype == np.uint8 for c in copies)
    assert np.median([np.median(c[..., 2]) - np.median(c[..., 0]) for c in copies]) > 80


def test_most_copies_keep_a_thin_light_strokes_colour_as_the_pi_camera_gives_it():
    """The box reads raw frames at full colour resolution; JPEG halves it and blurs a thin stroke's
    colour into the face, so on a deep blue face light blue and white ink look more alike
    (teach.JPEG_SHARE). The same draws each way: the copies differ only in the compression."""
    w, h = finder.CROP

    def card(ink):
        crop = np.full((h, w, 3), (160, 80, 20), np.uint8)
        cv2.line(crop, (w // 2, 10), (w // 2, h - 10), ink, 1)
        return crop

    def saturation(copy):  # of the stroke: the copy's brightest pixels
        px = copy.reshape(-1, 3).astype(np.float32)
        top = px[np.argsort(px.max(1))[-40:]]
        return float(np.median(1 - top.min(1) / np.maximum(top.max(1), 1)))

    light_blue, white = card((250, 215, 165)), card((250, 250, 250))
    gap = {jpeg: np.mean([saturation(teach.augment(light_blue, light_blue, np.random.default_rng(k), jpeg))
                          - saturation(teach.augment(white, white, np.random.default_rng(k), jpeg)) for k in range(40)])
           for jpeg in (0.0, 1.0)}
    assert gap[0.0] > 1.4 * gap[1.0] > 0
    # by default most copies are raw, some compressed as a photo or the page's frame may be
    compressed = [not np.array_equal(teach.augment(white, white, np.random.default_rng(k)),
                                     teach.augment(white, white, np.random.default_rng(k), 0.0)) for k in range(100)]
    assert 0.15 < np.mean(compressed) < 0.45


@settings(max_examples=15, deadline=None)
@given(st.sampled_from(designs.TRAINING), st.integers(0, 10_000), st.sampled_from(LABELS), st.integers(0, 2**32 - 1))
def test_a_copy_turned_round_is_described_as_its_view_turned(plain, family, deck, label, seed):
    # teaching describes each altered copy once and takes its other way up from its view
    # (teach.Lessons), so the view of the copy turned must be that view's turned columns
    rng = np.random.default_rng(seed)
    card = cv2.resize(designs.design(family, deck).render(label)[..., :3], finder.CROP, interpolation=cv2.INTER_AREA)
    copy = teach.augment(card, card, rng)
    reader = plain.classifier
    view, turned = reader.describe([copy, np.ascontiguousarray(copy[::-1, ::-1])])
    assert not np.allclose(view, turned, atol=1e-3)  # a card is not the same both ways up
    assert np.allclose(view[reader.turned_columns()], turned, atol=1e-5)
    assert np.array_equal(teach.face_colours([copy]), teach.face_colours([copy[::-1, ::-1]]))


def test_kinds_alike_at_both_ends_are_told_apart_by_the_middle_of_the_card(plain):
    """On some decks a handwritten 3 and 5 look alike and only the count art between the ends
    differs; the network reads the ends, the deck's model sees the whole card too."""
    rng = np.random.default_rng(5)
    frame = synth.render_frame(synth.Scene([synth.lay("r3", "play", designs.design(*DECK), rng)]),
                               synth.Camera(tilt=8, roll=3, fill=0.75), synth.Light(), 0)
    one, three = card_crop(frame, plain.detector), card_crop(frame, plain.detector)
    w, h = finder.CROP
    cv2.circle(one, (w // 2, h // 2), 7, (40, 40, 220), -1)  # the kinds differ only between the ends:
    for x in (w // 4, w // 2, 3 * w // 4):                    # one burst, or three in a row
        cv2.circle(three, (x, h // 2), 7, (40, 40, 220), -1)
    assert np.array_equal(ends([one])[0], ends([three])[0]) and np.array_equal(ends([one])[1], ends([three])[1])
    classifier = Classifier(profile=Profile({"r3": [one], "r5": [three]}))
    copies = {label: [teach.augment(c, c, rng) for _ in range(30)] for label, c in (("r3", one), ("r5", three))}
    for label, crops in copies.items():
        taught, _ = classifier.profile.deck.posterior(classifier.describe(crops), teach.face_colours(crops), LABELS)
        assert (taught.argmax(1) == LABELS.index(label)).mean() >= 0.9, label


@pytest.mark.slow  # fits a whole deck's profile (about 40 s)
def test_a_card_far_from_every_taught_kind_does_not_fit(deck_profile):
    profile, classifier = deck_profile
    stranger = cv2.resize(designs.render_card("r3", designs.design(*OTHER))[..., :3], finder.CROP,
                          interpolation=cv2.INTER_AREA)
    probs, fits = classifier.probabilities([stranger, profile.crops["r3"][0]])
    assert fits is not None and not fits[0] and fits[1]
    assert probs[1].argmax() == LABELS.index("r3")


@pytest.mark.slow  # fits a whole deck's profile (about 40 s)
def test_a_card_that_does_not_fit_is_left_to_the_network_until_the_taught_deck_is_seen_on_the_table(
        plain, deck_profile):
    """The first cards of another deck come before the profile can be said not to match: read as
    untaught. Once the taught deck has been seen, a card that does not fit is an odd view of it
    and the deck's model reads it (``less_sure_when_far``)."""
    profile, _ = deck_profile
    classifier = Classifier(profile=profile)  # a fresh one: nothing seen yet
    stranger = cv2.resize(designs.render_card("r3", designs.design(*OTHER))[..., :3], finder.CROP,
                          interpolation=cv2.INTER_AREA)
    untaught = plain.classifier.probabilities([stranger])[0]
    first, fits = classifier.probabilities([stranger])
    assert fits is not None and not fits[0] and not classifier.matches
    assert np.allclose(first, untaught)
    classifier.probabilities([profile.crops[k][0] for k in ("r1", "y2", "g3", "b4", "w5")])
    assert classifier.matches and not classifier.mismatch
    later, _ = classifier.probabilities([stranger])
    assert not np.allclose(later, untaught, atol=1e-3)
    read = later[0].argmax()  # nothing vouches for the deck's reading unless the network reads so too
    assert untaught[0, read] >= UNSURE or later[0, read] <= UNVOUCHED_MOST + 1e-9


@settings(max_examples=80, deadline=None)
@given(arrays(np.float64, (3, len(LABELS)), elements=st.floats(-12, 12)), st.floats(0, 30), st.floats(0, 30))
def test_a_card_that_does_not_fit_keeps_the_decks_reading_but_is_the_less_sure_the_farther_it_lies(
        logits, near, far):
    """Within the fit margin a card is read as the deck's model reads it; beyond it the same card
    is read the same, and never more surely when it lies farther."""
    probs = softmax(logits)
    near, far = sorted((near, far))
    at_near = less_sure_when_far(probs, np.full(3, near))
    at_far = less_sure_when_far(probs, np.full(3, far))
    if near <= teach.FIT_MARGIN:
        assert np.allclose(at_near, probs, atol=1e-9)
    assert np.allclose(at_far.sum(1), 1.0)
    best = probs.max(1, keepdims=True)
    top = probs >= best - 1e-9  # ties may go either way
    assert top[np.arange(3), at_far.argmax(1)].all()
    assert (at_far.max(1) <= at_near.max(1) + 1e-9).all()


@settings(max_examples=80, deadline=None)
@given(arrays(np.float64, (4, len(LABELS)), elements=st.floats(-12, 12)),
       arrays(np.float64, (4, len(LABELS)), elements=st.floats(-12, 12)),
       arrays(np.float64, 4, elements=st.floats(0, 10)))
def test_a_taught_card_unlike_the_deck_that_the_network_alone_does_not_read_so_is_asked_about(
        logits, network_logits, distance):
    """Its reading stays first, the other kinds in their order, but never sure enough to be judged at
    once; a card that fits, or that the network alone reads so too, is left as read."""
    probs, alone = softmax(logits), softmax(network_logits)
    out = asked_when_unvouched(probs, alone, distance)
    rows, top = np.arange(4), probs.argmax(1)
    unvouched = (distance > teach.FIT_MARGIN) & (alone[rows, top] < UNSURE)
    assert np.allclose(out.sum(1), 1.0)
    assert (out.argmax(1) == top).all()
    assert (out[unvouched].max(1) <= UNVOUCHED_MOST + 1e-9).all()
    assert np.allclose(out[~unvouched], probs[~unvouched])
    for r in np.flatnonzero(unvouched):
        others = np.delete(np.arange(len(LABELS)), top[r])
        assert (np.diff(out[r, others][np.argsort(probs[r, others])]) >= -1e-12).all()


def test_a_taught_box_asks_about_a_card_its_deck_reads_surely_that_neither_fits_nor_the_network_reads_so():
    """As the box reads a taught deck on the table: the deck's model sure of r1; a card that fits,
    or that the network alone reads as r1 too, is judged at once; one that does not fit and that the
    network alone takes for g1 is asked about, r1 still first."""
    reader = Classifier()
    reader._recent.extend([0.2] * 8)  # the taught deck's cards seen lately: the profile matches
    assert reader.matches
    kinds = len(LABELS)  # a deck taught every kind (``among_known`` leaves its reading as it is)
    deck = teach.DeckModel(LABELS, np.zeros(1), np.eye(1), np.zeros((kinds, 1)), 1.0, 1.0, np.zeros((kinds, 3)), 1.0)
    r1, g1 = LABELS.index("r1"), LABELS.index("g1")
    taught = np.full((3, kinds), 1e-6 / (kinds - 1))
    taught[:, r1] = 1 - 1e-6
    alone = np.full((3, kinds), 0.02 / (kinds - 2))
    alone[:, [r1, g1]] = [[0.08, 0.9], [0.08, 0.9], [0.9, 0.08]]  # the last one the network reads as r1
    far = 2 * teach.FIT_MARGIN
    read = reader._with_deck(taught, np.array([0.5, far, far]), alone, deck)
    assert (read.argmax(1) == r1).all()
    assert read[0].max() >= 0.9 and read[2].max() >= 0.9  # it fits; the network reads r1 too
    assert read[1].max() <= UNVOUCHED_MOST + 1e-9


def test_fitting_stops_before_the_next_kind_once_told_and_keeps_no_model():
    crops = {label: [np.full((finder.CROP[1], finder.CROP[0], 3), 40 * n, np.uint8)]
             for n, label in enumerate(("r1", "g3", "k5", "w2"))}
    described, done = [], []

    def features(batch):
        described.append(len(batch))
        return np.random.default_rng(len(described)).normal(size=(len(batch), 8))
    with pytest.raises(teach.Stopped):
        teach.fit(crops, features, np.arange(8)[::-1], lambda n, total: done.append(n), copies=4,
                  stop=lambda: len(done) == 2)
    assert done == [1, 2] and len(described) == 2  # two kinds, then nothing more
    profile = Profile(crops)
    with pytest.raises(teach.Stopped):
        profile.fit(Classifier(), stop=lambda: True)
    assert profile.deck is None and profile.network == ""
