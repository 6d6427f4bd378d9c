"""The demo's table: a bot plays real games, laying each played or discarded card on a simulated
mat that the real camera pipeline watches; clues are given by pressing the emulated HINT button.

Like a family at the table, the demo confirms a card the box is unsure of and corrects one it
misread (with the true card); what happened is counted in ``DemoStats`` and written beside the
store, so anyone can check that what the box recognised is what the bot really laid down.
"""
from __future__ import annotations

import json
import logging
import os
import threading
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from typing import Any

from companion.game.simulation import SimulatedGame
from companion.game.table import CommandError, Table
from companion.game.variants import Variant

log = logging.getLogger(__name__)

NAMES = ("Ann", "Ben", "Cat", "Dan", "Eve")
TRUTH_FILE = "demo-truth.jsonl"
STATS_FILE = "demo-stats.json"


class TableScene:
    """What lies on the simulated mat: the cards in each zone (newest on top) and whether a hand
    is over the mat. The simulated camera renders it; the demo driver changes it."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._piles: dict[str, list[str]] = {"play": [], "discard": []}
        self._hand: str | None = None
        self.version = 0

    def snapshot(self) -> tuple[dict[str, list[str]], str | None, int]:
        """The piles (bottom to top), the zone a hand is over (or None), and a change counter."""
        with self._lock:
            return {z: list(p) for z, p in self._piles.items()}, self._hand, self.version

    def hand_over(self, zone: str | None) -> None:
        with self._lock:
            self._hand = zone
            self.version += 1

    def place(self, zone: str, card: str) -> None:
        with self._lock:
            self._piles[zone].append(card)
            self._hand = None
            self.version += 1

    def clear(self) -> None:
        with self._lock:
            self._piles = {"play": [], "discard": []}
            self._hand = None
            self.version += 1


@dataclass
class DemoStats:
    games: int = 0
    recognised: int = 0      # cards the camera read right on its own
    confirmed: int = 0       # cards it was unsure of: confirmed (or set right) at the prompt
    corrected: int = 0       # cards it read wrong with confidence: corrected afterwards
    missed: int = 0          # cards it never reported: entered by hand
    hints: int = 0
    rewards: int = 0


class DemoDriver:
    """Plays games on ``table`` through ``scene`` (cards) and ``press`` (the HINT button)."""

    def __init__(self, table: Table, scene: TableScene, press: Callable[[str], Any], variant: Variant,
                 players: int, seed: int = 1, speed: float = 1.0, data_dir: str | None = None,
                 card_timeout: float = 6.0):
        self.table, self.scene, self.press = table, scene, press
        self.variant, self.players, self.seed = variant, players, seed
        self.speed = max(speed, 0.01)
        self.data_dir = data_dir
        self.card_timeout = card_timeout
        self.stats = DemoStats()
        self.hold = threading.Event()  # set: the bot waits between moves (a deck is being taught)
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        self._thread = threading.Thread(target=self._run, name="demo", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=10)

    def _pause(self, seconds: float) -> bool:
        """Wait, scaled by the speed, and as long as the bot is held; True when the demo should stop."""
        if self._stop.wait(seconds / self.speed):
            return True
        while self.hold.is_set():
            if self._stop.wait(0.1):
                return True
        return False

    def _run(self) -> None:
        game_no = 0
        while not self._stop.is_set():
            try:
                self.play_game(self.seed + game_no)
            except CommandError as e:  # somebody changed the game from the page meanwhile
                log.warning("demo game stopped: %s; starting a new one", e)
            game_no += 1
            if self._pause(6.0):
                return

    def play_game(self, seed: int) -> SimulatedGame:
        game = SimulatedGame(self.variant, self.players, seed)
        self.scene.clear()
        self.table.new_game(list(NAMES[:self.players]), self.variant.to_json())
        self.stats.games += 1
        while not game.over and not self._stop.is_set():
            action = game.next_action()
            if action["type"] == "hint":
                self.press("hint")
                self.stats.hints += 1
            elif action["type"] == "reward":
                self.table.act(action)  # reward tiles are entered on the page
                self.stats.rewards += 1
            else:
                self._lay_card(action)
            if self._stop.is_set():
                break  # stopped halfway through the move: it never reached the table
            game.step(action)
            self._record(action)
            self._save_stats()
            if self._pause(1.5):
                break
        return game

    def _lay_card(self, action: dict[str, Any]) -> None:
        zone, card = action["type"], action["card"]
        if self.table.pending is not None:  # a doubt about something else: the players wave it away
            self.table.undo()
        index = len(self.table.actions)
        self.scene.hand_over(zone)
        self._pause(0.4)
        self.scene.place(zone, card)
        deadline = time.monotonic() + self.card_timeout
        while time.monotonic() < deadline and len(self.table.actions) == index and self.table.pending is None:
            if self._stop.wait(0.02):
                return
        if len(self.table.actions) > index:
            seen = self.table.actions[index].get("card")
            if seen == card:
                self.stats.recognised += 1
            else:  # misread with confidence: a player corrects it on the page
                self.table.correct(index, card)
                self.stats.corrected += 1
        elif self.table.pending is not None and self.table.pending.action["type"] == zone:
            self._pause(0.8)  # the players read the prompt on the OLED
            self.table.confirm(card)
            self.stats.confirmed += 1
        else:
            if self.table.pending is not None:
                self.table.undo()
            self.table.act(action)  # the camera missed it: entered by hand
            self.stats.missed += 1

    def _record(self, action: dict[str, Any]) -> None:
        if self.data_dir is None:
            return
        with open(os.path.join(self.data_dir, TRUTH_FILE), "a") as f:
            f.write(json.dumps({"game_id": self.table.game_id, "action": action}) + "\n")

    def _save_stats(self) -> None:
        if self.data_dir is None:
            return
        tmp = os.path.join(self.data_dir, STATS_FILE + ".tmp")
        with open(tmp, "w") as f:
            json.dump(asdict(self.stats), f)
        os.replace(tmp, os.path.join(self.data_dir, STATS_FILE))
