"""The buttons on gpiozero's mock pins: press, hold, contact bounce, pins from config."""
from __future__ import annotations

import time

import pytest
from gpiozero.pins.mock import MockFactory

from hardware.buttons import HOLD, PRESS, ButtonPins, Buttons, Debouncer

from .conftest import FakeTime


@pytest.fixture
def factory() -> MockFactory:
    return MockFactory()


@pytest.fixture
def buttons(factory: MockFactory, fake_time: FakeTime):
    events: list[tuple[str, str]] = []
    b = Buttons(pin_factory=factory, on_event=lambda button, gesture: events.append((button, gesture)),
                settle=0.03, hold_time=1.5, poll_interval=None, clock=fake_time)
    b.events = events
    yield b
    b.close()


def push(factory: MockFactory, pin: int) -> None:
    factory.pin(pin).drive_low()   # buttons pull the pin to ground


def release(factory: MockFactory, pin: int) -> None:
    factory.pin(pin).drive_high()


def settle(buttons: Buttons, fake_time: FakeTime, seconds: float = 0.05) -> None:
    fake_time.advance(seconds)
    buttons.poll()


def test_a_press_is_reported_on_release(buttons, factory, fake_time):
    push(factory, 17)
    settle(buttons, fake_time, 0.1)
    assert buttons.events == []
    release(factory, 17)
    assert buttons.events == [("hint", PRESS)]


def test_each_button_reports_its_own_name(buttons, factory, fake_time):
    for pin in (17, 27, 22):
        push(factory, pin)
        settle(buttons, fake_time)
        release(factory, pin)
        settle(buttons, fake_time)
    assert buttons.events == [("hint", PRESS), ("undo", PRESS), ("ok", PRESS)]


def test_holding_reports_hold_once_and_no_press(buttons, factory, fake_time):
    push(factory, 22)
    for _ in range(40):             # two seconds down, polled every 50 ms
        settle(buttons, fake_time)
    release(factory, 22)
    settle(buttons, fake_time)
    assert buttons.events == [("ok", HOLD)]


def test_ten_toggles_within_20_ms_count_once(buttons, factory, fake_time):
    for i in range(10):             # a bouncing contact: down, up, down, ... every 2 ms
        (push if i % 2 == 0 else release)(factory, 27)
        fake_time.advance(0.002)
    settle(buttons, fake_time)
    settle(buttons, fake_time)
    assert buttons.events == [("undo", PRESS)]


def test_bounce_on_press_and_on_release_still_counts_once(buttons, factory, fake_time):
    for i in range(9):              # ends down: the button is held after bouncing
        (push if i % 2 == 0 else release)(factory, 17)
        fake_time.advance(0.002)
    settle(buttons, fake_time, 0.2)
    for i in range(9):              # ends up: released after bouncing
        (release if i % 2 == 0 else push)(factory, 17)
        fake_time.advance(0.002)
    settle(buttons, fake_time)
    settle(buttons, fake_time)
    assert buttons.events == [("hint", PRESS)]


def test_two_real_presses_count_twice(buttons, factory, fake_time):
    for _ in range(2):
        push(factory, 17)
        settle(buttons, fake_time, 0.1)
        release(factory, 17)
        settle(buttons, fake_time, 0.1)
    assert buttons.events == [("hint", PRESS), ("hint", PRESS)]


def wait_for(condition, timeout: float = 2.0) -> bool:
    end = time.monotonic() + timeout
    while not condition() and time.monotonic() < end:
        time.sleep(0.005)
    return condition()


def test_the_poll_thread_reports_presses_and_holds_in_real_time(factory):
    events: list[tuple[str, str]] = []
    b = Buttons(pin_factory=factory, on_event=lambda *e: events.append(e), settle=0.01, hold_time=0.1,
                poll_interval=0.005)
    try:
        for i in range(10):
            (push if i % 2 == 0 else release)(factory, 17)
        # the last toggle left it up: once settled, that was one press
        assert wait_for(lambda: events == [("hint", PRESS)]), events
        push(factory, 22)
        assert wait_for(lambda: len(events) == 2), events
        release(factory, 22)
        time.sleep(0.05)
    finally:
        b.close()
    assert events == [("hint", PRESS), ("ok", HOLD)]


def test_debouncer_accepts_a_quick_tap_shorter_than_settle():
    d = Debouncer(settle=0.03, hold_time=1.0)
    assert d.edge(True, 0.0) == []
    assert d.edge(False, 0.01) == []     # released within the settle time: not yet believed
    assert d.poll(0.02) == []
    assert d.poll(0.03) == [PRESS]       # settled up: that was a tap
    assert d.poll(2.0) == []


def test_pins_come_from_config(factory):
    b = Buttons({"hint": 5, "undo": 6, "ok": 13}, pin_factory=factory, poll_interval=None)
    try:
        assert b.pins == ButtonPins(hint=5, undo=6, ok=13)
        assert factory.pin(5).state == 1  # pulled up while the button is open
    finally:
        b.close()


def test_a_failing_handler_does_not_stop_the_buttons(buttons, factory, fake_time):
    seen = []

    def handler(button, gesture):
        seen.append(button)
        raise RuntimeError("the table's store is gone")

    buttons.on_event = handler
    for _ in range(2):
        push(factory, 17)
        settle(buttons, fake_time, 0.1)
        release(factory, 17)
        settle(buttons, fake_time, 0.1)
    assert seen == ["hint", "hint"]
