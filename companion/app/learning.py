"""The box learns the family's deck as they play: after each game, every card its camera told the
table goes into the deck profile under the card the game settled on, and the profile, fitted again
in the background, reads the next game.

Only the game's own record names a card (the camera's reading is just the first guess). While the
box has no profile of the deck on the table, each card also joins the deck's model as soon as the
record holds it (renamed or dropped if it is corrected or undone), so the rest of the game is read
knowing it (``vision.learning.GameDeck``); that model lasts only while the game does. At its end
the game's cards go into the profile that is kept; a game abandoned for a new one is learned as it
stood. A deck the family taught is left as they taught it
(``vision.learning``): the box learns only into its own learned profile, kept beside the game
store, and points the settings at it.
"""
from __future__ import annotations

import logging
import os
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from companion.game.camera import CardPlaced
from companion.game.table import Change, Game, Table

from .config import ConfigError
from .recognition import CameraService, one_line
from .settingsfile import set_key

log = logging.getLogger(__name__)
BACKGROUND_NICE = 10  # how much less the threads that learn the deck get of the processor than the camera
NICEST = 19  # Linux's highest nice value
CLOSE_WAIT = 10.0     # seconds the box waits at exit for them (systemd's unit allows 15 to stop)


@dataclass(frozen=True)
class Sighting:
    """A card the camera told the table: ``index`` is where its action landed (or will, once OK'd)."""

    index: int
    zone: str
    picture: Any


def named(game: Game, sightings: list[Sighting]) -> dict[int, tuple[str, Any]]:
    """Each picture with the card the game's record holds at its place, by the place. A card
    proposed and then dismissed, or undone, left another action there (or none) and is dropped,
    unless it is a card laid in the same zone, entered by hand instead."""
    out = {}
    for s in sightings:
        action = game.actions[s.index] if s.index < len(game.actions) else None
        if action is not None and action.get("type") == s.zone and "card" in action and s.picture is not None:
            out[s.index] = (str(action["card"]), s.picture)
    return out


@dataclass
class DeckLearner:
    """``profile()``: the profile the camera reads with now (None: none); ``own``: where the box
    keeps the profile it learns; ``use_profile(path)`` makes the camera read with it.
    ``read_with(profile, grown)`` makes the camera read with a profile that is not saved (the game's
    own, grown as it goes). ``learn(pictures, old)`` fits (``vision.learning.learn``) and
    ``grow(old)`` makes the game's deck (``vision.learning.GameDeck``), replaceable for tests."""

    table: Table
    camera: CameraService
    profile: Callable[[], str | None]
    own: str
    settings_path: str | None
    use_profile: Callable[[str], None]
    read_with: Callable[[Any, bool], None] = lambda profile, grown: None
    learn: Callable[..., Any] | None = None
    grow: Callable[[Any], Any] | None = None
    busy: Callable[[], bool] = lambda: False
    sightings: list[Sighting] = field(default_factory=list)
    learned: int = 0                      # games learned from since the box started
    _last: Game | None = None
    _lock: threading.Lock = field(default_factory=threading.Lock)
    _thread: threading.Thread | None = None
    _growing: _Growing | None = None
    _stopping: list[_Growing] = field(default_factory=list)  # games' decks told to stop, maybe not yet stopped
    _closed: bool = False

    def attach(self) -> None:
        self.camera.on_told = self.seen
        self.table.add_listener(self.changed)

    def seen(self, event: CardPlaced, index: int) -> None:
        """The camera told the table this card (camera thread); judged at once, it is settled."""
        with self._lock:
            self.sightings.append(Sighting(index, event.zone, event.picture))
        self._settled(self.table.game)

    def changed(self, table: Table, change: Change) -> None:
        """A table listener: a game over, or a new game over an unfinished one, is learned from;
        during a game, the cards the record settles grow the game's deck."""
        game = self._last if change.kind == "new_game" else table.game
        if change.kind in ("game_over", "new_game") and game is not None:
            with self._lock:
                sightings, self.sightings = self.sightings, []
            self._stop_growing()
            self._start(list(named(game, sightings).values()))
        else:
            self._settled(table.game)
        self._last = table.game

    def _settled(self, game: Game | None) -> None:
        """The game's cards as its record holds them now go to the game's deck (grown apart)."""
        if game is None or game.state.over:
            return
        with self._lock:
            now = named(game, self.sightings)
            if not now or self._closed:
                return
            if self._growing is None:
                self._growing = _Growing(self)
            growing = self._growing
        growing.want(now)

    def _stop_growing(self) -> None:
        """The game's deck lasts only while the game does: the camera reads with the saved profile
        again (until the game's cards are learned into it)."""
        with self._lock:
            growing, self._growing = self._growing, None
            self._stopping = [g for g in self._stopping if g.thread.is_alive()]
            if growing is not None:
                self._stopping.append(growing)
        if growing is not None and growing.stop():
            self.read_with(growing.old, False)

    def wait(self, timeout: float | None = None) -> None:
        """Until the profile being fitted is saved (tests)."""
        thread = self._thread
        if thread is not None:
            thread.join(timeout)

    def close(self, timeout: float = CLOSE_WAIT) -> bool:
        """Before the box exits (the camera stopped): stop growing the game's deck and fitting the
        last game's cards (that game is then not learned), and give them up to ``timeout`` seconds
        to end, as OpenCV aborts a process that exits while another thread runs the network. False
        if one still runs."""
        with self._lock:
            self._closed = True  # the page may still take actions: no game's deck starts growing now
        self._stop_growing()
        deadline = time.monotonic() + timeout
        for growing in self._stopping:
            growing.thread.join(max(deadline - time.monotonic(), 0))
        self.wait(max(deadline - time.monotonic(), 0))
        threads = [g.thread for g in self._stopping] + ([self._thread] if self._thread is not None else [])
        return not any(thread.is_alive() for thread in threads)

    def _start(self, pictures: list[tuple[str, Any]]) -> None:
        from vision.learning import MIN_CARDS
        if len(pictures) < MIN_CARDS or self.camera.paused or self.busy() or self._closed:
            return  # too little to go by, a deck is being taught (its profile will do), or the box stops
        if self._thread is not None and self._thread.is_alive():
            log.info("learning the deck: still fitting the last game's cards; this game's are left out")
            return
        self._thread = threading.Thread(target=self._fit_in_background, args=(pictures,), name="learn-deck",
                                        daemon=True)
        self._thread.start()

    def _fit_in_background(self, pictures: list[tuple[str, Any]]) -> None:
        in_the_background()
        self._fit(pictures)

    def _fit(self, pictures: list[tuple[str, Any]]) -> None:
        from vision.classifier import Profile
        from vision.learning import learn
        from vision.teach import Stopped
        current = self.profile()
        try:
            old = Profile.load(current) if current else None
            learned = (self.learn or learn)(pictures, old, stop=lambda: self._closed)
            if learned is None:
                log.info("learning the deck: the taught profile is kept as it is")
                return
            os.makedirs(os.path.dirname(self.own) or ".", exist_ok=True)
            learned.profile.save(self.own)
        except Stopped:
            log.info("learning the deck: the box stopped before this game's %d cards were learned", len(pictures))
            return
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


class _Growing:
    """The game's deck, grown in a thread of its own: the newest record of the game's cards is the
    one fitted (a fit takes a second or two; a card is laid every half minute or so)."""

    def __init__(self, learner: DeckLearner) -> None:
        self.learner = learner
        self.old: Any = None
        self._wanted: dict[int, tuple[str, Any]] | None = None
        self._wake = threading.Event()
        self._stopped = False
        self._used = False
        self._lock = threading.Lock()
        self.thread = threading.Thread(target=self._run, name="grow-deck", daemon=True)
        self.thread.start()

    def want(self, named_now: dict[int, tuple[str, Any]]) -> None:
        self._wanted = named_now
        self._wake.set()

    def stop(self) -> bool:
        """Stop growing; True if the camera has read with the game's deck."""
        with self._lock:
            self._stopped = True
            self._wake.set()
            return self._used

    def _run(self) -> None:
        from vision.classifier import Profile
        from vision.learning import GameDeck
        learner = self.learner
        in_the_background()
        try:
            current = learner.profile()
            self.old = Profile.load(current) if current else None
            deck = (learner.grow or GameDeck)(self.old)
            while self._wake.wait() and not self._stopped:
                self._wake.clear()
                wanted = self._wanted
                if wanted is None or learner.camera.paused or learner.busy():
                    continue
                profile = deck.update(wanted, stop=lambda: self._stopped)
                with self._lock:
                    if profile is None or self._stopped:
                        continue
                    learner.read_with(profile, True)
                    self._used = True
                log.debug("reading the rest of the game with its %d cards settled so far", len(wanted))
        except Exception as e:  # the model missing, the profile unreadable: the game is read as before
            log.warning("learning the deck during the game stopped: %s", one_line(e))


def in_the_background() -> None:
    """The calling thread yields the processor to the others (the camera's): Linux gives each thread
    its own nice value, by its id. ``BACKGROUND_NICE`` more than its own, so a box started with a
    nice value of its own (a service's ``Nice=``) still puts it behind the camera. Elsewhere, or if
    the system refuses, nothing changes."""
    try:
        me = threading.get_native_id()
        os.setpriority(os.PRIO_PROCESS, me, min(os.getpriority(os.PRIO_PROCESS, me) + BACKGROUND_NICE, NICEST))
    except (AttributeError, OSError):
        pass
