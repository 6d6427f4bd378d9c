"""A full SD card, a card whose writes fail, a card turned read-only: each is produced for real (a
small tmpfs filled up or remounted read-only, fsync failed by strace's fault injection). Each time
the action is refused with 503 and a message naming the cause, the page keeps being served, nothing
acknowledged is lost, and the box works again once the card does."""
import os
import subprocess
import sys

import pytest

from companion.game.store import DISK_FULL, READ_ONLY, WRITE_FAILED, Store, StoreError
from companion.game.table import StoreFault, Table
from hardware.box import Box
from hardware.display import get_display
from hardware.screens import Refusal
from web import create_app

from .boxproc import BoxProcess
from .storage import Game, failing_syncs, small_card

FAULTS = 100
PIN = "2468"


def refused_for(code, body, reason, words):
    assert code == 503 and body["reason"] == reason and words in body["error"], (code, body)
    assert "Traceback" not in body["error"] and "damaged" not in body["error"]


def serves_the_page(box, game):
    assert box.get("/api/state")["actions"] == len(game.acked[-1])  # the table as acknowledged
    assert box.page("/") == 200 and box.page("/history") == 200


def post_until_refused(box, game, limit=5000):
    """Post the game's next requests until one is refused; returns that answer."""
    for _ in range(limit):
        path, body = game.next()
        code, answer = box.post(path, body)
        if code not in (200, 201):
            return code, answer
        game.acknowledged(path, body, answer)
    raise AssertionError(f"no write was refused in {limit} tries")


def post_one(box, game):
    path, body = game.next()
    code, answer = box.post(path, body)
    assert code in (200, 201), (code, answer)
    game.acknowledged(path, body, answer)


# -- in the process: the table and the page ---------------------------------------------------------

def test_a_full_card_refuses_the_action_and_changes_nothing():
    with small_card("2m") as card:
        store = Store(os.path.join(card.path, "table.db"))
        table = Table(store)
        table.new_game(["Ann", "Ben"], "base")
        client = create_app(table, store, pin=PIN).test_client()
        card.fill()
        for i in range(2000):  # a hint and its undo, again and again, until the card takes no more
            before = table.snapshot()
            r = client.post("/api/actions", json={"type": "undo" if i % 2 else "hint"}, headers={"X-Table-PIN": PIN})
            if r.status_code != 200:
                break
        assert r.status_code == 503 and r.json["reason"] == DISK_FULL and "SD card is full" in r.json["error"]
        assert table.snapshot() == before and store.fault == DISK_FULL
        assert client.get("/api/state").json["storage"] == DISK_FULL  # the page keeps saying so
        assert client.get("/").status_code == 200 and client.get("/history").status_code == 200
        with pytest.raises(StoreFault) as e:
            table.new_game(["Cat", "Dan"])
        assert e.value.reason == DISK_FULL and not e.value.illegal and table.players == ("Ann", "Ben")
        with pytest.raises(StoreFault):  # an unsure card the camera saw is not held either
            table.propose({"type": "play", "card": "r1"}, 0.3, ["r1", "m1"])
        assert table.pending is None and table.snapshot() == before
        card.free()
        r = client.post("/api/actions", json={"type": "undo" if i % 2 else "hint"}, headers={"X-Table-PIN": PIN})
        assert r.status_code == 200 and store.fault is None
        assert client.get("/api/state").json["storage"] is None
        store.close()
        assert Table(Store(os.path.join(card.path, "table.db"))).snapshot()["hints"] == table.snapshot()["hints"]


def test_the_oled_says_the_card_is_full_when_a_button_press_cannot_be_saved():
    with small_card("2m") as card:
        store = Store(os.path.join(card.path, "table.db"))
        table = Table(store)
        table.new_game(["Ann", "Ben"], "base")
        box = Box(table, get_display({"driver": "dummy"}))
        client = create_app(table, store, pin=PIN, buttons=box.press).test_client()
        card.fill()
        for i in range(2000):
            refused = box.press("hint" if i % 2 == 0 else "undo")
            if not refused.accepted:
                break
        assert "SD card is full" in refused.message and box.screen() == Refusal(DISK_FULL)
        assert refused.reason == DISK_FULL
        before = table.snapshot()
        r = client.post(f"/api/buttons/{'hint' if i % 2 == 0 else 'undo'}", headers={"X-Table-PIN": PIN})
        refused_for(r.status_code, r.json, DISK_FULL, "SD card is full")  # the page's buttons say so too
        assert table.snapshot() == before
        card.free()
        box.close()
        store.close()


def test_a_card_that_cannot_be_written_opens_the_games_for_reading():
    with small_card("4m") as card:
        path = os.path.join(card.path, "table.db")
        store = Store(path)
        Table(store).new_game(["Ann", "Ben"], "base")
        store.close()
        card.read_only()
        store = Store(path)  # not "damaged": the games are shown, writes say what to do
        assert store.fault == READ_ONLY and [g.players for g in store.games()] == [["Ann", "Ben"]]
        table = Table(store)
        assert table.players == ("Ann", "Ben")
        with pytest.raises(StoreFault, match="cannot be written") as e:
            table.act({"type": "hint"})
        assert e.value.reason == READ_ONLY and table.actions == []
        assert not [f for f in os.listdir(card.path) if "damaged" in f]
        card.writable()
        table.act({"type": "hint"})  # the store opens for writing again
        assert store.fault is None
        store.close()
        assert Table(Store(path)).actions == [{"type": "hint"}]


CUT_OFF = """
import os, sys
from companion.game.store import Store
from companion.game.table import Table
table = Table(Store(sys.argv[1]))
table.new_game(["Cat", "Dan"], "base")
table.act({"type": "hint"})
os.kill(os.getpid(), 9)  # the power goes: the newest events stay in the write-ahead log
"""


def test_a_read_only_card_holding_the_log_of_a_box_cut_off_is_read_and_written_again_once_it_can_be():
    """SQLite opens such a file for reading alone without an error: the store took it as written,
    refused every write, and went on refusing once the card could be written again."""
    with small_card("4m") as card:
        path = os.path.join(card.path, "table.db")
        store = Store(path)
        Table(store).new_game(["Ann", "Ben"], "base")
        store.close()
        subprocess.run([sys.executable, "-c", CUT_OFF, path], check=False, timeout=60)
        assert os.path.exists(path + "-wal")
        card.read_only()
        store = Store(path)
        assert store.fault == READ_ONLY  # said at once, not at the first write
        table = Table(store)
        assert [g.players for g in store.games()] == [["Ann", "Ben"], ["Cat", "Dan"]]
        assert table.actions == [{"type": "hint"}]  # read through the log
        with pytest.raises(StoreFault, match="cannot be written"):
            table.act({"type": "hint"})
        card.writable()
        table.act({"type": "discard", "card": "r1"})  # without a restart
        assert store.fault is None
        store.close()
        assert Table(Store(path)).actions == [{"type": "hint"}, {"type": "discard", "card": "r1"}]


def test_an_empty_read_only_card_has_no_games_and_refuses_a_new_one():
    with small_card("1m") as card:
        card.read_only()
        store = Store(os.path.join(card.path, "table.db"))
        assert store.games() == [] and store.latest_game() is None
        with pytest.raises(StoreError, match="cannot be written") as e:
            Table(store).new_game(2)
        assert isinstance(e.value, StoreFault) and e.value.reason == READ_ONLY


def test_the_damaged_store_copy_keeps_its_write_ahead_log(tmp_path):
    path = tmp_path / "table.db"
    path.write_bytes(b"this is not a database" * 100)
    (tmp_path / "table.db-wal").write_bytes(b"the newest events" * 10)
    (tmp_path / "table.db-shm").write_bytes(b"index" * 10)
    with pytest.raises(StoreError, match="damaged"):
        Store(str(path))
    copy = next(f for f in os.listdir(tmp_path) if f.startswith("table.db.damaged-") and "-wal" not in f
                and "-shm" not in f)
    assert (tmp_path / (copy + "-wal")).read_bytes() == b"the newest events" * 10
    assert (tmp_path / (copy + "-shm")).exists()  # the log's index (SQLite rebuilds it on opening)
    assert (tmp_path / copy).read_bytes() == path.read_bytes()


# -- the box as a process: 100 faults of each kind ---------------------------------------------------

@pytest.mark.slow
def test_full_card_100_times_loses_nothing_acknowledged(tmp_path):
    with small_card("16m") as card:
        box = BoxProcess(card.path, logs=str(tmp_path))
        box.start()
        game = Game()
        post_one(box, game)
        try:
            for fault in range(FAULTS):
                card.fill()
                code, body = post_until_refused(box, game)
                refused_for(code, body, DISK_FULL, "SD card is full")
                serves_the_page(box, game)
                card.free()
                post_one(box, game)  # works again as soon as there is room
                if fault % 25 == 24:  # and a restart on a full card finds everything
                    box.kill()
                    card.fill()
                    box.start()
                    serves_the_page(box, game)
                    card.free()
            box.stop()
            box.start()
            game.check_stored(box)
        finally:
            box.stop()
    print(f"full card: {FAULTS} faults, {game.actions} actions acknowledged over {len(game.ids)} games, 0 lost")


@pytest.mark.slow
def test_failing_fsync_100_times_loses_nothing_acknowledged(tmp_path):
    box = BoxProcess(str(tmp_path))
    box.start()
    game = Game()
    post_one(box, game)
    faults = 0
    try:
        with failing_syncs(box.proc.pid, every=2, log=str(tmp_path / "strace.log")):
            while faults < FAULTS:
                code, body = post_until_refused(box, game, limit=200)
                refused_for(code, body, WRITE_FAILED, "failed to save")
                faults += 1
                serves_the_page(box, game)
        post_one(box, game)
        box.stop()
        box.start()  # the store reopens intact
        game.check_stored(box)
    finally:
        box.stop()
    print(f"failing fsync: {faults} faults, {game.actions} actions acknowledged over {len(game.ids)} games, 0 lost")


@pytest.mark.slow
def test_read_only_card_100_times_loses_nothing_acknowledged(tmp_path):
    cycles, per_cycle = 10, FAULTS // 10
    faults = 0
    with small_card("8m") as card:
        box = BoxProcess(card.path, logs=str(tmp_path))
        game = Game()
        try:
            for _ in range(cycles):
                box.start()
                for _ in range(5):
                    post_one(box, game)
                box.stop()
                card.read_only()
                box.start()  # the box comes up on a read-only card and shows the game
                for _ in range(per_cycle):
                    path, body = game.next()
                    refused_for(*box.post(path, body), READ_ONLY, "cannot be written")
                    faults += 1
                    serves_the_page(box, game)
                card.writable()
                post_one(box, game)  # the store opens for writing again, without a restart
                box.stop()
            box.start()
            game.check_stored(box)
        finally:
            box.stop()
    print(f"read-only card: {faults} faults over {cycles} read-only starts, {game.actions} actions "
          f"acknowledged, 0 lost")
