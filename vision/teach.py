"""Teaching a deck: many altered copies of each taught photo, described by the general network's
features of both ends of the card, and a per-deck linear model fitted on them (numpy only)."""
from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Iterator
from dataclasses import dataclass, field

import cv2
import numpy as np

from .finder import CROP

W, H = CROP
# how a card lies in its crop, equally often: fitted tightly, or cut out loosely and turned (degrees)
POSES = ((-3.0, 3.0), (-17.0, -9.0), (-9.0, -2.0), (2.0, 9.0), (9.0, 17.0))


# The share of altered copies JPEG-compressed. The Pi camera's frames are raw, and a card is cut
# out of its larger picture, whose colour is at every pixel's resolution; JPEG keeps colour at
# half resolution, so it blurs a thin stroke's colour into the face. Compressing every copy taught
# a deck's model a light ink's colour as JPEG leaves it, not as the box sees it: on blue faces a
# light blue taken for white, a dark grey ink for green (models/README.md, *Fewer compressed
# copies*). Some still are: a photo or a page's frame may be JPEG.
JPEG_SHARE = 0.3


# -- altered copies --------------------------------------------------------------------------------
def augment(crop: np.ndarray, under: np.ndarray, rng: np.random.Generator, jpeg: float = JPEG_SHARE) -> np.ndarray:
    """One copy of a taught crop as the finder might cut it out of another frame: askew, shifted
    or loosely cut (over the mat or another card), under another light, blurred, noisy, glared,
    and with the chance ``jpeg`` JPEG-compressed."""
    pose = int(rng.integers(len(POSES)))
    loose = pose > 0  # the top card of a pile is often cut out loosely, askew in its crop
    angle = rng.uniform(*POSES[pose])
    scale = rng.uniform(0.74, 0.95) if loose else rng.uniform(0.93, 1.04)
    m: np.ndarray = cv2.getRotationMatrix2D((W / 2, H / 2), angle, scale)
    m[:, 2] += rng.normal(0, [0.06 * W, 0.04 * H]) if loose else rng.normal(0, [0.02 * W, 0.015 * H])
    src = np.array([[0, 0], [W, 0], [W, H], [0, H]], np.float32)
    dst = cv2.transform(src[None], m)[0] + rng.normal(0, 0.8, (4, 2)).astype(np.float32)
    warp = cv2.getPerspectiveTransform(src, dst.astype(np.float32))
    card = cv2.warpPerspective(crop, warp, (W, H), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    inside = cv2.warpPerspective(np.ones((H, W), np.float32), warp, (W, H), flags=cv2.INTER_LINEAR)[..., None]
    if rng.random() < 0.6:  # a card of the pile underneath shows round the edges
        back = cv2.warpAffine(under, cv2.getRotationMatrix2D((W / 2, H / 2), rng.uniform(-20, 20), 1.0),
                              (W, H), borderMode=cv2.BORDER_REPLICATE).astype(np.float32)
    else:  # the mat's grey
        back = np.full((H, W, 3), rng.uniform(120, 185), np.float32) + rng.normal(0, 4, 3).astype(np.float32)
    img: np.ndarray = card.astype(np.float32) * inside + back * (1 - inside)
    img *= rng.uniform(0.92, 1.08, 3).astype(np.float32) * rng.uniform(0.8, 1.12)  # white balance, level
    yy, xx = np.mgrid[0:H, 0:W].astype(np.float32)
    d = rng.normal(0, 1, 2)
    img *= (1 + rng.uniform(0, 0.2) * ((xx / W - 0.5) * d[0] + (yy / H - 0.5) * d[1]))[..., None]
    if rng.random() < 0.25:  # glare
        gx, gy, r = rng.uniform(0, W), rng.uniform(0, H), rng.uniform(4, 16)
        img += (rng.uniform(40, 200) * np.exp(-((xx - gx) ** 2 + (yy - gy) ** 2) / (2 * r * r)))[..., None]
    if rng.random() < 0.3:  # seen from further away or more askew: fewer pixels on the card
        f = rng.uniform(0.6, 0.9)
        small = cv2.resize(img, (max(8, int(W * f)), max(8, int(H * f))), interpolation=cv2.INTER_AREA)
        img = cv2.resize(small, (W, H), interpolation=cv2.INTER_LINEAR)
    blur = rng.uniform(0, 1.0)
    if blur > 0.3:
        img = cv2.GaussianBlur(img, (0, 0), blur)
    img += rng.normal(0, rng.uniform(1, 5), img.shape).astype(np.float32)
    out = np.clip(img, 0, 255).astype(np.uint8)
    if jpeg < 1.0 and rng.random() >= jpeg:  # 1: no draw, so training's samples stay as they were
        return out
    ok, buf = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(45, 95))])
    decoded = cv2.imdecode(buf, cv2.IMREAD_COLOR) if ok else None
    return out if decoded is None else decoded


# -- the per-deck model ----------------------------------------------------------------------------
COPIES = 80          # altered copies of each taught photo, each way up
CHECK_COPIES = 8     # further copies that set the temperature and how far a card of this deck lies
SHRINK = 0.05        # covariance shrinkage towards its diagonal
CAUTION = 2.0        # the temperature fitted on altered copies, times this: real frames differ more
FIT_MARGIN = 1.6     # a card farther than this times ``spread`` does not fit the deck
FACE_FLOOR = 6.0     # Lab levels: a face colour spread never counts as smaller (copies may vary too little)
Features = Callable[[list[np.ndarray]], np.ndarray]


class Stopped(Exception):
    """Fitting was given up halfway, as the box is stopping: nothing was fitted."""


@dataclass
class DeckModel:
    """Linear discriminant analysis with a shrunk shared covariance: one mean per (card, which
    way up), the covariance's inverse (the precision), and a temperature that calibrates the
    posterior."""

    labels: tuple[str, ...]    # per class
    mean: np.ndarray           # feature mean (D)
    precision: np.ndarray      # D x D inverse of the shared within-class covariance
    centres: np.ndarray        # C x D class means, less ``mean``
    temperature: float
    spread: float              # 99th percentile of the check copies' distance to their nearest kind
    faces: np.ndarray          # C x 3 face colour (Lab) of each class's copies
    face_spread: float         # 95th percentile of the check copies' face distance to their nearest kind
    quick: DeckModel | None = None  # the same fitted on a part of the view (``Lessons.quick``): a first look
    _centre_norms: np.ndarray = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self._centre_norms = ((self.centres @ self.precision) * self.centres).sum(1)

    def distances(self, x: np.ndarray) -> np.ndarray:
        """Squared Mahalanobis distance to each class mean, per dimension."""
        u = x.astype(np.float32) - self.mean
        pu = u @ self.precision
        d = (u * pu).sum(1)[:, None] - 2 * pu @ self.centres.T + self._centre_norms[None]
        return np.maximum(d, 0) / self.centres.shape[1]

    def face_distances(self, faces: np.ndarray) -> np.ndarray:
        """Distance of each card's face colour to the nearest taught kind's."""
        return np.linalg.norm(faces[:, None, :] - self.faces[None], axis=2).min(1)

    def posterior(self, x: np.ndarray, faces: np.ndarray, order: tuple[str, ...]) -> tuple[np.ndarray, np.ndarray]:
        """Probabilities over ``order`` (kinds never taught get none) and how far each card lies
        from the taught deck, in units of the copies' spreads. The network's features are meant
        to be alike for every deck, so the face's colour (``face_colours``) says too whether a
        card is of this deck at all."""
        d = self.distances(x)
        p = _softmax(-d / self.temperature)
        out = np.zeros((len(x), len(order)))
        for c, label in enumerate(self.labels):
            out[:, order.index(label)] += p[:, c]
        return out, np.maximum(d.min(1) / self.spread, self.face_distances(faces) / self.face_spread)

    def arrays(self) -> dict[str, np.ndarray]:
        out = {"labels": np.array(self.labels), "mean": self.mean, "precision": self.precision,
               "centres": self.centres, "temperature": np.array(self.temperature), "spread": np.array(self.spread),
               "faces": self.faces, "face_spread": np.array(self.face_spread)}
        if self.quick is not None:
            out.update({f"{QUICK}{k}": v for k, v in self.quick.arrays().items()})
        return out

    @staticmethod
    def from_arrays(a: dict[str, np.ndarray]) -> DeckModel | None:
        """None for a model saved in an older form (a whitening, before the precision): its
        profile is fitted again from its pictures."""
        if "precision" not in a:
            return None
        quick = {k[len(QUICK):]: v for k, v in a.items() if k.startswith(QUICK)}
        return DeckModel(tuple(str(v) for v in a["labels"]), a["mean"], a["precision"], a["centres"],
                         float(a["temperature"]), float(a["spread"]), a["faces"], float(a["face_spread"]),
                         DeckModel.from_arrays(quick) if quick else None)


QUICK = "quick_"  # the saved arrays' prefix of a deck's quick model


# a crop's middle: a loosely cut card leaves the mat round its edges
MIDDLE = (slice(H // 5, H - H // 5), slice(W // 5, W - W // 5))


def face_colours(crops: list[np.ndarray]) -> np.ndarray:
    """The median colour (Lab) of each crop's ``MIDDLE``: most of a card is its face, printed alike
    on every kind of most decks, and unlike another deck's."""
    return np.array([np.median(cv2.cvtColor(c[MIDDLE], cv2.COLOR_BGR2Lab).reshape(-1, 3), axis=0) for c in crops],
                    np.float32).reshape(-1, 3)


def _softmax(z: np.ndarray) -> np.ndarray:
    z = z - z.max(1, keepdims=True)
    e = np.exp(z)
    return e / e.sum(1, keepdims=True)


def fit(crops: dict[str, list[np.ndarray]], features: Features, turn: np.ndarray,
        progress: Callable[[int, int], None] | None = None, copies: int = COPIES, seed: int = 0,
        stop: Callable[[], bool] = lambda: False, quick: np.ndarray | None = None) -> DeckModel:
    """A per-deck model from the taught crops; ``features`` describes crops (the general network's
    features), ``progress(done, total)`` is told after each card kind. Fitting a deck takes half a
    minute; when ``stop()`` turns true it raises ``Stopped`` before the next kind, so the box can
    exit while the network is not running (OpenCV aborts a process that exits under it).
    ``turn`` and ``quick``: see ``Lessons``."""
    kinds = sorted(crops)
    lessons = Lessons(features, turn, [c for label in kinds for c in crops[label]], seed, quick)
    for n, label in enumerate(kinds):
        if stop():
            raise Stopped
        lessons.add(label, label, crops[label], copies)
        if progress:
            progress(n + 1, len(kinds))
    return lessons.model()


@dataclass
class _Described:
    """One lesson's altered copies as the deck's model sees them, the way up they were taught (the
    other is taken from it when fitting: ``Lessons.turn``)."""

    label: str
    x: np.ndarray            # fitting copies' features
    check: np.ndarray        # check copies' features
    faces: np.ndarray        # fitting copies' face colours (the same either way up)
    check_faces: np.ndarray


@dataclass
class Lessons:
    """Altered copies of a deck's pictures, described once and kept: the deck's model is fitted again
    in a moment when a picture comes or goes (a game shows its cards one by one), as describing the
    copies is what takes the time. ``turn``: the columns of a view that make the view of its card
    turned the other way up (``Classifier.turned_columns``), so each copy is described once and
    serves both ways up. ``pool``: cards a copy may lie on (grows with each picture when not
    given). ``quick``: columns of the view that a second, quicker model is fitted on too (what one
    network sees of a card, where several describe it: ``Classifier.quick_columns``)."""

    features: Features
    turn: np.ndarray
    pool: list[np.ndarray] = field(default_factory=list)
    seed: int = 0
    quick: np.ndarray | None = None
    _grow: bool = field(init=False)
    _rng: np.random.Generator = field(init=False)
    _lessons: dict[Hashable, _Described] = field(init=False, default_factory=dict)

    def __post_init__(self) -> None:
        self._grow = not self.pool
        self._rng = np.random.default_rng(self.seed)

    def add(self, key: Hashable, label: str, crops: list[np.ndarray], copies: int = COPIES) -> None:
        """``copies`` altered copies of ``crops`` (pictures of one kind, in turn), each way up. A copy
        turned round is as likely a copy as any (the alterations know no up or down, and the face's
        middle, where its colour is taken, is the same turned), so each is described once."""
        if self._grow:
            self.pool.extend(crops)
        made = [augment(crops[k % len(crops)], self.pool[self._rng.integers(len(self.pool))], self._rng)
                for k in range(copies + CHECK_COPIES)]
        # kept as float16 (a quarter of the memory): a game's deck keeps every card's copies
        described = self.features(made).astype(np.float16)
        self._lessons[key] = _Described(label, described[:copies], described[copies:],
                                        face_colours(made[:copies]), face_colours(made[copies:]))

    def remove(self, key: Hashable) -> None:
        self._lessons.pop(key, None)

    def model(self) -> DeckModel:
        """The deck's model fitted on every lesson's copies: one class per kind and way up, with its
        quick model when ``quick`` columns are given."""
        model = self._fitted(None)
        if self.quick is not None:
            model.quick = self._fitted(self.quick)
        return model

    def _fitted(self, columns: np.ndarray | None) -> DeckModel:
        """The model on the view's ``columns`` (None: all)."""
        every = np.arange(len(self.turn))
        taken = {flip: (self.turn if flip else every)[every if columns is None else columns] for flip in (False, True)}

        def part(x: np.ndarray, flip: bool) -> np.ndarray:
            return x if columns is None and not flip else x[:, taken[flip]]
        classes = sorted({(lesson.label, flip) for lesson in self._lessons.values() for flip in (False, True)})

        def each_class() -> Iterator[np.ndarray]:
            """Each class's copies as the model sees them (one lesson's: no copy when ``part`` makes none)."""
            for label, flip in classes:
                copies = [part(lesson.x, flip) for lesson in self._lessons.values() if lesson.label == label]
                yield copies[0] if len(copies) == 1 else np.concatenate(copies)
        checks, check_ys, faces, check_faces = [], [], [], []
        for c, (label, flip) in enumerate(classes):
            mine = [lesson for lesson in self._lessons.values() if lesson.label == label]
            for lesson in mine:
                checks.append(part(lesson.check, flip))
                check_faces.append(lesson.check_faces)
                check_ys += [c] * len(lesson.check)
            faces.append(np.median(np.concatenate([lesson.faces for lesson in mine]), axis=0))
        mean, precision, centres = fit_lda(_Again(each_class))
        model = DeckModel(tuple(label for label, _ in classes), mean, precision, centres, 1.0, 0.0,
                          np.stack(faces), 0.0)
        d = model.distances(np.concatenate(checks))
        model.temperature = CAUTION * _temperature(d, np.array(check_ys))
        model.spread = float(np.quantile(d.min(1), 0.99))
        # the face's colour is one number per card: a glare or the art over the middle moves it far
        # on a few copies, so its spread is taken at the 95th percentile
        model.face_spread = max(float(np.quantile(model.face_distances(np.concatenate(check_faces)), 0.95)),
                                FACE_FLOOR)
        return model


@dataclass
class _Again:
    """What ``make`` yields, made anew each time it is gone through: each class's copies made when
    ``fit_lda`` comes to them and let go after, as a game's deck would otherwise hold every card's
    copies turned round too, all at once, while it is fitted."""

    make: Callable[[], Iterator[np.ndarray]]

    def __iter__(self) -> Iterator[np.ndarray]:
        return self.make()


def _temperature(d: np.ndarray, y: np.ndarray) -> float:
    """The temperature that best predicts the kinds of the check copies (least log loss); a card's
    two ways up count as one kind."""
    kind = y // 2
    best, best_t = np.inf, 1.0
    for t in np.geomspace(0.005, 5, 40):
        p = _softmax(-d / t)
        per_kind = p[:, 0::2] + p[:, 1::2]
        loss = -np.log(per_kind[np.arange(len(y)), kind] + 1e-9).mean()
        if loss < best:
            best, best_t = loss, float(t)
    return best_t


def fit_lda(classes: Iterable[np.ndarray], shrink: float = SHRINK) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Feature mean, the inverse of the shared within-class covariance and the class means less the
    mean, from each class's samples (taken a class at a time, ``classes`` gone through twice: a
    game's deck holds many). In float32 (the features are float16), inverted by OpenCV's Cholesky:
    numpy's eigendecomposition or inverse of the ~900 x 900 covariance took 26 to 33 MB of the
    box's memory while a deck was fitted, as much as the rest of the fit; OpenCV's 11 MB, and it
    is faster."""
    sizes, means = [], []
    for x in classes:
        sizes.append(len(x))
        means.append(x.mean(0, dtype=np.float64))
    n, centres = sum(sizes), np.stack(means)
    mean = (np.array(sizes, np.float64)[:, None] * centres).sum(0) / n
    cov = np.zeros((centres.shape[1],) * 2, np.float32)
    for x, c in zip(classes, centres, strict=True):
        within = x.astype(np.float32) - c.astype(np.float32)
        cov += within.T @ within
    cov /= n
    # shrunk towards its diagonal, in place
    diagonal, own = np.diag_indices(len(cov)), np.diag(cov).copy()
    cov *= 1 - shrink
    cov[diagonal] += shrink * own
    cov[diagonal] += 1e-4
    _, precision = cv2.invert(cov, flags=cv2.DECOMP_CHOLESKY)  # positive definite: shrunk, and 1e-4 more
    return mean.astype(np.float32), precision, (centres - mean).astype(np.float32)
