"""Card classification: the small CNN in ``models/`` run with OpenCV's dnn module (no torch at
run time), optionally helped by a profile of the family's own deck made by ``companion teach``."""
from __future__ import annotations

import json
import os
from dataclasses import dataclass, field

import cv2
import numpy as np

from .labels import LABELS

MODELS = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "models")
MODEL_FILE = os.path.join(MODELS, "cards.onnx")
UNSURE = 0.5   # below this the card is reported as null, with its candidates


class ModelMissing(RuntimeError):
    """The classifier file is not where the package expects it."""


@dataclass(frozen=True)
class Guess:
    card: str | None
    confidence: float
    candidates: tuple[str, ...]


def to_blob(crops: list[np.ndarray]) -> np.ndarray:
    """Crops (BGR, CROP size) → the network's input: NCHW floats in [-0.5, 0.5]."""
    arr = np.stack(crops).astype(np.float32) / 255.0 - 0.5
    return np.ascontiguousarray(arr.transpose(0, 3, 1, 2))


def softmax(logits: np.ndarray) -> np.ndarray:
    z = logits - logits.max(axis=-1, keepdims=True)
    e = np.exp(z)
    return e / e.sum(axis=-1, keepdims=True)


@dataclass
class Classifier:
    path: str = MODEL_FILE
    profile: "Profile | None" = None
    _net: "cv2.dnn.Net" = field(init=False, repr=False)

    def __post_init__(self) -> None:
        if not os.path.exists(self.path):
            raise ModelMissing(f"the card classifier {self.path} is missing; reinstall the package "
                               "or train one with: python -m vision.train")
        self._net = cv2.dnn.readNetFromONNX(self.path)

    def probabilities(self, crops: list[np.ndarray]) -> np.ndarray:
        self._net.setInput(to_blob(crops))
        probs = softmax(self._net.forward().reshape(len(crops), len(LABELS)))
        if self.profile is not None:
            probs = self.profile.combine(crops, probs)
        return probs

    def classify(self, crops: list[np.ndarray]) -> list[Guess]:
        if not crops:
            return []
        return [guess(p) for p in self.probabilities(crops)]


def guess(p: np.ndarray) -> Guess:
    order = np.argsort(p)[::-1]
    best = float(p[order[0]])
    candidates = tuple(LABELS[i] for i in order[:3] if p[i] >= 0.02) or (LABELS[order[0]],)
    return Guess(LABELS[order[0]] if best >= UNSURE else None, round(best, 4), candidates)


# -- profiles of a family's own deck ------------------------------------------------------------
TEMPLATE = (24, 36)


def _template(crop: np.ndarray) -> np.ndarray:
    """A small, brightness-normalised colour image; both ways up are compared at match time."""
    small = cv2.resize(crop, TEMPLATE, interpolation=cv2.INTER_AREA).astype(np.float32)
    small -= small.mean()
    return small / (np.linalg.norm(small) + 1e-6)


@dataclass
class Profile:
    """Templates of each card kind of one deck. Recognition mixes their match with the CNN."""

    templates: dict[str, list[np.ndarray]]
    weight: float = 40.0

    def combine(self, crops: list[np.ndarray], probs: np.ndarray) -> np.ndarray:
        out = np.log(probs + 1e-6)
        for n, crop in enumerate(crops):
            t = _template(crop)
            flipped = t[::-1, ::-1]
            for i, label in enumerate(LABELS):
                refs = self.templates.get(label)
                if refs:
                    out[n, i] += self.weight * max(max(float((t * r).sum()), float((flipped * r).sum()))
                                                   for r in refs)
                else:
                    out[n, i] -= self.weight  # this deck has no such card
        return softmax(out)

    def save(self, path: str) -> None:
        arrays = {f"{label}__{k}": t for label, ts in self.templates.items() for k, t in enumerate(ts)}
        with open(path, "wb") as f:
            np.savez_compressed(f, **arrays)

    @staticmethod
    def load(path: str) -> Profile:
        try:
            data = np.load(path)
        except (OSError, ValueError) as e:
            raise ValueError(f"cannot read the deck profile {path}: {e}; make one with "
                             "companion teach DIR --profile FILE") from None
        templates: dict[str, list[np.ndarray]] = {}
        for key in data.files:
            templates.setdefault(key.split("__")[0], []).append(data[key])
        return Profile(templates)

    @staticmethod
    def from_crops(crops: dict[str, list[np.ndarray]]) -> Profile:
        return Profile({label: [_template(c) for c in cs] for label, cs in crops.items()})
