"""Card classification: the small CNN shipped in the ``models`` package run with OpenCV's dnn
module (no torch at run time), optionally helped by a profile of the family's own deck made by
``companion teach``."""
from __future__ import annotations

import hashlib
from collections import deque
from dataclasses import dataclass, field
from importlib import resources
from importlib.resources.abc import Traversable
from typing import Callable

import cv2
import numpy as np

from . import teach
from .labels import LABELS

MODEL_PACKAGE, MODEL_NAME = "models", "cards.onnx"
UNSURE = 0.5   # below this the card is reported as null, with its candidates


class ModelMissing(RuntimeError):
    """The classifier file is not where the package expects it."""


@dataclass(frozen=True)
class Guess:
    card: str | None
    confidence: float
    candidates: tuple[str, ...]
    fits: bool | None = None   # the card looks like the taught deck (None: no profile)
    mismatch: bool = False     # most cards seen lately do not: the profile is of another deck


def model_resource() -> Traversable:
    """The shipped classifier, wherever the package is installed (a checkout, a venv, a zip)."""
    try:
        return resources.files(MODEL_PACKAGE).joinpath(MODEL_NAME)
    except ModuleNotFoundError:
        raise ModelMissing(f"the card classifier package '{MODEL_PACKAGE}' is not installed; reinstall "
                           "the companion (pip install .)") from None


def load_model() -> "cv2.dnn.Net":
    """The shipped network; ``cv2.dnn`` reads only real files, so one in a zip is unpacked first."""
    model = model_resource()
    if not model.is_file():
        raise ModelMissing(f"the card classifier {model} is missing; reinstall the package "
                           "or train one with: python -m vision.train")
    with resources.as_file(model) as path:
        return _read_net(str(path))


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
    """The general network, and a taught deck's own model on top of it when there is a profile."""

    profile: "Profile | None" = None
    _net: "cv2.dnn.Net" = field(init=False, repr=False)
    _recent: deque = field(init=False, repr=False, default_factory=lambda: deque(maxlen=RECENT))

    def __post_init__(self) -> None:
        self._net = load_model()
        if self.profile is not None and self.profile.network != model_hash():
            self.profile.fit(self)  # taught with another network: its features have changed

    def _run(self, crops: list[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
        """Class probabilities and unit-length features for each crop."""
        self._net.setInput(to_blob(crops))
        logits, features = self._net.forward(["logits", "features"])
        features = features.reshape(len(crops), -1)
        features /= np.linalg.norm(features, axis=1, keepdims=True) + 1e-9
        return softmax(logits.reshape(len(crops), len(LABELS))), features

    def describe(self, crops: list[np.ndarray]) -> np.ndarray:
        """What a deck's model sees of each crop: the network's features and the hand-made ones."""
        features = np.concatenate([self._run(crops[i:i + 256])[1] for i in range(0, len(crops), 256)])
        return np.hstack([NET_SCALE * features, teach.hand_features(crops)])

    def probabilities(self, crops: list[np.ndarray]) -> tuple[np.ndarray, np.ndarray | None]:
        """Class probabilities per crop, and whether each fits the taught deck (None: no profile).
        A card that does not fit the deck, or any card while the profile seems to be of another
        deck, is read by the general network alone."""
        probs, features = self._run(crops)
        deck = self.profile.deck if self.profile is not None else None
        if deck is None:
            return probs, None
        x = np.hstack([NET_SCALE * features, teach.hand_features(crops)])
        taught, distance = deck.posterior(x, LABELS)
        fits = distance <= teach.FIT_MARGIN
        self._recent.extend(float(d) for d in distance)
        # the deck's model leads; the network still settles what the deck's model leaves open
        both = softmax(np.log(taught + 1e-9) + NETWORK_SAY * np.log(probs + 1e-6))
        return np.where((fits & (not self.mismatch))[:, None], both, probs), fits

    @property
    def mismatch(self) -> bool:
        """Most of the cards seen lately lie farther from every taught kind than almost all altered
        copies of the taught photos: the profile is of another deck."""
        return len(self._recent) >= MISMATCH_SEEN and float(np.median(self._recent)) > 1.0

    def classify(self, crops: list[np.ndarray]) -> list[Guess]:
        if not crops:
            return []
        probs, fits = self.probabilities(crops)
        mismatch = self.mismatch
        return [guess(p, None if fits is None else bool(f), mismatch)
                for p, f in zip(probs, fits if fits is not None else [None] * len(probs))]


def guess(p: np.ndarray, fits: bool | None = None, mismatch: bool = False) -> Guess:
    order = np.argsort(p)[::-1]
    best = float(p[order[0]])
    candidates = tuple(LABELS[i] for i in order[:3] if p[i] >= 0.02) or (LABELS[order[0]],)
    return Guess(LABELS[order[0]] if best >= UNSURE else None, round(best, 4), candidates, fits, mismatch)


def model_hash() -> str:
    """Names the shipped network: a deck model fitted on its features is valid only with it."""
    return hashlib.sha256(model_resource().read_bytes()).hexdigest()[:16]


# -- profiles of a family's own deck ------------------------------------------------------------
NET_SCALE = 4.0      # the network's unit-length features against the hand-made ones
NETWORK_SAY = 0.5    # weight of the network's own log-probabilities beside the deck's model
RECENT = 8           # cards remembered (their distance to the taught deck) to judge whether it is on the table
MISMATCH_SEEN = 4    # cards seen, at least, before a profile is said not to fit
PROFILE_FORMAT = 2


@dataclass
class Profile:
    """Photos (as upright crops) of each card kind of one deck, and the deck's own model fitted on
    altered copies of them. The pictures are kept so the model can be fitted again when the
    general network is retrained (``network`` names the one it was fitted with)."""

    crops: dict[str, list[np.ndarray]]
    deck: teach.DeckModel | None = None
    network: str = ""

    def fit(self, classifier: Classifier, progress: Callable[[int, int], None] | None = None) -> None:
        self.deck = teach.fit(self.crops, classifier.describe, progress)
        self.network = model_hash()

    def save(self, path: str) -> None:
        arrays: dict[str, np.ndarray] = {f"{label}__{k}": c for label, cs in self.crops.items() for k, c in enumerate(cs)}
        arrays["_format"] = np.array(PROFILE_FORMAT)
        if self.deck is not None:
            arrays["_network"] = np.array(self.network)
            arrays.update({f"_deck_{k}": v for k, v in self.deck.arrays().items()})
        with open(path, "wb") as f:
            np.savez_compressed(f, **arrays)

    @staticmethod
    def load(path: str) -> Profile:
        """A profile file; one written before decks had their own model loads too (the model is
        then fitted when a classifier uses it)."""
        try:
            data = np.load(path)
            crops: dict[str, list[np.ndarray]] = {}
            deck: dict[str, np.ndarray] = {}
            for key in data.files:
                if key.startswith("_deck_"):
                    deck[key[len("_deck_"):]] = data[key]
                    continue
                if key.startswith("_"):
                    continue
                label = key.split("__")[0]
                if label not in LABELS:
                    raise ValueError(f"unknown card {label!r}")
                crops.setdefault(label, []).append(data[key])
            if not crops:
                raise ValueError("it holds no cards")
            if "_format" in data.files and int(data["_format"]) > PROFILE_FORMAT:
                raise ValueError("it was made by a newer companion; update this one")
            model = teach.DeckModel.from_arrays(deck) if deck else None
            network = str(data["_network"]) if "_network" in data.files else ""
        except (OSError, ValueError, KeyError, EOFError) as e:
            raise ValueError(f"cannot read the deck profile {path}: {e}; make one with "
                             "companion teach DIR --profile FILE") from None
        return Profile(crops, model, network)
