"""Whole decks read card by card in the order of a game, as the box judges them: each card laid on a
small pile in PLAY or DISCARD, a random camera (up to 40 degrees off vertical) and light per card,
the pile seen a moment before (as the watcher has it), decks of the base, rainbow and black-powder
games in turn. A card is judged at once when sure (confidence >= 0.9, the box's default), else the
box asks; a card judged, asked or entered by hand takes its copy off the deck. As the watcher
does, a card read less surely than that is read again in a further frame of the same table (other
sensor noise) and the frames' readings combined; --looks 1 reads each card in one frame.

Per family, with the reader's own reading (a card whose copies are all on the table, or of a suit
the game leaves out, is refused by the rules and must be entered by hand) and with the reading
weighed over the cards the game can still take (companion/game/reading.py): cards judged right,
judged wrong, asked, refused, and not found (the same either way; such a card is entered by hand),
and of the cards asked about, the share where the box's guess was the card (OK suffices). A shuffled
deck's cards build no firework, so here a card in PLAY is not weighed by whether it fits (the box's
reading.MISPLAY); --recorded weighs it so.

With --taught, each deck is also read with a profile taught from one photo per kind on the mat
(as bench_decks.py teaches), weighed by the game: the box as a family that taught its deck has it.

With --learn, each deck is played twice (another shuffle, other cameras and light) and the second
game is read also with the profile the box learned from the first, untaught (vision/learning.py;
a taught deck is left as taught): the cards of the first game but its last 15 (still in the hands
when it ends), each named as the game settled it: the box's reading where it judged at once (a
card judged wrong stays wrong: nobody corrects it), the card itself where the box asked.

With --grow, each game is also read by a box with no profile that grows the deck's model from the
game's cards as it goes (vision/learning.py's GameDeck): each card, once judged or answered, joins
the model that reads the cards after it, named as the game settled it, as the box does (a card
judged wrong joins under the card it was taken for: nobody corrects it). --grow-from asked grows
only the cards the box asked about (a person named them).

With --recorded, each deck is played as a game people played (the recorded games of tests/data,
2-player and 3-player in turn, boxed rules): its plays and discards in their order, each card on
its zone's pile (the zone's last cards beneath it), judged against the game as it then stood (the
table kept right, as by a family correcting the box). Misplays included. Read untaught, weighed by
the game with and without a card laid in PLAY taken as likelier when it fits
(companion/game/reading.py's MISPLAY); the rows "misplays" count the misplays alone. With --taught,
also read with a profile taught from one photo per kind on the mat; with --grow, also by the box as
it reads a deck it has no profile of, growing the game's deck as it goes (its cards named as the
table kept right settled them: the box's reading where it judged at once, else the card). Per
reading, also the games in which the page suggested teaching the deck (the box asked about so many
of its cards: companion/game/reading.py's suggests_teaching) and at which card it first did.

--thin-type prints each deck's numerals in one of the thinnest training typefaces (bench_decks.py's);
--no-hard-deck reads as the box did before a deck the networks find hard made it ask about every
card (vision/classifier.py's Classifier.hard_deck), to measure that rule.

    python bench/bench_games.py                          # small: 1 deck per family
    python bench/bench_games.py --decks 6 --families held-out --first-deck 74000 --taught
    python bench/bench_games.py --decks 6 --families held-out --first-deck 74000 --learn
    python bench/bench_games.py --decks 6 --families held-out --first-deck 74000 --grow
    python bench/bench_games.py --decks 6 --families tuning --first-deck 113000 --recorded
"""
import argparse
import collections
import dataclasses
import functools
import json
import os
import resource
import sys
import time
from collections.abc import Callable, Iterator

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import cv2  # noqa: E402
import numpy as np  # noqa: E402
from bench_decks import Ticks, before_top_cards, chosen_families, deck_of  # noqa: E402
from bench_vision import teach  # noqa: E402

from companion.game.reading import SURE, Reading, can_be_laid, fits, suggests_teaching, weigh  # noqa: E402
from companion.game.rules import State, apply, new_game  # noqa: E402
from companion.game.tablelog import TableLog, parse_log  # noqa: E402
from companion.game.variants import parse_variant  # noqa: E402
from vision import classifier, designs, synth  # noqa: E402
from vision.classifier import Classifier  # noqa: E402
from vision.learning import GameDeck, learn  # noqa: E402
from vision.recognize import CardSeen, Recognizer  # noqa: E402
from vision.watcher import AGAIN, LOOKS  # noqa: E402

GAMES = ("base", "rainbow", "black-powder")
OUTCOMES = ("right", "wrong", "asked", "refused", "not found")
COLUMNS = (*OUTCOMES, "OK suffices")  # of the cards asked about, the box's guess was the card
HANDS = 15  # cards of a 3-player game still in the hands at its end: the box never sees them
RECORDED = ("hanabidata-2p.jsonl", "ah2ac2-3p.jsonl")  # in tests/data, taken in turn by --recorded


Reads = list[tuple[str, CardSeen | None]]
Pictures = list[np.ndarray | None]  # per card, its first look's crop


@dataclasses.dataclass
class Laid:
    """One card of a game as the box sees it laid: its zone, the zones of the first frame, and
    further frames of the same table on demand (``again(n)``, other sensor noise)."""

    card: str
    zone: str
    frames: list[dict]
    again: Callable[[int], dict]

    @property
    def picture(self) -> np.ndarray | None:
        """The card's first look's crop, as the watcher hands it on to be learned from (none when blurred)."""
        view = self.frames[0].get(self.zone)
        return None if view is None or view.soft_edged else view.crop


def laid(deck: designs.DeckDesign, preset: str, recognizer: Recognizer, game: int = 0) -> Iterator[Laid]:
    """Every card of the game's deck in a shuffled order, on a small pile, under a random camera and
    light, its pile seen a moment before (as the watcher has it). ``game``: another game with the
    same deck (another shuffle, camera and light)."""
    rng = np.random.default_rng([11 + game, deck.seed])
    cards = [str(c) for c, n in parse_variant(preset).card_counts.items() for _ in range(n)]
    rng.shuffle(cards)
    for k, card in enumerate(cards):
        zone = "play" if rng.random() < 0.6 else "discard"
        under = [str(rng.choice(cards)) for _ in range(int(rng.integers(0, 3)))]
        yield _shown(card, zone, under, deck, rng, recognizer, k + 1000 * game)


def _shown(card: str, zone: str, under: list[str], deck: synth.Design, rng: np.random.Generator,
           recognizer: Recognizer, k: int) -> Laid:
    """``card`` laid in ``zone`` on a pile of ``under``, under a random camera and light."""
    scene = synth.Scene()
    for i, below in enumerate(under):
        scene.cards.append(synth.lay(below, zone, deck, rng, pile=i))
    scene.cards.append(synth.lay(card, zone, deck, rng, pile=len(scene.cards)))
    camera, light = synth.Camera.random(rng, max_tilt=40), synth.Light.random(rng)
    frame = synth.render_frame(scene, camera, light, k)
    before = {z: v.image for z, v in recognizer.look(before_top_cards(scene, camera, light, k))[1].items()}
    _, views = recognizer.look(frame, before=before)
    return Laid(card, zone, [views], functools.partial(_again, recognizer, scene, camera, light, k, before))


def recorded_game(n: int) -> TableLog:
    """The ``n``-th game of ``RECORDED``'s files taken in turn."""
    with open(os.path.join(ROOT, "tests", "data", RECORDED[n % len(RECORDED)])) as f:
        for i, line in enumerate(f):
            if i == n // len(RECORDED):
                return parse_log(json.loads(line)["log"])
    raise SystemExit(f"tests/data/{RECORDED[n % len(RECORDED)]} holds fewer games than {n // len(RECORDED) + 1}")


Played = list[tuple[str, str, State, CardSeen | None]]  # card, zone, the game before it, what the box read


def read_recorded(deck: designs.DeckDesign, log: TableLog, readers: list[Recognizer], tick,
                  looks: int = LOOKS, growing: "Growing | None" = None) -> list[Played]:
    """The plays and discards of a recorded game, each card laid on its zone's pile (up to two of the
    zone's last cards beneath it) and read by each of ``readers`` as the watcher reads it (the first
    finds the zones), with the game as it stood; ``growing`` reads the same frames, card by card."""
    rng = np.random.default_rng([17, deck.seed])
    state = new_game(log.variant, len(log.players))
    piles: dict[str, list[str]] = {"play": [], "discard": []}
    out: list[Played] = [[] for _ in readers]
    for reader in readers:
        reader.classifier.new_game()
    for action in log.actions:
        if state.over:
            break
        zone = action["type"]
        if zone in piles:
            card = str(action["card"])
            beneath = int(rng.integers(0, 3))
            shown = _shown(card, zone, piles[zone][len(piles[zone]) - beneath:] if beneath else [], deck, rng,
                           readers[0], len(out[0]))
            for reader, played in zip(readers, out, strict=True):
                played.append((card, zone, state, looked(reader, zone, shown.frames, looks, shown.again)))
            if growing is not None:
                growing.take(shown, state)
            piles[zone].append(card)
            tick()
        state = apply(state, action)
    return out


def judge_recorded(played: Played, zoned: bool, count: collections.Counter, misplays: collections.Counter) -> None:
    """Counts what became of each card judged against the game as it stood (``zoned``: a card laid in
    PLAY taken as likelier when it fits), into ``count``, and of the misplays alone into ``misplays``;
    and whether the page suggested teaching the deck during the game (``count_suggestion``)."""
    asked = []
    for card, zone, state, seen in played:
        before = count["asked"]
        for c in (count, misplays) if zone == "play" and not fits(state, card) else (count,):
            settle(card, zone, state, seen, zoned, c)
        asked.append(count["asked"] > before)
    count_suggestion(asked, count)


def count_suggestion(asked: list[bool], count: collections.Counter) -> None:
    """Counts a game (``asked``: whether the box asked about each of its cards, in order) in ``count``
    as "games", and as "suggested" where the page suggested teaching the deck at some card (while a
    card waits to be confirmed it counts as laid), "suggested at" summing the card it first did."""
    count["games"] += 1
    so_far = 0
    for k, flag in enumerate(asked):
        so_far += flag
        if suggests_teaching(so_far, k if flag else k + 1):
            count["suggested"] += 1
            count["suggested at"] += k + 1
            return


def settle(card: str, zone: str | None, state: State, seen: CardSeen | None, zoned: bool,
           count: collections.Counter) -> str:
    """What became of one card judged against the game as it stood, counted into ``count``; returns
    the card the game settled for it (the box's where it judged at once, else the card itself)."""
    if seen is None:  # entered by hand
        count["not found"] += 1
        return card
    reading = weigh(seen.probabilities, state, zone if zoned else None)
    if reading.sure(SURE):
        count["right" if reading.card == card else "wrong"] += 1
        return str(reading.card)
    count["asked"] += 1
    count["OK suffices"] += (reading.card or (seen.candidates[0] if seen.candidates else None)) == card
    return card


def read_deck(deck: designs.DeckDesign, preset: str, recognizer: Recognizer, tick,
              taught: Recognizer | None = None, looks: int = LOOKS, game: int = 0,
              growing: "Growing | None" = None) -> tuple[Reads, Reads, Pictures]:
    """Every card of the game (``laid``) with what the box read of it (and what the box with the
    taught profile read of it, when given), and its picture. A card read less surely than the
    watcher's ``AGAIN`` is read in ``looks`` frames of the same table, as the watcher does.
    ``growing`` reads the same frames, card by card."""
    out, out_taught, pictures = [], [], []
    for reader in (recognizer, taught):
        if reader is not None:
            reader.classifier.new_game()  # as the box starts each game: what it knew of the last deck is gone
    for card in laid(deck, preset, recognizer, game):
        out.append((card.card, looked(recognizer, card.zone, card.frames, looks, card.again)))
        if taught is not None:
            out_taught.append((card.card, looked(taught, card.zone, card.frames, looks, card.again)))
        if growing is not None:
            growing.take(card)
        pictures.append(card.picture)
        tick()
    return out, out_taught, pictures


class Growing:
    """A box with no profile that grows the deck's model from the game's own cards as it goes
    (``learning.GameDeck``): each card, named as the game settled it, joins the model that reads
    the cards after it. Judged as ``judge`` does, into ``count``; the seconds each growth took go to
    ``times``. ``asked_only``: only the cards the box asked about are grown."""

    def __init__(self, preset: str, recognizer: Recognizer, count: collections.Counter, looks: int,
                 times: list[float], asked_only: bool) -> None:
        self.reader = Recognizer(Classifier(), recognizer.detector)
        self.deck = GameDeck(None, self.reader.classifier)
        self.table = Judged(preset, True, count)
        self.named: dict[int, tuple[str, np.ndarray]] = {}
        self.looks, self.times, self.asked_only = looks, times, asked_only
        self.seen = 0
        self.asked: list[bool] = []  # whether the box asked about each card taken, in order

    def take(self, card: Laid, state: State | None = None) -> None:
        """``state``: the game as it stood, where the table is kept right (``--recorded``)."""
        count, asked = self.table.count, self.table.count["asked"]
        seen = looked(self.reader, card.zone, card.frames, self.looks, card.again)
        name = (self.table.take(card.card, seen) if state is None
                else settle(card.card, card.zone, state, seen, True, count))
        self.seen += 1
        self.asked.append(count["asked"] > asked)
        if card.picture is None or (self.asked_only and count["asked"] == asked):
            return
        self.named[self.seen - 1] = (name, card.picture)
        t0 = time.perf_counter()
        profile = self.deck.update(self.named)
        self.times.append(time.perf_counter() - t0)
        if profile is not None:
            self.reader.classifier.use(profile, grown=True)


def _again(recognizer: Recognizer, scene: synth.Scene, camera: synth.Camera, light: synth.Light, k: int,
           before: dict[str, np.ndarray], n: int) -> dict:
    """The zones of the ``n``-th further frame of the same table (other sensor noise)."""
    frame = synth.render_frame(scene, camera, dataclasses.replace(light, noise_seed=(k + 1) * 1000 + n), k)
    return recognizer.look(frame, before=before)[1]


def looked(rec: Recognizer, zone: str, frames: list[dict], looks: int,
           again: Callable[[int], dict]) -> CardSeen | None:
    """The card in ``zone`` as the watcher tells it: read in one frame, or, read less surely than
    ``AGAIN``, in ``looks`` frames (``frames`` grows with ``again(n)``, shared by both readers)."""
    seen = rec.classify({zone: frames[0][zone]}) if zone in frames[0] else []
    if not seen or seen[0].confidence >= AGAIN or looks <= 1:
        return seen[0] if seen else None
    while len(frames) < looks:
        frames.append(again(len(frames)))
    return rec.classify_looks([f[zone] for f in frames if zone in f])


class Judged:
    """The table judging the cards one by one: counts what became of each (into ``count``) and says
    which card the game settled for it. ``weighed``: the reading weighed over the cards the game can
    still take, else the reader's own."""

    def __init__(self, preset: str, weighed: bool, count: collections.Counter) -> None:
        self.state: State = new_game(parse_variant(preset), 3)
        self.gone: list[str] = []
        self.weighed, self.count = weighed, count

    def take(self, card: str, seen: CardSeen | None) -> str:
        count = self.count
        now = dataclasses.replace(self.state, discards=tuple(self.gone))
        if seen is None or self.weighed:  # a shuffled deck builds no firework: nothing weighed by the zone
            self.gone.append(settle(card, None, now, seen, False, count))
            return self.gone[-1]
        reading = Reading(seen.card, seen.confidence, seen.candidates)
        outcome = "asked" if not reading.sure(SURE) else "judged" if can_be_laid(now, str(seen.card)) else "refused"
        if outcome == "judged":
            count["right" if reading.card == card else "wrong"] += 1
            self.gone.append(str(reading.card))
        else:
            count[outcome] += 1
            proposed = reading.card or (seen.candidates[0] if seen.candidates else None)  # as the box proposes it
            count["OK suffices"] += outcome == "asked" and proposed == card
            self.gone.append(card)  # the family says what it was
        return self.gone[-1]


def judge(reads: Reads, preset: str, weighed: bool, count: collections.Counter) -> list[str]:
    """Counts what became of each card; returns the card the game settled for each."""
    table = Judged(preset, weighed, count)
    return [table.take(card, seen) for card, seen in reads]


def learned(names: list[str], pictures: Pictures, recognizer: Recognizer) -> Recognizer:
    """The box reading with the profile learned from a game: its cards but those still in the
    hands at its end, named as the game settled them."""
    seen = [(name, crop) for name, crop in list(zip(names, pictures, strict=True))[:-HANDS] if crop is not None]
    got = learn(seen, None)
    assert got is not None, "a game shows more cards than that"
    return Recognizer(Classifier(profile=got.profile), recognizer.detector)


def peak_mb() -> float:
    """This process's peak resident memory so far (Linux reports it in KB)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--families", default="held-out",
                   help="comma-separated design families, or a group: held-out, tuning, training")
    p.add_argument("--decks", type=int, default=1, help="decks per family (base, rainbow, black-powder in turn)")
    p.add_argument("--first-deck", type=int, default=74_000)
    p.add_argument("--taught", action="store_true", help="also read each deck with a profile taught from photos")
    p.add_argument("--learn", action="store_true",
                   help="play each deck twice; read the second game also with the profile learned from the first")
    p.add_argument("--grow", action="store_true",
                   help="also read each game by a box that grows the deck's model from the game's cards as it goes")
    p.add_argument("--grow-from", choices=("all", "asked"), default="all",
                   help="with --grow: the cards grown (all: every card the game settled, as the box does; asked: only "
                        "those the box asked about)")
    p.add_argument("--recorded", action="store_true",
                   help="play each deck as a recorded game of tests/data, the table kept right; compare the reading "
                        "weighed with and without a card in PLAY taken as likelier when it fits")
    p.add_argument("--thin-type", action="store_true", help="the decks' numerals in the thinnest training typefaces")
    p.add_argument("--no-hard-deck", action="store_true",
                   help="never take a deck for one the networks find hard (Classifier.hard_deck), as the box once did")
    p.add_argument("--looks", type=int, default=LOOKS,
                   help=f"frames a card read unsurely is read in, as the watcher does (default {LOOKS}; 1: one frame)")
    args = p.parse_args()
    cv2.setNumThreads(1)
    if args.no_hard_deck:
        classifier.HARD_SHARE = float("inf")
    families = chosen_families(args.families)
    recognizer = Recognizer()
    games = [GAMES[d % len(GAMES)] for d in range(args.decks)]
    if args.recorded:
        recorded(args, families, recognizer)
        return
    tick = Ticks(len(families) * sum(parse_variant(g).deck_size() for g in games) * (1 + args.learn))
    rows = {}
    growth: list[float] = []
    for family in families:
        tick.label = family
        count: dict[str, collections.Counter] = collections.defaultdict(collections.Counter)
        for d, preset in enumerate(games):
            deck = deck_of(family, args.first_deck + d, args.thin_type)
            profiled = taught_reader(deck, d, recognizer) if args.taught else None
            growing = (Growing(preset, recognizer, count["grown"], args.looks, growth, args.grow_from == "asked")
                       if args.grow else None)
            reads, reads_taught, pictures = read_deck(deck, preset, recognizer, tick, profiled, args.looks,
                                                      growing=growing)
            judge(reads, preset, False, count["alone"])
            names = judge(reads, preset, True, count["weighed"])
            judge(reads_taught, preset, True, count["taught"])
            if args.learn:
                again, read_learned, _ = read_deck(deck, preset, recognizer, tick, learned(names, pictures, recognizer),
                                                   args.looks, game=1)
                judge(again, preset, True, count["2nd game"])
                judge(read_learned, preset, True, count["learned"])
        rows[family] = count
    print(file=sys.stderr)
    print(f"whole decks in game order ({args.decks} per family from deck {args.first_deck}: "
          f"{', '.join(games)}), judged when confidence >= {SURE}, a card read unsurely read in {args.looks} frames:")
    print(f"  {'family':<20}{'reading':<16}{'cards':>6}" + "".join(f"{o:>12}" for o in COLUMNS))
    if args.learn:
        print(f"  (2nd game: each deck played again, read by the box untaught and with the profile learned "
              f"from the first game, all but its last {HANDS} cards)")
    print_rows(rows, ("alone", "weighed", "grown", "taught", "2nd game", "learned"))
    print_growth(growth)


def taught_reader(deck: designs.DeckDesign, d: int, recognizer: Recognizer) -> Recognizer:
    """The box with a profile of ``deck`` taught from one photo per kind on the mat (``d``: the
    deck's place in the run, which seeds the photos)."""
    profile = teach(deck, np.random.default_rng([13, d]))
    return Recognizer(Classifier(profile=profile), recognizer.detector)


def print_growth(growth: list[float]) -> None:
    """How long growing the game's deck took for each card, when it was grown."""
    if growth:
        print(f"growing the deck's model for one more card: median {np.median(growth):.2f} s, 95th percentile "
              f"{np.quantile(growth, 0.95):.2f} s, slowest {max(growth):.2f} s ({len(growth)} growths, OpenCV on "
              f"one thread); peak memory of this run {peak_mb():.0f} MB")


def print_rows(rows: dict[str, dict[str, collections.Counter]], names: tuple[str, ...]) -> None:
    for family, count in rows.items():
        for name in names:
            c = count[name]
            if not c:
                continue
            n = max(sum(c[o] for o in OUTCOMES), 1)
            shares = [100 * c[o] / n for o in OUTCOMES] + [100 * c["OK suffices"] / max(c["asked"], 1)]
            print(f"  {family:<20}{name:<16}{n:>6}" + "".join(f"{v:>11.1f}%" for v in shares))


def recorded(args: argparse.Namespace, families: tuple[str, ...], recognizer: Recognizer) -> None:
    """``--recorded``: each deck played as a recorded game, read untaught (and with ``--taught`` by a
    profile taught from photos), judged with and without the play's weight."""
    logs = [recorded_game(d) for d in range(args.decks)]
    tick = Ticks(len(families) * sum(sum(a["type"] in ("play", "discard") for a in log.actions) for log in logs))
    rows = {}
    growth: list[float] = []
    for family in families:
        tick.label = family
        count: dict[str, collections.Counter] = collections.defaultdict(collections.Counter)
        for d, log in enumerate(logs):
            growing = (Growing("base", recognizer, count["grown, fits"], args.looks, growth, args.grow_from == "asked")
                       if args.grow else None)
            deck = deck_of(family, args.first_deck + d, args.thin_type)
            taught = [taught_reader(deck, d, recognizer)] if args.taught else []
            readers = [recognizer, *taught]
            played = read_recorded(deck, log, readers, tick, args.looks, growing)
            if growing is not None:
                count_suggestion(growing.asked, count["grown, fits"])
            judge_recorded(played[0], False, count["weighed"], count["misplays"])
            judge_recorded(played[0], True, count["fits likelier"], count["misplays, fits"])
            if args.taught:
                judge_recorded(played[1], False, count["taught"], count["misplays, taught"])
                judge_recorded(played[1], True, count["taught, fits"], count["misplays t, fits"])
        rows[family] = count
    print(file=sys.stderr)
    print(f"recorded games ({args.decks} per family, decks from {args.first_deck}), the table kept right, judged "
          f"when confidence >= {SURE}, a card read unsurely read in {args.looks} frames:")
    print(f"  {'family':<20}{'reading':<16}{'cards':>6}" + "".join(f"{o:>12}" for o in COLUMNS))
    print_rows(rows, ("weighed", "fits likelier", "grown, fits", "misplays", "misplays, fits", "taught", "taught, fits",
                      "misplays, taught", "misplays t, fits"))
    print("games in which the page suggested teaching the deck (companion/game/reading.py's suggests_teaching):")
    for family, count in rows.items():
        for name in ("weighed", "fits likelier", "grown, fits", "taught", "taught, fits"):
            c = count[name]
            if c["games"]:
                first = f", first at card {c['suggested at'] / c['suggested']:.0f} on average" if c["suggested"] else ""
                print(f"  {family:<20}{name:<16}{c['suggested']:>3} of {c['games']}{first}")
    print_growth(growth)


if __name__ == "__main__":
    main()
