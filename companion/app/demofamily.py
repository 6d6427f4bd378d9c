"""The demo's family teaching the box its deck: while a lesson runs, the bot waits, the mat is
cleared, and each card the box asks for is laid on top of the PLAY pile (for a retake, another copy
of it, as a hand lays a card: never twice on exactly the same spot); when the lesson ends the mat
is put back as the game left it."""
from __future__ import annotations

import threading
from typing import Any

from .demo import DemoDriver, TableScene


class DemoFamily:
    """Listens to ``teacher`` (a ``companion.app.teaching.Teacher``); ``delay``: seconds between lifting
    a card and laying the next, as a hand would take."""

    def __init__(self, teacher: Any, scene: TableScene, driver: DemoDriver | None = None, delay: float = 0.4):
        self.teacher, self.scene, self.driver, self.delay = teacher, scene, driver, delay
        self._asked: str | None = None
        self._game: dict[str, list[str]] | None = None   # the piles of the game, while teaching
        self._lock = threading.Lock()
        self._timer: threading.Timer | None = None
        teacher.listeners.append(self.changed)

    def changed(self) -> None:
        st = self.teacher.state()
        with self._lock:
            if st["active"] and self._game is None:
                if self.driver is not None:
                    self.driver.hold.set()
                self._game = self.scene.snapshot()[0]
                self.scene.clear()
            asked = st["asked"] if st["active"] else None
            if asked is not None and asked != self._asked:
                self._later(lambda card=asked: self.scene.place("play", card))
            self._asked = asked
            if not st["active"] and self._game is not None:
                self._cancel_timer()
                self.scene.clear()
                for zone, cards in self._game.items():
                    for card in cards:
                        self.scene.place(zone, card)
                self._game = None
                if self.driver is not None:
                    self.driver.hold.clear()

    def _later(self, fn: Any) -> None:
        self._cancel_timer()
        self._timer = threading.Timer(self.delay, fn)
        self._timer.daemon = True
        self._timer.start()

    def _cancel_timer(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
