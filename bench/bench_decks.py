"""Leave-family-out figures: how well the card reader reads decks of design families it was never
trained on (vision/designs.py's held-out families), per family. Each scene is the printed mat
with piles of mini cards (44 x 68 mm) in PLAY and DISCARD, a camera up to 40 degrees off vertical,
warm/cold/uneven light and glare, as in bench_vision.py.

Per family: piles found, identity without a profile (untaught), identity with a profile taught
from one photo per kind on the mat, share asked (the card reported as null, so the box asks),
wrong with confidence >= 0.9 (untaught, and taught), the median time per 1280x720 frame on one
core (untaught, and taught), and the median time to fit a deck's profile from its 35 photos. The
times are this process's: run one family at a time on an otherwise idle machine to compare them
with the budget. Each deck's scenes are read as one game: the box starts each game afresh, so what
it gathered from the cards of the deck before (how hard the deck is to read, whether each suit has
a face of its own colour) is forgotten when the next deck comes.

    python bench/bench_decks.py                      # small and fast: 30 scenes per family
    python bench/bench_decks.py --frames 700         # 2,100 scenes over the three held-out families
    python bench/bench_decks.py --frames 2000 --decks 20   # each family's figure less swayed by one deck
    python bench/bench_decks.py --model out/a.onnx out/b.onnx --families all   # candidate networks, every family
    python bench/bench_decks.py --families tuning    # the families a change may be tuned on
    python bench/bench_decks.py --watching           # as during a game: the box saw each pile before its top card
    python bench/bench_decks.py --guided             # decks taught by the Teach page's lesson, cards on one pile
    python bench/bench_decks.py --families tuning --gallery out/   # pictures of the piles misread
    python bench/bench_decks.py --families tuning --no-glare       # the same scenes without glare: what it costs
    python bench/bench_decks.py --families tuning --no-jpeg        # uncompressed, as the Pi camera gives frames
    python bench/bench_decks.py --families tuning --fit-seed 1     # each deck's model fitted on other copies
    python bench/bench_decks.py --faint-blue --first-deck 3700     # training decks of a blue face, light blue on it
    python bench/bench_decks.py --deep-blue --first-deck 4300      # the same on a deep face, as a blue-faced edition
    python bench/bench_decks.py --paler-blue --first-deck 4330     # the same, its blue paler still
    python bench/bench_decks.py --families dark-plain --thin-type  # training decks in their thinnest typefaces
    python bench/bench_decks.py --families tuning --detail 1.8     # cards cut from the Pi camera's larger stream
    python bench/bench_decks.py --families tuning --detail 1 --no-jpeg  # the raw frame alone (no larger stream)

Deck seeds already looked at: from 60,000, 72,000 and 97,000 to 121,000 (held-out figures of
earlier readers; 121,000 to 121,019 and 122,000 to 122,009 with --decks; 125,000 to 125,004 for
the renderer's camera; 113,000, 117,000 to 119,000 in whole games, bench_games.py --recorded) and
71,000, 90,000 and 96,000 (the tuning and training families' choices), 126,000 (the hard-deck rule)
and 127,000 to 127,004 (the Pi camera's larger picture); 128,000 to 143,000 (held-out figures
since, models/README.md's *Where it stands*); judge a new candidate on decks it was never compared
on (--first-deck 144000 and up).
"""
import argparse
import collections
import dataclasses
import functools
import itertools
import os
import re
import statistics
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import cv2  # noqa: E402
import numpy as np  # noqa: E402
from bench_vision import PHOTO_LIGHT, teach  # noqa: E402

from vision import camera, classifier, designs, synth  # noqa: E402
from vision.classifier import Classifier, Profile  # noqa: E402
from vision.finder import CROP  # noqa: E402
from vision.guided import GuidedSession, TeachError  # noqa: E402
from vision.labels import LABELS  # noqa: E402
from vision.recognize import CardSeen, Recognizer  # noqa: E402
from vision.watcher import Watcher  # noqa: E402

DECKS = 5            # decks drawn from each family (the scenes are shared out among them)
FIRST_DECK = 70_000  # deck seeds of the benchmark (a family's seeds all give decks of its own kind)
TWO_LIGHTS = 0.3     # ``--two-lights``: how far apart red's and blue's gains run across the frame
HAND_FRAMES = 2     # frames a lesson's card is seen under the hand that lays it
GALLERY = 48        # misread piles shown per family and reading
COLUMNS = ("found", "untaught", "taught", "asked", "wrong>=0.9", "taught wrong", "ms/frame", "taught ms", "teach s")
TIMES = ("ms/frame", "taught ms", "teach s")  # columns in units, not shares


def bar(done: int, total: int, t0: float, label: str) -> None:
    filled = 30 * done // max(1, total)
    print(f"\r  [{'#' * filled:<30}] {done}/{total} {label:<20} {time.time() - t0:5.0f} s", end="",
          file=sys.stderr, flush=True)


FAINT_FACES = (90, 135)  # OpenCV hues (0-180) of the faces of ``--faint-blue`` decks: blue to teal
FAINT_FACE_SATURATION = 90  # and their least saturation (0-255): a greyer face is no blue one


def face_hsv(deck: designs.DeckDesign) -> np.ndarray:
    """The hue (OpenCV's 0-180), saturation and value (0-255) of a deck's first face colour."""
    return cv2.cvtColor(np.array([[deck.colours[0]]], np.uint8), cv2.COLOR_BGR2HSV)[0, 0]


def faint_blue(seed: int, rng: np.random.Generator) -> designs.DeckDesign | None:
    """The coloured-face deck ``seed`` if its face is blue to teal, its blue printed as a tint of
    the face 0.22 to 0.6 saturated and its white plain, both without an outline; None otherwise."""
    deck = designs.design("coloured-face", seed)
    hue, sat, _ = face_hsv(deck)
    if not FAINT_FACES[0] <= hue <= FAINT_FACES[1] or sat < FAINT_FACE_SATURATION:
        return None
    palette = list(deck.palette)
    palette[designs.SUITS.index("b")] = designs._hue(float(hue), float(rng.uniform(0.22, 0.6)), 1.0)
    palette[designs.SUITS.index("w")] = designs._jitter((250, 250, 250), rng, 3)
    return dataclasses.replace(deck, palette=tuple(palette), outline=None)


FAINT_BLUE = "faint-blue"  # ``--faint-blue``'s decks: coloured-face training decks altered by ``faint_blue``
FAINT_SEEDS = 40  # faint-blue deck N: the first coloured-face deck from seed 40 N on that ``faint_blue`` alters
DEEP_BLUE = "deep-blue"  # ``--deep-blue``'s decks: faint-blue decks altered by ``deep_faced``
PALER_BLUE = "paler-blue"  # ``--paler-blue``'s: deep-blue decks whose blue is paler still (``deep_faced``)
ALTERED = (FAINT_BLUE, DEEP_BLUE, PALER_BLUE)  # the benchmark's own alterations of training decks
PALER = (0.12, 0.25)  # the saturation of a paler-blue deck's blue
PALER_DRAW = 777  # its seed, less the deck's: drawn apart, so the deck is otherwise its deep-blue deck


def deep_faced(deck: designs.DeckDesign, seed: int, paler: bool = False) -> designs.DeckDesign:
    """A faint-blue deck on a deep gradient of its own face's hue (saturation 0.7 to 0.95, value
    0.85 down to 0.45), its blue a paler tint (0.25 to 0.4 saturated) and one firework on every
    card, as the card-reading issue describes the widespread blue-faced edition: a training
    family's decks and typefaces that read light blue as white untaught, and now and then taught.
    ``paler``: its blue 0.12 to 0.25 saturated (``PALER``), so that taught too light blue is read as
    white often enough to tell changes apart, as the deep-blue decks no longer are."""
    rng = np.random.default_rng(seed)
    hue = float(face_hsv(deck)[0])
    light = designs._hue(hue, float(rng.uniform(0.7, 0.85)), float(rng.uniform(0.7, 0.85)))
    deep = designs._hue(hue, float(rng.uniform(0.85, 0.95)), float(rng.uniform(0.45, 0.6)))
    palette = list(deck.palette)
    palette[designs.SUITS.index("b")] = designs._hue(hue, float(rng.uniform(0.25, 0.4)), 0.98)
    if paler:
        pale = np.random.default_rng(seed + PALER_DRAW).uniform(*PALER)
        palette[designs.SUITS.index("b")] = designs._hue(hue, float(pale), 0.98)
    return dataclasses.replace(deck, face="gradient", colours=(light, deep), palette=tuple(palette), art="one")


THIN_NAMES = re.compile(r"thin|hairline|extralight", re.IGNORECASE)  # typefaces named as drawn with thin strokes
THIN_STROKE = 0.045  # and whose strokes are at most this share of a numeral's height (``stroke_share``)


def stroke_share(font: str) -> float:
    """How thick the strokes of ``font``'s numerals are, as a share of their height: the median over
    1 to 5 of ``designs.stroke_width``."""
    shares = []
    for text in "12345":
        ink = (designs.numeral_mask(font, text, 96, "fill") > 127).astype(np.uint8)
        if ink.any():
            shares.append(designs.stroke_width(ink) / 96)
    return statistics.median(shares) if shares else float("inf")


@functools.cache
def thin_fonts() -> tuple[str, ...]:
    """The training typefaces drawn with the thinnest strokes (``THIN_NAMES``, ``THIN_STROKE``)."""
    named = [f for f in designs.font_split(False) if THIN_NAMES.search(os.path.basename(f))]
    return tuple(f for f in named if stroke_share(f) <= THIN_STROKE)


def thin_typed(deck: designs.DeckDesign) -> designs.DeckDesign:
    """``deck`` with its numerals in one of the thinnest training typefaces (bold ones not thickened):
    a stand-in, on the training side, for held-out decks whose strokes are thinner than a pixel of
    the card's crop (models/README.md, *On twenty decks per family*)."""
    fonts = thin_fonts()
    if not fonts:
        raise SystemExit("no thin typeface is installed for --thin-type: make fonts installs them")
    return dataclasses.replace(deck, font=fonts[deck.seed % len(fonts)],
                               style="fill" if deck.style == "bold" else deck.style)


def deck_of(family: str, seed: int, thin: bool = False) -> designs.DeckDesign:
    """Deck ``seed`` of a design family, or of one of ``ALTERED``; ``thin``: ``thin_typed``."""
    if family not in ALTERED:
        deck = designs.design(family, seed)
    else:
        altered = (faint_blue(s, np.random.default_rng(s)) for s in itertools.count(FAINT_SEEDS * seed))
        deck = next(deck for deck in altered if deck is not None)
        if family != FAINT_BLUE:
            deck = deep_faced(deck, seed, family == PALER_BLUE)
    return thin_typed(deck) if thin else deck


def role(family: str) -> str:
    """What a family's decks are for (``designs.GROUPS``); faint-blue, deep-blue and paler-blue decks
    are training decks altered."""
    return "training" if family in ALTERED else designs.role(family)


def chosen_families(spec: str) -> tuple[str, ...]:
    """Design families named in a comma-separated list, or a group (held-out, tuning, training, all)."""
    chosen = {**designs.GROUPS, "all": tuple(designs.FAMILIES)}.get(spec) or tuple(spec.split(","))
    unknown = [f for f in chosen if f not in designs.FAMILIES]
    if unknown:
        raise SystemExit(f"unknown families {', '.join(unknown)}; choose from {', '.join(designs.FAMILIES)}")
    return chosen


class Ticks:
    """A progress bar over ``total`` steps, labelled with what is being done (``label``)."""

    def __init__(self, total: int):
        self.total, self.done, self.t0, self.label = total, 0, time.time(), ""

    def __call__(self) -> None:
        self.done += 1
        bar(self.done, self.total, self.t0, self.label)


@dataclasses.dataclass
class Misread:
    """A pile read wrongly or asked about: what the reader was given, and what it said."""

    crop: np.ndarray
    deck: synth.Design
    laid: str
    read: str | None
    confidence: float


def tile(m: Misread) -> np.ndarray:
    """The crop as the reader got it, beside the card laid and the card read as the deck prints them
    (blank when asked), captioned laid>read and the confidence."""
    def printed(card: str | None) -> np.ndarray:
        if card is None:
            return np.zeros_like(m.crop)
        return cv2.resize(m.deck.render(card)[..., :3], CROP, interpolation=cv2.INTER_AREA)
    out = np.hstack([m.crop, printed(m.laid), printed(m.read)])
    out = cv2.copyMakeBorder(out, 14, 2, 2, 2, cv2.BORDER_CONSTANT, value=(0, 0, 0))
    cv2.putText(out, f"{m.laid}>{m.read or '?'} {m.confidence:.2f}", (3, 11), cv2.FONT_HERSHEY_PLAIN, 0.8,
                (255, 255, 255), 1, cv2.LINE_AA)
    return out


def keep_misread(gallery: dict[str, list[Misread]] | None, how: str, crop: np.ndarray | None, deck: synth.Design,
                 laid: str, seen: CardSeen) -> None:
    """Adds a pile read wrongly or asked about to ``gallery[how]`` until it holds ``GALLERY``."""
    if gallery is None or seen.card == laid or crop is None or len(gallery[how]) >= GALLERY:
        return
    gallery[how].append(Misread(crop, deck, laid, seen.card, seen.confidence))


def write_gallery(path: str, misread: list[Misread]) -> None:
    """Four misread piles a row, the crop first (``tile``): where a figure falls short, look here."""
    tiles = [tile(m) for m in misread]
    if not tiles:
        return
    tiles += [np.zeros_like(tiles[0])] * (-len(tiles) % 4)
    rows = [np.hstack(tiles[i:i + 4]) for i in range(0, len(tiles), 4)]
    cv2.imwrite(path, cv2.resize(np.vstack(rows), None, fx=1.5, fy=1.5, interpolation=cv2.INTER_NEAREST))


def before_top_cards(scene: synth.Scene, camera: synth.Camera, light: synth.Light, k: int) -> np.ndarray:
    """The same table a moment earlier, before each zone's top card was laid: what the watcher
    saw when it last judged the zones (same camera and light, other sensor noise)."""
    return synth.render_frame(scene.before_tops(), camera, dataclasses.replace(light, noise_seed=k + 1), k)


def teach_guided(deck: synth.Design, rng: np.random.Generator, recognizer: Recognizer,
                 detail: float | None = None, exposure: float | None = None) -> Profile | None:
    """The deck taught as the box's Teach page does it: every kind asked for in turn and laid on
    one pile in PLAY, each picture taken by the watcher when the card lies still. The family lays
    the kind the page asks for, by hand (the hand over PLAY for two frames: once a hand has passed,
    the watcher also compares the top card's own colours); a picture in doubt (``GuidedSession``) of
    the card just laid it keeps with OK, of another card it lays the kind asked for again. None if a
    kind was never taken. ``detail``: the camera's larger picture, this many times the frame's size,
    which the watcher cuts the cards out of. ``exposure``: the frames' level as the Pi camera's
    exposure control sets it (``synth.Light.exposure``)."""
    camera, light = synth.Camera(tilt=8, roll=3, fill=0.75), synth.Light(exposure=exposure)
    session = GuidedSession(tuple(LABELS), Watcher(recognizer))
    lesson, scene, t, n, laid = session.lesson, synth.Scene(), 0.0, 0, None
    for _ in range(2 * len(LABELS)):
        if lesson.doubt is not None and lesson.waiting is not None and lesson.waiting[0] == laid:
            session.confirm()
        kind = lesson.waiting[0] if lesson.doubt is not None and lesson.waiting else next(iter(lesson.missing), None)
        if kind is None:
            break
        scene.cards.append(synth.lay(kind, "play", deck, rng, pile=len(scene.cards)))
        laid = kind
        for k in range(HAND_FRAMES + 6):
            scene.hand_zone, scene.hand_seed = ("play" if k < HAND_FRAMES else None), len(scene.cards)
            n += 1
            lit = dataclasses.replace(light, noise_seed=n)
            session.feed(synth.render_frame(scene, camera, lit, 0), t,
                         None if detail is None else functools.partial(synth.render_larger, scene, camera, lit, detail))
            t += 0.1
    try:
        return Profile(session.finish())
    except TeachError:
        return None


@dataclasses.dataclass
class DeckTally:
    """One deck's piles, how many of them were read right, untaught and taught, and how many
    wrongly with confidence >= 0.9."""

    seed: int
    piles: int = 0
    right: int = 0
    right_taught: int = 0
    sure_wrong: int = 0
    sure_wrong_taught: int = 0


def sure_wrong(seen: CardSeen, top: str) -> bool:
    """Read as another card than ``top`` with confidence >= 0.9: a mistake the box would judge by."""
    return seen.card is not None and seen.card != top and seen.confidence >= 0.9


def family_figures(family: str, frames: int, seed: int, taught: bool, first_deck: int,
                   progress: tuple[int, int, float], watching: bool = False, guided: bool = False,
                   gallery: dict[str, list[Misread]] | None = None, glare: bool = True,
                   fit_seed: int = 0, jpeg: bool = True, decks: int = DECKS, thin: bool = False,
                   detail: float | None = None, exposure: float | None = None,
                   across: float = 0.0) -> dict[str, float]:
    """Read ``frames`` scenes of decks of ``family``; figures are shares of the piles laid.
    ``watching``: each zone read knowing its picture before the top card was laid, as the box
    reads a card during a game (the time per frame then includes that look). ``guided``: each deck
    taught by the Teach page's lesson (``teach_guided``) rather than from photos of single cards.
    ``gallery``: the first misread piles of each reading (untaught, taught) are added to it.
    ``glare``: False reads the same scenes with the lamp's glare left out, to see what glare costs.
    ``fit_seed``: of each deck model's altered copies (others: how far the taught figures swing).
    ``jpeg``: False reads the same scenes uncompressed, as the Pi camera gives its frames.
    ``decks``: how many decks share the scenes; each deck's own figures are kept too, as one
    deck of a family may be read far worse than the others. ``thin``: the decks' numerals in the
    thinnest training typefaces (``thin_typed``). ``detail``: each card cut out of the camera's
    larger picture of the moment, this many times the frame's size (the Pi camera's two streams),
    and the deck taught from photos of that size. ``exposure``: every frame's and photo's level
    set by the Pi camera's exposure control at this exposure value (``synth.Light.exposure``).
    ``across``: the scenes lit warm on one side and cold on the other (``synth.Light.across``)."""
    rng = np.random.default_rng([seed, sum(map(ord, family))])
    plain = Recognizer(Classifier())
    found = asked = wrong = wrong_taught = 0
    times, times_taught, teaching = [], [], []
    confusions: collections.Counter = collections.Counter()
    confusions_taught: collections.Counter = collections.Counter()
    done, total, t0 = progress
    per_deck = -(-frames // decks)
    by_deck: list[DeckTally] = []
    for k in range(frames):
        if k % per_deck == 0:
            tally = DeckTally(first_deck + k // per_deck)
            by_deck.append(tally)
            plain.classifier.new_game()  # each deck's scenes are one game: the box forgets the last deck's cards
            deck = deck_of(family, tally.seed, thin)
            with_profile = None
            if taught:
                # the Pi camera's photos are raw
                photo = PHOTO_LIGHT if jpeg and detail is None else dataclasses.replace(PHOTO_LIGHT, jpeg=None)
                profile = (teach_guided(deck, rng, plain, detail, exposure) if guided
                           else teach(deck, rng, dataclasses.replace(photo, exposure=exposure), detail))
                if profile is None:
                    raise SystemExit(f"the lesson of {family} deck {tally.seed} missed a card kind")
                t = time.perf_counter()
                profile.fit(plain.classifier, seed=fit_seed)  # the deck's model
                teaching.append(time.perf_counter() - t)
                with_profile = Recognizer(Classifier(profile=profile), plain.detector)
        scene = synth.random_scene(rng, deck, cards=[str(c) for c in rng.choice(LABELS, 6)])
        camera, light = synth.Camera.random(rng, max_tilt=40), synth.Light.random(rng)
        if not glare:
            light = dataclasses.replace(light, glare=0.0)
        if not jpeg:
            light = dataclasses.replace(light, jpeg=None)
        light = dataclasses.replace(light, exposure=exposure, across=across)
        frame = synth.render_frame(scene, camera, light, k)
        larger = None if detail is None else synth.render_larger(scene, camera, light, detail, k)
        before = None
        if watching:
            before = {z: v.image for z, v in plain.look(before_top_cards(scene, camera, light, k))[1].items()}
        t = time.perf_counter()
        result = plain.analyse(frame, before, larger)
        times.append((time.perf_counter() - t) * 1000)
        tally.piles += 2  # every scene has a pile in each zone; a pile not found counts as misread
        for seen in result.cards:
            top = scene.top(seen.zone).card
            found += 1
            tally.right += seen.card == top
            asked += seen.card is None
            sure = sure_wrong(seen, top)
            wrong += sure
            tally.sure_wrong += sure
            confusions[f"{top}->{seen.card or '?'}"] += seen.card != top
            keep_misread(gallery, "untaught", result.views[seen.zone].crop, deck, top, seen)
        if with_profile is not None:
            t = time.perf_counter()
            seen_taught = with_profile.analyse(frame, before, larger).cards
            times_taught.append((time.perf_counter() - t) * 1000)
            for s in seen_taught:
                top = scene.top(s.zone).card
                tally.right_taught += s.card == top
                sure = sure_wrong(s, top)
                wrong_taught += sure
                tally.sure_wrong_taught += sure
                confusions_taught[f"{top}->{s.card or '?'}"] += s.card != top
                keep_misread(gallery, "taught", result.views[s.zone].crop, deck, top, s)
        bar(done + k + 1, total, t0, family)
    nan = float("nan")
    piles = sum(d.piles for d in by_deck)
    right, right_taught = sum(d.right for d in by_deck), sum(d.right_taught for d in by_deck)
    return {"found": found / piles, "untaught": right / piles, "taught": right_taught / piles if taught else nan,
            "asked": asked / piles, "wrong>=0.9": wrong / piles,
            "taught wrong": wrong_taught / piles if taught else nan,
            "ms/frame": statistics.median(times), "taught ms": statistics.median(times_taught) if taught else nan,
            "teach s": statistics.median(teaching) if taught else nan,
            "piles": piles, "by deck": by_deck, "wrong piles": (wrong, wrong_taught),
            "confusions": typical(confusions), "confusions taught": typical(confusions_taught)}


TARGETS = {"untaught": 0.97, "taught": 0.995}  # the share of piles to read right


def spread(by_deck: list[DeckTally], how: str) -> str:
    """The lowest (and its deck's seed), median and highest of the decks' shares read right ``how``
    (untaught or taught), and how many decks fall short of the target."""
    shares = sorted(((d.right if how == "untaught" else d.right_taught) / d.piles, d.seed)
                    for d in by_deck if d.piles)
    median = statistics.median(share for share, _ in shares)
    short = sum(share < TARGETS[how] for share, _ in shares)
    return (f"{how} {shares[0][0]:.1%} (deck {shares[0][1]}), {median:.1%}, {shares[-1][0]:.1%}, "
            f"{short} of {len(shares)} below {TARGETS[how]:.1%}")


def sure_wrong_decks(by_deck: list[DeckTally]) -> str:
    """The decks read wrongly with confidence >= 0.9, and how often (untaught / taught)."""
    decks = [f"{d.seed} {d.sure_wrong}/{d.sure_wrong_taught}" for d in by_deck if d.sure_wrong or d.sure_wrong_taught]
    return f" ({', '.join(decks)})" if decks else ""


def typical(confusions: collections.Counter) -> list[str]:
    return [f"{k} ({n})" for k, n in confusions.most_common(4) if n]


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--frames", type=int, default=30, help="scenes per family (two piles each)")
    p.add_argument("--seed", type=int, default=2026, help="seed of the scenes, cameras and lights")
    p.add_argument("--decks", type=int, default=DECKS,
                   help="decks per family, sharing the scenes (more decks: a family's figure less swayed by one deck)")
    p.add_argument("--families", default="held-out",
                   help="held-out (default: the test families), tuning, training, all, or names separated by commas")
    p.add_argument("--first-deck", type=int, default=FIRST_DECK, help="seed of each family's first deck")
    p.add_argument("--model", nargs="+", help="ONNX card classifiers (read together) to measure instead "
                   "of the shipped ones")
    p.add_argument("--no-teach", action="store_true",
                   help="skip the taught figures (faster; teaching draws from the scenes' random numbers, so the "
                        "scenes differ: compare only with other runs without teaching)")
    p.add_argument("--watching", action="store_true",
                   help="read each pile as the box does during a game, knowing the zone before its top card")
    p.add_argument("--guided", action="store_true",
                   help="teach each deck as the Teach page does: every kind laid in turn on one pile in PLAY")
    p.add_argument("--no-glare", action="store_true",
                   help="the same scenes without the lamp's glare (on 40%% of them): what glare costs")
    p.add_argument("--no-jpeg", action="store_true",
                   help="the same scenes uncompressed, as the Pi camera gives its frames (RGB888), not as a "
                        "webcam's JPEG")
    p.add_argument("--fit-seed", type=int, default=0,
                   help="seed of the altered copies each deck's model is fitted on (the box's: 0); others show how "
                        "far the taught figures swing with the copies alone")
    p.add_argument("--faint-blue", action="store_true",
                   help="instead of --families, coloured-face training decks of a blue to teal face, their blue a "
                        "faint tint of it beside plain white (as bench_face_doubt.py --faint-blue), taught too")
    p.add_argument("--deep-blue", action="store_true",
                   help="instead of --families, faint-blue decks on a deep face of their own hue, their blue paler, "
                        "one firework on every card: a training-side stand-in for a blue-faced edition, taught too")
    p.add_argument("--paler-blue", action="store_true",
                   help="instead of --families, deep-blue decks whose blue is paler still (0.12 to 0.25 saturated): "
                        "taught, light blue read as white often enough to tune on")
    p.add_argument("--thin-type", action="store_true",
                   help="each deck's numerals in one of the thinnest training typefaces, thinner than a pixel of "
                        "the card's crop where small: a stand-in to tune on (training and tuning families)")
    p.add_argument("--detail", type=float, metavar="SCALE",
                   help="cut each card out of the camera's larger picture of the moment, SCALE times the frame's "
                        "size (1.8: the Pi camera's 2304x1296 beside its 1280x720; 1: the raw frame itself, as a "
                        "Pi camera without its larger stream gives it), and teach from such photos")
    p.add_argument("--exposure", type=float, metavar="EV",
                   help="the light's level set as the Pi camera's exposure control sets it with the box's settings, "
                        f"at this exposure value (the box's: {camera.BOX_EV}) instead of drawn at random")
    p.add_argument("--two-lights", action="store_true",
                   help="light every scene warm on one side and cold on the other, red's and blue's gains "
                        f"{TWO_LIGHTS * 100:.0f}%% apart across the frame (a lamp and a window); the deck is taught "
                        "as before")
    p.add_argument("--gallery", metavar="DIR",
                   help="also write pictures of the piles misread, per family and reading, into DIR")
    args = p.parse_args()
    chosen = ((FAINT_BLUE,) if args.faint_blue else (DEEP_BLUE,) if args.deep_blue else (PALER_BLUE,)
              if args.paler_blue else chosen_families(args.families))
    if args.model:
        for path in args.model:
            if not os.path.isfile(path):
                raise SystemExit(f"no model at {path}: train one with python -m vision.train --out FILE")
        classifier.load_models = lambda: [classifier._read_net(path) for path in args.model]
    cv2.setNumThreads(1)
    t0 = time.time()
    rows = {}
    if args.gallery:
        os.makedirs(args.gallery, exist_ok=True)
    for n, family in enumerate(chosen):
        misread: dict[str, list[Misread]] = {"untaught": [], "taught": []}
        rows[family] = family_figures(family, args.frames, args.seed, not args.no_teach, args.first_deck,
                                      (n * args.frames, len(chosen) * args.frames, t0), args.watching, args.guided,
                                      misread if args.gallery else None, not args.no_glare, args.fit_seed,
                                      not args.no_jpeg, args.decks, args.thin_type, args.detail,
                                      args.exposure, TWO_LIGHTS if args.two_lights else 0.0)
        if args.gallery:
            for how, piles in misread.items():
                write_gallery(os.path.join(args.gallery, f"{family}-{how}.png"), piles)
    print(file=sys.stderr)
    typefaces = [len({designs.typeface(f) for f in designs.font_split(held) if designs.prints_numerals(f)})
                 for held in (False, True)]
    how = (("watching a game" if args.watching else "photos alone") + (", taught by the lesson" if args.guided else "")
           + (", no glare" if args.no_glare else "") + (", uncompressed" if args.no_jpeg else "")
           + (f", copies' seed {args.fit_seed}" if args.fit_seed else "")
           + (", thinnest training typefaces" if args.thin_type else "")
           + (f", cards cut from a {args.detail:g} times larger picture" if args.detail else "")
           + (", a lamp on one side and a window on the other" if args.two_lights else ""))
    print(f"design families ({args.frames} scenes each, {args.decks} decks per family from deck {args.first_deck}, "
          f"seed {args.seed}, model {' + '.join(args.model or ['shipped'])}, {how}; "
          f"typefaces: {typefaces[0]} for training families, "
          f"{typefaces[1]} for held-out ones, make fonts installs them):")
    print(f"  {'family':<20}{'role':>9}" + "".join(f"{c:>12}" for c in COLUMNS))
    for family, r in rows.items():
        cells = ["-" if np.isnan(r[c]) else f"{r[c]:.1f}" if c in TIMES else f"{r[c]:.1%}"
                 for c in COLUMNS]
        print(f"  {family:<20}{role(family):>9}"
              + "".join(f"{c:>12}" for c in cells))
    print("per deck, read right (lowest, median, highest, how many short of the target), and piles read wrongly "
          "with confidence >= 0.9:")
    for family, r in rows.items():
        sure_wrong = r["wrong piles"]
        print(f"  {family:<20} {spread(r['by deck'], 'untaught')}"
              + ("" if args.no_teach else f"; {spread(r['by deck'], 'taught')}")
              + f"; wrong and sure {sure_wrong[0]}" + ("" if args.no_teach else f" / {sure_wrong[1]}")
              + f" of {r['piles']}" + sure_wrong_decks(r["by deck"]))
    if args.decks > 1:
        print("each deck, piles read right untaught" + ("" if args.no_teach else " / taught") + " of its piles:")
        for family, r in rows.items():
            print(f"  {family:<20} " + ", ".join(f"{d.seed} {d.right}" + ("" if args.no_teach else f"/{d.right_taught}")
                                                   + f" of {d.piles}" for d in r["by deck"]))
    for how, key in (("untaught", "confusions"), ("taught", "confusions taught")):
        if how == "taught" and args.no_teach:
            continue
        print(f"typical confusions {how} (laid->read, ? = asked):")
        for family, r in rows.items():
            print(f"  {family:<20} {', '.join(r[key]) or 'none'}")


if __name__ == "__main__":
    main()
