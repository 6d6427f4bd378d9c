"""The table is its event log: the game played live and the game restored from the store are one.

Every game of the reference corpus is played through the table's commands into a store and folded
back with ``Table.from_store``; mixed commands (undo, corrections, ending and resuming, unsure cards
confirmed or dismissed) are checked the same way. Listeners are told outside the table's lock, in
order and once per change.
"""
import json
import os
import random
import shutil
import threading
import time

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.game.store import Store, Summary
from companion.game.table import CommandError, Event, Table, apply_event, stored_log
from tests.conftest import DATA

BEFORE_VERSIONS = os.path.join(DATA, "store-before-versions.sqlite")


def corpus(name):
    with open(os.path.join(DATA, name)) as f:
        return [json.loads(line) for line in f]


def same_table(live: Table, restored: Table) -> None:
    """Everything a reader can see is the same, but the last change (a restored table says so)."""
    assert restored.game == live.game
    assert restored.game_id == live.game_id
    assert restored.state == live.state
    assert restored.log() == live.log()
    a, b = live.snapshot(), restored.snapshot()
    a.pop("last_event"), b.pop("last_event")
    assert a == b


def play_and_restore(games):
    """Play each game through the table's commands into one store, and fold it back after each."""
    store = Store(":memory:")
    table = Table(store)
    for i, rec in enumerate(games):
        log = rec["log"]
        table.new_game(log["players"], log["variant"])
        for action in log["actions"]:
            table.act(action)
        assert table.state.score == rec["expected"]["score"], rec["id"]
        restored = Table.from_store(store, table.game_id)
        same_table(table, restored)
        assert stored_log(store, table.game_id) == table.log()
        if i % 200 == 0:
            same_table(table, Table(store))  # the latest game, as the box finds it after a restart
    assert len(store.games()) == len(games)


def test_every_three_player_reference_game_comes_back_the_same_from_the_store():
    play_and_restore(corpus("ah2ac2-3p.jsonl"))


def test_every_twentieth_two_player_reference_game_comes_back_the_same_from_the_store():
    play_and_restore(corpus("hanabidata-2p.jsonl")[::20])


@pytest.mark.slow
def test_every_fourth_two_player_reference_game_comes_back_the_same_from_the_store():
    play_and_restore(corpus("hanabidata-2p.jsonl")[1::4])  # 510 of the 2,040 games, none of the twentieth's


def test_restore_goes_on_with_the_game_where_it_was_left():
    store = Store(":memory:")
    first = Table(store)
    rec = corpus("ah2ac2-3p.jsonl")[0]["log"]
    first.new_game(rec["players"], rec["variant"])
    for action in rec["actions"][:10]:
        first.act(action)
    second = Table.from_store(store)
    assert second.last_event.kind == "restored" and second.last_event.params == {"actions": 10}
    for action in rec["actions"][10:20]:
        second.act(action)
    assert len(second.actions) == 20 and second.actions[:10] == first.actions
    assert Table.from_store(store).game == second.game
    assert [e.seq for e in store.events(second.game_id)] == list(range(21))


def test_a_game_not_in_the_store_is_refused():
    with pytest.raises(CommandError, match="no game 7 in the store"):
        Table.from_store(Store(":memory:"), 7)


def test_an_event_the_rules_refuse_names_the_game_and_the_event():
    store = Store(":memory:")
    table = Table(store)
    table.new_game(2)
    store.append(table.game_id, 1, "action", {"type": "discard", "card": "r1"},  # not at 8 hint tokens
                 Summary(actions=1, score=0, max_score=25, outcome="in_progress"))
    with pytest.raises(CommandError, match=r"game 1 cannot be restored: its event 1 \(action\)") as e:
        Table(store)
    assert e.value.code == "discard_max"


def test_apply_event_changes_nothing_it_is_given():
    game = apply_event(None, Event("game", {"players": ["Ann", "Ben"], "variant": "base"}))
    after = apply_event(game, Event("action", {"type": "play", "card": " R1 "}))
    assert game.actions == () and len(game.states) == 1
    assert after.actions == ({"type": "play", "card": "r1"},) and after.state.score == 1
    assert apply_event(after, Event("undo")) == game
    with pytest.raises(CommandError) as e:
        apply_event(game, Event("undo"))
    assert e.value.code == "nothing_to_undo"
    with pytest.raises(CommandError) as e:
        apply_event(None, Event("action", {"type": "hint"}))
    assert e.value.code == "no_game"


# -- mixed commands ------------------------------------------------------------------------------
SOURCE = corpus("ah2ac2-3p.jsonl")[:20]
CARDS = [f"{s}{v}" for s in "rygbw" for v in range(1, 6)]

command = st.one_of(
    st.tuples(st.just("act")),
    st.tuples(st.just("undo")),
    st.tuples(st.just("correct"), st.integers(0, 80), st.sampled_from(CARDS)),
    st.tuples(st.just("end")),
    st.tuples(st.just("propose"), st.floats(0, 1), st.sampled_from(CARDS)),
    st.tuples(st.just("confirm"), st.one_of(st.none(), st.sampled_from(CARDS))),
)


def run_command(table: Table, cmd: tuple, actions: list) -> None:
    kind = cmd[0]
    if kind == "act":
        table.act(actions[len(table.actions) % len(actions)])
    elif kind == "undo":
        table.undo()
    elif kind == "correct":
        table.correct(cmd[1] % max(1, len(table.actions)), cmd[2])
    elif kind == "end":
        table.end_game()
    elif kind == "propose":
        nxt = actions[len(table.actions) % len(actions)]
        table.propose({**nxt, "card": cmd[2]} if "card" in nxt else nxt, cmd[1], [cmd[2], "r1"])
    else:
        table.confirm(cmd[1])


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(game=st.sampled_from(SOURCE), commands=st.lists(command, min_size=1, max_size=60))
def test_any_mix_of_commands_comes_back_the_same_after_every_command(game, commands):
    store = Store(":memory:")
    table = Table(store)
    log = game["log"]
    table.new_game(log["players"], log["variant"])
    for cmd in commands:
        before = table.game
        try:
            run_command(table, cmd, log["actions"])
        except CommandError:
            assert table.game == before  # a refused command changes nothing, in memory or stored
        same_table(table, Table.from_store(store, table.game_id))


def test_the_store_from_before_versions_is_written_again_event_for_event(tmp_path):
    """Played again through the commands, the old store's games make the same events."""
    path = str(tmp_path / "old.db")
    shutil.copyfile(BEFORE_VERSIONS, path)
    old = Store(path)
    new = Store(":memory:")
    table = Table(new)
    for rec in old.games():
        events = old.events(rec.id)
        assert events[0].kind == "game"
        table.new_game(events[0].payload["players"], events[0].payload["variant"])
        for ev in events[1:]:
            p = ev.payload
            if ev.kind == "action":
                table.act(p)
            elif ev.kind in ("undo", "resume", "dismiss"):
                table.undo()
            elif ev.kind == "correct":
                table.correct(p["index"], p["card"])
            elif ev.kind == "end":
                table.end_game()
            else:
                table.propose(p["action"], p["confidence"], p["candidates"])
        again = new.events(table.game_id)
        assert [(e.seq, e.kind, e.payload) for e in again] == [(e.seq, e.kind, e.payload) for e in events]
        same_table(table, Table.from_store(old, rec.id))
    assert {e.kind for g in old.games() for e in old.events(g.id)} == {
        "game", "action", "undo", "correct", "end", "resume", "pending", "dismiss"}


# -- listeners -------------------------------------------------------------------------------------
def test_a_blocked_listener_holds_up_no_other_thread():
    table = Table()
    table.new_game(["Ann", "Ben"])
    release, inside = threading.Event(), threading.Event()
    heard = []

    def stuck(tb, change):
        heard.append(change.params.get("hints"))
        if len(heard) == 1:
            inside.set()
            release.wait(10)

    table.add_listener(stuck)
    first = threading.Thread(target=table.act, args=({"type": "hint"},))
    first.start()
    try:
        assert inside.wait(5)                  # the listener is stuck, outside the table's lock
        t0 = time.monotonic()
        other = threading.Thread(target=lambda: (table.snapshot(), table.act({"type": "hint"})))
        other.start()
        other.join(5)
        assert not other.is_alive() and time.monotonic() - t0 < 5
        assert table.snapshot()["hints"] == 6 and table.state.hints == 6
        assert heard == [7]                    # the second change waits for the first to be told
    finally:
        release.set()
        first.join(5)
    assert heard == [7, 6]                     # then it is told, by the thread that was telling


def test_changes_arrive_in_order_once_each_with_two_threads_acting():
    table = Table()
    table.new_game(["Ann", "Ben"], {"preset": "base", "hint_tokens": 8})
    heard = []
    table.add_listener(lambda tb, change: (heard.append(change), time.sleep(0)))
    done = []

    def hints(seed):
        rng = random.Random(seed)
        for _ in range(300):
            try:
                done.append(table.act({"type": "hint"}) if rng.random() < 0.5 else table.undo())
            except CommandError:
                pass

    workers = [threading.Thread(target=hints, args=(seed,)) for seed in (1, 2)]
    for w in workers:
        w.start()
    for w in workers:
        w.join(30)
    assert len(heard) == len(done) > 100 and sorted(map(id, heard)) == sorted(map(id, done))
    tokens = 8
    for change in heard:                       # told in the order the commands happened
        if change.kind == "hint":
            tokens -= 1
            assert change.params["hints"] == tokens
        else:
            assert change.kind == "undo"
            tokens += 1
    assert tokens == table.state.hints


def test_a_listener_that_commands_the_table_is_told_of_that_after_the_change_it_heard():
    table = Table()
    table.new_game(["Ann", "Ben"])
    heard = []

    def undo_every_misplay(tb, change):
        heard.append(change.kind)
        if change.kind == "misplay":
            tb.undo()

    table.add_listener(undo_every_misplay)
    other = []
    table.add_listener(lambda tb, change: other.append(change.kind))
    table.act({"type": "play", "card": "r2"})
    assert heard == other == ["misplay", "undo"]
    assert table.state.fuses_used == 0


def test_a_broken_listener_does_not_keep_the_others_from_hearing():
    table = Table()
    table.new_game(["Ann", "Ben"])
    heard = []
    table.add_listener(lambda tb, change: 1 / 0)
    table.add_listener(lambda tb, change: heard.append(change.kind))
    table.act({"type": "hint"})
    table.act({"type": "hint"})
    assert heard == ["hint", "hint"] and table.state.hints == 6
