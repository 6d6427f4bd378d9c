"""The camera service: sure cards become actions, unsure ones wait, faults never touch the game."""
import threading
import time

from companion.recognition import CameraService
from vision.watcher import CardPlaced as Seen  # what the real watcher emits
from companion.table import Table




class ScriptedWatcher:
    """Emits the events scripted for the n-th frame."""

    def __init__(self, script):
        self.script = script

    def feed(self, frame, now):
        return self.script.pop(frame, [])


class FrameCounter:
    def __init__(self, fail_after=None, error=OSError("camera unplugged")):
        self.n, self.fail_after, self.error = 0, fail_after, error
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


def test_a_failing_camera_shows_fault_and_recovers():
    table = new_table()
    sources = [FrameCounter(fail_after=2), FrameCounter()]
    opened = []

    def open_source():
        opened.append(1)
        if len(opened) == 2:
            raise OSError("no camera found")  # unplugged for a while
        return sources.pop(0)

    svc = CameraService(table, open_source, lambda: ScriptedWatcher({}), fps=100, retry_seconds=0.1)
    states = []
    sampler = threading.Thread(target=lambda: [states.append(svc.status) or time.sleep(0.005)
                                               for _ in range(200)], daemon=True)
    sampler.start()
    svc.start()
    wait(lambda: len(opened) >= 3 and svc.status == "ok")
    svc.stop()
    sampler.join()
    assert {"fault", "missing", "ok"} <= set(states)
    assert table.state.turns == 0  # the game was never touched


def test_no_camera_configured():
    svc = CameraService(new_table(), None, lambda: None)
    svc.start()
    assert svc.status == "missing" and svc.alive()
