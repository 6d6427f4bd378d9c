"""Spoken announcements: a small speaker on the box says what the table judged.

The table calls its listeners inside its lock, so the listener here only puts the change on a short
queue and returns; a daemon thread of its own turns it into words and waits for the voice. When the
table moves faster than speech, the oldest waiting change is dropped: what is said stays current and
the queue never grows. The voice is Debian's ``espeak-ng`` (offline, small, on every Pi); it plays
through ALSA itself, or renders WAV files instead (``-w``) where there is no speaker.
"""
from __future__ import annotations

import logging
import os
import shutil
import subprocess
import threading
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any, Protocol

from companion.game.table import Change, Table
from companion.game.variants import Variant

from .spoken import LANGUAGES, phrase

log = logging.getLogger(__name__)

PROGRAM = "espeak-ng"
VOICES = {lang: lang for lang in LANGUAGES}  # espeak-ng's own names for the four languages
QUEUE = 3           # changes waiting to be said; more and the oldest is dropped
WORDS_PER_MINUTE = 160
SAY_SECONDS = 30.0  # longer than any sentence takes: a hung voice process is stopped after this

NO_ENGINE = "no_engine"          # espeak-ng is not installed
ENGINE_FAILED = "engine_failed"  # espeak-ng ran and failed (no sound card, a broken voice)
INSTALL = "install it on the box with `sudo apt-get install espeak-ng`"


class SpeechError(RuntimeError):
    """Speech cannot be had or failed; ``code`` is NO_ENGINE or ENGINE_FAILED, the message what to do."""

    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code = code


class Engine(Protocol):
    def say(self, text: str, voice: str) -> None:
        """Speak ``text`` with ``voice`` and return when it has been said (SpeechError if it failed)."""


@dataclass
class Espeak:
    """espeak-ng: ``say`` speaks on the sound card, or with ``wav_dir`` writes 0001.wav, 0002.wav..."""

    program: str
    wav_dir: str | None = None
    speed: int = WORDS_PER_MINUTE
    _count: int = field(default=0, repr=False)  # WAV files written so far

    def say(self, text: str, voice: str) -> None:
        if self.wav_dir is None:
            self._run(text, voice, [])
        else:
            self._count += 1
            self.render(text, voice, os.path.join(self.wav_dir, f"{self._count:04d}.wav"))

    def render(self, text: str, voice: str, path: str) -> None:
        """``text`` into the WAV file ``path`` instead of the speaker."""
        self._run(text, voice, ["-w", path])

    def _run(self, text: str, voice: str, extra: list[str]) -> None:
        # the text goes in on stdin (UTF-8), so no sentence is ever read as an option
        cmd = [self.program, "-v", voice, "-s", str(self.speed), "-b", "1", *extra, "--stdin"]
        try:
            done = subprocess.run(cmd, input=text.encode("utf-8"), capture_output=True, timeout=SAY_SECONDS)
        except subprocess.TimeoutExpired:
            raise SpeechError(ENGINE_FAILED, f"{PROGRAM} did not finish within {SAY_SECONDS:.0f} s") from None
        except OSError as e:
            raise SpeechError(ENGINE_FAILED, f"{PROGRAM} could not run: {e.strerror or e}") from None
        if done.returncode != 0:
            why = done.stderr.decode("utf-8", "replace").strip().splitlines()
            raise SpeechError(ENGINE_FAILED, f"{PROGRAM} failed (exit {done.returncode})"
                                             + (f": {why[-1]}" if why else ""))


def find_espeak(wav_dir: str | None = None) -> Espeak:
    """The installed espeak-ng, or SpeechError(NO_ENGINE) saying how to install it."""
    program = shutil.which(PROGRAM)
    if program is None:
        raise SpeechError(NO_ENGINE, f"spoken announcements need {PROGRAM}: {INSTALL}")
    return Espeak(program, wav_dir)


class Speaker:
    """Says each change of ``table`` aloud in ``lang()`` (the game's language), with ``voice`` when set.

    ``dropped`` counts changes never said because newer ones came first; ``failure`` is why the last
    sentence failed (None once one is said again).
    """

    def __init__(self, table: Table, engine: Engine, lang: Callable[[], str], voice: str = "",
                 queue: int = QUEUE):
        self.table, self.engine, self.lang, self.voice = table, engine, lang, voice
        self.dropped = 0
        self.failure: SpeechError | None = None
        self.said: deque[str] = deque(maxlen=20)  # the last sentences, newest last
        self._queue: deque[tuple[Change, Variant]] = deque(maxlen=queue)
        self._cond = threading.Condition()
        self._busy = False
        self._closed = False
        threading.Thread(target=self._run, name="speech", daemon=True).start()
        table.add_listener(self._heard)

    def _heard(self, table: Table, change: Change) -> None:
        """Called on the thread that changed the table: queue the change (and its variant), nothing
        more. The end of a game the camera was often unsure in also suggests teaching the deck."""
        game = table.game
        if change.kind == "game_over" and game is not None and game.suggests_teaching:
            change = replace(change, params={**change.params, "teach": True})
        with self._cond:
            if len(self._queue) == self._queue.maxlen:
                self.dropped += 1
            self._queue.append((change, table.variant))
            self._cond.notify()

    def _run(self) -> None:
        while True:
            with self._cond:
                while not self._queue and not self._closed:
                    self._busy = False
                    self._cond.notify_all()
                    self._cond.wait()
                if self._closed:
                    return
                change, variant = self._queue.popleft()
                self._busy = True
            try:
                self._say(change, variant)
            except Exception:  # one sentence that cannot be made must not silence the rest of the evening
                log.exception("spoken announcements: cannot say %s", change.kind)

    def _say(self, change: Change, variant: Variant) -> None:
        lang = self.lang()
        text = phrase(change.kind, change.params, lang, variant)
        if text is None:
            return
        try:
            self.engine.say(text, self.voice or VOICES.get(lang, "en"))
        except SpeechError as e:
            if self.failure is None or self.failure.code != e.code:  # once, not at every change
                log.warning("spoken announcements: %s", e)
            self.failure = e
            return
        self.failure = None
        self.said.append(text)

    def wait_idle(self, timeout: float) -> bool:
        """Wait until everything queued has been said; False if ``timeout`` seconds passed first."""
        with self._cond:
            return self._cond.wait_for(lambda: not self._queue and not self._busy, timeout)

    def close(self) -> None:
        self.table.remove_listener(self._heard)
        with self._cond:
            self._closed = True
            self._cond.notify_all()


@dataclass(frozen=True)
class SpeechStatus:
    """Whether the box speaks: ``on``; ``available`` is False without espeak-ng; ``reason`` the code
    of what is wrong (NO_ENGINE, ENGINE_FAILED) or None, and ``message`` what to do about it."""

    on: bool
    available: bool
    reason: str | None = None
    message: str | None = None
    voice: str = ""

    def as_dict(self) -> dict[str, Any]:
        return {"on": self.on, "available": self.available, "reason": self.reason, "message": self.message,
                "voice": self.voice}


class Speech:
    """Speech that the settings and the page turn on and off: a Speaker exists only while it is on.

    ``engine()`` finds the voice (``find_espeak`` on the box; a fake in tests) or raises SpeechError.
    """

    def __init__(self, table: Table, lang: Callable[[], str], voice: str = "",
                 engine: Callable[[], Engine] = find_espeak):
        self.table, self.lang, self.voice, self._engine = table, lang, voice, engine
        self._lock = threading.Lock()
        self.speaker: Speaker | None = None

    def turn(self, on: bool) -> SpeechStatus:
        """Turn speech on or off. Without espeak-ng it stays off: the status says why (NO_ENGINE)."""
        with self._lock:
            if on and self.speaker is None:
                try:
                    engine = self._engine()
                except SpeechError as e:
                    log.warning("%s", e)
                else:
                    self.speaker = Speaker(self.table, engine, self.lang, self.voice)
            elif not on and self.speaker is not None:
                self.speaker.close()
                self.speaker = None
        return self.status()

    def status(self) -> SpeechStatus:
        speaker = self.speaker
        if speaker is not None:
            failure = speaker.failure
            if failure is None:
                return SpeechStatus(True, True, voice=self.voice)
            return SpeechStatus(True, True, failure.code, str(failure), self.voice)
        try:
            self._engine()
        except SpeechError as e:
            return SpeechStatus(False, False, e.code, str(e), self.voice)
        return SpeechStatus(False, True, voice=self.voice)

    def close(self) -> None:
        self.turn(False)
