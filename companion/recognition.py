"""The camera's one owner: reads frames, lets the watcher find new cards, and tells the table.

A sure card becomes a play or discard at once; an unsure one waits on the table for OK or a
correction. A camera that fails or is missing is retried; the game never depends on it.
"""
from __future__ import annotations

import logging
import threading
import time
from typing import Any, Callable, Protocol

from .table import CommandError, Table

log = logging.getLogger(__name__)


class Source(Protocol):
    def read(self) -> Any: ...
    def close(self) -> None: ...


class Watcher(Protocol):
    def feed(self, frame: Any, now: float) -> list[Any]: ...


class CameraService:
    """Runs in its own thread. ``status`` is ok, missing (no camera) or fault (it stopped working)."""

    def __init__(self, table: Table, open_source: Callable[[], Source] | None,
                 make_watcher: Callable[[], Watcher], fps: float = 10.0, confidence: float = 0.9,
                 retry_seconds: float = 5.0, on_refused: Callable[[CommandError], None] | None = None,
                 clock: Callable[[], float] = time.monotonic):
        self.table = table
        self._open, self._make_watcher = open_source, make_watcher
        self.period, self.confidence, self.retry = 1.0 / fps, confidence, retry_seconds
        self.on_refused = on_refused
        self._clock = clock
        self.status = "missing"
        self.error: str | None = None
        self.frames = 0
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        if self._open is None:
            return
        self._thread = threading.Thread(target=self._run, name="camera", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=5)

    def alive(self) -> bool:
        return self._thread is None or self._thread.is_alive()

    def handle(self, event: Any) -> None:
        """Turn one watcher event into a table command (cleared zones need none)."""
        card = getattr(event, "card", None)
        zone = getattr(event, "zone", None)
        if zone not in ("play", "discard"):
            return
        candidates = [str(c) for c in getattr(event, "candidates", ()) or ()]
        confidence = float(getattr(event, "confidence", 0.0))
        try:
            if card is not None and confidence >= self.confidence:
                self.table.act({"type": zone, "card": str(card)})
            else:
                guess = str(card) if card is not None else (candidates[0] if candidates else None)
                if guess is None:
                    return
                self.table.propose({"type": zone, "card": guess}, confidence, candidates or [guess])
        except CommandError as e:
            log.info("camera saw %s in %s, refused: %s", card, zone, e)
            if self.on_refused is not None:
                self.on_refused(e)

    def _run(self) -> None:
        assert self._open is not None
        while not self._stop.is_set():
            try:
                source = self._open()
            except Exception as e:  # unplugged, busy, no driver: say so and try again later
                self.status, self.error = "missing", str(e)
                self._stop.wait(self.retry)
                continue
            watcher = self._make_watcher()
            try:
                self._read(source, watcher)
            except Exception as e:
                log.warning("camera stopped: %s", e)
                self.status, self.error = "fault", str(e)
            finally:
                try:
                    source.close()
                except Exception:
                    log.debug("camera close failed", exc_info=True)
            self._stop.wait(self.retry)

    def _read(self, source: Source, watcher: Watcher) -> None:
        while not self._stop.is_set():
            started = self._clock()
            frame = source.read()
            self.frames += 1
            self.status, self.error = "ok", None
            for event in watcher.feed(frame, started):
                self.handle(event)
            self._stop.wait(max(0.0, self.period - (self._clock() - started)))
