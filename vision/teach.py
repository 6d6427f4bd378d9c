"""Teaching a deck: many altered copies of each taught photo, described by the general network's
features plus cheap hand-made ones, and a per-deck linear model fitted on them (numpy only)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import cv2
import numpy as np

from .finder import CROP

W, H = CROP
THUMB = (12, 18)      # colour thumbnail (w, h): where the ink is, and in which colour
# how a card lies in its crop, equally often: fitted tightly, or cut out loosely and turned (degrees)
POSES = ((-3.0, 3.0), (-17.0, -9.0), (-9.0, -2.0), (2.0, 9.0), (9.0, 17.0))


# -- altered copies --------------------------------------------------------------------------------
def augment(crop: np.ndarray, under: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """One copy of a taught crop as the finder might cut it out of another frame: askew, shifted
    or loosely cut (over the mat or another card), under another light, blurred, noisy, glared."""
    pose = int(rng.integers(len(POSES)))
    loose = pose > 0  # the top card of a pile is often cut out loosely, askew in its crop
    angle = rng.uniform(*POSES[pose])
    scale = rng.uniform(0.74, 0.95) if loose else rng.uniform(0.93, 1.04)
    m = cv2.getRotationMatrix2D((W / 2, H / 2), angle, scale)
    m[:, 2] += rng.normal(0, [0.06 * W, 0.04 * H]) if loose else rng.normal(0, [0.02 * W, 0.015 * H])
    src = np.float32([[0, 0], [W, 0], [W, H], [0, H]])
    dst = cv2.transform(src[None], m)[0] + rng.normal(0, 0.8, (4, 2)).astype(np.float32)
    warp = cv2.getPerspectiveTransform(src, dst.astype(np.float32))
    card = cv2.warpPerspective(crop, warp, (W, H), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    inside = cv2.warpPerspective(np.ones((H, W), np.float32), warp, (W, H), flags=cv2.INTER_LINEAR)[..., None]
    if rng.random() < 0.6:  # a card of the pile underneath shows round the edges
        back = cv2.warpAffine(under, cv2.getRotationMatrix2D((W / 2, H / 2), rng.uniform(-20, 20), 1.0),
                              (W, H), borderMode=cv2.BORDER_REPLICATE).astype(np.float32)
    else:  # the mat's grey
        back = np.full((H, W, 3), rng.uniform(120, 185), np.float32) + rng.normal(0, 4, 3).astype(np.float32)
    img = card.astype(np.float32) * inside + back * (1 - inside)
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
    ok, buf = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(45, 95))])
    return cv2.imdecode(buf, cv2.IMREAD_COLOR) if ok else out


# -- hand-made features ----------------------------------------------------------------------------
def hand_features(crops: list[np.ndarray]) -> np.ndarray:
    """Per crop: a colour thumbnail relative to the card's own face colour and lightness, the hue of
    its saturated pixels, and gradient histograms of its grey picture (the numerals' shapes)."""
    return np.stack([np.concatenate([_thumb(c), _hues(c), _coarse_hog(c), _fine_hog(c), _corner(c),
                                     _corner(c[::-1, ::-1])])
                     for c in crops])


CORNER = (18, 24)   # the top-left corner (w, h) where a numeral is printed, in crop pixels


def _corner(crop: np.ndarray) -> np.ndarray:
    """The numeral's corner in fine detail: its grey picture against its own lightness."""
    patch = cv2.cvtColor(crop[1:1 + CORNER[1], 1:1 + CORNER[0]], cv2.COLOR_BGR2GRAY).astype(np.float32)
    small = cv2.resize(patch, (9, 12), interpolation=cv2.INTER_AREA).ravel()
    small -= small.mean()
    return 1.5 * small / (small.std() + 8.0)


def _thumb(crop: np.ndarray) -> np.ndarray:
    small = cv2.resize(crop, THUMB, interpolation=cv2.INTER_AREA).astype(np.float32) / 255.0
    lab = cv2.cvtColor(small, cv2.COLOR_BGR2Lab).reshape(-1, 3)
    lab -= np.median(lab, axis=0)
    lab[:, 0] /= lab[:, 0].std() + 5.0
    lab[:, 1:] /= 40.0
    return lab.T.ravel()


def _hues(crop: np.ndarray) -> np.ndarray:
    hsv = cv2.cvtColor(crop, cv2.COLOR_BGR2HSV).reshape(-1, 3).astype(np.float32)
    sat = np.clip((hsv[:, 1] - 70) / 120, 0, 1) * (hsv[:, 2] > 50)
    hist = np.bincount((hsv[:, 0] // 15).astype(int) % 12, weights=sat, minlength=12)
    return 4.0 * np.sqrt(hist / len(hsv))


def _hog(crop: np.ndarray, size: tuple[int, int], cell: int, bins: int) -> np.ndarray:
    """Histograms of gradient directions in square cells of the grey picture at ``size``."""
    grey = cv2.cvtColor(cv2.resize(crop, size, interpolation=cv2.INTER_AREA), cv2.COLOR_BGR2GRAY).astype(np.float32)
    gx, gy = cv2.Sobel(grey, cv2.CV_32F, 1, 0), cv2.Sobel(grey, cv2.CV_32F, 0, 1)
    mag, ang = np.sqrt(gx * gx + gy * gy), np.arctan2(gy, gx) % np.pi
    b = np.minimum((ang / np.pi * bins).astype(int), bins - 1)
    across = size[0] // cell
    index = (np.arange(size[1])[:, None] // cell) * across + np.arange(size[0])[None, :] // cell
    cells = across * (size[1] // cell)
    return np.bincount((index * bins + b).ravel(), mag.ravel(), cells * bins).reshape(cells, bins)


def _coarse_hog(crop: np.ndarray) -> np.ndarray:
    hist = _hog(crop, (24, 36), 6, 8)
    return 3.0 * np.sqrt(hist.ravel() / (np.linalg.norm(hist) + 1e-6))


def _fine_hog(crop: np.ndarray) -> np.ndarray:
    """The numerals' and pips' strokes, cell by cell at full size (each cell normalised on its own,
    so a glare or a shadow over one part does not hide the rest)."""
    hist = _hog(crop, (W, H), 6, 9)
    return np.sqrt(hist / (np.linalg.norm(hist, axis=1, keepdims=True) + 20.0)).ravel()


# -- the per-deck model ----------------------------------------------------------------------------
COPIES = 80          # altered copies of each taught photo, each way up
CHECK_COPIES = 8     # further copies that set the temperature and how far a card of this deck lies
SHRINK = 0.05        # covariance shrinkage towards its diagonal
CAUTION = 2.0        # the temperature fitted on altered copies, times this: real frames differ more
FIT_MARGIN = 1.6     # a card farther than this times ``spread`` does not fit the deck
Features = Callable[[list[np.ndarray]], np.ndarray]


@dataclass
class DeckModel:
    """Linear discriminant analysis with a shrunk shared covariance: one mean per (card, which
    way up), a whitening, and a temperature that calibrates the posterior."""

    labels: tuple[str, ...]    # per class
    mean: np.ndarray           # feature mean (D)
    whiten: np.ndarray         # D x K projection into the whitened space
    centres: np.ndarray        # C x K class means in the whitened space
    temperature: float
    spread: float              # 99th percentile of the check copies' distance to their nearest kind

    def distances(self, x: np.ndarray) -> np.ndarray:
        """Squared whitened distance to each class mean, per dimension."""
        z = (x.astype(np.float32) - self.mean) @ self.whiten
        d = (z * z).sum(1)[:, None] - 2 * z @ self.centres.T + (self.centres ** 2).sum(1)[None]
        return np.maximum(d, 0) / self.centres.shape[1]

    def posterior(self, x: np.ndarray, order: tuple[str, ...]) -> tuple[np.ndarray, np.ndarray]:
        """Probabilities over ``order`` (kinds never taught get none) and each card's distance to
        the nearest taught kind, in units of ``spread``."""
        d = self.distances(x)
        p = _softmax(-d / self.temperature)
        out = np.zeros((len(x), len(order)))
        for c, label in enumerate(self.labels):
            out[:, order.index(label)] += p[:, c]
        return out, d.min(1) / self.spread

    def arrays(self) -> dict[str, np.ndarray]:
        return {"labels": np.array(self.labels), "mean": self.mean, "whiten": self.whiten, "centres": self.centres,
                "temperature": np.array(self.temperature), "spread": np.array(self.spread)}

    @staticmethod
    def from_arrays(a: dict[str, np.ndarray]) -> DeckModel:
        return DeckModel(tuple(str(v) for v in a["labels"]), a["mean"], a["whiten"], a["centres"],
                         float(a["temperature"]), float(a["spread"]))


def _softmax(z: np.ndarray) -> np.ndarray:
    z = z - z.max(1, keepdims=True)
    e = np.exp(z)
    return e / e.sum(1, keepdims=True)


def fit(crops: dict[str, list[np.ndarray]], features: Features, progress: Callable[[int, int], None] | None = None,
        copies: int = COPIES, seed: int = 0) -> DeckModel:
    """A per-deck model from the taught crops; ``features`` describes crops (the general network's
    features and the hand-made ones), ``progress(done, total)`` is told after each card kind."""
    rng = np.random.default_rng(seed)
    kinds = sorted(crops)
    pool = [c for label in kinds for c in crops[label]]
    classes = [(label, flip) for label in kinds for flip in (False, True)]
    xs, ys, checks, check_ys = [], [], [], []
    for n, label in enumerate(kinds):
        for flip in (False, True):
            c = classes.index((label, flip))
            made = [augment(_turn(crops[label][k % len(crops[label])], flip), pool[rng.integers(len(pool))], rng)
                    for k in range(copies + CHECK_COPIES)]
            xs.append(features(made[:copies]).astype(np.float32))  # float32: half the memory
            checks.append(features(made[copies:]).astype(np.float32))
            ys += [c] * copies
            check_ys += [c] * CHECK_COPIES
        if progress:
            progress(n + 1, len(kinds))
    mean, whiten, centres = fit_lda(np.concatenate(xs), np.array(ys))
    model = DeckModel(tuple(label for label, _ in classes), mean, whiten, centres, 1.0, 0.0)
    d = model.distances(np.concatenate(checks))
    model.temperature = CAUTION * _temperature(d, np.array(check_ys))
    model.spread = float(np.quantile(d.min(1), 0.99))
    return model


def _turn(crop: np.ndarray, flip: bool) -> np.ndarray:
    return np.ascontiguousarray(crop[::-1, ::-1]) if flip else crop


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


def fit_lda(x: np.ndarray, y: np.ndarray, shrink: float = SHRINK) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Feature mean, whitening of the shared within-class covariance, and the whitened class means."""
    mean = x.mean(0)
    classes = np.unique(y)
    centres = np.stack([x[y == c].mean(0) for c in classes])
    within = x - centres[np.searchsorted(classes, y)]
    cov = within.T @ within / len(x)
    cov = (1 - shrink) * cov + shrink * np.diag(np.diag(cov)) + 1e-4 * np.eye(len(cov))
    vals, vecs = np.linalg.eigh(cov)
    whiten = (vecs / np.sqrt(vals)).astype(np.float32)  # float32: half the memory, twice the speed
    return mean.astype(np.float32), whiten, ((centres - mean) @ whiten).astype(np.float32)
