"""Teaching a deck with the box's own camera: ask for each card kind of a variant in turn, take
its picture once it lies still in PLAY, let any kind be taken again, and fit the profile at the end.

The label of a picture is the kind that was asked for, never what the classifier reads: a deck
the box cannot read yet is exactly the deck being taught. When a card comes to rest is decided by
the watcher, the same way as during a game. A capture waits for OK; laying the next card
confirms it too, so a family need not touch the box for every card. But when the general network
reads another value on it, surely, the picture is in doubt: a card the box did not see laid, or one
skipped, would otherwise teach every later kind under the name of the one before. Such a picture
waits for OK, and the next card laid takes its place.
"""
from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import cv2
import numpy as np

from companion.game.variants import Variant

from .classifier import Classifier, Profile
from .labels import LABELS
from .teach import Stopped
from .watcher import Detail, Watcher

ZONE = "play"
# A lesson looks closer than a game: the same card laid again a little elsewhere (a retake) changes
# little of the zone's picture. What this lets through twice is caught by SAME_PICTURE.
CHANGED = 0.004
SAME_PICTURE = 20.0  # levels: two crops that 98 % of pixels are this close to are one card lying still
# The general network's reading of a value this sure puts a picture of another value in doubt. On
# pile pictures of decks of two training and the two tuning families it reads the value this surely
# and rightly on 80-92 % of them (a card of another value is caught), wrongly on 0.1-0.6 %.
SURE_VALUE = 0.95
Progress = Callable[[int, int], None]

# why a request cannot be done now (adapters key on these, never on the words)
NOT_TEACHING = "not_teaching"      # the session was cancelled or has finished
NOTHING_CAPTURED = "nothing_captured"
INCOMPLETE = "incomplete"          # finish asked before every kind was taken
UNKNOWN_KIND = "unknown_kind"      # not a card of the variant being taught


class TeachError(ValueError):
    """A request the session cannot do now; ``code`` says which (see the constants above)."""

    def __init__(self, code: str, message: str, missing: tuple[str, ...] = ()):
        super().__init__(message)
        self.code, self.missing = code, missing


def card_kinds(variant: Variant) -> tuple[str, ...]:
    """Every card kind of the variant, suit by suit, values up: the order the box asks for them."""
    return tuple(f"{suit}{value}" for suit in variant.suits for value in sorted(set(variant.suit_values(suit))))


@dataclass
class Lesson:
    """Which kinds are taught: confirmed crops, the capture waiting for OK, and which kind is asked.
    Pure bookkeeping, with no camera: the order of captures, OKs and retakes is free, but every kind
    ends with exactly one crop and nothing can finish before that."""

    kinds: tuple[str, ...]
    crops: dict[str, np.ndarray] = field(default_factory=dict)
    waiting: tuple[str, np.ndarray] | None = None     # (kind, crop) until OK
    doubt: str | None = None                          # the value the waiting picture looks like instead
    open: bool = True

    def __post_init__(self) -> None:
        if not self.kinds or len(set(self.kinds)) != len(self.kinds):
            raise ValueError("a lesson needs distinct card kinds")

    @property
    def asked(self) -> str | None:
        """The kind to lay now: the first one not yet taken (None while a capture waits for OK or
        when all are taken)."""
        if self.waiting is not None:
            return None
        return next((k for k in self.kinds if k not in self.crops), None)

    @property
    def missing(self) -> tuple[str, ...]:
        held = set(self.crops) | ({self.waiting[0]} if self.waiting else set())
        return tuple(k for k in self.kinds if k not in held)

    @property
    def complete(self) -> bool:
        return not self.missing

    def _check_open(self) -> None:
        if not self.open:
            raise TeachError(NOT_TEACHING, "this teaching session has ended; start a new one")

    def take(self, crop: np.ndarray, looks: str | None = None) -> str | None:
        """A card came to rest in PLAY: it is the kind asked for (a capture still waiting is
        confirmed first: laying the next card means the last one was right). ``looks``: the value
        it surely shows, if known; another value than the kind's puts the picture in doubt, and a
        picture in doubt is not confirmed by the next card but replaced by it. None when every
        kind is taken already."""
        self._check_open()
        kind: str | None
        if self.waiting is not None and self.doubt is not None:
            kind = self.waiting[0]
        else:
            if self.waiting is not None:
                self.confirm()
            kind = self.asked
        if kind is not None:
            self.waiting = (kind, crop)
            self.doubt = looks if looks is not None and looks != kind[1:] else None
        return kind

    def confirm(self) -> str:
        """OK: the waiting capture is kept."""
        self._check_open()
        if self.waiting is None:
            raise TeachError(NOTHING_CAPTURED, "no card picture waits for OK: lay the card asked for in PLAY")
        kind, crop = self.waiting
        self.crops[kind] = crop
        self.waiting, self.doubt = None, None
        return kind

    def retake(self, kind: str | None = None) -> str:
        """Take a kind again (by default the waiting capture, else the last one confirmed); it is
        asked for again before the kinds after it."""
        self._check_open()
        if kind is None:
            if self.waiting is not None:
                kind = self.waiting[0]
            elif self.crops:
                kind = next(reversed(self.crops))
            else:
                raise TeachError(NOTHING_CAPTURED, "no card has been taken yet: there is nothing to take again")
        if kind not in self.kinds:
            raise TeachError(UNKNOWN_KIND, f"{kind} is not a card of this deck; its cards are "
                                           f"{', '.join(self.kinds)}")
        if self.waiting is not None and self.waiting[0] == kind:
            self.waiting, self.doubt = None, None
        elif self.waiting is not None:
            self.confirm()  # another kind is retaken: the picture shown is fine
        self.crops.pop(kind, None)
        return kind

    def finish(self) -> dict[str, list[np.ndarray]]:
        """The crops for the profile, one per kind; a capture waiting for OK is kept."""
        self._check_open()
        if self.waiting is not None:
            self.confirm()
        if not self.complete:
            raise TeachError(INCOMPLETE, f"{len(self.missing)} card kinds are not taken yet: "
                                         f"{', '.join(self.missing)}", self.missing)
        self.open = False
        return {k: [self.crops[k]] for k in self.kinds}

    def cancel(self) -> None:
        self._check_open()
        self.open = False


@dataclass(frozen=True)
class Look:
    """What the camera shows now: ``mat`` (the mat, or the configured zones, in view) and ``card``
    (a card lies in PLAY, still or not)."""

    mat: bool = False
    card: bool = False


class GuidedSession:
    """A lesson fed by camera frames: ``feed(frame, now)`` from the camera's thread, the other
    calls from anywhere (one lock). ``watcher`` only decides when PLAY is still; it reads nothing."""

    def __init__(self, kinds: tuple[str, ...], watcher: Watcher):
        self.lesson = Lesson(kinds)
        self.watcher = watcher
        watcher.changed = min(watcher.changed, CHANGED)
        self.look = Look()
        self.version = 0      # counts changes
        self.pictures = 0     # counts pictures taken, so a page knows when to fetch the one shown
        self._lock = threading.RLock()
        self.listeners: list[Callable[[], None]] = []

    def feed(self, frame: np.ndarray, now: float, detail: Detail | None = None) -> str | None:
        """One camera frame; the kind captured from it, if any. ``detail``: the camera's larger
        picture of it, which a card is cut out of as the box reads one (``Watcher.settled``)."""
        settled = self.watcher.settled(frame, now, detail)
        view = self.watcher.seen.get(ZONE)
        look = Look(bool(self.watcher.seen), view is not None and view.crop is not None)
        taken, changed = None, False
        with self._lock:
            if look != self.look:
                self.look, changed = look, True
            play = settled.get(ZONE)
            if play is not None and play.crop is not None and self.lesson.open and not self.lesson.complete \
                    and not self._taught_already(play.crop):
                crop = np.ascontiguousarray(play.crop)
                taken, changed = self.lesson.take(crop, self._looks_like(crop)), True
                self.pictures += 1
            if changed:
                self.version += 1
        if changed:
            self._tell()
        return taken

    def _looks_like(self, crop: np.ndarray) -> str | None:
        """The value the general network reads on a picture, when it is this sure (``SURE_VALUE``):
        a deck profile, of another deck perhaps, has no say."""
        probs = self.watcher.recognizer.classifier.general([crop])[0]
        values = {v: float(sum(p for label, p in zip(LABELS, probs, strict=True) if label[1:] == v)) for v in "12345"}
        best = max(values, key=lambda v: values[v])
        return best if values[best] >= SURE_VALUE else None

    def _taught_already(self, crop: np.ndarray) -> bool:
        """The card is one taken already, lying just as it lay then: the card above it was lifted,
        or a hand passed over it. It is no new card."""
        held = list(self.lesson.crops.values()) + ([self.lesson.waiting[1]] if self.lesson.waiting else [])
        return any(same_picture(crop, other) for other in held)

    def _tell(self) -> None:
        """The listeners are told once the lock is released: they may read the session, from any thread."""
        for listener in list(self.listeners):
            listener()

    def _do(self, fn: Callable[[], Any]) -> Any:
        try:
            with self._lock:
                self.version += 1
                return fn()
        finally:
            self._tell()

    def confirm(self) -> str:
        return self._do(self.lesson.confirm)

    def retake(self, kind: str | None = None) -> str:
        return self._do(lambda: self.lesson.retake(kind))

    def cancel(self) -> None:
        self._do(self.lesson.cancel)

    def finish(self) -> dict[str, list[np.ndarray]]:
        return self._do(self.lesson.finish)

    def crop(self, kind: str) -> np.ndarray | None:
        """The picture taken of a kind (confirmed or waiting for OK)."""
        with self._lock:
            waiting = self.lesson.waiting
            if waiting is not None and waiting[0] == kind:
                return waiting[1]
            return self.lesson.crops.get(kind)

    def snapshot(self) -> dict[str, Any]:
        """The lesson as the page and the OLED show it, read in one go."""
        with self._lock:
            lesson = self.lesson
            waiting = lesson.waiting[0] if lesson.waiting else None
            return {"kinds": list(lesson.kinds), "taken": [k for k in lesson.kinds if k in lesson.crops],
                    "asked": lesson.asked if lesson.open else None, "captured": waiting, "doubt": lesson.doubt,
                    "done": len(lesson.crops) + (waiting is not None), "total": len(lesson.kinds),
                    "mat": self.look.mat, "version": self.version, "pictures": self.pictures,
                    "status": self.status()}

    def status(self) -> str:
        """waiting (for a card in PLAY), seen (a card lies there, not yet still), captured (waits
        for OK), complete (every kind taken), ended."""
        with self._lock:
            if not self.lesson.open:
                return "ended"
            if self.lesson.waiting is not None:
                return "captured"
            if self.lesson.complete:
                return "complete"
            return "seen" if self.look.card else "waiting"


def same_picture(a: np.ndarray, b: np.ndarray) -> bool:
    """Two crops of one card that did not move. Noise differs a little everywhere, another card (even
    one numeral in dark ink) a lot somewhere: the largest differences tell them apart."""
    blur = [cv2.GaussianBlur(c, (0, 0), 1.0).astype(np.float32) for c in (a, b)]
    return float(np.percentile(np.abs(blur[0] - blur[1]).max(axis=2), 98)) < SAME_PICTURE


def fit_profile(crops: dict[str, list[np.ndarray]], path: str, progress: Progress | None = None,
                classifier: Classifier | None = None, stop: Callable[[], bool] = lambda: False) -> Profile:
    """The deck profile of the taught crops, fitted on the general network and saved to ``path``.
    If ``stop()`` turns true meanwhile (the box stops), the pictures are saved unfitted: the lesson
    is kept, and the model is fitted when the profile is next used."""
    profile = Profile(crops)
    try:
        profile.fit(classifier or Classifier(), progress, stop)
    except Stopped:
        profile.save(path)
        raise
    profile.save(path)
    return profile


def png(crop: np.ndarray) -> bytes:
    """A crop as a PNG file's bytes (for the page)."""
    ok, buf = cv2.imencode(".png", crop)
    if not ok:
        raise ValueError("the picture could not be encoded as PNG")
    return buf.tobytes()
