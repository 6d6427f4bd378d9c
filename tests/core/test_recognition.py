"""The camera service: sure cards become actions, unsure ones wait, faults never touch the game."""
import time

import pytest

from companion.app.recognition import CameraFault, CameraService, CameraState, one_line
from companion.game.camera import CardPlaced as Seen  # what the real watcher emits
from companion.game.table import Table


class ScriptedWatcher:
    """Emits the events scripted for the n-th frame."""

    def __init__(self, script):
        self.script = script
        self.named = []  # what the service said the game's record holds on each pile

    def feed(self, frame, now, detail=None):
        return self.script.pop(frame, [])

    def known(self, zone, card):
        self.named.append((zone, card))


class GameWatcher(ScriptedWatcher):
    """Also counts the new games it is told of."""

    def __init__(self, script):
        super().__init__(script)
        self.games = 0

    def new_game(self):
        self.games += 1


class FrameCounter:
    def __init__(self, fail_after=None, error=None):
        self.n, self.fail_after, self.error = 0, fail_after, error or OSError("camera unplugged")
        self.closed = 0

    def read(self):
        if self.fail_after is not None and self.n >= self.fail_after:
            raise self.error
        self.n += 1
        return self.n

    def close(self):
        self.closed += 1


def wait(cond, timeout=5.0):
    t0 = time.monotonic()
    while not cond():
        assert time.monotonic() - t0 < timeout, "timed out"
        time.sleep(0.01)


def new_table():
    t = Table()
    t.new_game(3, "base")
    return t


def test_sure_cards_are_played_and_unsure_ones_wait():
    table = new_table()
    svc = CameraService(table, None, lambda: None, confidence=0.9)
    svc.handle(Seen("play", "r1", 0.99, ()))
    table.act({"type": "hint"})
    svc.handle(Seen("discard", "b4", 0.5, ("b4", "g4")))
    assert table.state.fireworks_map()["r"] == 1
    assert table.pending is not None and table.pending.candidates == ("b4", "g4")
    svc.handle(Seen("play", None, 0.3, ()))  # nothing to go on: ignored
    assert len(table.actions) == 2


def test_refused_camera_events_are_reported_and_change_nothing():
    table = new_table()
    refused = []
    svc = CameraService(table, None, lambda: None, on_refused=refused.append)
    svc.handle(Seen("discard", "r1", 0.99, ()))  # all hint tokens on the table
    assert len(refused) == 1 and "hint tokens" in str(refused[0]) and table.actions == []


def test_frames_flow_into_the_table():
    table = new_table()
    source = FrameCounter()
    script = {3: [Seen("play", "g1", 0.97, ())], 5: [Seen("play", "g2", 0.97, ())]}
    svc = CameraService(table, lambda: source, lambda: ScriptedWatcher(script), fps=100)
    svc.start()
    wait(lambda: len(table.actions) == 2)
    assert svc.status == "ok"
    svc.stop()
    assert source.closed == 1


class TwoStreams(FrameCounter):
    """A camera with a larger picture of each frame (the Pi camera's larger stream)."""

    def detail(self):
        return ("larger", self.n)


class Asking(ScriptedWatcher):
    """Makes the larger picture on every frame, and keeps what it got."""

    def __init__(self):
        super().__init__({})
        self.given = []

    def feed(self, frame, now, detail=None):
        self.given.append(detail() if detail is not None else None)
        return []


@pytest.mark.parametrize("source, larger", [(TwoStreams(), ("larger", 3)), (FrameCounter(), None)])
def test_a_camera_with_a_larger_picture_lends_it_to_the_watcher(source, larger):
    """The watcher is handed the camera's way to make the larger picture of the frame it was just
    given (it cuts the cards out of it); a camera without one hands it nothing."""
    watcher = Asking()
    svc = CameraService(new_table(), lambda: source, lambda: watcher, fps=100)
    svc.start()
    wait(lambda: len(watcher.given) >= 3)
    svc.stop()
    assert watcher.given[2] == larger


def test_the_watcher_hears_the_card_the_record_names_on_each_pile():
    """A card misread and corrected on the page, or answered at the OK prompt, is the card now on
    its pile: the watcher judges the next card laid there against it. A card entered by hand lies
    on its pile too."""
    table = new_table()
    source = FrameCounter()
    script = {3: [Seen("play", "w1", 0.97, ())], 5: [Seen("discard", "b4", 0.5, ("b4", "g4"))]}
    watcher = ScriptedWatcher(script)
    svc = CameraService(table, lambda: source, lambda: watcher, fps=100)
    table.act({"type": "hint"})  # a discard needs a hint token spent
    svc.start()
    wait(lambda: table.pending is not None)
    table.correct(1, "g1")  # the white 1 was a green 1
    table.confirm("g4")
    wait(lambda: ("discard", "g4") in watcher.named)
    table.act({"type": "play", "card": "y1"})  # the camera missed it: entered by hand
    wait(lambda: ("play", "y1") in watcher.named)
    svc.stop()
    assert watcher.named == [("play", "w1"), ("play", "g1"), ("discard", "g4"), ("play", "y1")]


def test_the_watcher_hears_of_a_new_game_not_of_an_undo_or_a_correction():
    """A new game may be played with another deck, so the watcher forgets the faces of the last
    one's cards; taking back or correcting an action is the same game."""
    table = new_table()
    source = FrameCounter()
    watcher = GameWatcher({3: [Seen("play", "w1", 0.97, ())]})
    svc = CameraService(table, lambda: source, lambda: watcher, fps=100)
    svc.start()
    wait(lambda: len(table.actions) == 1)
    table.correct(0, "g1")
    table.act({"type": "hint"})
    table.undo()
    wait(lambda: source.n >= 10)
    assert watcher.games == 0
    table.new_game(3, "base")
    wait(lambda: watcher.games == 1)
    at = source.n
    wait(lambda: source.n >= at + 5)
    svc.stop()
    assert watcher.games == 1


def test_a_watcher_that_starts_during_a_game_hears_what_lies_on_the_piles_before_its_first_frame():
    """The box restarted (or the camera came back) in the middle of a game: the cards on top of the
    piles were told before, and announced again they would be played twice (a misplay, a fuse)."""
    table = new_table()
    for action in ({"type": "play", "card": "r1"}, {"type": "hint"}, {"type": "discard", "card": "b4"},
                   {"type": "play", "card": "r2"}):
        table.act(action)
    calls = []

    class Recording:
        def feed(self, frame, now, detail=None):
            calls.append("frame")
            return []

        def known(self, zone, card):
            calls.append((zone, card))
    source = FrameCounter()
    svc = CameraService(table, lambda: source, lambda: Recording(), fps=100)
    svc.start()
    wait(lambda: source.n >= 3)
    svc.stop()
    assert calls[:3] == [("play", "r2"), ("discard", "b4"), "frame"]
    assert calls[3:] == ["frame"] * (len(calls) - 3)  # told once, not every frame


class FakeTime:
    """The service's clock and wait: time moves only when the service waits; ``stop_after`` ends it."""

    def __init__(self, stop_after=float("inf")):
        self.now, self.waits, self.stop_after = 0.0, [], stop_after

    def clock(self):
        return self.now

    def wait(self, seconds):
        self.waits.append(seconds)
        self.now += seconds
        return self.now >= self.stop_after


def service(open_source, make_watcher, fake, **kw):
    return CameraService(new_table(), open_source, make_watcher, fps=10, retry_seconds=5,
                         clock=fake.clock, wait=fake.wait, **kw)


def test_a_failing_camera_shows_fault_and_recovers():
    sources = [FrameCounter(fail_after=2), FrameCounter()]
    opened = []

    def open_source():
        opened.append(1)
        if len(opened) == 2:
            raise OSError("no camera found")  # unplugged for a while
        return sources.pop(0)

    states = []

    class Watched(FakeTime):
        def wait(self, seconds):
            states.append(svc.status)  # what the page shows while the service waits
            return super().wait(seconds)

    fake = Watched(stop_after=20)
    svc = service(open_source, lambda: ScriptedWatcher({}), fake)
    svc._run()  # the thread's loop, on the fake clock
    assert len(opened) == 3 and fake.waits.count(5) == 3  # retried twice; the third ends the loop
    assert states[:3] == ["ok", "ok", "fault"] and states[-1] == "ok"
    assert svc.table.state.turns == 0  # the game was never touched


def test_a_missing_profile_is_a_fault_with_its_reason_and_is_retried():
    fake = FakeTime(stop_after=20)
    tries = []

    def make_watcher():
        tries.append(fake.now)
        raise CameraFault("profile", "the deck profile /x/deck.profile is missing:\n make one")

    svc = service(lambda: FrameCounter(), make_watcher, fake)
    svc._run()  # the thread's loop, on the fake clock
    assert svc.state == CameraState("fault", "profile", "the deck profile /x/deck.profile is missing: make one")
    assert tries == [0, 5, 10, 15] and fake.waits == [5, 5, 5, 5]


@pytest.mark.parametrize("make_watcher, problem", [
    (lambda: (_ for _ in ()).throw(CameraFault("model", "the card classifier is missing")), "model"),
    (lambda: 1 / 0, "watcher"),
])
def test_any_failure_building_the_watcher_is_a_fault(make_watcher, problem):
    svc = service(lambda: FrameCounter(), make_watcher, FakeTime())
    assert svc.attempt() is True  # try again later
    assert svc.status == "fault" and svc.state.problem == problem and svc.error


def test_a_camera_that_cannot_open_or_stops_reading_is_a_fault_then_ok_again():
    fake = FakeTime()
    sources = [OSError("cannot open camera 0: is it plugged in?"), FrameCounter(fail_after=3), FrameCounter()]

    def open_source():
        s = sources.pop(0)
        if isinstance(s, Exception):
            raise s
        return s

    svc = service(open_source, lambda: ScriptedWatcher({}), fake)
    svc.attempt()
    assert svc.state == CameraState("fault", "camera", "cannot open camera 0: is it plugged in?")
    svc.attempt()  # reads three frames, then the camera is unplugged
    assert svc.frames == 3 and svc.state == CameraState("fault", "camera", "camera unplugged")
    fake.stop_after = fake.now + 1.0
    svc.attempt()  # back: frames flow until the service stops
    assert svc.state == CameraState("ok") and svc.frames == 3 + 10


def test_the_model_loads_once_while_the_camera_cannot_be_opened_and_afresh_for_each_opening():
    fake = FakeTime()
    built = []
    sources = [OSError("no camera"), OSError("no camera"), FrameCounter(fail_after=2), FrameCounter(fail_after=1)]

    def open_source():
        s = sources.pop(0)
        if isinstance(s, Exception):
            raise s
        return s

    def make_watcher():
        built.append(ScriptedWatcher({}))
        return built[-1]

    svc = service(open_source, make_watcher, fake)
    svc.attempt()
    svc.attempt()
    assert len(built) == 1 and svc.status == "fault"  # two failed openings, one watcher
    svc.attempt()  # opened: reads two frames with that watcher, then fails
    assert len(built) == 1 and svc.frames == 2
    svc.attempt()  # opened again: a new watcher learns the table afresh
    assert len(built) == 2 and svc.frames == 3


def test_frames_are_paced_by_the_clock_not_by_sleeping():
    fake = FakeTime(stop_after=0.5)
    svc = service(lambda: FrameCounter(), lambda: ScriptedWatcher({}), fake)
    svc.attempt()
    assert svc.frames == 5 and all(abs(w - 0.1) < 1e-9 for w in fake.waits)


def test_no_camera_configured_still_checks_the_recognition_once():
    built = []
    svc = service(None, lambda: built.append(1), FakeTime())
    assert svc.attempt() is False  # nothing more to try
    assert svc.state == CameraState("missing") and built == [1]
    broken = service(None, lambda: 1 / 0, FakeTime())
    assert broken.attempt() is True and broken.status == "fault"


def test_no_camera_configured():
    svc = CameraService(new_table(), None, lambda: None)
    svc.start()
    wait(lambda: not svc.alive())  # checked the recognition, nothing more to do
    assert svc.status == "missing" and svc.error is None


def test_a_reason_is_one_short_line():
    reason = one_line(ValueError("first\nsecond  third " + "x" * 1000))
    assert "\n" not in reason and reason.startswith("first second third") and len(reason) <= 300
    assert one_line(RuntimeError()) == "RuntimeError"


def test_a_box_with_default_settings_asks_about_a_card_read_less_surely_than_its_reader_is_measured_at(tmp_path):
    """The reader's figures count a card read wrongly at 0.9 or surer as judged wrong, and the
    watcher looks again at a card read less surely (models/README.md): a box with the default
    settings judges at once from there, and asks below it."""
    from companion.app.config import parse_config
    from companion.app.wiring import Companion, RunOptions
    from companion.game.reading import SURE
    from vision.watcher import AGAIN

    settings = {"display": {"driver": "dummy"}, "camera": {"source": "none", "learn": False}}
    box = Companion(parse_config(settings), RunOptions("127.0.0.1", 0, "1357", str(tmp_path / "data")))
    try:
        assert SURE == AGAIN == 0.9
        box.camera.handle(Seen("play", "r1", 0.85, ("r1", "g1")))
        assert box.table.pending is not None and box.table.actions == []
        box.table.confirm("r1")
        box.camera.handle(Seen("play", "r2", 0.9, ("r2",)))
        assert box.table.pending is None and box.table.state.fireworks_map()["r"] == 2
    finally:
        box.close()
