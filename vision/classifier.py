"""Card classification: the small network shipped in the ``models`` package, run with OpenCV's dnn
module (no torch at run time). It reads each end of a card on its own (suit and value, as printed
in the corners) and the card's answer combines both ends; a profile of the family's own deck made
by ``companion teach`` adds the deck's own model on top."""
from __future__ import annotations

import hashlib
import threading
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from importlib import resources
from importlib.resources.abc import Traversable

import cv2
import numpy as np

from companion.game.cards import SUITS

from . import teach
from .finder import CROP, WHITE_TARGET
from .labels import LABELS
from .wholefile import written_whole

MODEL_PACKAGE = "models"
# the networks that read a card together, trained alike from other seeds
MODEL_NAMES = ("cards.onnx", "cards-2.onnx", "cards-3.onnx")
UNSURE = 0.5   # below this the card is reported as null, with its candidates
SECOND_LOOK = 0.97  # a card the first network reads at least this surely is not read by the others
QUICK_SURE = 0.9    # a taught deck's card its quick look reads this surely (and that fits) is not read by the others
RULED_OUT = 1e-3  # a kind less likely than this is left out of a guess's probabilities


class ModelMissing(RuntimeError):
    """The classifier file is not where the package expects it."""


@dataclass(frozen=True)
class Guess:
    card: str | None
    confidence: float
    candidates: tuple[str, ...]
    fits: bool | None = None   # the card looks like the taught deck (None: no profile)
    mismatch: bool = False     # most cards seen lately do not: the profile is of another deck
    probabilities: tuple[tuple[str, float], ...] = ()  # every kind not quite ruled out, most likely first


def model_resource(name: str = MODEL_NAMES[0]) -> Traversable:
    """A shipped network's file, wherever the package is installed (a checkout, a venv, a zip)."""
    try:
        return resources.files(MODEL_PACKAGE).joinpath(name)
    except ModuleNotFoundError:
        raise ModelMissing(f"the card classifier package '{MODEL_PACKAGE}' is not installed; reinstall "
                           "the companion (pip install .)") from None


def _shipped_model(name: str) -> Traversable:
    """The network's file, or ModelMissing saying how to get it back."""
    model = model_resource(name)
    if not model.is_file():
        raise ModelMissing(f"the card classifier {model} is missing; reinstall the package "
                           "or train the networks again (python -m vision.train; models/README.md says how)")
    return model


_SHARED: list[cv2.dnn.Net] = []
_LOADING = threading.Lock()
_FORWARD = threading.Lock()  # one forward pass at a time: the networks are shared by the process's threads


def load_models() -> list[cv2.dnn.Net]:
    """The shipped networks, read once and shared by every classifier of the process (the camera's,
    a game's growing deck's, a lesson's fit), so their weights and OpenCV's Winograd copies of them
    take the memory once: 4 MB a set. ``cv2.dnn`` reads only real files, so one in a zip is
    unpacked first."""
    with _LOADING:
        if not _SHARED:
            nets = []
            for name in MODEL_NAMES:
                with resources.as_file(_shipped_model(name)) as path:
                    nets.append(_read_net(str(path)))
            _SHARED.extend(nets)
        return list(_SHARED)


def _read_net(path: str) -> cv2.dnn.Net:
    """OpenCV 5's classic engine runs this small network twice as fast as its new one; OpenCV 4
    (a Pi's apt OpenCV) has only the classic engine and no engine argument."""
    engine = getattr(cv2.dnn, "ENGINE_CLASSIC", None)
    return cv2.dnn.readNetFromONNX(path) if engine is None else cv2.dnn.readNetFromONNX(path, engine)


PATCH_ROWS = 40  # each end of the card read on its own: the top 40 rows (27 mm) of the crop, numeral and all
CHANNELS = 7     # lightness and ink against the patch's own face, colour, absolute lightness, the ink's own colour


def ends(crops: list[np.ndarray]) -> list[np.ndarray]:
    """Both ends of each card, the lower one turned upright: printed decks put the value in the
    top-left and (upside down) the bottom-right corner, so the two ends are read alike."""
    out = []
    for c in crops:
        out += [c[:PATCH_ROWS], c[::-1, ::-1][:PATCH_ROWS]]
    return out


def end_rows(cards: np.ndarray) -> np.ndarray:
    """The rows of ``ends`` (and of a blob made of them) that hold the ends of these cards."""
    return np.stack([2 * cards, 2 * cards + 1], 1).ravel()


INK_QUANTILE = 0.97  # of the ink's distances from the face: the scale ``to_blob`` divides the ink by


def to_blob(patches: list[np.ndarray]) -> np.ndarray:
    """Patches (BGR, all one size) → the network's input, NCHW floats. The face's colour differs
    from deck to deck (a blue gradient, a night sky, cream paper), so each patch is described
    against its own median: lightness and ink strength relative to the face, the colour and
    absolute lightness, and the colour of the ink alone (zero on the face) — the suit is the
    ink's colour, not the face's. All patches at once: one colour conversion, no per-patch loop."""
    n, (h, w) = len(patches), patches[0].shape[:2]
    lab, d, ink = against_face(patches)
    strength = ink / np.maximum(_quantile(ink, INK_QUANTILE), 15.0)[:, None]
    only_ink = np.minimum(strength, 1.0) ** 2
    out = np.empty((n, CHANNELS, h * w), np.float32)
    out[:, 0] = d[..., 0] / 50.0
    out[:, 1] = (lab[..., 1] - 128.0) / 25.0
    out[:, 2] = (lab[..., 2] - 128.0) / 25.0
    out[:, 3] = strength
    out[:, 4] = (lab[..., 0] - 128.0) / 70.0
    out[:, 5] = out[:, 1] * only_ink
    out[:, 6] = out[:, 2] * only_ink
    return out.reshape(n, CHANNELS, h, w)


def against_face(patches: list[np.ndarray]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per patch (BGR, all one size), its pixels in Lab (floats, patch × pixel × channel), their
    difference from the face (the patch's median colour), and each pixel's ink: its distance from
    the face, a difference in colour counting twice one in lightness."""
    n, (h, w) = len(patches), patches[0].shape[:2]
    lab8 = cv2.cvtColor(np.concatenate(patches, axis=0), cv2.COLOR_BGR2Lab).reshape(n, h * w, 3)
    lab = lab8.astype(np.float32)
    d = lab - _medians(lab8)[:, None, :]
    return lab, d, np.sqrt(d[..., 0] ** 2 + 2.0 * (d[..., 1] ** 2 + d[..., 2] ** 2))


def _medians(lab: np.ndarray) -> np.ndarray:
    """Per patch (rows of ``lab``, uint8, patch × pixel × channel) each channel's median, as
    ``_quantile(., 0.5)`` gives it (the mean of the middle two of an even count), counted in a
    histogram: levels are whole numbers, so this is exact, and cheaper than sorting."""
    n, pixels, channels = lab.shape
    lo, hi = (pixels - 1) // 2, pixels // 2
    rows = np.arange(n * channels, dtype=np.int32).reshape(n, 1, channels)
    below = np.bincount((rows * 256 + lab).ravel(), minlength=n * channels * 256).reshape(-1, 256).cumsum(1)
    low, high = ((below <= i).sum(1).astype(np.float32) for i in (lo, hi))
    return (low + np.float32(0.5 * (pixels - 1) - lo) * (high - low)).reshape(n, channels)


def _quantile(a: np.ndarray, q: float) -> np.ndarray:
    """``np.quantile(a, q, axis=1)`` (linear between neighbours, so q=0.5 is the median) by a
    partial sort: several times cheaper than numpy's general routine on arrays this small."""
    pos = q * (a.shape[1] - 1)
    lo = int(np.floor(pos))
    hi = min(lo + 1, a.shape[1] - 1)
    part = np.partition(a, (lo, hi), axis=1)
    return part[:, lo] + (pos - lo) * (part[:, hi] - part[:, lo])


INK_WEIGHT = 0.3  # the ink summary and the card's map beside the unit-length network features (whitened alike)


def ink_summary(blob: np.ndarray) -> np.ndarray:
    """Per patch of a ``to_blob`` input: the ink's mean lightness against the face and colour, the
    spread of its colour (a rainbow's is wide), and its share of the patch. One photo of each kind
    shows a deck's own inks, so a taught deck tells its suits apart by them even where the general
    network, never having seen such a face, cannot."""
    n = len(blob)
    w = (np.minimum(blob[:, 3], 1.0) ** 2).reshape(n, -1)
    total = w.sum(1) + 1e-3
    out = [w.mean(1)]
    for ch in (0, 1, 2):
        x = blob[:, ch].reshape(n, -1)
        mean = (x * w).sum(1) / total
        out.append(mean)
        if ch:
            out.append(np.sqrt(np.maximum((x * x * w).sum(1) / total - mean ** 2, 0.0)))
    return np.stack(out, 1).astype(np.float32)


CARD_MAP = (7, 11)           # the whole card as a deck's model sees it: cells across and down
MAP_CHANNELS = (0, 3, 5, 6)  # of ``to_blob``: lightness against the face, ink strength, the ink's own colour


def card_map(crops: list[np.ndarray]) -> np.ndarray:
    """Each whole card in coarse cells: where its ink lies, how light it is and its colour. Where
    the art sits and how many bursts it shows tell a taught deck's kinds apart where its numerals
    do not (a handwritten 3 and 5), and the ends the network reads leave the card's middle out."""
    blob = to_blob(crops)[:, MAP_CHANNELS].transpose(0, 2, 3, 1)
    return np.stack([cv2.resize(np.ascontiguousarray(b), CARD_MAP, interpolation=cv2.INTER_AREA)
                     for b in blob]).reshape(len(crops), -1)


def softmax(logits: np.ndarray) -> np.ndarray:
    z = logits - logits.max(axis=-1, keepdims=True)
    e = np.exp(z)
    return e / e.sum(axis=-1, keepdims=True)


def log_softmax(logits: np.ndarray) -> np.ndarray:
    z = logits - logits.max(axis=-1, keepdims=True)
    return z - np.log(np.exp(z).sum(axis=-1, keepdims=True))


COLOURED = [SUITS.index(s) for s in "rygb"]  # suits printed in one saturated ink
RAINBOW = SUITS.index("m")
RAINBOW_ENDS = 20.0  # how much likelier a rainbow card is when its ends surely show two coloured suits


def card_probabilities(suit: np.ndarray, value: np.ndarray) -> np.ndarray:
    """Per card, from its two ends' suit and value logits (rows 2k and 2k+1): the probability of
    each label. The ends' opinions are averaged in log space (a geometric mean: two views of one
    card are not independent witnesses), then suit and value are combined. A plain card is printed
    in one ink, so ends that read as two different coloured suits (a blue numeral at the top, a
    yellow one at the bottom) speak for the rainbow, whose every numeral or burst may take another
    colour: its share grows with the chance that the ends show two such suits."""
    def per_card(lp: np.ndarray) -> np.ndarray:
        return softmax(0.5 * (lp[0::2] + lp[1::2]))
    each_end = log_softmax(suit)
    ps, pv = per_card(each_end), per_card(log_softmax(value))
    end = np.exp(each_end)[:, COLOURED]
    top, bottom = end[0::2], end[1::2]
    differ = top.sum(1) * bottom.sum(1) - (top * bottom).sum(1)
    ps[:, RAINBOW] *= 1.0 + RAINBOW_ENDS * differ
    ps /= ps.sum(1, keepdims=True)
    return (ps[:, :, None] * pv[:, None, :]).reshape(len(ps), -1)


@dataclass(frozen=True)
class FirstLook:
    """The first network's reading of some cards: what the other networks and a deck's model add to."""

    blob: np.ndarray      # both ends of each card as the networks take them (``to_blob``)
    suit: np.ndarray      # log-probabilities per end
    value: np.ndarray
    features: np.ndarray  # per card

    def of(self, rows: np.ndarray) -> FirstLook:
        ends_of = end_rows(rows)
        return FirstLook(self.blob[ends_of], self.suit[ends_of], self.value[ends_of], self.features[rows])


@dataclass
class Classifier:
    """The general networks, and a taught deck's own model on top of them when there is a profile."""

    profile: Profile | None = None
    _nets: list[cv2.dnn.Net] = field(init=False, repr=False)
    _recent: deque = field(init=False, repr=False, default_factory=lambda: deque(maxlen=RECENT))
    _faces: deque = field(init=False, repr=False, default_factory=lambda: deque(maxlen=FACES_SEEN))
    _lately: deque = field(init=False, repr=False, default_factory=lambda: deque(maxlen=HARD_RECENT))
    _grown: bool = field(init=False, repr=False, default=False)

    def __post_init__(self) -> None:
        self._nets = load_models()
        if self.profile is not None and not self.profile.fitted:
            self.profile.fit(self)  # taught with another network: its features have changed

    def use(self, profile: Profile | None, grown: bool = False) -> None:
        """Read with another deck profile from the next card on; what was seen of the last one says
        nothing of whether this one is of the deck on the table. ``grown``: it is, as it was grown
        from the cards of the game being played (``learning.GameDeck``)."""
        if profile is not None and not profile.fitted:
            profile.fit(self)
        self.profile = profile
        self._grown = grown
        self._recent.clear()

    def new_game(self) -> None:
        """A new game may be played with another deck: the faces of the last one's cards say nothing
        of whether this one gives each suit a face of its own colour (``_own_faces``), nor how
        hard it is to read (``hard_deck``)."""
        self._faces.clear()
        self._lately.clear()

    def _run(self, crops: list[np.ndarray], described: bool = True,
             look: FirstLook | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Class probabilities, every network's features of both ends side by side
        (``_joined_features``), and the input. Each end's readings by the networks are averaged in
        log space: networks trained alike from other seeds err on different cards of a deck none has
        seen. Unless ``described`` (a deck's model needs every network's features), each network
        after the first reads only the cards those before it, together, read less surely than
        ``SECOND_LOOK``; the features are then the first's alone. ``look``: the first network's
        reading of ``crops``, when taken already."""
        look = look or self._first_look(crops)
        blob, first, suit, value = look.blob, look.features, look.suit.copy(), look.value.copy()
        read_by = np.ones(2 * len(crops))
        rows = np.arange(len(crops))
        features = [first]
        for net in self._nets[1:]:
            if not described and len(rows):
                ends_of = end_rows(rows)
                by = read_by[ends_of, None]
                rows = rows[card_probabilities(suit[ends_of] / by, value[ends_of] / by).max(1) < SECOND_LOOK]
            if not len(rows):
                break
            ends_of = end_rows(rows)
            more_suit, more_value, more = self._read(net, blob[ends_of])
            suit[ends_of] += more_suit
            value[ends_of] += more_value
            read_by[ends_of] += 1
            features.append(more)
        probs = card_probabilities(suit / read_by[:, None], value / read_by[:, None])
        if not described:
            return probs, first, blob
        return probs, self._joined_features(features), blob

    def _joined_features(self, features: list[np.ndarray]) -> np.ndarray:
        """The networks' features side by side, each network's of unit length over the square root
        of how many networks there are (the whole of unit length when all have read the card)."""
        scale = np.sqrt(len(self._nets))
        return np.concatenate([f / (scale * (np.linalg.norm(f, axis=1, keepdims=True) + 1e-9)) for f in features], 1)

    def _first_look(self, crops: list[np.ndarray]) -> FirstLook:
        blob = to_blob(ends(crops))
        return FirstLook(blob, *self._read(self._nets[0], blob))

    def quick_columns(self) -> np.ndarray:
        """The columns of the deck's view (``_deck_view``) a quick look at a taught card reads: the
        first network's features, the ink summary and the card's map."""
        blank = [np.zeros((CROP[1], CROP[0], 3), np.uint8)]
        look = self._first_look(blank)
        first = look.features.shape[1]
        rest = self._deck_view(look.features, ink_summary(look.blob), card_map(blank)).shape[1] - first
        width = self.describe(blank).shape[1]
        return np.concatenate([np.arange(first), np.arange(width - rest, width)])

    def turned_columns(self) -> np.ndarray:
        """The columns of a crop's deck view (``_deck_view``) that make the view of the crop turned
        the other way up: its two ends trade places (each network's features, the ink summary) and
        its map turns round. Teaching takes a copy's other way up from it instead of describing
        the copy twice (``teach.Lessons``)."""
        blank = [np.zeros((CROP[1], CROP[0], 3), np.uint8)]
        blob = to_blob(ends(blank))
        # each network's features, then the ink summary: one end's, then the other's
        per_end = [self._read(net, blob)[2].shape[1] // 2 for net in self._nets] + [ink_summary(blob).shape[1]]
        order, start = [], 0
        for width in per_end:
            order += [np.arange(start + width, start + 2 * width), np.arange(start, start + width)]
            start += 2 * width
        cells = np.arange(card_map(blank).shape[1]).reshape(CARD_MAP[1], CARD_MAP[0], -1)[::-1, ::-1]
        return np.concatenate(order + [start + cells.ravel()])

    @staticmethod
    def _read(net: cv2.dnn.Net, blob: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """One network's suit and value log-probabilities per end, and its features per card. The
        networks are shared by the process's threads (``load_models``): one reads at a time."""
        with _FORWARD:
            net.setInput(blob)
            suit, value, features = net.forward(["suit", "value", "features"])
        ends_read = len(blob)
        return (log_softmax(suit.reshape(ends_read, -1)), log_softmax(value.reshape(ends_read, -1)),
                features.reshape(ends_read // 2, -1))

    @staticmethod
    def _deck_view(features: np.ndarray, summary: np.ndarray, cells: np.ndarray) -> np.ndarray:
        """What a deck's model sees of each crop: the networks' features of both ends
        (``_joined_features``), the ink's colour and share on each end, and the whole card in coarse
        cells (``card_map``). Only a taught deck needs it: untaught reading skips it."""
        return np.concatenate([features, INK_WEIGHT * summary.reshape(len(features), -1), INK_WEIGHT * cells], 1)

    def general(self, crops: list[np.ndarray]) -> np.ndarray:
        """Class probabilities per crop from the general networks alone, whatever the profile."""
        return self._run(crops, described=False)[0]

    def describe(self, crops: list[np.ndarray]) -> np.ndarray:
        """What a deck's model sees of each crop (``_deck_view``), for many crops, a few at a time:
        the network's working memory grows with the batch, not its speed (``DESCRIBE_BATCH``)."""
        batches = [crops[i:i + DESCRIBE_BATCH] for i in range(0, len(crops), DESCRIBE_BATCH)]
        views = []
        for batch in batches:
            _, features, blob = self._run(batch)
            views.append(self._deck_view(features, ink_summary(blob), card_map(batch)))
        return np.concatenate(views)

    def probabilities(self, crops: list[np.ndarray], remember: bool = True,
                      full_colour: bool = False) -> tuple[np.ndarray, np.ndarray | None]:
        """Class probabilities per crop, and whether each fits the taught deck (None: no profile).
        While the profile seems to be of another deck, every card is read by the general network
        alone; until enough cards have been seen to know, so is a card that does not fit. Read alone,
        the network is never sure of a pale suit that may be white on a face of its colour
        (``FaceDoubt``), unless the deck gives each suit a face of its own colour (``_own_faces``).
        A profile's card is first read by the first network and the deck's
        quick model; only a card that look leaves unsure, or that does not fit, is read by every
        network and the deck's whole model. A deck grown from the game's first cards, from one
        picture of each kind cut out of a pile, is read by every network at once. ``remember``: the
        crops are cards seen (``mismatch`` counts them); ``full_colour``: they were cut out of a raw
        picture of the Pi camera, its larger one or its frame (``FaceDoubt.of``)."""
        deck = self.profile.deck if self.profile is not None else None
        faces = teach.face_colours(crops)
        own = self._own_faces(faces, crops, remember)
        if deck is None:
            probs, _, blob = self._run(crops, described=False)
            probs = FaceDoubt.of(faces, inks_of(ink_summary(blob)), crops, own, full_colour).applied(probs)
            hard = self.hard_deck  # judged on the cards before these
            if remember:
                self._lately.extend(float(p) for p in probs.max(1))
            return (no_surer_than(probs, HARD_DECK_MOST) if hard else probs), None
        taught, raw = np.empty((len(crops), len(LABELS))), np.empty((len(crops), len(LABELS)))
        distance, full, look = np.empty(len(crops)), np.ones(len(crops), bool), None
        cells = card_map(crops)
        if deck.quick is not None and not self.mismatch and not self._grown:
            look = self._first_look(crops)
            summary = ink_summary(look.blob)
            view = self._deck_view(self._joined_features([look.features]), summary, cells)
            taught, distance = deck.quick.posterior(view, faces, LABELS)
            doubt = FaceDoubt.of(faces, inks_of(summary), crops, own, full_colour)
            raw = card_probabilities(look.suit, look.value)
            both = self._with_deck(taught, distance, doubt.beside_deck().applied(raw), deck)
            full = (both.max(1) < QUICK_SURE) | (distance > teach.FIT_MARGIN)
        rows = np.flatnonzero(full)
        if len(rows):
            part = [crops[i] for i in rows]
            probs, features, blob = self._run(part, look=None if look is None else look.of(rows))
            summary = ink_summary(blob)
            if look is None:  # every card is read here
                doubt = FaceDoubt.of(faces, inks_of(summary), crops, own, full_colour)
            raw[rows] = probs
            taught[rows], distance[rows] = deck.posterior(self._deck_view(features, summary, cells[rows]), faces[rows],
                                                          LABELS)
        # the network's say beside a family's deck model; a deck grown from this game is not sure enough
        # of its inks to weigh the ink's measure itself
        said = (doubt if self._grown else doubt.beside_deck()).applied(raw)
        fits = distance <= teach.FIT_MARGIN
        hard = self._grown and self.hard_deck  # a deck grown from this game is still the networks' to find hard
        if remember:
            self._recent.extend(float(d) for d in distance)
            if self._grown:
                self._lately.extend(float(p) for p in said.max(1))
        if self.mismatch:
            kept = np.flatnonzero(~full)  # found only now: the cards the quick look kept are read as untaught
            if look is not None and len(kept):
                raw[kept] = self._run([crops[i] for i in kept], described=False, look=look.of(kept))[0]
            return doubt.applied(raw), fits
        both = self._with_deck(taught, distance, said, deck)
        if not self.matches:  # a card that does not fit is read as untaught
            unfit = np.flatnonzero(~fits)
            if len(unfit):
                both[unfit] = doubt.at(unfit).applied(raw[unfit])
            return both, fits
        return (no_surer_than(both, HARD_DECK_MOST) if hard else both), fits

    def _own_faces(self, faces: np.ndarray, crops: list[np.ndarray], remember: bool) -> bool:
        """Whether the deck on the table gives each suit a face of its own colour: two plain coloured
        faces among these cards and the last ``FACES_SEEN`` seen lie more than ``FACES_APART`` apart
        in hue (``face_hues``). There a face of one suit's colour is that suit's, whatever its ink.
        ``remember``: the crops are cards seen."""
        hues = face_hues(faces, crops)
        seen = np.concatenate([np.array(self._faces, np.float64), hues])
        if remember:
            self._faces.extend(float(h) for h in hues)
        return faces_apart(seen)

    def _with_deck(self, taught: np.ndarray, distance: np.ndarray, alone: np.ndarray,
                   deck: teach.DeckModel) -> np.ndarray:
        """The deck's model leads; the network still settles what the deck's model leaves open, with
        its doubt where it cannot tell white from a pale suit on a face of that suit's colour."""
        say = GROWN_NETWORK_SAY if self._grown else NETWORK_SAY
        both = softmax(np.log(taught + 1e-9) + say * np.log(alone + 1e-6))
        matches = self.matches  # the median of the cards seen lately: taken once
        if matches:
            both = less_sure_when_far(both, distance)
        both = among_known(both, alone, np.isin(LABELS, deck.labels))
        if self._grown:
            both = agreed(both, alone)
        elif matches:
            both = asked_when_unvouched(both, alone, distance)
        return both

    @property
    def mismatch(self) -> bool:
        """Most of the cards seen lately lie farther from every taught kind than almost all altered
        copies of the taught photos: the profile is of another deck."""
        if self._grown:
            return False
        return len(self._recent) >= MISMATCH_SEEN and float(np.median(self._recent)) > 1.0

    @property
    def hard_deck(self) -> bool:
        """Untaught, the networks were unsure (below ``HARD_SURE``) of at least ``HARD_SHARE`` of
        this game's last ``HARD_RECENT`` cards (``HARD_SEEN`` at least): a deck they find hard
        (numerals too thin for the camera, inks close to the face), on which a card read surely is
        far likelier than elsewhere to be misread. Every reading is then at most ``HARD_DECK_MOST``
        sure, so the box asks about each card (and suggests teaching the deck); so too with a deck
        grown from this game's first cards (``use``), as it reads with the networks. A taught deck's
        own model knows the deck: its readings are left alone."""
        return read_unsurely(list(self._lately))

    @property
    def matches(self) -> bool:
        """Enough cards seen lately, most of them as near the taught kinds as the altered copies:
        the profile is of the deck on the table. Until then a card that does not fit may be the
        first of another deck, which the deck's model would misread (``mismatch`` needs a few)."""
        return self._grown or (len(self._recent) >= MISMATCH_SEEN and not self.mismatch)

    def classify_looks(self, crops: list[np.ndarray], full_colour: bool = False) -> Guess:
        """One card seen in several frames, read as one. The frames differ in the camera's noise, so
        a reading is steadier over a few looks: their probabilities are averaged in log space (a
        geometric mean: the looks share the light and the blur, so they are not independent
        witnesses). The looks are not counted as further cards seen. ``full_colour``: as ``probabilities``'."""
        probs, fits = self.probabilities(crops, remember=False, full_colour=full_colour)
        return guess(softmax(np.log(probs + 1e-9).mean(0)), None if fits is None else bool(fits.all()), self.mismatch)

    def classify(self, crops: list[np.ndarray], full_colour: bool = False) -> list[Guess]:
        """``full_colour``: as ``probabilities``'."""
        if not crops:
            return []
        probs, fits = self.probabilities(crops, full_colour=full_colour)
        mismatch = self.mismatch
        return [guess(p, None if fits is None else bool(f), mismatch)
                for p, f in zip(probs, fits if fits is not None else [None] * len(probs), strict=True)]


# Lab hue angles (degrees) of the faces taken to be of a coloured suit's colour: 25 degrees either
# side of its usual ink (``designs.STANDARD``), but blue's from ultramarine to teal: on azure and
# teal faces (-105 to -140) a light tint of the face is blue's, and white was read as blue surely
# (``bench_face_doubt.py --faint-blue``). Magenta is left out: no face of its hue was seen to take
# white for it.
FACE_HUES = {"r": (10.0, 60.0), "y": (65.0, 115.0), "g": (116.0, 166.0), "b": (-140.0, -53.0)}
FACE_CHROMA = 30.0    # Lab chroma of a face coloured strongly (a blue-faced edition); cream paper is about 22
# Paper is printed cream or grey, never pale blue, so a blue face this grey is a strongly blue one
# seen in a warm or dim light (the blue-faced edition's reached 10 to 25 under the box's lights)
BLUE_FACE_CHROMA = 22.0
INK_CHROMA = 30.0     # Lab chroma of an ink too colourful to be white blurred into the face
FACE_SUIT_DOUBT = 0.25  # the share of a reading of the face's own suit moved to white
WHITE_INK_SATURATION = 0.25  # an ink less saturated than this at full strength (``ink_saturation``) is white
# the same for a card cut out of a raw picture of the Pi camera, whose colour is at every pixel's
# resolution (its larger picture, or without one its frame): there white ink measures about 0.1 and a
# light blue on a deep blue face mostly 0.15 and up, where a frame's colour at half resolution (JPEG)
# takes white's to 0.3 and over (models/README.md, *White ink measured in the camera's larger
# picture* and *The frames alone, raw*)
WHITE_INK_FULL_COLOUR = 0.18
WHITE_INK_DOUBT = 0.75  # the share moved to white then: white is the guess, and the box still asks
MEASURE_FROM = 0.01   # the doubted suit's probability from which the ink's saturation is measured
# Some decks print each suit on a face of its own colour, with white or black ink; a deck sharing
# one face shows it under every card (coloured-face training decks: coloured faces at most 67
# degrees apart in hue, as the light and the art shift them; own-colour decks: 117 to 180)
FACES_APART = 90.0
# Lab distance from the face's median colour, and the share of the card's middle at least that near
# it, for the median to be the face's colour (own-colour training decks: a quarter of their coloured
# faces under 0.54; a big firework over a greyish face leaves well under 0.1 that near)
PLAIN_FACE = (12.0, 0.3)
FACES_SEEN = 8        # cards whose faces tell whether the deck gives each suit a face of its own colour
INK_COLOUR = [2, 4]   # of an end's ``ink_summary``: the ink's mean a* and b* (/ 25)


@dataclass(frozen=True)
class FaceDoubt:
    """Where the networks alone are never to be sure of the face's own suit: on a face strongly of
    that suit's colour, in a pale ink. There white ink, blurred into the face by the camera, takes
    the face's hue, and the suit itself may be printed as a light tint of the face: the network read
    white cards of such decks as the face's suit, surely (on 1,400 piles of new coloured-face
    training decks, 21 of its 29 confident mistakes, their ink's chroma at most 25). A quarter of
    each such reading goes to white of the same value, so the box asks, with white the other
    candidate; where the ink is white at full strength (``ink_saturation``), three quarters go, so
    white is the guess, still asked. A taught deck's own model knows its inks and is not doubted;
    the network's say beside it carries the quarter, unmeasured (``beside_deck``). The ink takes a
    millisecond a card to measure, so it is measured only where a reading gives the doubted suit a
    say (``MEASURE_FROM``), and once per card."""

    suit: np.ndarray   # per card: the index in ``SUITS`` of the suit doubted, -1 for none
    share: np.ndarray  # per card: the share of that suit's reading that goes to white; NaN: not yet measured
    crops: tuple[np.ndarray, ...] = ()  # the cards, for the inks still to measure
    white_ink: float = WHITE_INK_SATURATION  # an ink measured less saturated than this is white

    @staticmethod
    def of(faces: np.ndarray, inks: np.ndarray, crops: list[np.ndarray], own_faces: bool = False,
           full_colour: bool = False) -> FaceDoubt:
        """``faces``: Lab colour of each card's face (``teach.face_colours``); ``inks``: its ink's
        mean a* and b* over both ends, over 25 (``inks_of``); ``crops``: the cards, colour-balanced.
        ``own_faces``: the deck gives each suit a face of its own colour, so no card is doubted.
        ``full_colour``: the crops were cut out of a raw picture of the Pi camera (``WHITE_INK_FULL_COLOUR``)."""
        hue, chroma = hue_chroma(faces)
        pale = 25.0 * np.hypot(inks[:, 0], inks[:, 1]) < INK_CHROMA
        suit = np.full(len(faces), -1)
        for name, (low, high) in () if own_faces else FACE_HUES.items():  # apart: a face is of one suit at most
            coloured = chroma >= (BLUE_FACE_CHROMA if name == "b" else FACE_CHROMA)
            rows = np.flatnonzero(pale & coloured & (hue >= low) & (hue <= high))
            suit[rows] = SUITS.index(name)
        return FaceDoubt(suit, np.where(suit >= 0, np.nan, 0.0), tuple(crops),
                         WHITE_INK_FULL_COLOUR if full_colour else WHITE_INK_SATURATION)

    def at(self, rows: np.ndarray) -> FaceDoubt:
        return FaceDoubt(self.suit[rows], self.share[rows], tuple(self.crops[i] for i in rows) if self.crops else (),
                         self.white_ink)

    def measured(self, rows: np.ndarray | None = None) -> FaceDoubt:
        """Itself, with the ink measured on the doubted cards among ``rows`` (None: all)."""
        todo = np.flatnonzero(np.isnan(self.share))
        for i in todo if rows is None else np.intersect1d(todo, rows):
            self.share[i] = WHITE_INK_DOUBT if ink_saturation(self.crops[i]) < self.white_ink else FACE_SUIT_DOUBT
        return self

    def beside_deck(self) -> FaceDoubt:
        """The doubt of the networks' say beside a family's deck model: the quarter of the doubted
        suit to white on every doubted card, the ink left unmeasured. The ink's measure is the deck's
        model's to weigh, as it was taught that deck's white and pale suit; beside it, the measure
        turned light blue cards white that the deck's model read as blue (models/README.md, *The
        ink's measure left to a taught deck's model*)."""
        return FaceDoubt(self.suit, np.where(self.suit >= 0, FACE_SUIT_DOUBT, 0.0), (), self.white_ink)

    def applied(self, probs: np.ndarray) -> np.ndarray:
        """The networks' probabilities with the doubted suit's share moved to white of the same value.
        Where they give that suit less than ``MEASURE_FROM`` the ink is left unmeasured: either
        share would move less than that."""
        out = probs.copy()
        by_suit = out.reshape(len(out), len(SUITS), -1)  # a view: LABELS run suit by suit
        rows = np.flatnonzero(self.suit >= 0)
        said = by_suit[rows, self.suit[rows]].sum(1) >= MEASURE_FROM
        self.measured(rows[said])
        share = np.where(np.isnan(self.share[rows]), FACE_SUIT_DOUBT, self.share[rows])
        moved = share[:, None] * by_suit[rows, self.suit[rows]]
        by_suit[rows, self.suit[rows]] -= moved
        by_suit[rows, SUITS.index("w")] += moved
        return out


def hue_chroma(faces: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Lab hue (degrees) and chroma of each face (``teach.face_colours``)."""
    a, b = faces[:, 1] - 128.0, faces[:, 2] - 128.0
    return np.degrees(np.arctan2(b, a)), np.hypot(a, b)


def face_hues(faces: np.ndarray, crops: list[np.ndarray]) -> np.ndarray:
    """Lab hue (degrees) of each face coloured at least ``FACE_CHROMA`` and plain (``plain_faces``,
    looked at only on the coloured ones); NaN for the others."""
    hue, chroma = hue_chroma(faces)
    coloured = np.flatnonzero(chroma >= FACE_CHROMA)
    plain = coloured[plain_faces(faces[coloured], [crops[i] for i in coloured])]
    out = np.full(len(faces), np.nan)
    out[plain] = hue[plain]
    return out


def plain_faces(faces: np.ndarray, crops: list[np.ndarray]) -> np.ndarray:
    """Whether each card's middle (``teach.MIDDLE``) is mostly its face's colour (``PLAIN_FACE``), so that colour is
    the face's own: a big firework over a greyish face shifts the middle's median to another hue."""
    near, share = PLAIN_FACE
    labs = (cv2.cvtColor(c[teach.MIDDLE], cv2.COLOR_BGR2Lab).astype(np.float32) for c in crops)
    return np.array([np.mean(np.linalg.norm(lab - f, axis=2) < near) >= share
                     for lab, f in zip(labs, faces, strict=True)], bool)


def faces_apart(hues: np.ndarray) -> bool:
    """Some two of these hues (degrees) lie more than ``FACES_APART`` apart round the circle (NaN:
    no hue, never apart)."""
    gaps = np.abs((hues[:, None] - hues[None, :] + 180.0) % 360.0 - 180.0)
    return bool((gaps > FACES_APART).any())


def inks_of(summary: np.ndarray) -> np.ndarray:
    """Each card's ink's mean a* and b* (over 25) over both ends, from its ends' ``ink_summary``."""
    return summary.reshape(len(summary) // 2, 2, -1).mean(1)[:, INK_COLOUR]


INK_KERNEL = 9        # px: the face under a numeral's stroke, its strokes taken out by a median this wide
INK_SHARE = 0.02      # the card's pixels farthest in colour from the face under them: its strongest ink
FACE_NEAR = 60.0      # sum over BGR: farther than this from the card's face is no face (the mat round a loose cut)
# px of blur: JPEG keeps colour at half the camera's resolution, so a thin stroke's colour is more
# blurred into the face than its lightness; blurring all alike makes each pixel a mix of face and ink
INK_BLUR = 1.0
INK_STEP = 10.0       # least colour step from the face (sum of squares' root, BGR) an ink pixel shows
# px left out round the crop: a card's border (printed up to 4 mm wide, 6 px, and its blurred edge)
# and the mat round a loose cut. A white border on a coloured face steps from it as white ink does,
# so a blue card of a white-bordered blue deck measured as white
INK_MARGIN = 8


def ink_saturation(crop: np.ndarray) -> float:
    """The saturation (HSV's, 0 to 1) of a card's strongest ink at full strength: white ink about 0.1
    (the white balance is not perfect), a light tint of the face's hue as saturated as printed. Each
    of the ink pixels (those farthest in colour from the face under them) is a mix of face and ink,
    so the ink lies on the line from the face through the pixel; it is taken where that line's
    brightest channel reaches the mat's white as balanced (``finder.WHITE_TARGET``), as light inks
    are printed as bright as the paper. The median over those pixels. Blur moves a pixel along that
    line, so the measure holds however blurred a thin stroke is (on new coloured-face training decks
    it tells white from a tint of the face better than the angle between the steps to ink and to
    white did). The card's border and the mat round a loosely cut card are left out (``INK_MARGIN``,
    ``FACE_NEAR``). 1 where the card shows no ink."""
    crop = np.ascontiguousarray(crop[INK_MARGIN:-INK_MARGIN, INK_MARGIN:-INK_MARGIN])
    face_under = cv2.medianBlur(crop, INK_KERNEL)
    h, w = crop.shape[:2]
    face = np.median(crop[h // 5:h - h // 5, w // 5:w - w // 5].reshape(-1, 3), axis=0)
    # in whole numbers at twice the scale (the face's median may fall between two levels): cheaper
    on_face = np.abs(2 * face_under.astype(np.int16) - (2 * face).astype(np.int16)).sum(2) < 2 * FACE_NEAR
    under_all = face_under.astype(np.float32)
    step_all = cv2.GaussianBlur(crop.astype(np.float32), (0, 0), INK_BLUR) - under_all
    size_all = np.sqrt((step_all * step_all).sum(2))
    size = size_all[on_face]
    if len(size) < 50:
        return 1.0
    k = len(size) - max(5, int(INK_SHARE * len(size)))
    ink = on_face & (size_all >= max(float(np.partition(size, k)[k]), INK_STEP))
    if ink.sum() < 5:
        return 1.0
    under, step = under_all[ink], step_all[ink]
    rows = np.arange(len(step))
    brightest = (under + step).argmax(1)
    reach = np.maximum((WHITE_TARGET - under[rows, brightest]) / np.maximum(step[rows, brightest], 1.0), 1.0)
    full = np.clip(under + reach[:, None] * step, 0.0, 255.0)
    return float(np.median(1.0 - full.min(1) / np.maximum(full.max(1), 1.0)))


def agreed(deck: np.ndarray, alone: np.ndarray) -> np.ndarray:
    """A deck grown from a game's first cards may make the network's own best guess sure, but where
    the two read another card best, each has half the say (the mean of their readings), so the card
    is asked about rather than judged by one picture of each kind cut out of a pile."""
    differ = deck.argmax(1) != alone.argmax(1)
    return np.where(differ[:, None], 0.5 * (deck + alone), deck)


def less_sure_when_far(probs: np.ndarray, distance: np.ndarray) -> np.ndarray:
    """Once the profile ``matches``, a card that does not fit is of the taught deck seen oddly
    (glare, cut loosely out of a pile): it lies farther from the taught photos than their altered
    copies do (``distance``, as ``DeckModel.posterior`` gives it). The deck's model still reads it
    better than the network alone (taught decks of the tuning and training families: 91 of 111
    such cards against 81, measured before the deck's view had the card's map), but less surely
    the farther it lies: its log-probabilities are divided by how many times farther than
    ``FIT_MARGIN`` it is."""
    far = np.maximum(distance / teach.FIT_MARGIN, 1.0)[:, None]
    return softmax(np.log(probs + 1e-12) / far)


UNVOUCHED_MOST = 0.75  # how sure a taught reading nothing vouches for may be: below the box's ``SURE``, so it asks


def asked_when_unvouched(probs: np.ndarray, alone: np.ndarray, distance: np.ndarray) -> np.ndarray:
    """A taught card that does not fit the deck (``distance`` beyond ``FIT_MARGIN``: a broad glare
    that recolours it, blur past reading) is read by the deck's model, less surely the farther it
    lies (``less_sure_when_far``), yet a model sure of one kind stays sure far off. Where the
    network alone does not read that card either (below ``UNSURE``), nothing vouches for the
    reading: it stays first, but at most ``UNVOUCHED_MOST`` sure, so the box asks. On taught decks
    of the tuning and training families that asked about 2 of the 10 piles read wrongly at 0.9 or
    surer, and 2 of 3,500 read right (models/README.md, *A taught card nothing vouches for*)."""
    rows = np.arange(len(probs))
    top = probs.argmax(1)
    return no_surer_than(probs, UNVOUCHED_MOST, (distance > teach.FIT_MARGIN) & (alone[rows, top] < UNSURE))


def read_unsurely(lately: list[float]) -> bool:
    """Whether a game's cards read untaught so far (their confidences, oldest first) show a deck the
    networks find hard (``Classifier.hard_deck``)."""
    recent = np.array(lately[-HARD_RECENT:])
    return len(recent) >= HARD_SEEN and float(np.mean(recent < HARD_SURE)) >= HARD_SHARE


def no_surer_than(probs: np.ndarray, most: float, rows: np.ndarray | None = None) -> np.ndarray:
    """Each reading (of ``rows``, a mask; default all) whose first kind is surer than ``most`` (at
    least 0.5), with that kind at ``most``: it stays first, the other kinds sharing what it gives up
    as they shared the rest before."""
    top = probs.argmax(1)
    capped = probs[np.arange(len(probs)), top] > most
    if rows is not None:
        capped &= rows
    if not capped.any():
        return probs
    out = probs[capped] + 1e-12
    picked = top[capped]
    at = np.arange(len(out))
    out[at, picked] = 0.0
    out *= (1.0 - most) / out.sum(1, keepdims=True)
    out[at, picked] = most
    probs = probs.copy()
    probs[capped] = out
    return probs


def among_known(deck: np.ndarray, alone: np.ndarray, known: np.ndarray) -> np.ndarray:
    """A deck's model knows only the kinds it has pictures of (a deck learned from the cards of a
    game lacks those that stayed in the hands): the network alone says how likely the card is one
    of those (``known``, per label), and the deck's model only shares that out among them. For a
    deck taught every kind this is the deck's reading unchanged."""
    if known.all():
        return deck
    inside = deck * known
    inside /= np.maximum(inside.sum(1, keepdims=True), 1e-12)
    return np.where(known, alone[:, known].sum(1, keepdims=True) * inside, alone)


def guess(p: np.ndarray, fits: bool | None = None, mismatch: bool = False) -> Guess:
    order = np.argsort(p)[::-1]
    best = float(p[order[0]])
    candidates = tuple(LABELS[i] for i in order[:3] if p[i] >= 0.02) or (LABELS[order[0]],)
    likely = tuple((LABELS[i], round(float(p[i]), 4)) for i in order if p[i] >= RULED_OUT)
    return Guess(LABELS[order[0]] if best >= UNSURE else None, round(best, 4), candidates, fits, mismatch, likely)


DECK_VIEW = 4  # what ``Classifier._deck_view`` holds (2: the card's map added; 3: every network's features;
# 4: a quick model too)


def model_hash() -> str:
    """Names the shipped networks and the deck view: a deck model fitted on what they show of a
    card is valid only with them (an older profile is fitted again from its pictures)."""
    digest = hashlib.sha256()
    for name in MODEL_NAMES:
        digest.update(_shipped_model(name).read_bytes())
    return f"{digest.hexdigest()[:16]}.{DECK_VIEW}"


# -- profiles of a family's own deck ------------------------------------------------------------
NETWORK_SAY = 0.25   # weight of the network's own log-probabilities beside the deck's model
# beside a deck grown from the game's first cards (one picture of each kind, cut out of a pile: less
# sure of the deck than a family's photos) the network has an equal say, and the two must read the
# same card best for it to be sure (``agreed``): with the say of 0.25 and no such rule, such decks
# judged cards wrongly that the network alone read right (two training families' whole games)
GROWN_NETWORK_SAY = 1.0
# crops described at once: 80 at once took the process's peak memory from 53 to 181 MB, 8 to 78 MB,
# just as fast (one thread of the 2-core x86 machine); teaching and the game's deck describe many.
# 2 took about 10 MB more off teaching's peak, 3% slower (``bench/bench_memory.py``)
DESCRIBE_BATCH = 2
RECENT = 8           # cards remembered (their distance to the taught deck) to judge whether it is on the table
# A deck the networks find hard (``Classifier.hard_deck``): models/README.md, *A deck read unsurely*
HARD_RECENT = 20     # the game's latest cards read untaught
HARD_SEEN = 8        # at least so many of them
HARD_SURE = 0.9      # read less surely than this
HARD_SHARE = 0.5     # by at least this share of them
HARD_DECK_MOST = 0.75  # how sure a reading of such a deck may be: below the box's ``SURE``, so it asks
MISMATCH_SEEN = 4    # cards seen, at least, before a profile is said not to fit
PROFILE_FORMAT = 3  # 3: crops of 66 x 102 px (2: 48 x 72)
PICTURES_PER_KIND = 4  # a kind's first picture and its latest: fitting takes as long with any number


def _crop_sized(crop: np.ndarray) -> np.ndarray:
    """A taught picture at the crop size of this companion (older profiles kept smaller ones)."""
    if crop.shape[:2] == (CROP[1], CROP[0]):
        return crop
    return cv2.resize(crop, CROP, interpolation=cv2.INTER_LINEAR)


@dataclass
class Profile:
    """Photos (as upright crops) of each card kind of one deck, and the deck's own model fitted on
    altered copies of them. The pictures are kept so the model can be fitted again when the
    general network is retrained (``network`` names the one it was fitted with, and the deck's view:
    ``model_hash``)."""

    crops: dict[str, list[np.ndarray]]
    deck: teach.DeckModel | None = None
    network: str = ""
    taught: bool = True   # from photos the family took for it (else learned from the cards of games)

    @property
    def fitted(self) -> bool:
        """Its deck's model was fitted with this network and deck's view: it reads at once. (Saved
        unfitted when the box stopped during a lesson, or fitted by an older version: not.)"""
        return self.deck is not None and self.network == model_hash()

    def fit(self, classifier: Classifier, progress: Callable[[int, int], None] | None = None,
            stop: Callable[[], bool] = lambda: False, seed: int = 0) -> None:
        """Raises ``teach.Stopped`` if ``stop()`` turns true meanwhile (the model is left as it was).
        ``seed``: of the altered copies (the box always takes the same; a benchmark sees with
        others how far a deck's figures swing with its copies)."""
        self.deck = teach.fit(self.crops, classifier.describe, classifier.turned_columns(), progress, seed=seed,
                              stop=stop, quick=classifier.quick_columns())
        self.network = model_hash()

    def with_pictures(self, pictures: list[tuple[str, np.ndarray]]) -> Profile:
        """This deck with more pictures of its cards (``(card, crop)``, as a game saw them), its
        model still to be fitted. Each kind keeps its first picture and its latest ones."""
        crops = {label: list(cs) for label, cs in self.crops.items()}
        for label, crop in pictures:
            kept = crops.setdefault(label, [])
            kept.append(_crop_sized(crop))
            if len(kept) > PICTURES_PER_KIND:
                del kept[1]
        return Profile(crops, taught=False)

    def save(self, path: str) -> None:
        """Written whole or not at all: a power cut while saving leaves the file as it was."""
        arrays: dict[str, np.ndarray] = {f"{label}__{k}": c for label, cs in self.crops.items()
                                         for k, c in enumerate(cs)}
        arrays["_format"] = np.array(PROFILE_FORMAT)
        arrays["_taught"] = np.array(self.taught)
        if self.deck is not None:
            arrays["_network"] = np.array(self.network)
            arrays.update({f"_deck_{k}": v for k, v in self.deck.arrays().items()})
        with written_whole(path) as f:
            np.savez_compressed(f, **arrays)  # type: ignore[arg-type]  # no array is named allow_pickle

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
                crops.setdefault(label, []).append(_crop_sized(data[key]))
            if not crops:
                raise ValueError("it holds no cards")
            if "_format" in data.files and int(data["_format"]) > PROFILE_FORMAT:
                raise ValueError("it was made by a newer companion; update this one")
            model = teach.DeckModel.from_arrays(deck) if deck else None
            network = str(data["_network"]) if "_network" in data.files else ""
            taught = bool(data["_taught"]) if "_taught" in data.files else True
        except (OSError, ValueError, KeyError, EOFError) as e:
            raise ValueError(f"cannot read the deck profile {path}: {e}; make one with "
                             "companion teach DIR --profile FILE") from None
        return Profile(crops, model, network, taught)
