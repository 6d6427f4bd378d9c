"""Card classification: the small CNN in ``models/`` run with OpenCV's dnn module (no torch at
run time), optionally helped by a profile of the family's own deck made by ``companion teach``."""
from __future__ import annotations

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


def _read_net(path: str) -> "cv2.dnn.Net":
    """OpenCV 5's classic engine runs this small network twice as fast as its new one; OpenCV 4
    (a Pi's apt OpenCV) has only the classic engine and no engine argument."""
    engine = getattr(cv2.dnn, "ENGINE_CLASSIC", None)
    return cv2.dnn.readNetFromONNX(path) if engine is None else cv2.dnn.readNetFromONNX(path, engine)


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
    _refs: dict[str, np.ndarray] = field(init=False, repr=False, default_factory=dict)

    def __post_init__(self) -> None:
        if not os.path.exists(self.path):
            raise ModelMissing(f"the card classifier {self.path} is missing; reinstall the package "
                               "or train one with: python -m vision.train")
        self._net = _read_net(self.path)
        if self.profile is not None:  # the deck's own cards, as the network sees them
            self._refs = {label: self._run(crops)[1] for label, crops in self.profile.crops.items()}

    def _run(self, crops: list[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
        """Class probabilities and unit-length features for each crop."""
        self._net.setInput(to_blob(crops))
        logits, features = self._net.forward(["logits", "features"])
        features = features.reshape(len(crops), -1)
        features /= np.linalg.norm(features, axis=1, keepdims=True) + 1e-9
        return softmax(logits.reshape(len(crops), len(LABELS))), features

    def probabilities(self, crops: list[np.ndarray]) -> np.ndarray:
        probs, features = self._run(crops)
        if not self._refs:
            return probs
        # a card that looks like the family's own photo of a kind is most likely that kind
        sims = np.zeros_like(probs)
        for i, label in enumerate(LABELS):
            refs = self._refs.get(label)
            sims[:, i] = (features @ refs.T).max(axis=1) if refs is not None else np.nan
        known = np.nan_to_num(sims, nan=np.nanmedian(sims))
        return softmax(np.log(probs + 1e-6) + PROFILE_WEIGHT * known)

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
PROFILE_WEIGHT = 12.0


@dataclass
class Profile:
    """Photos (as upright crops) of each card kind of one deck. Kept as pictures, not features,
    so a profile stays valid when the classifier is retrained."""

    crops: dict[str, list[np.ndarray]]

    def save(self, path: str) -> None:
        arrays = {f"{label}__{k}": c for label, cs in self.crops.items() for k, c in enumerate(cs)}
        with open(path, "wb") as f:
            np.savez_compressed(f, **arrays)

    @staticmethod
    def load(path: str) -> Profile:
        try:
            data = np.load(path)
            crops: dict[str, list[np.ndarray]] = {}
            for key in data.files:
                label = key.split("__")[0]
                if label not in LABELS:
                    raise ValueError(f"unknown card {label!r}")
                crops.setdefault(label, []).append(data[key])
        except (OSError, ValueError, KeyError) as e:
            raise ValueError(f"cannot read the deck profile {path}: {e}; make one with "
                             "companion teach DIR --profile FILE") from None
        return Profile(crops)
