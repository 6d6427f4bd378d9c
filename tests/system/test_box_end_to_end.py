"""`companion run` end to end: a fake camera plays a scripted sequence of frames (a whole game,
card after card, a hand over the zone each time), HINT is pressed on gpiozero's mock pins, the
OLED is luma's dummy; the table follows every card and the box ends on the game-over screen."""
import json
import time
import urllib.error
import urllib.request
from dataclasses import replace

import numpy as np
import pytest
from gpiozero.pins.mock import MockFactory

from companion.app.config import Config
from companion.app.wiring import CameraParts, Companion, RunOptions
from companion.game.simulation import SimulatedGame
from companion.game.variants import parse_variant
from hardware.screens import GameOver
from tests.robustness.boxproc import free_port
from vision import synth
from vision.watcher import make_watcher

pytestmark = pytest.mark.slow  # plays whole games through the camera in real time

FRAMES_PER_STEP = 4


def post(port, action, log):
    log.append(action)
    assert requests_post(port, action) == 200


def requests_post(port, action):
    req = urllib.request.Request(f"http://127.0.0.1:{port}/api/actions", data=json.dumps(action).encode(),
                                 headers={"Content-Type": "application/json", "X-Table-PIN": "1357"}, method="POST")
    try:
        with urllib.request.urlopen(req, timeout=5) as r:
            return r.status
    except urllib.error.HTTPError as e:
        raise AssertionError(f"{action}: {e.code} {e.read().decode()}") from None


class ScriptedCamera:
    """Frames for each step of a game, in order: a hand over the zone, then the card lying there.
    A clue step presses the mock HINT button instead. Like a camera over a real table, it holds
    the picture until the table has taken the card; then the players look at the page and put
    right anything the box got wrong (``fix`` counts those interventions)."""

    def __init__(self, game, factory, fix, hint_pin=17, seed=4):
        rng = np.random.default_rng(seed)
        self.camera = replace(synth.Camera.random(rng, max_tilt=25, size=(960, 540)), fill=0.9, shift=(0, 0))
        self.light = synth.Light(gains=(0.95, 1.0, 1.08), falloff=0.15, noise=2, jpeg=85)
        design = synth.CardDesign.from_seed(100_321)
        self.steps, scene = [], synth.Scene()
        piles = {"play": 0, "discard": 0}
        self.truth = []
        while not game.over:
            action = game.step()
            self.truth.append(action)
            if action["type"] == "hint":
                self.steps.append(("press", None, len(self.truth)))
                continue
            zone = action["type"]
            self.steps.append(("hand", synth.Scene(list(scene.cards), hand_zone=zone, hand_seed=len(self.truth)),
                               len(self.truth) - 1))
            scene = synth.Scene(scene.cards + [synth.lay(action["card"], zone, design, rng, pile=piles[zone])])
            piles[zone] += 1
            self.steps.append(("card", scene, len(self.truth)))
        self.factory, self.hint_pin, self.fix = factory, hint_pin, fix
        self.table = None
        self.cache = None
        self.done = 0
        self.index = self.shown = 0
        self.since = time.monotonic()

    def fixed(self, expected):
        return self.done >= expected

    def _wait(self, expected, seconds):
        t0 = time.monotonic()
        while len(self.table.actions) < expected and time.monotonic() - t0 < seconds:
            time.sleep(0.01)

    def read(self):
        kind, scene, expected = self.steps[min(self.index, len(self.steps) - 1)]
        if kind == "press":  # a player gives a clue and presses HINT on the box
            pin = self.factory.pin(self.hint_pin)
            pin.drive_low()
            time.sleep(0.05)
            pin.drive_high()
            self._wait(expected, 3)
            self.fix(self.truth[:expected])
            self.index += 1
            return self.read()
        if self.cache is None or self.cache[0] is not scene:
            self.cache = (scene, synth.render_frame(scene, self.camera, self.light, 0))
            self.since, self.shown = time.monotonic(), 0
        self.shown += 1
        if kind == "hand" and self.shown >= FRAMES_PER_STEP:
            self.index += 1
        elif kind == "card" and not self.fixed(expected):
            if len(self.table.actions) >= expected or time.monotonic() - self.since > 4:
                time.sleep(0.3)  # a moment for a second, spurious event to show up
                self.fix(self.truth[:expected])
                self.done = expected
                self.index = min(self.index + 1, len(self.steps) - 1)
        return self.cache[1]

    def close(self):
        pass


def test_a_whole_game_from_the_first_card_to_the_end_screen(tmp_path):
    variant = parse_variant("base")
    truth = SimulatedGame(variant, 2, seed=21)
    factory = MockFactory()
    config = Config()
    config.box.players = 2
    config.display.driver = "dummy"
    config.camera.fps = 100.0
    port = free_port()
    interventions = []

    def fix(truth):
        """The players compare the page with what really happened and put it right."""
        table = box.table
        if table.pending is not None:
            post(port, {"type": "undo"}, interventions)

        def same(a, b):
            return a["type"] == b["type"] and a.get("card") == b.get("card")

        seen = list(table.actions)
        first_wrong = next((i for i, (a, b) in enumerate(zip(seen, truth, strict=False)) if not same(a, b)),
                           min(len(seen), len(truth)))
        if first_wrong < len(seen) and first_wrong == len(seen) - 1 and seen[-1]["type"] == truth[-1]["type"]:
            post(port, {"type": "correct", "index": first_wrong, "card": truth[first_wrong]["card"]}, interventions)
            first_wrong += 1
        for _ in range(len(table.actions) - first_wrong):
            post(port, {"type": "undo"}, interventions)
        for real in truth[len(table.actions):]:
            post(port, {k: v for k, v in real.items() if k != "to"}, interventions)

    camera = ScriptedCamera(SimulatedGame(variant, 2, seed=21), factory, fix)
    box = Companion(config, RunOptions("127.0.0.1", port, "1357", str(tmp_path)),
                    camera=CameraParts(lambda: camera, make_watcher), pin_factory=factory)
    camera.table = box.table
    box.table.new_game(["Ann", "Ben"], "base")
    box.start()
    try:
        deadline = time.monotonic() + 240
        while not box.table.state.over and time.monotonic() < deadline:
            if box.table.pending is not None:  # unsure: the player presses OK on the box
                pin = factory.pin(22)
                pin.drive_low()
                time.sleep(0.05)
                pin.drive_high()
            time.sleep(0.1)
        while not truth.over:
            truth.step()
        state = box.table.state
        assert state.over, (f"the game did not end: {len(box.table.actions)} of {len(truth.actions)} actions; "
                            f"table {box.table.actions[-3:]}, step {camera.index}/{len(camera.steps)}, "
                            f"interventions {interventions}, pending {box.table.pending}, "
                            f"camera {box.camera.status} {box.camera.error} alive {box.camera.alive()}")
        cards = [a.get("card") for a in box.table.actions]
        assert cards == [a.get("card") for a in truth.actions]
        assert state.score == truth.state.score and state.outcome == truth.state.outcome
        cards_laid = sum(1 for step in camera.steps if step[0] == "card")
        assert len(interventions) <= 0.2 * cards_laid, f"{interventions} for {cards_laid} cards"
        time.sleep(2.5)  # the last flash ends
        assert isinstance(box.box.screen(), GameOver)
    finally:
        box.close()
