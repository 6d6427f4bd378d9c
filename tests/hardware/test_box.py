"""The box on a real table: buttons change the table, refusals change nothing, the screen follows."""
from __future__ import annotations

import threading
import time
from dataclasses import replace

import pytest
from gpiozero.pins.mock import MockFactory

from companion.game.table import CommandError, Table
from hardware.box import Box
from hardware.buttons import HOLD, Buttons
from hardware.display import Display
from hardware.screens import Dashboard, Flash, GameOver, Prompt, Refusal, Status, render
from hardware.status import BootStatus

from .conftest import FakeTime

BOOT = BootStatus(address="10.0.0.7:8000", pin="5150", camera="ok")


@pytest.fixture
def box(table, display, fake_time: FakeTime):
    b = Box(table, display, lang="en", clock=fake_time, schedule=fake_time.schedule)
    yield b
    b.close()


def test_hint_spends_a_token_and_flashes(box, table):
    outcome = box.press("hint")
    assert outcome.accepted
    assert table.state.hints == 7
    assert box.screen() == Flash("hint", number=7)


def test_flash_gives_way_to_the_dashboard(box, table, display, fake_time):
    box.press("hint")
    fake_time.advance(box.flash_seconds)
    assert isinstance(box.screen(), Dashboard)
    assert display.image.tobytes() == render(box.screen(), "en").tobytes()


def test_undo_takes_back_the_last_action(box, table):
    table.act({"type": "play", "card": "r1"})
    assert box.press("undo").accepted
    assert table.state.fireworks == (0, 0, 0, 0, 0)
    assert box.screen() == Flash("undo", card="r1")


def test_undo_with_nothing_to_undo_is_refused_and_changes_nothing(box, table):
    before = table.snapshot()
    outcome = box.press("undo")
    assert not outcome.accepted and "nothing to undo" in outcome.message
    assert table.snapshot() == before
    assert box.screen() == Refusal("nothing_to_undo")


def test_hint_with_no_tokens_left_is_refused(box, table):
    for _ in range(8):
        box.press("hint")
    before = table.snapshot()
    assert not box.press("hint").accepted
    assert table.snapshot() == before
    assert box.screen() == Refusal("no_hints")


def test_camera_discard_at_max_hints_is_shown_as_refused(box, table):
    with pytest.raises(CommandError) as e:
        table.act({"type": "discard", "card": "r1"})
    box.refuse(e.value)
    assert box.screen() == Refusal("discard_max")


def test_all_copies_out_names_the_card(box, table):
    table.act({"type": "play", "card": "r1"})
    table.act({"type": "play", "card": "r2"})
    table.act({"type": "play", "card": "r3"})
    table.act({"type": "play", "card": "r4"})
    table.act({"type": "play", "card": "r5"})
    with pytest.raises(CommandError) as e:
        table.act({"type": "play", "card": "r5"})
    box.refuse(e.value)
    assert box.screen() == Refusal("no_copies", card="r5")


def test_ok_confirms_the_unsure_card(box, table):
    table.propose({"type": "play", "card": "r1"}, 0.4, ["r1", "y1"])
    screen = box.screen()
    assert isinstance(screen, Prompt) and screen.pending.card == "r1" and screen.pending.others == ("y1",)
    assert box.press("ok").accepted
    assert table.state.fireworks[0] == 1
    assert table.pending is None


def test_undo_dismisses_the_unsure_card(box, table, fake_time):
    table.act({"type": "hint"})
    table.propose({"type": "discard", "card": "b2"}, 0.3, ["b2"])
    table_before = table.state
    box.press("undo")
    assert table.pending is None and table.state == table_before
    fake_time.advance(box.flash_seconds)
    assert isinstance(box.screen(), Dashboard)


def test_holding_ok_starts_a_new_game_with_the_same_players_and_variant(display, fake_time):
    table = Table()
    table.new_game(["Ann", "Ben"], {"preset": "rainbow", "hint_tokens": 9})
    box = Box(table, display, clock=fake_time, schedule=fake_time.schedule)
    box.press("hint")
    first = table.game_id, table.actions
    assert box.press("ok", HOLD).accepted
    assert table.players == ("Ann", "Ben")
    assert table.variant.to_json() == {"preset": "rainbow", "hint_tokens": 9}
    assert table.actions == [] and first[1] != []
    assert box.screen() == Flash("new_game", names=("Ann", "Ben"))


def test_ok_with_no_card_waiting_shows_the_status(box, table, fake_time):
    before = table.snapshot()
    assert not box.press("ok").accepted     # nothing to show yet: refused
    assert box.screen() == Refusal("nothing_pending")
    box.show_status(BOOT)
    fake_time.advance(box.status_seconds)
    assert isinstance(box.screen(), Dashboard)
    assert box.press("ok").accepted
    assert box.screen() == Status(BOOT)
    assert table.snapshot() == before


def test_no_game_shows_the_status_until_a_game_starts(display, fake_time):
    table = Table()
    box = Box(table, display, clock=fake_time, schedule=fake_time.schedule)
    assert box.screen() == Status(None, game=False)
    box.show_status(BOOT)
    fake_time.advance(box.status_seconds * 3)
    assert box.screen() == Status(BOOT, game=False)
    assert not box.press("hint").accepted
    assert box.screen() == Refusal("no_game")
    assert not box.press("ok", HOLD).accepted
    table.new_game(["Ann", "Ben"])
    fake_time.advance(box.flash_seconds)
    assert isinstance(box.screen(), Dashboard)


def test_a_game_the_camera_was_often_unsure_in_ends_suggesting_to_teach_the_deck(box, table, fake_time):
    """The page suggests teaching the deck once the camera asked about 5 cards and a fifth of those
    laid (companion/game/reading.py); a family watching only the box sees it when the game ends, in
    place of the rulebook's line for the score."""
    for card in ("r1", "y1", "g1", "b1", "w1"):
        table.propose({"type": "play", "card": card}, 0.5, [card])
        table.confirm()
    for card in ("b5", "w5", "g5"):     # three misplays burn the last fuse
        table.act({"type": "play", "card": card})
    fake_time.advance(60)
    screen = box.screen()
    assert isinstance(screen, GameOver) and (screen.view.asked, screen.view.laid) == (5, 8)
    assert screen.view.suggest_teaching
    quiet = GameOver(replace(screen.view, asked=4))  # one card fewer asked about: the rulebook's line
    assert not quiet.view.suggest_teaching and render(screen, "en") != render(quiet, "en")
    table.new_game(["Ann", "Ben"])
    for card in ("r1", "y1", "g1", "b1", "w1", "r2"):  # asked about and dismissed: shown, never laid
        table.propose({"type": "play", "card": card}, 0.5, [card])
        table.undo()
    table.end_game()
    fake_time.advance(60)
    assert (box.screen().view.asked, box.screen().view.laid) == (6, 6)  # "6 of 6 cards", not "6 of 0"


def test_game_over_stays_on_screen(box, table, fake_time):
    for card in ("b5", "w5", "g5"):     # three misplays burn the last fuse
        table.act({"type": "play", "card": card})
    fake_time.advance(60)
    screen = box.screen()
    assert isinstance(screen, GameOver) and screen.view.outcome == "lost"
    before = table.snapshot()
    assert not box.press("hint").accepted
    assert box.screen() == Refusal("game_over")
    assert table.snapshot() == before


def test_the_box_never_redraws_when_nothing_changed(box, table, display, fake_time):
    frames = display.frames
    assert not box.refresh()
    fake_time.advance(30)               # nothing on screen expires: still nothing to draw
    assert display.frames == frames
    box.press("hint")
    assert box.flush()                  # the change is drawn by the box's own thread
    assert display.frames == frames + 1
    for _ in range(5):
        box.refresh()
    assert display.frames == frames + 1
    fake_time.advance(box.flash_seconds)  # the flash ends: the dashboard, once
    box.refresh()
    assert display.frames == frames + 2
    box.press("undo")
    assert box.flush()
    box.press("undo")                   # refused twice: the same refusal is drawn once
    box.press("undo")
    assert display.frames == frames + 4


def test_changing_the_language_redraws_only_when_it_changes(box, display):
    frames = display.frames
    box.set_language("en")
    assert display.frames == frames
    box.set_language("de")
    assert display.frames == frames + 1


def test_buttons_drive_the_table_through_the_box(table, display, fake_time):
    factory = MockFactory()
    buttons = Buttons(pin_factory=factory, poll_interval=None, clock=fake_time)
    box = Box(table, display, buttons, clock=fake_time, schedule=fake_time.schedule)
    try:
        factory.pin(17).drive_low()
        fake_time.advance(0.1)
        factory.pin(17).drive_high()
        assert table.state.hints == 7
        assert box.screen() == Flash("hint", number=7)
    finally:
        box.close()
        buttons.close()


def test_a_broken_press_name_is_an_error(box):
    with pytest.raises(ValueError, match="buttons are hint, undo, ok"):
        box.press("start")


def test_a_game_restored_after_a_power_cut_is_flashed_then_shown(tmp_path, display, fake_time):
    from companion.game.store import Store
    first = Table(Store(str(tmp_path / "table.db")))
    first.new_game(["Ann", "Ben"])
    first.act({"type": "hint"})
    table = Table(Store(str(tmp_path / "table.db")))
    box = Box(table, display, clock=fake_time, schedule=fake_time.schedule)
    assert box.screen() == Flash("restored", number=1)
    fake_time.advance(box.flash_seconds)
    screen = box.screen()
    assert isinstance(screen, Dashboard) and screen.view.hints == 7


def test_with_the_real_clock_a_flash_ends_by_itself(table, display):
    from .test_buttons import wait_for
    box = Box(table, display, flash_seconds=0.05)
    box.press("hint")
    assert isinstance(box.screen(), Flash) and box.flush()
    frames = display.frames
    assert wait_for(lambda: display.frames == frames + 1)   # the timer redrew the dashboard
    assert isinstance(box.screen(), Dashboard)


class SlowDevice:
    """An OLED whose frames take as long as the test says: each waits for ``go``."""

    def __init__(self) -> None:
        self.go = threading.Event()
        self.drawing = threading.Event()
        self.frames: list[bytes] = []

    def display(self, image) -> None:
        self.drawing.set()
        assert self.go.wait(10)
        self.frames.append(image.tobytes())

    def cleanup(self) -> None:
        pass


def test_a_slow_display_holds_up_neither_the_table_nor_its_other_readers(table, fake_time):
    device = SlowDevice()
    device.go.set()                     # the first frame, drawn while the box is built
    box = Box(table, Display(device, "ssd1306"), clock=fake_time, schedule=fake_time.schedule)
    device.go.clear()
    device.drawing.clear()
    try:
        t0 = time.monotonic()
        table.act({"type": "hint"})     # the box's thread starts the frame and waits on the bus
        assert device.drawing.wait(5)
        table.act({"type": "hint"})     # the table goes on meanwhile, and so do its readers
        assert table.snapshot()["hints"] == 6
        assert box.screen() == Flash("hint", number=6)
        assert time.monotonic() - t0 < 2
        assert not box.flush(timeout=0.05)
        device.go.set()
        assert box.flush()
        assert device.frames[-1] == render(Flash("hint", number=6), "en").tobytes()
    finally:
        device.go.set()
        box.close()


def test_a_display_that_fails_a_frame_draws_the_next_one(table, display, fake_time, monkeypatch, caplog):
    box = Box(table, display, clock=fake_time, schedule=fake_time.schedule)
    show = display.show
    failures = []

    def once_broken(image):
        if not failures:
            failures.append(image)
            raise OSError("I2C bus busy")
        show(image)

    monkeypatch.setattr(display, "show", once_broken)
    try:
        table.act({"type": "hint"})
        assert box.flush() and failures and "could not be drawn" in caplog.text
        table.act({"type": "hint"})
        assert box.flush()
        assert display.image.tobytes() == render(Flash("hint", number=6), "en").tobytes()
    finally:
        box.close()


def test_a_closed_box_stops_drawing(table, display, fake_time):
    box = Box(table, display, clock=fake_time, schedule=fake_time.schedule)
    box.close()
    assert not box._drawer.is_alive()
    frames = display.frames
    table.act({"type": "hint"})
    assert display.frames == frames and box.flush()
