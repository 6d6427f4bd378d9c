"""The SQLite store: one row per table event, durable before anyone is told of it.

WAL with ``synchronous=FULL`` means a row whose insert returned survives a power cut. The
``games`` table keeps a summary per game (players, variant, score, outcome) for the history page;
it is updated in the same transaction as the event that changed it. Games are ordered by their
id and events by their sequence number: the wall-clock times kept with them are for display only
(a Pi has no clock of its own until the network sets it).

An SD card fills up, fails a write or turns read-only. Then a write raises StoreWriteError with a
``reason`` (``disk_full``, ``write_failed``, ``read_only``) and a message saying what to do; the
transaction is rolled back, so nothing half-written remains, and the next write tries again. A store
that cannot be opened for writing is opened for reading instead: the games can still be seen.
"""
from __future__ import annotations

import json
import logging
import os
import shutil
import sqlite3
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote

log = logging.getLogger(__name__)

# UPGRADES[v] takes a store of schema version v (``PRAGMA user_version``) to v + 1. Version 0 is
# a new, empty file or one written before the store had versions; both have the same next step.
UPGRADES: tuple[str, ...] = (
    """
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
""",
    # the language chosen for the game (NULL: the box's own, and every game stored before this)
    "ALTER TABLE games ADD COLUMN lang TEXT;",
)
SCHEMA_VERSION = len(UPGRADES)

# Before this moment (2024-01-01 UTC) a timestamp means the clock was not set yet: a Pi starts with
# an old time and jumps when the network sets it. Such a date is shown as unknown.
CLOCK_SET = 1_704_067_200.0

# Why a write failed (StoreWriteError.reason)
DISK_FULL, WRITE_FAILED, READ_ONLY = "disk_full", "write_failed", "read_only"
_LOW_SPACE = 64 * 1024  # bytes left below which a failed write is taken for a full card


class StoreError(RuntimeError):
    """The store file cannot be used; the message says what to do."""


class StoreWriteError(StoreError):
    """A write did not happen (full, failing or read-only storage); ``reason`` says which."""

    def __init__(self, reason: str, message: str):
        super().__init__(message)
        self.reason = reason


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
    lang: str | None = None

    def as_dict(self) -> dict[str, Any]:
        return dict(self.__dict__)


@dataclass(frozen=True)
class Summary:
    actions: int
    score: int
    max_score: int
    outcome: str


class Store:
    """One SQLite file; safe to share between threads (one connection behind a lock).

    ``fault`` is the reason the last write failed (None once a write succeeds again), for screens
    that want to keep saying so.
    """

    def __init__(self, path: str):
        self.path = path
        self._lock = threading.Lock()
        self.fault: str | None = None
        self._writable = True
        try:
            self._check_writable()
            self._db: sqlite3.Connection | None = self._open()
        except sqlite3.Error as e:  # the card, not the file: show the games, refuse writes
            reason = self._reason(e) or WRITE_FAILED
            log.warning("%s", self._message(reason))
            self.fault, self._writable = reason, False
            self._db = self._open_for_reading()

    def _open(self) -> sqlite3.Connection:
        """The connection for reading and writing, its schema brought up to this version. Raises
        StoreError for a damaged file, sqlite3.Error for storage that cannot be written (its
        callers ask ``_check_writable`` first)."""
        db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        try:
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=FULL")
            ok = db.execute("PRAGMA quick_check").fetchone()[0]
            if ok != "ok":
                raise sqlite3.DatabaseError(ok)
            self._upgrade(db)
        except sqlite3.Error as e:
            if self._reason(e) is None:  # copy first: closing lets SQLite delete the -wal and -shm
                message = self._damaged(e)
                db.close()
                raise StoreError(message) from None
            db.close()
            raise
        except BaseException:
            db.close()
            raise
        return db

    def _check_writable(self) -> None:
        """SQLite opens a file it may not write for reading alone, without an error: on a read-only
        card that still holds the write-ahead log of a box cut off mid-game, that connection read
        the games, refused every write, and kept refusing once the card could be written again.
        Raises an error with SQLite's read-only code instead, so the store opens for reading and
        tries again to open for writing at the next write."""
        folder = os.path.dirname(os.path.abspath(self.path))
        if os.access(folder, os.W_OK) and (not os.path.exists(self.path) or os.access(self.path, os.W_OK)):
            return
        e = sqlite3.OperationalError(f"{self.path} cannot be written")
        e.sqlite_errorcode = sqlite3.SQLITE_READONLY  # what SQLite says when a write meets it
        raise e

    def _upgrade(self, db: sqlite3.Connection) -> None:
        version = db.execute("PRAGMA user_version").fetchone()[0]
        if version > SCHEMA_VERSION:
            raise StoreError(f"the game store {self.path} was written by a newer version of the companion "
                             f"(schema {version}, this one knows {SCHEMA_VERSION}): update the companion, "
                             "or move the file away to start with an empty store")
        for v in range(version, SCHEMA_VERSION):
            db.execute("BEGIN IMMEDIATE")
            try:
                for statement in UPGRADES[v].split(";"):
                    if statement.strip():
                        db.execute(statement)
                db.execute(f"PRAGMA user_version = {v + 1}")
            except BaseException:
                db.execute("ROLLBACK")
                raise
            db.execute("COMMIT")

    def _open_for_reading(self) -> sqlite3.Connection | None:
        """The games as they are, on a card that takes no writes: through the write-ahead log's
        index when one is there, else the file alone (a clean shutdown leaves no log behind)."""
        if not os.path.exists(self.path):
            return None
        has_log = os.path.exists(self.path + "-wal")
        uri = f"file:{quote(os.path.abspath(self.path))}?" + ("mode=ro" if has_log else "immutable=1")
        try:
            db = sqlite3.connect(uri, uri=True, check_same_thread=False, isolation_level=None)
        except sqlite3.Error:
            db = None
        try:
            if db is None or not db.execute("SELECT 1 FROM sqlite_master WHERE name='games'").fetchone():
                if db is not None:
                    db.close()
                if has_log:  # its newest games are in a log that cannot be read here: do not show less
                    raise StoreError(self._message(READ_ONLY))
                return None
        except sqlite3.Error as e:
            raise StoreError(self._damaged(e)) from None
        return db

    def _read_again(self) -> None:
        if self._db is None:
            self._db = self._open_for_reading()

    def _damaged(self, e: Exception) -> str:
        copy = stamp = f"{self.path}.damaged-{int(time.time())}"
        n = 1
        while os.path.exists(copy):  # a clock not set yet can give two copies the same time
            n += 1
            copy = f"{stamp}-{n}"
        try:
            shutil.copyfile(self.path, copy)
            for suffix in ("-wal", "-shm"):  # the log may hold what the file lacks: keep them together
                if os.path.exists(self.path + suffix):
                    shutil.copyfile(self.path + suffix, copy + suffix)
            kept = f"a copy was kept as {copy}"
        except OSError:
            kept = "no copy could be made"
        return (f"the game store {self.path} is damaged ({e}); {kept}. Move the file away to start "
                "with an empty store, or restore it from a backup.")

    def _reason(self, e: sqlite3.Error) -> str | None:
        """Which storage fault an SQLite error is, or None when the file itself is bad."""
        code = getattr(e, "sqlite_errorcode", 0) & 0xFF
        if code == sqlite3.SQLITE_FULL:
            return DISK_FULL
        if code not in (sqlite3.SQLITE_IOERR, sqlite3.SQLITE_READONLY, sqlite3.SQLITE_CANTOPEN,
                        sqlite3.SQLITE_PERM):
            return None
        try:
            fs = os.statvfs(os.path.dirname(os.path.abspath(self.path)))
        except OSError:
            return WRITE_FAILED if code == sqlite3.SQLITE_IOERR else READ_ONLY
        if fs.f_flag & os.ST_RDONLY:
            return READ_ONLY
        if fs.f_bavail * fs.f_frsize < _LOW_SPACE:
            return DISK_FULL
        return WRITE_FAILED if code == sqlite3.SQLITE_IOERR else READ_ONLY

    def _message(self, reason: str) -> str:
        folder = os.path.dirname(os.path.abspath(self.path))
        if reason == DISK_FULL:
            return ("the SD card is full, so nothing more can be saved: free some space on it (for "
                    "example `sudo journalctl --vacuum-size=50M`, or delete large files), then try again. "
                    "Everything saved so far is kept.")
        if reason == READ_ONLY:
            return (f"the game store in {folder} cannot be written: the SD card is read-only (the system "
                    "does this after card errors: restart the box, and replace the card if it happens again) "
                    f"or the service may not write there (`sudo chown -R hanabi {folder}`). "
                    "Everything saved so far is kept.")
        return ("the SD card failed to save this (an input/output error): try again; if it keeps failing, "
                "the card is wearing out: export your games from the history page and replace the card. "
                "Everything saved before is kept.")

    def close(self) -> None:
        with self._lock:
            if self._db is not None:
                self._db.close()

    def new_game(self, players: list[str], variant: Any, max_score: int, lang: str | None = None) -> int:
        """Create a game and its first event ("game") in one durable transaction; ``lang`` is the
        language chosen for it (None: the box's)."""
        now = time.time()
        with self._transaction() as db:
            cur = db.execute(
                "INSERT INTO games (created, players, variant, updated, max_score, lang) VALUES (?, ?, ?, ?, ?, ?)",
                (now, json.dumps(players), json.dumps(variant), now, max_score, lang))
            game_id = int(cur.lastrowid)  # type: ignore[arg-type]
            db.execute("INSERT INTO events (game_id, seq, kind, payload, at) VALUES (?, 0, 'game', ?, ?)",
                       (game_id, json.dumps({"players": players, "variant": variant}), now))
        return game_id

    def append(self, game_id: int, seq: int, kind: str, payload: dict[str, Any], summary: Summary) -> None:
        """Write one event and the game's new summary in one durable transaction."""
        now = time.time()
        with self._transaction() as db:
            db.execute("INSERT INTO events (game_id, seq, kind, payload, at) VALUES (?, ?, ?, ?, ?)",
                       (game_id, seq, kind, json.dumps(payload), now))
            db.execute(
                "UPDATE games SET updated=?, actions=?, score=?, max_score=?, outcome=? WHERE id=?",
                (now, summary.actions, summary.score, summary.max_score, summary.outcome, game_id))

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        """One all-or-nothing write; a storage fault rolls it back and raises StoreWriteError."""
        with self._lock:
            db = self._for_writing()
            try:
                db.execute("BEGIN IMMEDIATE")
                yield db
                db.execute("COMMIT")
            except BaseException as e:
                if db.in_transaction:
                    with suppress(sqlite3.Error):  # a failed rollback leaves SQLite's own one in place
                        db.execute("ROLLBACK")
                reason = self._reason(e) if isinstance(e, sqlite3.Error) else None
                if reason is None:
                    raise
                self.fault = reason
                raise StoreWriteError(reason, self._message(reason)) from None
            self.fault = None

    def _for_writing(self) -> sqlite3.Connection:
        """The writing connection; a store opened read-only tries again to open for writing."""
        if self._writable and self._db is not None:
            return self._db
        try:
            self._check_writable()  # before the reading connection is let go, which a refusal keeps
            # the reading connection goes first: SQLite shares a file's handles within a process, so
            # a connection opened beside one that reads a read-only card's log cannot write either
            if self._db is not None:
                self._db.close()
                self._db = None
            db = self._open()
        except sqlite3.Error as e:
            reason = self._reason(e) or WRITE_FAILED
            self.fault = reason
            self._read_again()
            raise StoreWriteError(reason, self._message(reason)) from None
        except StoreError:
            self._read_again()
            raise
        self._db, self._writable = db, True
        log.info("the game store %s can be written again", self.path)
        return db

    def latest_game(self) -> GameRecord | None:
        rows = self._rows(f"SELECT {_GAME_COLS} FROM games ORDER BY id DESC LIMIT 1")
        return _game(rows[0]) if rows else None

    def game(self, game_id: int) -> GameRecord | None:
        rows = self._rows(f"SELECT {_GAME_COLS} FROM games WHERE id=?", (game_id,))
        return _game(rows[0]) if rows else None

    def games(self) -> list[GameRecord]:
        return [_game(r) for r in self._rows(f"SELECT {_GAME_COLS} FROM games ORDER BY id")]

    def events(self, game_id: int) -> list[StoredEvent]:
        rows = self._rows("SELECT seq, kind, payload, at FROM events WHERE game_id=? ORDER BY seq", (game_id,))
        return [StoredEvent(seq, kind, json.loads(payload), at) for seq, kind, payload, at in rows]

    def _rows(self, sql: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        with self._lock:
            if self._db is None:  # a card that takes no writes and holds no store yet
                return []
            return self._db.execute(sql, params).fetchall()


_GAME_COLS = "id, created, players, variant, updated, actions, score, max_score, outcome, lang"


def _game(row: tuple[Any, ...]) -> GameRecord:
    gid, created, players, variant, updated, actions, score, max_score, outcome, lang = row
    return GameRecord(gid, created, json.loads(players), json.loads(variant), updated, actions,
                      score, max_score, outcome, lang)


def clock_was_set(at: float) -> bool:
    """Whether a stored wall-clock time is a real date (see CLOCK_SET)."""
    return at >= CLOCK_SET


def default_data_dir() -> str:
    """Where the store lives: systemd's StateDirectory under the unit, else the user's data folder."""
    state_dir = os.environ.get("STATE_DIRECTORY")
    if state_dir:
        return state_dir.split(":")[0]
    if sys.platform == "darwin":
        return os.path.expanduser("~/Library/Application Support/hanabi-companion")
    base = os.environ.get("XDG_DATA_HOME") or os.path.expanduser("~/.local/share")
    return os.path.join(base, "hanabi-companion")
