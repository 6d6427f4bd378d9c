"""The SQLite store: one row per table event, durable before anyone is told of it.

WAL with ``synchronous=FULL`` means a row whose insert returned survives a power cut. The
``games`` table keeps a summary per game (players, variant, score, outcome) for the history page;
it is updated in the same transaction as the event that changed it.
"""
from __future__ import annotations

import json
import os
import shutil
import sqlite3
import sys
import threading
import time
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Iterator

SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    created REAL NOT NULL,
    players TEXT NOT NULL,
    variant TEXT NOT NULL,
    updated REAL NOT NULL,
    actions INTEGER NOT NULL DEFAULT 0,
    score INTEGER NOT NULL DEFAULT 0,
    max_score INTEGER NOT NULL DEFAULT 25,
    outcome TEXT NOT NULL DEFAULT 'in_progress'
);
CREATE TABLE IF NOT EXISTS events (
    game_id INTEGER NOT NULL REFERENCES games(id),
    seq INTEGER NOT NULL,
    kind TEXT NOT NULL,
    payload TEXT NOT NULL,
    at REAL NOT NULL,
    PRIMARY KEY (game_id, seq)
);
"""


class StoreError(RuntimeError):
    """The store file cannot be used; the message says what to do."""


@dataclass(frozen=True)
class StoredEvent:
    seq: int
    kind: str
    payload: dict[str, Any]
    at: float


@dataclass(frozen=True)
class GameRecord:
    id: int
    created: float
    players: list[str]
    variant: Any
    updated: float
    actions: int
    score: int
    max_score: int
    outcome: str

    def as_dict(self) -> dict[str, Any]:
        return dict(self.__dict__)


@dataclass(frozen=True)
class Summary:
    actions: int
    score: int
    max_score: int
    outcome: str


class Store:
    """One SQLite file; safe to share between threads (one connection behind a lock)."""

    def __init__(self, path: str):
        self.path = path
        self._lock = threading.Lock()
        try:
            self._db = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=FULL")
            ok = self._db.execute("PRAGMA quick_check").fetchone()[0]
            if ok != "ok":
                raise sqlite3.DatabaseError(ok)
            self._db.executescript(SCHEMA)
        except sqlite3.DatabaseError as e:
            raise StoreError(self._damaged(e)) from None

    def _damaged(self, e: Exception) -> str:
        copy = f"{self.path}.damaged-{int(time.time())}"
        try:
            shutil.copyfile(self.path, copy)
            kept = f"a copy was kept as {copy}"
        except OSError:
            kept = "no copy could be made"
        return (f"the game store {self.path} is damaged ({e}); {kept}. Move the file away to start "
                "with an empty store, or restore it from a backup.")

    def close(self) -> None:
        with self._lock:
            self._db.close()

    def new_game(self, players: list[str], variant: Any, max_score: int) -> int:
        """Create a game and its first event ("game") in one durable transaction."""
        now = time.time()
        with self._transaction():
            cur = self._db.execute(
                "INSERT INTO games (created, players, variant, updated, max_score) VALUES (?, ?, ?, ?, ?)",
                (now, json.dumps(players), json.dumps(variant), now, max_score))
            game_id = int(cur.lastrowid)  # type: ignore[arg-type]
            self._db.execute("INSERT INTO events (game_id, seq, kind, payload, at) VALUES (?, 0, 'game', ?, ?)",
                             (game_id, json.dumps({"players": players, "variant": variant}), now))
        return game_id

    def append(self, game_id: int, seq: int, kind: str, payload: dict[str, Any], summary: Summary) -> None:
        """Write one event and the game's new summary in one durable transaction."""
        now = time.time()
        with self._transaction():
            self._db.execute("INSERT INTO events (game_id, seq, kind, payload, at) VALUES (?, ?, ?, ?, ?)",
                             (game_id, seq, kind, json.dumps(payload), now))
            self._db.execute(
                "UPDATE games SET updated=?, actions=?, score=?, max_score=?, outcome=? WHERE id=?",
                (now, summary.actions, summary.score, summary.max_score, summary.outcome, game_id))

    @contextmanager
    def _transaction(self) -> Iterator[None]:
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                yield
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")

    def latest_game(self) -> GameRecord | None:
        with self._lock:
            row = self._db.execute(f"SELECT {_GAME_COLS} FROM games ORDER BY id DESC LIMIT 1").fetchone()
        return _game(row) if row else None

    def game(self, game_id: int) -> GameRecord | None:
        with self._lock:
            row = self._db.execute(f"SELECT {_GAME_COLS} FROM games WHERE id=?", (game_id,)).fetchone()
        return _game(row) if row else None

    def games(self) -> list[GameRecord]:
        with self._lock:
            rows = self._db.execute(f"SELECT {_GAME_COLS} FROM games ORDER BY id").fetchall()
        return [_game(r) for r in rows]

    def events(self, game_id: int) -> list[StoredEvent]:
        with self._lock:
            rows = self._db.execute("SELECT seq, kind, payload, at FROM events WHERE game_id=? ORDER BY seq",
                                    (game_id,)).fetchall()
        return [StoredEvent(seq, kind, json.loads(payload), at) for seq, kind, payload, at in rows]


_GAME_COLS = "id, created, players, variant, updated, actions, score, max_score, outcome"


def _game(row: tuple[Any, ...]) -> GameRecord:
    gid, created, players, variant, updated, actions, score, max_score, outcome = row
    return GameRecord(gid, created, json.loads(players), json.loads(variant), updated, actions,
                      score, max_score, outcome)


def default_data_dir() -> str:
    """Where the store lives: systemd's StateDirectory under the unit, else the user's data folder."""
    state_dir = os.environ.get("STATE_DIRECTORY")
    if state_dir:
        return state_dir.split(":")[0]
    if sys.platform == "darwin":
        return os.path.expanduser("~/Library/Application Support/hanabi-companion")
    base = os.environ.get("XDG_DATA_HOME") or os.path.expanduser("~/.local/share")
    return os.path.join(base, "hanabi-companion")
