"""The box learns the family's deck as they play: after each game, every card its camera told the
table goes into the deck profile under the card the game settled on, and the profile, fitted again
in the background, reads the next game.

Only the game's own record names a card (the camera's reading is just the first guess), so nothing
is learned until the game is over; a game abandoned for a new one is learned as it stood. A deck the
family taught is left as they taught it (``vision.learning``): the box learns only into its own
learned profile, kept beside the game store, and points the settings at it.
"""
from __future__ import annotations

import logging
import os
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from companion.game.camera import CardPlaced
from companion.game.table import Change, Game, Table

from .config import ConfigError
from .recognition import CameraService, one_line
from .settingsfile import set_key

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Sighting:
    """A card the camera told the table: ``index`` is where its action landed (or will, once OK'd)."""

    index: int
    zone: str
    picture: Any


def named(game: Game, sightings: list[Sighting]) -> list[tuple[str, Any]]:
    """Each picture with the card the game's record holds at its place. A card proposed and then
    dismissed, or undone, left another action there (or none) and is dropped, unless it is a card
    laid in the same zone, entered by hand instead."""
    out = []
    for s in sightings:
        action = game.actions[s.index] if s.index < len(game.actions) else None
        if action is not None and action.get("type") == s.zone and "card" in action and s.picture is not None:
            out.append((str(action["card"]), s.picture))
    return out


@dataclass
class DeckLearner:
    """``profile()``: the profile the camera reads with now (None: none); ``own``: where the box
    keeps the profile it learns; ``use_profile(path)`` makes the camera read with it.
    ``learn(pictures, old)`` fits (``vision.learning.learn``), replaceable for tests."""

    table: Table
    camera: CameraService
    profile: Callable[[], str | None]
    own: str
    settings_path: str | None
    use_profile: Callable[[str], None]
    learn: Callable[..., Any] | None = None
    busy: Callable[[], bool] = lambda: False
    sightings: list[Sighting] = field(default_factory=list)
    learned: int = 0                      # games learned from since the box started
    _last: Game | None = None
    _lock: threading.Lock = field(default_factory=threading.Lock)
    _thread: threading.Thread | None = None

    def attach(self) -> None:
        self.camera.on_told = self.seen
        self.table.add_listener(self.changed)

    def seen(self, event: CardPlaced, index: int) -> None:
        """The camera told the table this card (camera thread)."""
        with self._lock:
            self.sightings.append(Sighting(index, event.zone, event.picture))

    def changed(self, table: Table, change: Change) -> None:
        """A table listener: a game over, or a new game over an unfinished one, is learned from."""
        game = self._last if change.kind == "new_game" else table.game
        if change.kind in ("game_over", "new_game") and game is not None:
            with self._lock:
                sightings, self.sightings = self.sightings, []
            self._start(named(game, sightings))
        self._last = table.game

    def wait(self, timeout: float | None = None) -> None:
        """Until the profile being fitted is saved (tests)."""
        thread = self._thread
        if thread is not None:
            thread.join(timeout)

    def _start(self, pictures: list[tuple[str, Any]]) -> None:
        from vision.learning import MIN_CARDS
        if len(pictures) < MIN_CARDS or self.camera.paused or self.busy():
            return  # too little to go by, or a deck is being taught: its profile will do
        if self._thread is not None and self._thread.is_alive():
            log.info("learning the deck: still fitting the last game's cards; this game's are left out")
            return
        self._thread = threading.Thread(target=self._fit, args=(pictures,), name="learn-deck", daemon=True)
        self._thread.start()

    def _fit(self, pictures: list[tuple[str, Any]]) -> None:
        from vision.classifier import Profile
        from vision.learning import learn
        current = self.profile()
        try:
            old = Profile.load(current) if current else None
            learned = (self.learn or learn)(pictures, old)
            if learned is None:
                log.info("learning the deck: the taught profile is kept as it is")
                return
            os.makedirs(os.path.dirname(self.own) or ".", exist_ok=True)
            learned.profile.save(self.own)
        except Exception as e:  # the model missing, the profile unreadable, the disk full: the camera goes on
            log.warning("learning the deck from this game failed: %s", one_line(e))
            return
        if current != self.own and self.settings_path is not None:
            try:
                set_key(self.settings_path, "camera", "profile", self.own)
            except (ConfigError, OSError) as e:
                log.warning("the learned profile is in %s, but the settings could not be changed: %s",
                            self.own, one_line(e))
        if self.camera.paused or self.busy():
            return  # a deck is being taught meanwhile: its profile is the one to use
        self.use_profile(self.own)
        self.learned += 1
        log.info("learned the deck from %d cards of the game (%d kinds%s): %s", len(pictures), learned.kinds,
                 ", a new deck" if learned.fresh else "", self.own)
