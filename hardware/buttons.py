"""The three buttons (HINT, UNDO, OK) on gpiozero, with press and hold told apart and debounced here.

Debouncing is done in this module rather than by gpiozero so that it behaves the same on every
pin driver and can be tested with mock pins: the first edge of a burst counts, the edges that
follow it within ``settle`` seconds are contact bounce, and once the contact has settled the
button takes whatever level the pin then shows.
"""
from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import partial
from typing import Any

from gpiozero import DigitalInputDevice
from gpiozero.exc import GPIOZeroError

from .display import HardwareError

log = logging.getLogger(__name__)

BUTTONS = ("hint", "undo", "ok")
PRESS, HOLD = "press", "hold"

# What a keyboard does in the demo, so keys and buttons go through the same command path.
KEYS: dict[str, tuple[str, str]] = {"h": ("hint", PRESS), "u": ("undo", PRESS), "o": ("ok", PRESS),
                                    "O": ("ok", HOLD)}

Handler = Callable[[str, str], Any]


@dataclass(frozen=True)
class ButtonPins:
    """BCM pin numbers (GPIO17 is header pin 11, GPIO27 pin 13, GPIO22 pin 15; ground on pin 9).
    Which pins are free is checked once, by the settings schema (``companion.app.config``)."""

    hint: int = 17
    undo: int = 27
    ok: int = 22


@dataclass
class Debouncer:
    """One button's contact, from raw edges to gestures: ``press`` on release after a short push,
    ``hold`` once the button has been down for ``hold_time`` (and no press when it comes up)."""

    settle: float = 0.03
    hold_time: float = 1.5
    down: bool = False
    _raw: bool = False
    _accepted_at: float = float("-inf")
    _down_at: float = 0.0
    _held: bool = False

    def edge(self, active: bool, now: float) -> list[str]:
        """The pin changed; within ``settle`` of the last accepted change it is bounce."""
        self._raw = active
        if now - self._accepted_at < self.settle:
            return []
        return self._accept(active, now)

    def poll(self, now: float) -> list[str]:
        """Called often: takes the settled level after a burst, and notices a hold."""
        out: list[str] = []
        if self._raw != self.down and now - self._accepted_at >= self.settle:
            out += self._accept(self._raw, now)
        if self.down and not self._held and now - self._down_at >= self.hold_time:
            self._held = True
            out.append(HOLD)
        return out

    def _accept(self, active: bool, now: float) -> list[str]:
        if active == self.down:
            return []
        self.down, self._accepted_at = active, now
        if active:
            self._down_at, self._held = now, False
            return []
        return [] if self._held else [PRESS]


class Buttons:
    """The three buttons on the GPIO header, wired to ground with the Pi's pull-ups.

    ``on_event(button, gesture)`` is called for each press or hold (from a pin or poll thread).
    ``pin_factory`` is gpiozero's (MockFactory in tests); ``poll_interval=None`` runs no poll thread,
    and the caller calls ``poll()`` itself.
    """

    def __init__(self, pins: ButtonPins | Mapping[str, int] | None = None, pin_factory: Any = None,
                 on_event: Handler | None = None, settle: float = 0.03, hold_time: float = 1.5,
                 poll_interval: float | None = 0.01, clock: Callable[[], float] = time.monotonic):
        if pins is None:
            pins = ButtonPins()
        elif not isinstance(pins, ButtonPins):
            pins = ButtonPins(**pins)
        self.pins = pins
        self.on_event = on_event
        self._clock = clock
        self._lock = threading.Lock()
        self._debounce = {b: Debouncer(settle, hold_time) for b in BUTTONS}
        self._devices: dict[str, Any] = {}
        try:
            for b in BUTTONS:
                dev = DigitalInputDevice(getattr(pins, b), pull_up=True, bounce_time=None,
                                         pin_factory=pin_factory)
                dev.when_activated = partial(self._edge, b, True)
                dev.when_deactivated = partial(self._edge, b, False)
                self._devices[b] = dev
        except (GPIOZeroError, OSError) as e:
            self.close()
            raise HardwareError(f"cannot use the buttons on BCM pins {pins}: {e}") from None
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        if poll_interval is not None:
            self._thread = threading.Thread(target=self._run, args=(poll_interval,), name="buttons",
                                            daemon=True)
            self._thread.start()

    def poll(self) -> None:
        now = self._clock()
        with self._lock:
            events = [(b, g) for b, d in self._debounce.items() for g in d.poll(now)]
        self._emit(events)

    def close(self) -> None:
        thread = getattr(self, "_thread", None)
        if thread is not None:
            self._stop.set()
            thread.join()
        for dev in self._devices.values():
            dev.close()
        self._devices.clear()

    def _edge(self, button: str, active: bool) -> None:
        now = self._clock()
        with self._lock:
            events = [(button, g) for g in self._debounce[button].edge(active, now)]
        self._emit(events)

    def _emit(self, events: list[tuple[str, str]]) -> None:
        for button, gesture in events:
            if self.on_event is None:
                continue
            try:
                self.on_event(button, gesture)
            except Exception:  # a failing command must not stop the buttons
                log.exception("button %s %s failed", button, gesture)

    def _run(self, interval: float) -> None:
        while not self._stop.wait(interval):
            self.poll()
