"""A deck learned from the cards of a game: the next game of that deck is read far better than by the
network alone, kinds the game never showed are still read by the network, and the cards of another
deck start a profile of their own."""
import os
from dataclasses import replace

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from companion.game.variants import parse_variant
from vision import designs, synth
from vision.classifier import PICTURES_PER_KIND, Classifier, Profile, among_known
from vision.labels import LABELS
from vision.learning import MIN_CARDS, GameDeck, learn, of_another_deck
from vision.recognize import Recognizer

DECK = ("sepia-print", 82_001)     # families the network was never trained on
OTHER = ("blueprint-grid", 82_001)
SURE = 0.9                         # the box's default to judge at once


def game_crops(plain, deck, seed, cards=35, to_learn=False):
    """The cards of a base game laid one by one on small piles in PLAY and DISCARD (a random camera
    and light for each), cut out as the watcher does, knowing the pile before; with their kinds.
    ``to_learn``: only the pictures the watcher hands on to learn from (none of a blurred card)."""
    rng = np.random.default_rng(seed)
    deck = designs.design(*deck)
    kinds = [str(c) for c, n in parse_variant("base").card_counts.items() for _ in range(n)]
    rng.shuffle(kinds)
    out = []
    for k, card in enumerate(kinds[:cards]):
        zone = ("play", "discard")[k % 2]
        scene = synth.Scene([synth.lay(str(rng.choice(kinds)), zone, deck, rng, pile=i)
                             for i in range(int(rng.integers(0, 3)))])
        scene.cards.append(synth.lay(card, zone, deck, rng, pile=len(scene.cards)))
        camera, light = synth.Camera.random(rng, max_tilt=40), synth.Light.random(rng)
        earlier = synth.render_frame(scene.before_tops(), camera, replace(light, noise_seed=k + 1), k)
        before = {z: v.image for z, v in plain.look(earlier)[1].items()}
        view = plain.look(synth.render_frame(scene, camera, light, k), before=before)[1].get(zone)
        if view is not None and view.crop is not None and not (to_learn and view.soft_edged):
            out.append((card, view.crop))
    return out


@pytest.fixture(scope="module")
def plain():
    return Recognizer()


@pytest.fixture(scope="module")
def first_game(plain):
    return game_crops(plain, DECK, 1, to_learn=True)


@pytest.fixture(scope="module")
def learned(first_game):
    got = learn(first_game, None)
    assert got is not None and got.fresh and got.kinds == len({card for card, _ in first_game})
    return got


def sure_and_right(classifier, crops):
    """Shares of the cards read right, and read wrong, with confidence >= SURE, among the base
    game's kinds (as the game weighs a reading: ``companion.game.reading``)."""
    probs, _ = classifier.probabilities([crop for _, crop in crops])
    base = [LABELS.index(str(c)) for c in parse_variant("base").card_counts]
    probs = probs[:, base] / probs[:, base].sum(1, keepdims=True)
    read = [(LABELS[base[i]], p) for i, p in zip(probs.argmax(1), probs.max(1), strict=True)]
    right = np.mean([card == best and p >= SURE for (card, _), (best, p) in zip(crops, read, strict=True)])
    wrong = np.mean([card != best and p >= SURE for (card, _), (best, p) in zip(crops, read, strict=True)])
    return right, wrong


@pytest.mark.slow
def test_the_next_game_of_a_learned_deck_is_read_surely(plain, learned):
    second = game_crops(plain, DECK, 2)
    alone = sure_and_right(plain.classifier, second)
    with_deck = sure_and_right(Classifier(profile=learned.profile), second)
    # three networks alone read 23 of these 30 cards surely and right, so the deck
    # learned from the first game has less to add: at least one card more, and no sure mistake more
    assert with_deck[0] >= alone[0] + 0.03, (alone, with_deck)
    assert with_deck[1] <= alone[1], (alone, with_deck)


@pytest.mark.slow
def test_the_cards_of_another_deck_are_told_apart(plain, learned):
    assert of_another_deck(learned.profile, [crop for _, crop in game_crops(plain, OTHER, 3, cards=12)])
    assert not of_another_deck(learned.profile, [crop for _, crop in game_crops(plain, DECK, 4, cards=12)])


@pytest.mark.slow
def test_a_learned_deck_reads_on_unless_the_game_is_of_another_deck(plain, learned):
    same, other = GameDeck(learned.profile), GameDeck(learned.profile)
    mine, theirs = game_crops(plain, DECK, 7, cards=8)[:5], game_crops(plain, OTHER, 7, cards=8)[:5]
    for k in range(len(mine)):  # the learned profile knows the deck better than the game's first cards
        assert same.update(dict(enumerate(mine[:k + 1]))) is None
    for k in range(3):  # too few cards to tell which deck is on the table: the learned profile reads on
        assert other.update(dict(enumerate(theirs[:k + 1]))) is None
    apart = other.update(dict(enumerate(theirs[:4])))
    assert apart is not None and set(apart.crops) == {card for card, _ in theirs[:4]}


def test_too_few_cards_or_a_taught_deck_learn_nothing():
    crop = np.zeros((102, 66, 3), np.uint8)
    assert learn([("r1", crop)] * (MIN_CARDS - 1), None) is None
    assert learn([("r1", crop)] * MIN_CARDS, Profile({"r1": [crop]})) is None  # left as the family taught it


def test_a_profile_says_whether_it_was_taught_or_learned(tmp_path):
    crop = np.zeros((102, 66, 3), np.uint8)
    taught, learned = Profile({"r1": [crop]}), Profile({}).with_pictures([("r1", crop)])
    for name, profile in (("taught", taught), ("learned", learned)):
        profile.save(str(tmp_path / name))
    assert Profile.load(str(tmp_path / "taught")).taught and not Profile.load(str(tmp_path / "learned")).taught


def test_a_kind_keeps_its_first_picture_and_its_latest():
    def crop(n):
        return np.full((102, 66, 3), n, np.uint8)
    profile = Profile({"r1": [crop(0)]}).with_pictures([("r1", crop(n)) for n in range(1, 8)] + [("g2", crop(9))])
    assert [int(c[0, 0, 0]) for c in profile.crops["r1"]] == [0, *range(8 - PICTURES_PER_KIND + 1, 8)]
    assert [int(c[0, 0, 0]) for c in profile.crops["g2"]] == [9] and profile.deck is None


def test_a_profile_is_written_whole_or_not_at_all(tmp_path, monkeypatch):
    path = str(tmp_path / "deck.npz")
    first = Profile({"r1": [np.zeros((102, 66, 3), np.uint8)]})
    first.save(path)

    def cut(*args, **kwargs):
        raise OSError("the power went")
    monkeypatch.setattr(np, "savez_compressed", cut)
    with pytest.raises(OSError):
        Profile({"g1": [np.ones((102, 66, 3), np.uint8)]}).save(path)
    assert list(Profile.load(path).crops) == ["r1"] and os.listdir(tmp_path) == ["deck.npz"]


@settings(max_examples=60, deadline=None)
@given(arrays(np.float64, (3, len(LABELS)), elements=st.floats(0.001, 1)),
       arrays(np.float64, (3, len(LABELS)), elements=st.floats(0.001, 1)),
       arrays(bool, len(LABELS)))
def test_a_deck_shares_out_only_what_the_network_gives_its_known_kinds(deck, alone, known):
    deck, alone = deck / deck.sum(1, keepdims=True), alone / alone.sum(1, keepdims=True)
    out = among_known(deck * known if known.any() else deck, alone, known)
    assert np.allclose(out.sum(1), 1)
    if known.all():
        assert np.allclose(out, deck)
    elif known.any():
        assert np.allclose(out[:, ~known], alone[:, ~known])
        assert np.allclose(out[:, known].sum(1), alone[:, known].sum(1))
    else:
        assert np.allclose(out, alone)
