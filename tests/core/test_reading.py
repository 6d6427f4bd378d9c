"""A camera's reading weighed over the cards the game can still take: a card whose copies are all on
the table, or of a suit the variant leaves out, is never judged, and a play it was read as is asked
about instead of refused and lost."""
from __future__ import annotations

from dataclasses import replace

from hypothesis import given
from hypothesis import strategies as st

from companion.app.recognition import CameraService
from companion.game.camera import CardPlaced
from companion.game.cards import parse_card
from companion.game.reading import can_be_laid, used_up, weigh
from companion.game.table import Table

from .gamehelp import start

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
