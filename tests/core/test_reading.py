"""A camera's reading weighed over the cards the game can still take: a card whose copies are all on
the table, or of a suit the variant leaves out, is never judged, and a play it was read as is asked
about instead of refused and lost. In PLAY, a card that would fit its firework is the likelier."""
from __future__ import annotations

import itertools
from dataclasses import replace

from hypothesis import given
from hypothesis import strategies as st

from companion.app.recognition import CameraService
from companion.game.camera import CardPlaced
from companion.game.cards import parse_card
from companion.game.reading import MISPLAY, can_be_laid, fits, suggests_teaching, used_up, weigh
from companion.game.table import Table

from .gamehelp import run, start

KINDS = [f"{s}{v}" for s in "rygbwmk" for v in range(1, 6)]


def test_a_card_whose_copies_are_all_on_the_table_is_asked_about_not_refused():
    # 002 "<Components>": two 2s of each colour; once both b2 are discarded a third cannot be laid.
    table = Table()
    table.new_game(["Ann", "Ben"], "base")
    table.act({"type": "hint"})
    table.act({"type": "discard", "card": "b2"})
    table.act({"type": "hint"})
    table.act({"type": "discard", "card": "b2"})
    refused = []
    service = CameraService(table, None, lambda: None, on_refused=refused.append)
    service.handle(CardPlaced("play", "b2", 0.97, ("b2", "w2"), (("b2", 0.97), ("w2", 0.025), ("g2", 0.003))))
    assert refused == [] and len(table.actions) == 4
    assert table.pending is not None
    assert table.pending.action == {"type": "play", "card": "w2"} and table.pending.candidates == ("w2", "g2")
    table.confirm()
    assert table.state.fireworks_map()["w"] == 0 and table.state.fuses_used == 1  # w2 on no w1: a misplay


def test_a_suit_the_variant_leaves_out_takes_no_share_of_a_sure_reading():
    # 002 "<Variants>" 1: the multicolour suit is in the game only when a variant adds it.
    table = Table()
    table.new_game(["Ann", "Ben"], "base")
    service = CameraService(table, None, lambda: None, confidence=0.9)
    service.handle(CardPlaced("play", "m1", 0.6, ("m1", "r1"), (("m1", 0.6), ("r1", 0.38), ("y1", 0.01))))
    assert table.pending is None and table.state.fireworks_map()["r"] == 1
    rainbow = Table()
    rainbow.new_game(["Ann", "Ben"], "rainbow")
    service = CameraService(rainbow, None, lambda: None, confidence=0.9)
    service.handle(CardPlaced("play", "m1", 0.6, ("m1", "r1"), (("m1", 0.6), ("r1", 0.38), ("y1", 0.01))))
    assert rainbow.pending is not None and rainbow.pending.action["card"] == "m1" and not rainbow.actions


def test_an_event_without_probabilities_keeps_its_confidence():
    table = Table()
    table.new_game(["Ann", "Ben"], "base")
    service = CameraService(table, None, lambda: None, confidence=0.9)
    service.handle(CardPlaced("play", "b4", 0.5, ("b4", "g4")))
    assert table.pending is not None and table.pending.confidence == 0.5
    assert table.pending.candidates == ("b4", "g4")


seen_cards = st.lists(st.sampled_from([f"{s}{v}" for s in "rygbw" for v in (1, 1, 1, 2, 2, 3, 3, 4, 4, 5)]),
                      max_size=40, unique=False)
readings = st.lists(st.tuples(st.sampled_from(KINDS), st.floats(0.0, 1.0)), min_size=1, max_size=8,
                    unique_by=lambda cp: cp[0]).filter(lambda ps: sum(p for _, p in ps) <= 1.0)


@given(seen_cards, readings)
def test_a_weighed_reading_names_only_cards_that_can_still_be_laid(seen, probabilities):
    state = start("base")
    counts = state.variant.deck_counts()
    kept: list[str] = []
    for card in seen:  # no card more often than the box holds it
        if kept.count(card) < counts[parse_card(card)]:
            kept.append(card)
    state = replace(state, discards=tuple(kept))
    reading = weigh(probabilities, state)
    assert all(can_be_laid(state, c) for c in reading.candidates)
    assert reading.card is None or (can_be_laid(state, reading.card) and reading.card == reading.candidates[0])
    assert 0.0 <= reading.confidence <= 1.0 + 1e-9
    best = max(probabilities, key=lambda cp: cp[1])
    ties = [c for c, p in probabilities if p == best[1]]
    assert reading.used_up == used_up(state, best[0]) or len(ties) > 1  # a tie may rank either first
    if all(can_be_laid(state, c) for c, _ in probabilities):
        assert abs(reading.confidence - best[1]) < 1e-9  # nothing ruled out: the reader's own confidence
    elif can_be_laid(state, best[0]):
        assert reading.card in ties and reading.confidence >= best[1] - 1e-9  # the others' share moves to it


def test_a_card_laid_in_play_that_would_fit_is_the_likelier():
    # 002 "<Game Progress>" 3: a played card either continues its colour's firework, in rising order,
    # or is discarded and burns a fuse. Blue stands at 4 and white at 1, so of a white and a light
    # blue 5 only blue's fits.
    state = run(start("base"), "p b1", "p b2", "p b3", "p b4", "p w1")
    assert fits(state, "b5") and not fits(state, "w5")
    leaning = (("b5", 0.7), ("w5", 0.3))  # the reader leans to the 5 that fits: judged at once
    played = weigh(leaning, state, "play")
    assert played.card == "b5" and played.sure(0.9) and played.candidates == ("b5", "w5")
    assert abs(played.confidence - 0.7 / (0.7 + 0.3 * MISPLAY)) < 1e-9
    torn = (("w5", 0.55), ("b5", 0.45))  # the reader leans the other way: the 5 that fits is proposed
    played = weigh(torn, state, "play")
    assert played.card == "b5" and not played.sure(0.9) and played.candidates == ("b5", "w5")
    # a discard says nothing of the fireworks: the reading stays as the reader gave it
    discarded = weigh(leaning, state, "discard")
    assert discarded.card == "b5" and discarded.confidence == 0.7 and not discarded.sure(0.9)


def test_a_misplay_read_surely_stays_the_card_read():
    # 002 "<Game Progress>" 3B: a card that continues no firework may still be played (it burns a
    # fuse). Read nearly surely, it is still the card proposed; less surely, the box asks first.
    state = start("base")
    sure = weigh((("r4", 0.999), ("r1", 0.001)), state, "play")
    assert sure.card == "r4" and sure.sure(0.9)
    doubtful = weigh((("r4", 0.97), ("r1", 0.03)), state, "play")
    assert doubtful.card == "r4" and not doubtful.sure(0.9) and doubtful.candidates == ("r4", "r1")


def test_a_camera_event_in_play_is_weighed_by_the_fireworks():
    table = Table()
    table.new_game(["Ann", "Ben"], "base")
    for card in ("b1", "b2"):
        table.act({"type": "play", "card": card})
    service = CameraService(table, None, lambda: None, confidence=0.9)
    service.handle(CardPlaced("play", "b3", 0.75, ("b3", "w3"), (("b3", 0.75), ("w3", 0.25))))
    assert table.pending is None and table.state.fireworks_map()["b"] == 3
    table.act({"type": "hint"})  # 002 "<Game Progress>" 2: no discard while all eight hint tokens are on the table
    service.handle(CardPlaced("discard", "w4", 0.75, ("w4", "b4"), (("w4", 0.75), ("b4", 0.25))))
    assert table.pending is not None and table.pending.action == {"type": "discard", "card": "w4"}


plays = st.lists(st.sampled_from([f"{s}{v}" for s in "rygbw" for v in range(1, 6)]), max_size=30)


@given(plays, readings)
def test_in_play_a_fitting_card_only_gains_and_the_rest_keep_their_order(laid, probabilities):
    state = start("base")
    for card in laid:  # a table of successful plays and misplays, until it ends
        if state.over or not can_be_laid(state, card):
            continue
        state = run(state, f"p {card}")
    flat, played = weigh(probabilities, state), weigh(probabilities, state, "play")
    assert 0.0 <= played.confidence <= 1.0 + 1e-9
    assert set(played.candidates) <= {c for c, _ in probabilities}
    if flat.card is not None and fits(state, flat.card):
        assert played.card is not None and fits(state, played.card)
        assert played.confidence >= flat.confidence - 1e-9
    chances = dict(probabilities)
    for better, worse in itertools.pairwise(played.candidates):
        if fits(state, better) == fits(state, worse):  # alike for the fireworks: as the reader ranked them
            assert chances[better] >= chances[worse]


def test_teaching_is_suggested_once_a_fifth_of_the_cards_and_five_were_asked_about():
    assert not suggests_teaching(4, 4)          # too few to say anything of the deck
    assert suggests_teaching(5, 5) and suggests_teaching(5, 4)  # the card waiting counts as laid
    assert suggests_teaching(5, 25) and not suggests_teaching(5, 26)
    assert suggests_teaching(12, 60) and not suggests_teaching(12, 61)


@given(st.integers(0, 60), st.integers(0, 60))
def test_more_cards_asked_about_never_take_the_suggestion_back(asked, laid):
    """A card asked about (laid too) keeps a suggestion; a card read surely may end it."""
    if suggests_teaching(asked, laid):
        assert suggests_teaching(asked + 1, laid + 1) and suggests_teaching(asked + 1, laid)
    else:
        assert not suggests_teaching(asked, laid + 1)
