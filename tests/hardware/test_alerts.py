"""Warnings on the OLED: a last copy lost and the pace used up stay long enough to be read, the
dashboard shows the pace, and every suit is told apart on a screen without colour."""
from __future__ import annotations

from dataclasses import replace

import pytest

from companion.game.cards import SUITS
from companion.game.table import Table
from hardware.box import Box
from hardware.messages import LANGUAGES
from hardware.screens import Dashboard, Flash, render
from hardware.view import View

from ..core.gamehelp import spare_card
from .conftest import FakeTime


@pytest.fixture
def box(table, display, fake_time: FakeTime) -> Box:
    return Box(table, display, lang="en", clock=fake_time, schedule=fake_time.schedule)


def discard(table: Table, card: str) -> None:
    """Discard ``card``, giving a hint first if every hint token is on the table."""
    if table.state.hints == table.state.variant.hint_tokens:
        table.act({"type": "hint"})
    table.act({"type": "discard", "card": card})


def test_a_lost_last_copy_stays_up_longer_than_a_flash(box, table, fake_time):
    discard(table, "r5")
    alert = Flash("last_copy_lost", card="r5", number=24)
    assert box.screen() == alert
    fake_time.advance(box.flash_seconds)
    assert box.screen() == alert
    fake_time.advance(box.alert_seconds - box.flash_seconds)
    assert isinstance(box.screen(), Dashboard)


def test_what_the_same_action_brings_next_waits_for_the_alert(display, fake_time):
    t = Table()
    t.new_game(["Ann", "Ben"], {"preset": "base", "allow_discard_at_max_hints": True})
    b = Box(t, display, lang="en", clock=fake_time, schedule=fake_time.schedule)
    while t.state.pace > 1:
        t.act({"type": "discard", "card": spare_card(t.state)})
    t.act({"type": "discard", "card": "w5"})    # pace 0 and the last white 5 at once
    assert b.screen() == Flash("pace_zero", number=0)
    fake_time.advance(b.alert_seconds)
    assert b.screen() == Flash("last_copy_lost", card="w5", number=24)
    fake_time.advance(b.alert_seconds)
    assert isinstance(b.screen(), Dashboard) and b.screen().view.pace == 0


def test_a_new_action_cuts_an_alert_short(box, table, fake_time):
    discard(table, "r5")
    box.press("hint")
    assert box.screen() == Flash("hint", number=table.state.hints)
    fake_time.advance(box.alert_seconds)
    assert isinstance(box.screen(), Dashboard)


def test_the_final_round_waits_behind_a_lost_card(display, fake_time):
    t = Table()
    t.new_game(["Ann", "Ben"], {"preset": "base", "allow_discard_at_max_hints": True})
    b = Box(t, display, lang="en", clock=fake_time, schedule=fake_time.schedule)
    while t.state.deck > 1:
        t.act({"type": "discard", "card": spare_card(t.state)})
    reach = t.state.reachable_per_suit()
    needed = next(c for c in t.state.critical_cards() if int(c[1]) <= reach[c[0]])
    t.act({"type": "discard", "card": needed})
    assert b.screen().kind == "last_copy_lost"
    fake_time.advance(b.alert_seconds)
    assert b.screen() == Flash("final_round", number=2)


def test_the_dashboard_shows_the_pace_and_lights_it_at_zero(box, table):
    view = View.of(table)
    assert view.pace == table.state.pace == 35 + 3 - 25
    images = {pace: render(Dashboard(replace(view, pace=pace)), "en") for pace in (3, 0)}
    band = (38, 35, 78, 46)  # under the fuses
    lit = {pace: im.crop(band).convert("L").histogram()[255] for pace, im in images.items()}
    assert lit[0] > 2 * lit[3] > 0


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_suit_is_told_apart_without_colour(lang):
    # A 1-bit screen has no colour: every card names its suit in words, a different one per suit.
    shown = {render(Flash("discarded", card=f"{suit}3"), lang).tobytes() for suit in SUITS}
    assert len(shown) == len(SUITS)


def test_alerts_from_the_table_render_in_every_language():
    t = Table()
    heard = []
    t.add_listener(lambda table, change: heard.append(change))
    t.new_game(["Ann", "Ben"], {"preset": "black-powder", "allow_discard_at_max_hints": True})
    t.act({"type": "discard", "card": "k1"})
    while t.state.pace > 0:
        t.act({"type": "discard", "card": spare_card(t.state)})
    alerts = [Flash.of(c) for c in heard if c.kind in ("last_copy_lost", "pace_zero")]
    assert alerts == [Flash("last_copy_lost", card="k1", number=24), Flash("pace_zero", number=0)]
    for flash in alerts:
        for lang in LANGUAGES:
            assert render(flash, lang).getbbox() is not None
