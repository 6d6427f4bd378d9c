"""One frame in, the cards on the mat out: mat → white balance → zones → top cards → classes.
Without a mat in view, the cards lying apart on the table are read instead, in no zone."""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from . import finder, loose, mat
from .classifier import Classifier, Profile
from .tablezones import TableZones

ZONE_NAMES = tuple(mat.ZONES)


@dataclass
class CardSeen:
    zone: str | None                  # None: on a table without a mat
    card: str | None
    confidence: float
    candidates: tuple[str, ...]
    corners: np.ndarray | None        # in the frame, TL TR BR BL of the upright card (None: a zone image alone)
    probabilities: tuple[tuple[str, float], ...] = ()  # as ``Guess.probabilities``

    def as_dict(self) -> dict:
        assert self.corners is not None, "a card read from a whole frame has its corners"
        return {"card": self.card, "zone": self.zone, "confidence": round(self.confidence, 4),
                "candidates": list(self.candidates),
                "corners": [[round(float(x), 1), round(float(y), 1)] for x, y in self.corners]}


@dataclass
class FrameResult:
    mat: bool
    cards: list[CardSeen] = field(default_factory=list)
    views: dict[str, finder.ZoneView] = field(default_factory=dict)


def look_at_mat(detector: mat.MatDetector, frame: np.ndarray, pose: mat.MatPose | None = None,
                before: dict[str, np.ndarray] | None = None,
                detail: np.ndarray | None = None) -> tuple[mat.MatPose | None, dict[str, finder.ZoneView]]:
    """The zones of a frame; ``pose`` skips finding the mat again (it does not move between frames);
    ``before``: zones' pictures before their top cards were laid (``finder.find_in_view``);
    ``detail``: a larger picture of the same moment to cut the cards out of (``finder.ZonePixels.of_frame``)."""
    pose = pose or detector.detect(frame)
    if pose is None:
        return None, {}
    gains, half = finder.white_gains(frame, pose), finder.half_size(frame)
    before = before or {}
    return pose, {z: finder.look_at_zone(frame, pose, z, gains, frame_half=half, before=before.get(z), detail=detail)
                  for z in ZONE_NAMES}


@dataclass
class Recognizer:
    """Holds the mat detector and the classifier (loaded once; about 1 MB); ``zones`` replace the
    printed mat by rectangles in the picture."""

    classifier: Classifier = field(default_factory=Classifier)
    detector: mat.MatDetector = field(default_factory=mat.MatDetector)
    zones: TableZones | None = None

    @staticmethod
    def with_profile(profile: str | Profile | None, zones: TableZones | None = None) -> Recognizer:
        """``profile``: a deck profile, already read or the path of its file."""
        if isinstance(profile, str):
            profile = Profile.load(profile) if profile else None
        return Recognizer(Classifier(profile=profile), zones=zones)

    def look(self, frame: np.ndarray, pose: mat.MatPose | None = None, before: dict[str, np.ndarray] | None = None,
             detail: np.ndarray | None = None) -> tuple[mat.MatPose | None, dict[str, finder.ZoneView]]:
        """The zones of a frame without classifying (cheap: the watcher calls it on every frame);
        ``before``: zones' pictures before their top cards were laid; ``detail``: a larger picture
        of the same moment to cut the cards out of (``look_at_mat``; zones drawn on a table
        without the mat are cut out of the frame)."""
        if self.zones is not None:
            return self.zones.look(frame)
        return look_at_mat(self.detector, frame, pose, before, detail)

    def classify(self, views: dict[str, finder.ZoneView]) -> list[CardSeen]:
        found = [(v, v.crop) for v in views.values() if v.crop is not None]
        guesses = self.classifier.classify([crop for _, crop in found], all(v.full_colour for v, _ in found))
        return [CardSeen(v.zone, g.card, g.confidence, g.candidates, v.corners, g.probabilities)
                for (v, _), g in zip(found, guesses, strict=True)]

    def classify_looks(self, views: list[finder.ZoneView]) -> CardSeen | None:
        """One card seen in several frames (``views`` of one zone, the first as it was judged): the
        looks read as one (``Classifier.classify_looks``). None if no look found the card."""
        crops = [v.crop for v in views if v.crop is not None]
        if not crops:
            return None
        g = self.classifier.classify_looks(crops, all(v.full_colour for v in views if v.crop is not None))
        return CardSeen(views[0].zone, g.card, g.confidence, g.candidates, views[0].corners, g.probabilities)

    def analyse(self, frame: np.ndarray, before: dict[str, np.ndarray] | None = None,
                detail: np.ndarray | None = None) -> FrameResult:
        """``before``: zones' pictures before their top cards were laid; ``detail``: a larger
        picture of the same moment to cut the cards out of (``look``)."""
        pose, views = self.look(frame, before=before, detail=detail)
        if pose is None:
            return FrameResult(False, self.on_table(frame))
        return FrameResult(True, self.classify(views), views)

    def on_table(self, frame: np.ndarray) -> list[CardSeen]:
        """The cards lying apart on a plain table (no mat in view), each in no zone."""
        found = loose.find_cards(frame)
        guesses = self.classifier.classify([c.crop for c in found])
        return [CardSeen(None, g.card, g.confidence, g.candidates, c.corners, g.probabilities)
                for c, g in zip(found, guesses, strict=True)]
