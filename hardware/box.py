"""The box: the table's state on the OLED, and the buttons' presses sent to the table.

It listens to the table, shows each change as a short flash before the dashboard comes back, and
sends an image to the display only when the image differs from the one already there: an I2C
write is slow on the Pi and there is no reason to make one for nothing.
"""
from __future__ import annotations

import threading
import time
from dataclasses import dataclass
from typing import Callable

from companion.table import Change, CommandError, Table

from .buttons import PRESS, Buttons
from .commands import refusal, run
from .display import Display
from .messages import check_language
from .screens import Dashboard, Flash, GameOver, Prompt, Refusal, Screen, Status, Teaching, render
from .status import BootStatus
from .view import View

Schedule = Callable[[float, Callable[[], object]], None]
TeachPress = Callable[[str], "tuple[bool, str]"]

# Changes that are not flashed: the screen that follows them says it all.
NO_FLASH = ("pending", "game_over")


@dataclass(frozen=True)
class Outcome:
    """What a press did: ``accepted`` by the table or refused; ``message`` the table's English line;
    ``reason`` the refusal's key (a rule, or the store's code when the SD card could not save it)."""

    accepted: bool
    message: str
    reason: str | None = None


def _timer(delay: float, fn: Callable[[], object]) -> None:
    t = threading.Timer(delay, fn)
    t.daemon = True
    t.start()


class Box:
    """The OLED and buttons of one table. Build it once the display (and buttons) exist:

    ``Box(table, get_display(cfg), Buttons(pins), lang="pl")``; then ``box.show_status(...)``.
    ``press(button, gesture)`` is the one command path for the buttons, web page and keyboard.
    ``clock`` and ``schedule(delay, fn)`` (when to end a flash) are replaceable for tests.
    """

    def __init__(self, table: Table, display: Display, buttons: Buttons | None = None, lang: str = "en",
                 flash_seconds: float = 2.0, status_seconds: float = 10.0,
                 clock: Callable[[], float] = time.monotonic, schedule: Schedule = _timer):
        self.table, self.display, self.buttons = table, display, buttons
        self.lang = check_language(lang)
        self.flash_seconds, self.status_seconds = flash_seconds, status_seconds
        self._clock, self._schedule = clock, schedule
        self._lock = threading.Lock()
        self._flash: Screen | None = None
        self._flash_until = 0.0
        self._boot: BootStatus | None = None
        self._shown: tuple[Screen, str] | None = None
        self._pixels: bytes | None = None
        self._version = 0
        self._teaching: Teaching | None = None
        self._teach_press: TeachPress | None = None
        table.add_listener(self._on_change)
        if buttons is not None:
            buttons.on_event = self.press
        if table.last_event is not None and table.last_event.kind == "restored":
            self._show_flash(Flash.of(table.last_event), self.flash_seconds)  # after a power cut
        else:
            self.refresh()

    # -- commands -------------------------------------------------------------------------------
    def press(self, button: str, gesture: str = PRESS) -> Outcome:
        """Press (or hold) a button. A refused press shows why on the screen and changes nothing.
        While a deck is taught the buttons belong to the lesson (OK keeps a picture, UNDO retakes)."""
        teach = self._teach_press
        if teach is not None:
            accepted, message = teach(button)
            return Outcome(accepted, message)
        try:
            change = run(self.table, button, gesture)
        except CommandError as e:
            self.refuse(e)
            return Outcome(False, str(e), refusal(e).reason)
        if change is None:  # OK with no card waiting: show where the web page is, if known
            if self._boot is None:
                self._show_flash(Refusal("nothing_pending"), self.flash_seconds)
                return Outcome(False, "no unsure card is waiting to be confirmed")
            self._show_flash(Status(self._boot), self.status_seconds)
            return Outcome(True, "status shown")
        return Outcome(True, change.text)

    def refuse(self, error: CommandError) -> None:
        """Show a refusal, for any command the table turned down (the camera's too)."""
        self._show_flash(refusal(error), self.flash_seconds)

    def show_status(self, boot: BootStatus) -> None:
        """The boot screen: web address, PIN and camera. Stays while there is no game, else for
        ``status_seconds``; OK brings it back whenever no card is waiting."""
        self._boot = boot
        self._show_flash(Status(boot), self.status_seconds)

    def teach(self, screen: Teaching | None, press: TeachPress | None = None) -> None:
        """While a deck is taught: show ``screen`` instead of the game and give the buttons to
        ``press``. The end of a lesson (a screen with no ``press``) shows for a moment, then the game."""
        with self._lock:
            self._teaching, self._teach_press = (screen, press) if press is not None else (None, None)
            self._version += 1
        if screen is not None and press is None:
            self._show_flash(screen, self.status_seconds)
        else:
            self.refresh()

    def set_language(self, lang: str) -> None:
        self.lang = check_language(lang)
        self.refresh()

    def close(self) -> None:
        self.table.remove_listener(self._on_change)
        if self.buttons is not None:
            self.buttons.on_event = None

    # -- drawing --------------------------------------------------------------------------------
    def screen(self) -> Screen:
        """What the box shows now."""
        return self._screen(View.of(self.table))

    def refresh(self) -> bool:
        """Draw what should be shown now; True only if a new image went to the display."""
        while True:
            version = self._version
            view = View.of(self.table)
            with self._lock:
                if version != self._version:  # the table changed meanwhile: look again
                    continue
                return self._draw(self._screen(view))

    def _screen(self, view: View | None) -> Screen:
        if self._teaching is not None:
            return self._teaching
        if self._flash is not None and self._clock() < self._flash_until:
            if not (view is None and isinstance(self._flash, Status)):
                return self._flash
        if view is None:
            return Status(self._boot, game=False)
        if view.pending is not None:
            return Prompt(view.pending)
        if view.over:
            return GameOver(view)
        return Dashboard(view)

    def _draw(self, screen: Screen) -> bool:
        if self._shown == (screen, self.lang):
            return False
        self._shown = (screen, self.lang)
        image = render(screen, self.lang)
        pixels = image.tobytes()
        if pixels == self._pixels:
            return False
        self._pixels = pixels
        self.display.show(image)
        return True

    def _show_flash(self, screen: Screen, seconds: float) -> None:
        with self._lock:
            self._flash, self._flash_until = screen, self._clock() + seconds
            self._version += 1
        self._schedule(seconds, self.refresh)
        self.refresh()

    def _on_change(self, table: Table, change: Change) -> None:
        if change.kind in NO_FLASH:
            with self._lock:
                self._flash = None
                self._version += 1
            self.refresh()
        else:
            self._show_flash(Flash.of(change), self.flash_seconds)
