"""The language chosen for a game is stored with it: it survives a restart of the table and the store,
and a store from before it had the column is upgraded with games in the box's language."""
from __future__ import annotations

import json
import os
import shutil
import sqlite3

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.game.store import SCHEMA_VERSION, UPGRADES, Store
from companion.game.table import CommandError, Table
from companion.words import LANGUAGES
from tests.conftest import DATA

BEFORE_VERSIONS = os.path.join(DATA, "store-before-versions.sqlite")


def test_the_language_survives_a_restart_of_table_and_store(tmp_path) -> None:
    path = str(tmp_path / "games.sqlite")
    store = Store(path)
    table = Table(store)
    table.new_game(["Ann", "Ben"], "base", lang="cs")
    table.act({"type": "hint"})
    assert table.lang == "cs"
    store.close()
    store = Store(path)
    again = Table(store)
    assert (again.lang, again.game_id, len(again.actions)) == ("cs", table.game_id, 1)
    assert store.latest_game().lang == "cs"  # type: ignore[union-attr]
    again.new_game(["Ann", "Ben"], "base")    # no choice: the box's own language
    assert again.lang is None and Table(store).lang is None
    assert Table.from_store(store, table.game_id).lang == "cs"  # an older game keeps its own
    store.close()


@settings(max_examples=20, deadline=None)
@given(st.lists(st.sampled_from([*LANGUAGES, None]), min_size=1, max_size=4))
def test_every_stored_game_keeps_its_own_language(tmp_path_factory, langs) -> None:
    store = Store(str(tmp_path_factory.mktemp("store") / "games.sqlite"))
    table = Table(store)
    for lang in langs:
        table.new_game(2, "base", lang=lang)
    assert [g.lang for g in store.games()] == langs
    assert Table(store).lang == langs[-1]
    store.close()


def test_an_unknown_language_is_refused_and_nothing_is_stored(tmp_path) -> None:
    store = Store(str(tmp_path / "games.sqlite"))
    table = Table(store)
    with pytest.raises(CommandError, match="en, pl, de, cs") as e:
        table.new_game(2, "base", lang="fr")
    assert e.value.code == "bad_input" and store.games() == [] and table.game is None
    store.close()


def test_a_store_from_before_the_language_column_is_upgraded(tmp_path) -> None:
    path = str(tmp_path / "games.sqlite")
    with sqlite3.connect(path) as db:  # a store of the version before: no language column
        db.executescript(UPGRADES[0])
        first = json.dumps({"players": ["A", "B"], "variant": "base"})
        db.execute("INSERT INTO games (created, players, variant, updated) VALUES (1, ?, ?, 1)",
                   (json.dumps(["A", "B"]), json.dumps("base")))
        db.execute("INSERT INTO events VALUES (1, 0, 'game', ?, 1)", (first,))
        db.execute("PRAGMA user_version = 1")
    store = Store(path)
    with sqlite3.connect(path) as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION == 2
    table = Table(store)
    assert table.game_id == 1 and table.lang is None  # an old game: the box's language
    table.new_game(["A", "B"], "base", lang="pl")
    store.close()
    assert Table(Store(path)).lang == "pl"


def test_the_oldest_stores_come_through_both_upgrades(tmp_path) -> None:
    path = str(tmp_path / "games.sqlite")
    shutil.copyfile(BEFORE_VERSIONS, path)
    store = Store(path)
    assert [g.lang for g in store.games()] == [None, None]
    store.close()
