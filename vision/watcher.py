"""From a stream of frames to "a card was laid in this zone" — once per card.

A zone is judged only when it has been still for ``settle`` seconds with nothing over it, so a
hand passing, a shadow or a card being straightened never makes a second event: the top card must
change identity, or a new card must visibly add to the pile, for another ``CardPlaced``. Something
over a zone that stays perfectly still for ``resting`` seconds is a reflection, not a hand: a card
found under it is announced, but it never clears the zone. A card laid squarely on one of the same
face changes only its numerals and art, too little of the zone to tell from a hand that passed: once
a hand has moved over the zone, the top card's own colours are compared too, and a change there
counts only if the card read is another. A zone that changed around its top card while the card
itself stayed as it was (a hand at the pile's side) has no new card, however the card reads this
time (an unsure reading may waver between two kinds). A pile is taken away (``ZoneCleared``) only
when its zone looks as it did empty: a hand held still over a pile hides it without taking it away.
The game's record has the last word on what lies on top of a pile (``known``): a correction, and
the piles a watcher finds when it starts during a game, which were told before it started.
"""
from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

import cv2
import numpy as np

from companion.game.camera import CameraEvent, CardPlaced, ZoneCleared
from companion.game.reading import SURE

from .classifier import Profile
from .finder import CARD_AREA, PPM, ZoneView, scalar
from .recognize import CardSeen, Recognizer
from .tablezones import TableZones

# the camera's raw picture of the frame just read, to cut cards out of (its larger one), if it has one
Detail = Callable[[], "np.ndarray | None"]

STILL = 0.01       # share of a zone's picture that may change between frames while it is still
CHANGED = 0.02     # share that must differ from the last judged picture to judge the zone again
STEP = 22.0        # Lab levels (``_thumb``) a pixel must change by: noise and shade stay below
GROWTH = 0.08      # a pile that grows by this many card areas got a new card (same kind on top)
MOVED_MM = 14.0    # ...or whose top card moved this far
LAID = 0.01        # card areas of the top card that changed in colour once a hand moved over the zone:
                   # a card laid squarely on one of the same face shows only its numerals and art
LAID_STEP = 30.0   # Lab levels a pixel of the top card must change by (no card laid: 99% of looks under LAID / 3)
CHROMA = 2.0       # Lab a*, b* count twice: a pale ink on cream differs in hue more than in lightness
EMPTY = 0.5        # card areas: with no card found and never seen empty, a zone showing less than this is empty
                   # (empty zones under random light and glare: 296 of 300); more is something over the pile
INSET_MM = 3.0     # the top card's edge is left out: a hand or a shadow at its side is no new card
AGAIN = SURE       # a card read less surely than this (the box's default to judge at once) is looked at again
LOOKS = 2          # frames such a card is read in, in all, before it is told: the camera's noise differs in each


@dataclass
class _Zone:
    thumb: np.ndarray | None = None        # last frame's picture of the zone
    thumb_at: float = 0.0                  # and when it was taken
    still_since: float | None = None
    judged: np.ndarray | None = None       # picture when last judged
    before: np.ndarray | None = None       # and in colour, at half size: tells a new card from the pile
    top: CardSeen | None = None            # the card on top when last judged
    area: float = 0.0
    centre: np.ndarray | None = None
    rect: np.ndarray | None = None         # the top card's corners in the half-size picture
    stirred: bool = False                  # something moved over the zone since it was last judged
    faint: bool = False                    # judged on a change within the top card alone
    untouched: bool = False                # judged on a change around the top card, which is as it was
    cut_before: np.ndarray | None = None   # the pile's picture the last judged card was cut out against
    empty: np.ndarray | None = None        # picture when last judged with no card: what the zone looks like empty
    expected: str | None = None            # the card the game's record holds there, before the zone was first seen


@dataclass
class _Unsure:
    """A card read less surely than ``Watcher.again``, not yet told: its zone's views so far (the
    first as judged) and how many further frames were looked at."""

    views: list[ZoneView]
    looked: int = 0


def _changed(a: np.ndarray, b: np.ndarray) -> float:
    """Share of the picture that changed, in lightness or colour: a new card changes a patch a lot,
    light changes all a little."""
    same = cv2.inRange(cv2.absdiff(a, b), (0.0, 0.0, 0.0), (STEP, STEP, STEP))  # every channel within STEP
    return 1.0 - cv2.countNonZero(same) / same.size


def _lab(image: np.ndarray) -> np.ndarray:
    """Lab relative to the zone's median (mostly the mat): a lamp dimmed or a warmer light changes
    little of it. (Relative to the card's own median, a dark face in a dim light would multiply
    its noise.)"""
    lab = cv2.cvtColor(image, cv2.COLOR_BGR2Lab)
    median = np.median(lab[::4, ::4].reshape(-1, 3), axis=0)  # every 16th pixel is plenty, and 30 times quicker
    # per channel, by scalars
    shifted = cv2.subtract(lab.astype(np.float32), scalar(0.0, float(median[1]), float(median[2]), 0.0))
    return cv2.multiply(shifted, scalar(128.0 / max(float(median[0]), 1.0), CHROMA, CHROMA, 0.0))


def _card_changed(before: np.ndarray, now: np.ndarray, rect: np.ndarray) -> float:
    """Card areas within the top card (its edge left out) that changed in colour: the numerals and
    art of a card laid squarely on it, which change too little of the whole zone's picture."""
    inside = np.zeros(now.shape[:2], np.uint8)
    cv2.fillConvexPoly(inside, np.round(rect).astype(np.int32), 1)
    inset = int(round(INSET_MM * PPM / 2))
    inside = cv2.erode(inside, np.ones((2 * inset + 1, 2 * inset + 1), np.uint8)).astype(bool)
    if inside.sum() < 0.25 * CARD_AREA / 4:
        return 0.0  # the card lies mostly outside the picture: nothing to go by
    diff = cv2.absdiff(_lab(now), _lab(before))
    diff = np.maximum(np.maximum(diff[..., 0], diff[..., 1]), diff[..., 2])
    return float((diff[inside] > LAID_STEP).sum() / (CARD_AREA / 4))


def _thumb(view: ZoneView) -> np.ndarray:
    """The zone at a quarter size in Lab relative to its median (mostly the mat), colour counted
    twice (``_lab``): a lamp switched on, dimmed or warmer is no change to judge, and a numeral as
    light as the face it is printed on (red on teal) still changes the picture, as it did not in grey."""
    small = cv2.resize(view.image, (view.image.shape[1] // 2, view.image.shape[0] // 2),  # already half size
                       interpolation=cv2.INTER_AREA)
    return _lab(small)


def _looks_empty(z: _Zone, view: ZoneView) -> bool:
    """No card was found: is the pile gone? A hand held still over it hides it, and a hand about as
    light and grey as the mat is not told from the mat, so the zone must look as it did empty; a
    zone never seen empty (the box started during a game) must show hardly anything."""
    if z.empty is not None and z.judged is not None:
        return _changed(z.judged, z.empty) < CHANGED
    return view.area < EMPTY


@dataclass
class Watcher:
    """``redetect``: seconds between looks for the mat's markers (the box and the mat stay put;
    a bumped camera is found again within that time); ``settle``: how long a zone must be still
    before it is judged; ``resting``: the same with something over it; ``changed``: the share of a
    zone's picture that must differ from when it was last judged to judge it again. A card read
    less surely than ``again`` is read in ``looks`` frames in all before it is told (sooner if a
    hand comes over it): the box would ask about it, and a few looks make that rarer."""

    recognizer: Recognizer
    settle: float = 0.2
    resting: float = 1.0
    redetect: float = 1.0
    changed: float = CHANGED
    again: float = AGAIN
    looks: int = LOOKS
    zones: dict[str, _Zone] = field(default_factory=dict)
    unsure: dict[str, _Unsure] = field(default_factory=dict)
    seen: dict[str, ZoneView] = field(default_factory=dict)
    _pose: Any = None
    _pose_at: float = float("-inf")

    def feed(self, frame: np.ndarray, now: float, detail: Detail | None = None) -> list[CameraEvent]:
        """``detail``: the camera's larger picture of this moment, made when asked for (``settled``),
        at most once: the zones come to rest and those looked at again are cut out of the same one."""
        if detail is not None:
            detail = functools.cache(detail)
        settled = self.settled(frame, now, detail)
        events = self._look_again(frame, detail)
        if not settled:
            return events
        seen = {c.zone: c for c in self.recognizer.classify(settled)}
        for name, view in settled.items():
            card = seen.get(name)
            if card is not None and card.confidence < self.again and self.looks > 1:
                self.unsure[name] = _Unsure([view])
                continue
            events.extend(self._judge(name, view, self.zones[name], card))
        return events

    def known(self, zone: str, card: str) -> None:
        """The game's record names the card on top of ``zone`` (a player corrected the reading, or
        answered the OK prompt): a card misread and then laid squarely upon by one of the kind it
        was misread as read as the card already told, and was missed. A zone not looked at yet (the
        box started, or the camera came back, during a game) has that card lying there already: the
        first card found there is taken for it, not announced again (a play counted twice)."""
        z = self.zones.setdefault(zone, _Zone())
        if z.top is not None:
            if z.top.card != card:
                z.top = replace(z.top, card=card)
        elif z.judged is None:
            z.expected = card

    def new_game(self) -> None:
        """A new game started: it may be played with another deck (``Classifier.new_game``)."""
        self.recognizer.classifier.new_game()

    def use_profile(self, profile: Profile | None, grown: bool = False) -> None:
        """Read the cards from now on with another deck profile; the piles stay as they were seen.
        ``grown``: the profile was grown from this game's cards (``Classifier.use``)."""
        self.recognizer.classifier.use(profile, grown)

    def _look_again(self, frame: np.ndarray, detail: Detail | None) -> list[CameraEvent]:
        """One more look at each zone whose card was read unsurely, cut out against the same pile
        (and out of the larger picture, as its first look was); the card is told once ``looks``
        frames are read, or at once when the zone stirs."""
        events: list[CameraEvent] = []
        for name, unsure in list(self.unsure.items()):
            z = self.zones[name]
            if z.still_since is not None and self._pose is not None:
                views = self.seen  # this frame's, as ``settled`` looked at it
                sharp = detail() if detail is not None else None
                if z.cut_before is not None or sharp is not None:
                    before = None if z.cut_before is None else {name: z.cut_before}
                    _, views = self.recognizer.look(frame, self._pose, before, sharp)
                if name in views:
                    unsure.views.append(views[name])
                unsure.looked += 1
                if unsure.looked < self.looks - 1:
                    continue
            del self.unsure[name]
            events.extend(self._judge(name, unsure.views[0], z, self.recognizer.classify_looks(unsure.views)))
        return events

    def settled(self, frame: np.ndarray, now: float, detail: Detail | None = None) -> dict[str, ZoneView]:
        """The zones that came to rest with a picture unlike the one last judged, each taken as
        judged now (what to make of them is the caller's: a play, or a card being taught).
        ``seen`` keeps every zone as this frame shows it (empty while the mat is out of view).
        ``detail``: makes the camera's larger picture of this moment, which the cards of the zones
        come to rest are cut out of (made only then: most frames judge nothing)."""
        fresh = self._pose is None or now - self._pose_at >= self.redetect
        pose, views = self.recognizer.look(frame, None if fresh else self._pose)
        self.seen = views
        if pose is None:
            self._pose = None
            return {}  # the mat is covered or out of view: wait
        if fresh:
            self._pose, self._pose_at = pose, now
        settled: dict[str, ZoneView] = {}
        before: dict[str, np.ndarray] = {}
        for name, view in views.items():
            z = self.zones.setdefault(name, _Zone())
            thumb = _thumb(view)
            moving = z.thumb is None or _changed(thumb, z.thumb) > STILL
            prev_time = z.thumb_at
            z.thumb, z.thumb_at = thumb, now
            if moving:
                z.still_since, z.stirred = None, True
                continue
            if z.still_since is None:
                z.still_since = prev_time  # it was already still in the previous frame
            if now - z.still_since + 1e-6 < (self.resting if view.occluded else self.settle):
                continue
            if view.occluded and view.crop is None:
                continue  # a still reflection with no card found under it says nothing
            differs = z.judged is None or _changed(thumb, z.judged) >= self.changed
            stirred, z.stirred = z.stirred, False  # one look at the top card each time the zone comes to rest
            top = (_card_changed(z.before, view.image, z.rect)
                   if (differs or stirred) and z.rect is not None and z.before is not None else None)
            z.faint = not differs and top is not None and top >= LAID
            if not (differs or z.faint):
                continue
            z.untouched = top is not None and top < LAID
            z.judged = thumb
            if z.before is not None and view.crop is not None:
                before[name] = z.before
            z.cut_before, z.before = before.get(name), view.image
            settled[name] = view
        carded = any(view.crop is not None for view in settled.values())
        sharp = detail() if detail is not None and carded else None
        if before or sharp is not None:  # look again at the zones that got a card, knowing the pile it was laid on
            _, again = self.recognizer.look(frame, self._pose, before, sharp)
            cut = {name: again[name] for name in (before if sharp is None else settled) if name in again}
            settled.update(cut)
            self.seen = {**views, **cut}
        for name, view in settled.items():
            self.zones[name].rect = None if view.rect_px is None else view.rect_px / 2
        return settled

    def _judge(self, name: str, view: ZoneView, z: _Zone, card: CardSeen | None) -> list[CameraEvent]:
        if card is None:
            if z.faint or not _looks_empty(z, view):
                return []  # the pile is still there (a hand held over it, or the card not found this time)
            z.empty = z.judged
            had = z.top is not None
            z.top, z.area, z.centre, z.expected = None, 0.0, None, None
            return [ZoneCleared(name)] if had else []
        centre = view.rect_px.mean(axis=0) / PPM if view.rect_px is not None else None
        if z.top is None and z.expected is not None:  # lying there before the watcher started: already told
            z.top, z.area, z.centre, z.expected = replace(card, card=z.expected), view.area, centre, None
            return []
        grew = (view.area - z.area > GROWTH
                or (centre is not None and z.centre is not None and np.linalg.norm(centre - z.centre) > MOVED_MM))
        # faint: only the top card changed; untouched: it did not, so another reading is the same card read again
        new = z.top is None or (card.card != z.top.card and not z.untouched) or (grew and not z.faint)
        if new or not (z.faint or z.untouched):  # a hand at the pile's side is no growth to remember
            z.top, z.area, z.centre = card, view.area, centre
        if not new:
            return []  # the same card, straightened or re-lit
        picture = None if view.soft_edged else view.crop  # a blurred picture would teach the deck its blur
        return [CardPlaced(name, card.card, card.confidence, card.candidates, card.probabilities, picture)]


def make_watcher(profile: str | Profile | None = None,
                 zones: dict[str, tuple[float, float, float, float]] | None = None) -> Watcher:
    """``profile``: a deck profile or its file; ``zones``: rectangles in the picture for a table
    without the printed mat."""
    return Watcher(Recognizer.with_profile(profile, TableZones(zones) if zones else None))
