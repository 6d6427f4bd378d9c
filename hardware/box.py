"""The box: the table's state on the OLED, and the buttons' presses sent to the table.

It listens to the table, shows each change as a short flash before the dashboard comes back, and
sends an image to the display only when the image differs from the one already there: an I2C
write is slow on the Pi (about 0.1 s a frame) and there is no reason to make one for nothing.
The table's changes are drawn by the box's own thread, so whoever changed the table (the camera,
a page) does not wait for the display.
"""
from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import partial

from companion.game.pairing import Pairing
from companion.game.table import Change, CommandError, Table

from .buttons import PRESS, Buttons
from .commands import refusal, run
from .display import Display
from .messages import check_language
from .screens import Dashboard, Flash, GameOver, Prompt, Refusal, Screen, Status, Teaching, render
from .status import BootStatus
from .view import View

log = logging.getLogger(__name__)

Schedule = Callable[[float, Callable[[], object]], None]
TeachPress = Callable[[str], "tuple[bool, str]"]
# A pairing code on screen is replaced when this share of its life is gone, so no phone scans it
# in its last seconds.
RENEW = 0.9

# Changes that are not flashed: the screen that follows them says it all.
NO_FLASH = ("pending", "game_over")
# Warnings that stay up twice as long as a flash, so that nobody misses them.
ALERTS = ("last_copy_lost", "pace_zero")
# Changes that come from the same action as an alert: they wait for it to end, not cut it short.
AFTER_ALERT = ALERTS + ("final_round",)


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
    With ``pairing``, the status screen carries a QR code of a one-time pairing token.
    A change of the table is drawn by the box's drawing thread (``flush()`` waits for it); what
    the box does itself (a refusal, the status, a lesson, a flash ending) is drawn at once.
    """

    def __init__(self, table: Table, display: Display, buttons: Buttons | None = None, lang: str = "en",
                 flash_seconds: float = 2.0, status_seconds: float = 10.0,
                 clock: Callable[[], float] = time.monotonic, schedule: Schedule = _timer,
                 pairing: Pairing | None = None):
        self.table, self.display, self.buttons = table, display, buttons
        self.pairing = pairing
        self.lang = check_language(lang)
        self.flash_seconds, self.status_seconds = flash_seconds, status_seconds
        self.alert_seconds = 2 * flash_seconds
        self._clock, self._schedule = clock, schedule
        self._lock = threading.Lock()       # what to show; never held while drawing
        self._frame = threading.Lock()      # one frame at a time to the display
        self._wake = threading.Condition()  # the drawing thread's: a change to draw, or close
        self._dirty = self._busy = self._closed = False
        self._flash: Screen | None = None
        self._flash_until = 0.0
        self._waiting: list[Flash] = []   # flashes held back until the alert on screen ends
        self._boot: BootStatus | None = None
        self._shown: tuple[Screen, str] | None = None
        self._pixels: bytes | None = None
        self._version = 0
        self._teaching: Teaching | None = None
        self._teach_press: TeachPress | None = None
        self._drawer = threading.Thread(target=self._drawing, name="oled", daemon=True)
        self._drawer.start()
        table.add_listener(self._on_change)
        if buttons is not None:
            buttons.on_event = self.press
        if pairing is not None:
            pairing.listeners.append(self._renew)
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
        if change is None:  # OK with no card waiting: show where the web page is (a fresh code), if known
            if self._boot is None:
                self._show_flash(Refusal("nothing_pending"), self.flash_seconds)
                return Outcome(False, "no unsure card is waiting to be confirmed")
            self._show_status(self._boot)
            return Outcome(True, "status shown")
        return Outcome(True, change.text)

    def refuse(self, error: CommandError) -> None:
        """Show a refusal, for any command the table turned down (the camera's too)."""
        self._show_flash(refusal(error), self.flash_seconds)

    def show_status(self, boot: BootStatus) -> None:
        """The boot screen: web address, PIN, camera and (with ``pairing`` and a network) the QR
        code that pairs a phone. Stays while there is no game, else for ``status_seconds``; OK
        brings it back, with a fresh code, whenever no card is waiting."""
        self._show_status(boot)

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

    def flush(self, timeout: float = 5.0) -> bool:
        """Wait until every change of the table told so far is on the display; False if
        ``timeout`` seconds passed first."""
        with self._wake:
            return self._wake.wait_for(lambda: not (self._dirty or self._busy), timeout)

    def close(self) -> None:
        """Stop listening and drawing; the display is the owner's to close after this."""
        self.table.remove_listener(self._on_change)
        if self.pairing is not None and self._renew in self.pairing.listeners:
            self.pairing.listeners.remove(self._renew)
        if self.buttons is not None:
            self.buttons.on_event = None
        with self._wake:
            self._closed = True
            self._wake.notify_all()
        self._drawer.join(timeout=5.0)

    # -- drawing --------------------------------------------------------------------------------
    def screen(self) -> Screen:
        """What the box shows now."""
        return self._screen(View.of(self.table))

    def refresh(self) -> bool:
        """Draw what should be shown now; True only if a new image went to the display."""
        with self._frame:  # a frame drawn after another shows what is current when its turn comes
            while True:
                version = self._version
                view = View.of(self.table)
                with self._lock:
                    if version != self._version:  # the box changed meanwhile: look again
                        continue
                    screen, lang = self._screen(view), self.table.lang or self.lang  # the game's, else the box's
                return self._draw(screen, lang)

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

    def _draw(self, screen: Screen, lang: str) -> bool:
        if self._shown == (screen, lang):
            return False
        self._shown = (screen, lang)
        image = render(screen, lang)
        pixels = image.tobytes()
        if pixels == self._pixels:
            return False
        self._pixels = pixels
        self.display.show(image)
        return True

    def _show_status(self, boot: BootStatus) -> None:
        """Show the status with a fresh pairing token (renewed while it stays on screen)."""
        if self.pairing is not None and boot.address:
            token = self.pairing.issue()
            boot = replace(boot, token=token)
            self._schedule(self.pairing.ttl * RENEW, partial(self._renew, token))
        with self._lock:
            self._boot = boot
        self._show_flash(Status(boot), self.status_seconds)

    def _renew(self, token: str) -> None:
        """The code on screen paired a phone (the next phone needs its own) or nears its end: while
        the status still shows ``token``, show it again with a fresh one."""
        screen = self.screen()
        if isinstance(screen, Status) and screen.boot is not None and screen.boot.token == token:
            self._show_status(screen.boot)

    def _show_flash(self, screen: Screen, seconds: float) -> None:
        self._set_flash(screen, seconds)
        self.refresh()

    def _set_flash(self, screen: Screen, seconds: float) -> None:
        with self._lock:
            self._flash, self._flash_until = screen, self._clock() + seconds
            self._version += 1
        self._schedule(seconds, self._flash_over)

    def _flash_over(self) -> None:
        """A flash's time is up: a flash held back by an alert comes next, else the table again."""
        with self._lock:
            follow = self._waiting.pop(0) if self._waiting and self._clock() >= self._flash_until else None
        if follow is None:
            self.refresh()
        else:
            self._show_flash(follow, self._seconds(follow))

    def _seconds(self, flash: Flash) -> float:
        return self.alert_seconds if flash.kind in ALERTS else self.flash_seconds

    def _on_change(self, table: Table, change: Change) -> None:
        """A change of the table: note what to show and wake the drawing thread, nothing slower."""
        if change.kind in NO_FLASH:
            with self._lock:
                self._flash = None
                self._waiting.clear()
                self._version += 1
        else:
            flash = Flash.of(change)
            with self._lock:
                alert_up = isinstance(self._flash, Flash) and self._flash.kind in ALERTS \
                    and self._clock() < self._flash_until
                wait = alert_up and change.kind in AFTER_ALERT
                if wait:
                    self._waiting.append(flash)
                else:
                    self._waiting.clear()
            if not wait:
                self._set_flash(flash, self._seconds(flash))
        with self._wake:
            self._dirty = True
            self._wake.notify_all()

    def _drawing(self) -> None:
        """The drawing thread: one frame per burst of changes, whatever the table does meanwhile."""
        while True:
            with self._wake:
                while not self._dirty and not self._closed:
                    self._busy = False
                    self._wake.notify_all()
                    self._wake.wait()
                if self._closed:
                    self._busy = self._dirty = False
                    self._wake.notify_all()
                    return
                self._dirty, self._busy = False, True
            try:
                self.refresh()
            except Exception:  # a display that fails once must not stop the next frames
                log.exception("the screen could not be drawn")
