"""The box learns the deck from each game's cards: every card the camera told the table, named as
the game's record settled it, goes to the deck profile once the game is over."""
import logging
import os
import threading
import time

import numpy as np

from companion.app.learning import DeckLearner, named
from companion.app.recognition import CameraService
from companion.app.settingsfile import set_key
from companion.game.camera import CardPlaced
from companion.game.table import Table
from vision.labels import LABELS
from vision.teach import Stopped


def picture(n):
    """A stand-in for the camera's crop of the n-th card."""
    return np.full((4, 4, 3), n, np.uint8)


class Learned:
    def __init__(self, profile):
        self.profile, self.kinds, self.fresh = profile, 1, True


class FakeProfile:
    """What ``learn`` fitted: it remembers its pictures and is saved as their count."""

    def __init__(self, pictures):
        self.pictures = pictures

    def save(self, path):
        with open(path, "w") as f:
            f.write(str(len(self.pictures)))


class GrownDeck:
    """What ``GameDeck`` grows: it records each record of the game's cards it is given and makes a
    profile of the cards it holds (their names)."""

    def __init__(self, old):
        self.old, self.records = old, []

    def update(self, named_now, stop=lambda: False):
        self.records.append({k: card for k, (card, _) in named_now.items()})
        return tuple(card for _, (card, _) in sorted(named_now.items()))


def learner(tmp_path, table=None, busy=False, profile=None):
    table = table or Table()
    if not table.started:
        table.new_game(3, "base")
    camera = CameraService(table, None, lambda: None, confidence=0.9)
    calls, used = [], []
    box_reads = []
    grown = []

    def grow(old):
        grown.append(GrownDeck(old))
        return grown[-1]

    def learn(pictures, old, stop):
        calls.append((pictures, old))
        return Learned(FakeProfile(pictures))
    settings = str(tmp_path / "config.toml")
    open(settings, "w").write("[camera]\n")
    own = str(tmp_path / "data" / "deck-profile.npz")
    box = DeckLearner(table, camera, lambda: profile, own, settings, used.append,
                      lambda p, grown: box_reads.append((p, grown)), learn=learn, grow=grow,
                      busy=lambda: busy)
    box.attach()
    box.reads, box.decks = box_reads, grown  # what the camera was told to read with, and the games' decks
    return box, camera, table, calls, used


def lay(camera, n, zone="play", card="r1", confidence=0.99):
    camera.handle(CardPlaced(zone, card, confidence, (card,), (), picture(n)))


def test_each_card_is_learned_as_the_game_settled_it(tmp_path):
    box, camera, table, calls, used = learner(tmp_path)
    lay(camera, 0, card="r1")                            # judged at once, right
    lay(camera, 1, card="r2", confidence=0.5)            # asked: the family says it is the g1
    table.confirm("g1")
    lay(camera, 2, card="y1")                            # judged at once as y1 ...
    table.correct(2, "b1")                               # ... and corrected on the page
    table.act({"type": "hint"})
    lay(camera, 3, "discard", card="w5", confidence=0.5)  # asked, then left: a hint took its place
    table.act({"type": "hint"})
    assert [s.index for s in box.sightings] == [0, 1, 2, 4]
    assert {k: card for k, (card, _) in named(table.game, box.sightings).items()} == {0: "r1", 1: "g1", 2: "b1"}
    assert [int(p[0, 0, 0]) for _, p in named(table.game, box.sightings).values()] == [0, 1, 2]


def test_a_game_over_is_learned_in_the_background_and_used(tmp_path):
    box, camera, table, calls, used = learner(tmp_path)
    for n, card in enumerate(f"{suit}{value}" for suit in "rg" for value in range(1, 6)):
        lay(camera, n, "play", card)
    for n in (10, 11):
        table.act({"type": "hint"})
        lay(camera, n, "discard", "y1")
    table.end_game()
    box.wait(5)
    assert len(calls) == 1 and calls[0][1] is None and len(calls[0][0]) == 12
    assert open(box.own).read() == "12" and used == [box.own]
    assert f'profile = "{box.own}"' in open(box.settings_path).read()
    assert box.sightings == [] and box.learned == 1


def test_a_game_left_for_a_new_one_is_learned_as_it_stood(tmp_path):
    box, camera, table, calls, used = learner(tmp_path)
    for n in range(10):
        table.act({"type": "hint"})
        lay(camera, n, "discard", "w1" if n < 3 else "w2" if n < 5 else f"b{n - 4}")
    table.new_game(3, "base")
    box.wait(5)
    assert len(calls) == 1 and [c for c, _ in calls[0][0]][:4] == ["w1", "w1", "w1", "w2"]


def test_too_few_cards_or_a_lesson_under_way_learn_nothing(tmp_path):
    box, camera, table, calls, used = learner(tmp_path)
    lay(camera, 0)
    table.end_game()
    box.wait(5)
    box2, camera2, table2, calls2, _ = learner(tmp_path, busy=True)
    for n in range(10):
        table2.act({"type": "hint"})
        lay(camera2, n, "discard", "w1" if n < 3 else "w2" if n < 5 else f"b{n - 4}")
    table2.end_game()
    box2.wait(5)
    assert calls == [] and calls2 == [] and not os.path.exists(box.own)


def test_a_profile_the_family_made_is_read_never_written_over(tmp_path):
    theirs = tmp_path / "mydeck.profile"
    theirs.write_text("theirs")
    box, camera, table, calls, used = learner(tmp_path, profile=str(theirs))

    def learn(pictures, old, stop):
        calls.append(old)
        return Learned(FakeProfile(pictures))
    box.learn = learn
    loaded = []
    import vision.classifier
    real = vision.classifier.Profile.load
    vision.classifier.Profile.load = staticmethod(lambda path: loaded.append(path) or "old")
    try:
        box._fit([("r1", picture(0))] * 10)
    finally:
        vision.classifier.Profile.load = real
    assert loaded == [str(theirs)] and calls == ["old"]
    assert theirs.read_text() == "theirs" and open(box.own).read() == "10"


def test_learning_that_fails_leaves_the_camera_as_it_was(tmp_path, caplog):
    box, camera, table, calls, used = learner(tmp_path)

    def broken(pictures, old, stop):
        raise RuntimeError("the card model is missing")
    box.learn = broken
    set_key(box.settings_path, "camera", "profile", "")
    box._fit([("r1", picture(0))] * 10)
    assert used == [] and not os.path.exists(box.own) and "the card model is missing" in caplog.text


class Watching:
    """A watcher that sees nothing and records the profiles it is told to read with."""

    def __init__(self):
        self.profiles = []

    def feed(self, frame, now, detail=None):
        return []

    def use_profile(self, profile):
        self.profiles.append(profile)


class Frames:
    def read(self):
        time.sleep(0.005)
        return 0

    def close(self):
        pass


def test_a_new_profile_reaches_the_watcher_the_camera_already_has(tmp_path):
    made = []

    def make():
        made.append(Watching())
        return made[-1]
    camera = CameraService(Table(), lambda: Frames(), make, fps=100)
    camera.start()
    try:
        deadline = time.monotonic() + 5
        while not made and time.monotonic() < deadline:
            time.sleep(0.01)
        camera.refresh(lambda: "a watcher for later", lambda watcher: watcher.use_profile("learned"))
        while not made[0].profiles and time.monotonic() < deadline:
            time.sleep(0.01)
    finally:
        camera.stop()
    assert len(made) == 1 and made[0].profiles == ["learned"]  # the piles it knows stay known
    assert camera._make_watcher() == "a watcher for later"


def test_the_box_learns_unless_the_settings_say_not_to(tmp_path):
    from companion.app.config import parse_config
    from companion.app.wiring import CameraParts, Companion, RunOptions
    for learn in (True, False):
        box = Companion(parse_config({"display": {"driver": "dummy"}, "camera": {"learn": learn}}),
                        RunOptions("127.0.0.1", 0, "1357", str(tmp_path / str(learn))),
                        camera=CameraParts(None, lambda: Watching()), use_buttons=False)
        try:
            if learn:
                assert box.camera.on_told == box.learner.seen
                assert box.learner.own == str(tmp_path / "True" / "deck-profile.npz")
            else:
                assert box.learner is None and box.camera.on_told is None
        finally:
            box.close()


def eventually(condition, seconds=5.0):
    deadline = time.monotonic() + seconds
    while not condition() and time.monotonic() < deadline:
        time.sleep(0.01)
    return condition()


def test_during_a_game_each_settled_card_grows_the_deck_the_camera_reads_with(tmp_path):
    box, camera, table, calls, used = learner(tmp_path)
    lay(camera, 0, card="r1")
    assert eventually(lambda: box.reads == [(("r1",), True)])  # the game's own deck: no need to show it fits
    lay(camera, 1, card="r2", confidence=0.5)  # asked: nothing settled yet
    table.confirm("g1")                        # the family says it is the g1
    lay(camera, 2, card="y1")
    table.correct(2, "b1")                     # corrected on the page
    assert eventually(lambda: box.reads[-1] == (("r1", "g1", "b1"), True))
    table.undo()
    assert eventually(lambda: box.reads[-1] == (("r1", "g1"), True))
    assert len(box.decks) == 1 and box.decks[0].old is None
    assert box.decks[0].records[-1] == {0: "r1", 1: "g1"}


def test_the_game_deck_lasts_only_while_the_game_does(tmp_path):
    box, camera, table, calls, used = learner(tmp_path)
    for n in range(10):
        if n >= 5:
            table.act({"type": "hint"})
        lay(camera, n, "play" if n < 5 else "discard", f"r{n + 1}" if n < 5 else "w1" if n < 8 else "w2")
    assert eventually(lambda: box.reads and len(box.reads[-1][0]) == 10)
    table.end_game()
    box.wait(5)
    # read again with the profile the box had (none) until the game's cards are learned into it
    assert (None, False) in box.reads and used == [box.own]
    table.new_game(3, "base")
    lay(camera, 20, card="g1")
    assert eventually(lambda: len(box.decks) == 2 and box.reads[-1] == (("g1",), True))


def test_no_deck_is_grown_while_a_lesson_is_under_way(tmp_path):
    box, camera, table, calls, used = learner(tmp_path, busy=True)
    lay(camera, 0, card="r1")
    lay(camera, 1, card="r2")
    assert not eventually(lambda: box.reads, seconds=0.5)


def test_learning_threads_yield_the_processor_to_the_camera():
    import threading

    from companion.app.learning import BACKGROUND_NICE, in_the_background
    seen = {}

    def work():
        before = os.getpriority(os.PRIO_PROCESS, threading.get_native_id())
        in_the_background()
        seen["thread"] = os.getpriority(os.PRIO_PROCESS, threading.get_native_id()) - before
    mine = os.getpriority(os.PRIO_PROCESS, threading.get_native_id())
    t = threading.Thread(target=work)
    t.start()
    t.join()
    assert seen["thread"] == min(BACKGROUND_NICE, 19 - mine)       # that thread only ...
    assert os.getpriority(os.PRIO_PROCESS, threading.get_native_id()) == mine  # ... not the camera's


def test_the_box_exits_only_once_the_game_deck_stopped_growing(tmp_path):
    box, camera, table, calls, used = learner(tmp_path)
    started = []

    class Slow(GrownDeck):
        def update(self, named_now, stop=lambda: False):
            started.append(time.monotonic())
            time.sleep(0.5)  # the network describing the card's copies
            return super().update(named_now, stop)
    box.grow = Slow
    threads = []
    for game in range(2):  # a game over, and a game under way, when the box is stopped
        lay(camera, game, card="r1")
        assert eventually(lambda n=game + 1: len(started) == n)
        threads.append(box._growing.thread)
        if game == 0:
            table.end_game()
            table.new_game(3, "base")
    assert box.close() is True
    assert not any(t.is_alive() for t in threads) and box._growing is None
    lay(camera, 5, card="g1", confidence=0.5)  # the page still answers while the box stops
    table.confirm("g1")
    assert box._growing is None
    assert time.monotonic() - started[-1] >= 0.5  # it waited for the update under way


def test_closing_says_when_the_game_deck_is_still_being_grown_after_the_wait(tmp_path):
    """A starved processor: the update under way outlasts the wait, and the box must know, as the
    process then ends without Python's shutdown (which that thread, inside OpenCV, would abort)."""
    box, camera, table, calls, used = learner(tmp_path)
    inside, release = threading.Event(), threading.Event()

    class Stuck(GrownDeck):
        def update(self, named_now, stop=lambda: False):
            inside.set()
            release.wait(30)  # one call into the network that does not look at stop()
            return super().update(named_now, stop)
    box.grow = Stuck
    lay(camera, 0, card="r1")
    assert inside.wait(10)
    thread = box._growing.thread
    t0 = time.monotonic()
    assert box.close(0.3) is False
    assert 0.3 <= time.monotonic() - t0 < 3 and thread.is_alive()
    release.set()
    thread.join(5)
    assert not thread.is_alive()


def test_the_box_stops_fitting_the_last_games_cards_at_exit_and_saves_nothing(tmp_path, caplog):
    box, camera, table, calls, used = learner(tmp_path)
    fitting = []

    def slow_learn(pictures, old, stop):
        fitting.append(time.monotonic())
        while not stop():  # each card kind's copies described in turn: half a minute in all
            assert time.monotonic() - fitting[0] < 30, "never told to stop"
            time.sleep(0.05)
        raise Stopped
    box.learn = slow_learn
    for n in range(12):
        lay(camera, n, card=LABELS[n])
    table.end_game()
    assert eventually(lambda: fitting)
    caplog.set_level(logging.INFO)
    box.close()
    assert time.monotonic() - fitting[0] < 5 and not box._thread.is_alive()
    assert not os.path.exists(box.own) and used == [] and box.learned == 0
    assert "stopped before this game's 12 cards were learned" in caplog.text
