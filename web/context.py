"""What the pages and the API share: the table, its store, the live stream and the box's parts."""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from flask import current_app

from companion.game.store import Store
from companion.game.table import Table

from .auth import Pairing
from .events import Broadcaster
from .state import table_state

BUTTONS = ("hint", "undo", "ok")


@dataclass
class Context:
    table: Table
    store: Store | None
    pairing: Pairing
    camera_status: Callable[[], str]
    lang: str
    camera_reason: Callable[[], str | None] = lambda: None
    oled_image: Callable[[], Any] | None = None
    buttons: Any = None
    teacher: Any = None
    speech: Any = None  # spoken announcements (hardware.speech.Speech), on the box only
    broadcaster: Broadcaster | None = None

    def game_lang(self) -> str:
        """The language chosen for the current game (the box's default if none was)."""
        return self.table.lang or self.lang

    def state(self) -> dict[str, Any]:
        return table_state(self.table, self.camera_status, self.game_lang(), self.camera_reason)

    def press(self, name: str) -> Any:
        """Press one of the box's buttons (demo): a callable or an object with ``press(name)``."""
        press = getattr(self.buttons, "press", self.buttons)
        return press(name)


def ctx() -> Context:
    return current_app.extensions["companion"]
