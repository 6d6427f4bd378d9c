"""The store's schema version: a file from before versions opens and is upgraded, a newer one is refused."""
import os
import shutil
import sqlite3

import pytest

from companion.game.rules import fold
from companion.game.store import SCHEMA_VERSION, Store, StoreError
from companion.game.table import Table, stored_log
from tests.conftest import DATA

# Written by the companion before the store had a schema version (see tests/data/README.md).
BEFORE_VERSIONS = os.path.join(DATA, "store-before-versions.sqlite")


def user_version(path):
    with sqlite3.connect(path) as db:
        return db.execute("PRAGMA user_version").fetchone()[0]


def test_a_store_from_before_versions_opens_and_is_upgraded(tmp_path):
    path = str(tmp_path / "table.db")
    shutil.copyfile(BEFORE_VERSIONS, path)
    assert user_version(path) == 0
    store = Store(path)
    assert user_version(path) == SCHEMA_VERSION >= 1
    games = store.games()
    assert [(g.id, g.players, g.outcome, g.actions, g.score) for g in games] == [
        (1, ["Ann", "Ben", "Cat"], "finished", 60, 24), (2, ["Dan", "Eve", "Fay"], "in_progress", 20, 10)]
    assert games[0].created == 1234.5  # kept as written: a box whose clock was not set yet
    table = Table(store)  # the latest game comes back as it was, undo, correction and all
    assert table.game_id == 2 and len(table.actions) == 20 and table.pending is None and not table.ended
    assert table.state == fold(table.variant, 3, table.actions)
    first = stored_log(store, 1)
    assert len(first.actions) == 60 and fold(first.variant, 3, first.actions).score == 24
    table.undo()  # and the upgraded store takes new events
    store.close()
    again = Table(Store(path))
    assert len(again.actions) == 19 and user_version(path) == SCHEMA_VERSION


def test_a_new_store_starts_at_the_current_version(tmp_path):
    path = str(tmp_path / "table.db")
    Store(path).close()
    assert user_version(path) == SCHEMA_VERSION


def test_a_store_from_a_newer_version_is_refused_and_left_alone(tmp_path):
    path = str(tmp_path / "table.db")
    Store(path).close()
    with sqlite3.connect(path) as db:
        db.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    with pytest.raises(StoreError, match="newer version of the companion") as e:
        Store(path)
    assert "damaged" not in str(e.value)
    assert not [f for f in os.listdir(tmp_path) if "damaged" in f]
    assert user_version(path) == SCHEMA_VERSION + 1
