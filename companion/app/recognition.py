"""The camera's one owner: reads frames, lets the watcher find new cards, and tells the table.

A sure card becomes a play or discard at once; an unsure one waits on the table for OK or a
correction. Whatever fails (the card model, the deck profile, the camera) leaves the service in
``fault`` with a one-line reason and is tried again; the game never depends on it.
"""
from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from companion.game.camera import CameraEvent, CardPlaced, Detailed, Source, Watcher
from companion.game.reading import SURE, Reading, weigh
from companion.game.table import CommandError, Table

log = logging.getLogger(__name__)


# Why the camera is in fault: model (the card classifier), profile (the deck profile), camera (opening
# or reading it), watcher (anything else while setting up the recognition).
PROBLEMS = ("model", "profile", "camera", "watcher")
REASON_LENGTH = 300
QUIET_SECONDS = 2.0  # after teaching, what the camera sees this long is what was laid while teaching


class CameraFault(RuntimeError):
    """Recognition cannot work; ``problem`` (one of PROBLEMS) says which part to fix."""

    def __init__(self, problem: str, message: str):
        super().__init__(message)
        self.problem = problem


@dataclass(frozen=True)
class CameraState:
    """``status``: ok, missing (no camera configured) or fault; in fault, ``problem`` and ``reason``
    (one line for people) say why."""

    status: str = "missing"
    problem: str | None = None
    reason: str | None = None


def one_line(error: BaseException) -> str:
    """An exception as one short line for the page and the log (never a traceback)."""
    text = " ".join(str(error).split()) or type(error).__name__
    return text if len(text) <= REASON_LENGTH else text[:REASON_LENGTH - 1] + "…"


def on_top(actions: Sequence[dict[str, Any]]) -> dict[str, str]:
    """The card last laid in each zone (``play``, ``discard``) as the game's record has it: the card
    on top of that pile on the mat."""
    top = {}
    for action in actions:
        if action.get("type") in ("play", "discard") and action.get("card") is not None:
            top[str(action["type"])] = str(action["card"])
    return top


class CameraService:
    """Runs in its own thread: builds the watcher, opens the camera and reads it, and after any failure
    waits ``retry_seconds`` and tries again. With no camera configured (``open_source`` None) it only
    checks that recognition could work, so a broken setup shows before the camera is plugged in.
    ``clock`` and ``wait(seconds)`` (True when stopped) are replaceable for tests."""

    def __init__(self, table: Table, open_source: Callable[[], Source] | None,
                 make_watcher: Callable[[], Watcher], fps: float = 10.0, confidence: float = SURE,
                 retry_seconds: float = 5.0, on_refused: Callable[[CommandError], None] | None = None,
                 clock: Callable[[], float] = time.monotonic,
                 wait: Callable[[float], bool] | None = None):
        self.table = table
        self._open, self._make_watcher = open_source, make_watcher
        self.period, self.confidence, self.retry = 1.0 / fps, confidence, retry_seconds
        self.on_refused = on_refused
        self._clock = clock
        self._stop = threading.Event()
        self._wait = wait or self._stop.wait
        self.state = CameraState()
        self._watcher: Watcher | None = None
        self.frames = 0
        self._thread: threading.Thread | None = None
        self._borrowed: Callable[[Any, float, Callable[[], Any] | None], Any] | None = None
        self._rebuild = False
        self._quiet_until = float("-inf")
        self._update: Callable[[Watcher], None] | None = None
        self.on_told: Callable[[CardPlaced, int], None] | None = None  # a card told the table, and where it lands
        self._known: dict[str, str] = {}    # the card on top of each pile as last told the watcher
        self._known_to: Watcher | None = None  # that watcher
        self._game_start: Any = None  # the first state of the game that watcher reads

    @property
    def status(self) -> str:
        return self.state.status

    @property
    def error(self) -> str | None:
        return self.state.reason

    def start(self) -> None:
        self._thread = threading.Thread(target=self._run, name="camera", daemon=True)
        self._thread.start()

    def stop(self) -> bool:
        """Stop reading, waiting up to 5 s for the frame being read; False if it is still read."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=5)
        return not self.alive()

    def alive(self) -> bool:
        """False once the thread has ended: stopped, or nothing left to do (no camera configured)."""
        return self._thread is not None and self._thread.is_alive()

    def pause(self, feed: Callable[[Any, float, Callable[[], Any] | None], Any]) -> None:
        """Judge no card: give each frame to ``feed(frame, now, detail)`` instead (a deck being
        taught lies in PLAY, and none of its cards is a play; ``detail`` as ``Watcher.feed``'s)."""
        self._borrowed = feed

    def resume(self, make_watcher: Callable[[], Watcher] | None = None) -> None:
        """Judge cards again, with a fresh watcher (from ``make_watcher`` when given: a new deck
        profile). The cards still lying on the mat were laid while teaching: the events of the first
        seconds are dropped, so they never become plays."""
        if make_watcher is not None:
            self._make_watcher = make_watcher
            self._watcher = None
        self._rebuild = True
        self._borrowed = None

    def refresh(self, make_watcher: Callable[[], Watcher] | None, update: Callable[[Watcher], None]) -> None:
        """Read with a new deck profile without a new watcher: the piles it knows stay known and no
        card laid meanwhile is dropped. ``update(watcher)`` runs on the camera thread before its next
        frame; ``make_watcher`` builds every later watcher (None: as before, for a profile that
        lasts only while the game does)."""
        if make_watcher is not None:
            self._make_watcher = make_watcher
        self._update = update

    @property
    def configured(self) -> bool:
        """A camera is set up (it may still be opening, or in fault)."""
        return self._open is not None

    @property
    def paused(self) -> bool:
        return self._borrowed is not None

    def handle(self, event: CameraEvent) -> None:
        """Turn one watcher event into a table command (cleared zones need none). The reading is
        weighed over the cards this game can still take (``reading.weigh``): a sure card is played
        or discarded, and any other waits for OK, as does one read as a card whose copies are all
        on the table (this card or an earlier one was misread: asked, not refused and lost)."""
        if not isinstance(event, CardPlaced) or event.zone not in ("play", "discard"):
            return
        reading = self._weigh(event)
        card = reading.card or (event.card or (event.candidates[0] if event.candidates else None))
        if card is None:
            return
        index = len(self.table.actions)  # where the card's action lands, at once or once it is OK'd
        try:
            if reading.sure(self.confidence):
                self.table.act({"type": event.zone, "card": card})
            else:
                self.table.propose({"type": event.zone, "card": card}, reading.confidence,
                                   list(reading.candidates or (card,)))
        except CommandError as e:
            log.info("camera saw %s in %s, refused: %s", card, event.zone, e)
            if self.on_refused is not None:
                self.on_refused(e)
            return
        if self.on_told is not None:
            self.on_told(event, index)

    def _tell_known(self, watcher: Watcher) -> None:
        """Tell the watcher the card on top of each pile as the game's record has it, when that
        changed: a correction, or the answer at the OK prompt, names the card now on the pile, and a
        watcher that starts during a game (the box restarted, the camera came back) learns what
        already lies there instead of announcing it again."""
        if watcher is not self._known_to:
            self._known, self._known_to, self._game_start = {}, watcher, None
        game = self.table.game
        if game is None:
            return
        if game.states[0] is not self._game_start:  # an undo keeps the first state; a new game does not
            if self._game_start is not None:
                watcher.new_game()
            self._game_start = game.states[0]
        for zone, card in on_top(game.actions).items():
            if self._known.get(zone) != card:
                self._known[zone] = card
                watcher.known(zone, card)

    def _weigh(self, event: CardPlaced) -> Reading:
        """The event as this game can take it (in PLAY, a card that would fit is the likelier); an
        event without probabilities keeps its confidence for its best guess (its other candidates:
        named, how likely not known)."""
        game = self.table.game
        if game is None:
            return Reading(event.card, event.confidence, event.candidates)
        if event.probabilities:
            return weigh(event.probabilities, game.state, event.zone)
        named = tuple(dict.fromkeys(((event.card,) if event.card else ()) + event.candidates))
        return weigh(tuple((c, event.confidence if i == 0 else 0.0) for i, c in enumerate(named)), game.state)

    def attempt(self) -> bool:
        """One go: build the watcher, open the camera, read until it fails or the service stops.
        False when there is nothing more to try (no camera configured and recognition works)."""
        try:
            watcher = self._watcher or self._make_watcher()
        except Exception as e:  # model or profile missing, unreadable, from another version
            self._fault(getattr(e, "problem", "watcher"), e)
            return True
        if self._open is None:
            self._set(CameraState("missing"))
            return False
        self._watcher = watcher  # kept while the camera cannot be opened: the model loads once
        try:
            source = self._open()
        except Exception as e:  # unplugged, busy, no driver
            self._fault(getattr(e, "problem", "camera"), e)
            return True
        self._watcher = None  # a camera opened again starts with a fresh watcher
        try:
            self._read(source, watcher)
        except Exception as e:
            self._fault(getattr(e, "problem", "camera"), e)
        finally:
            try:
                source.close()
            except Exception as e:
                log.debug("camera close failed: %s", one_line(e))
        return True

    def _run(self) -> None:
        while not self._stop.is_set() and self.attempt():
            if self._wait(self.retry):
                return

    def _fault(self, problem: str, error: BaseException) -> None:
        self._set(CameraState("fault", problem if problem in PROBLEMS else "watcher", one_line(error)))

    def _set(self, state: CameraState) -> None:
        if state != self.state and state.status == "fault":
            log.warning("camera fault: %s; the game goes on by hand, trying again every %g s",
                        state.reason, self.retry)
        self.state = state

    def _read(self, source: Source, watcher: Watcher) -> None:
        detail = source.detail if isinstance(source, Detailed) else None
        while not self._stop.is_set():
            started = self._clock()
            frame = source.read()
            self.frames += 1
            if self.state.status != "ok":
                log.info("camera ok")
                self.state = CameraState("ok")
            borrowed = self._borrowed
            if borrowed is not None:
                borrowed(frame, started, detail)
            else:
                if self._rebuild:
                    watcher = self._make_watcher()
                    self._rebuild = False
                    self._quiet_until = started + max(QUIET_SECONDS, 5 * self.period)
                update, self._update = self._update, None
                if update is not None:
                    update(watcher)
                self._tell_known(watcher)
                events = watcher.feed(frame, started, detail)
                if started >= self._quiet_until:
                    for event in events:
                        self.handle(event)
            if self._wait(max(0.0, self.period - (self._clock() - started))):
                return
