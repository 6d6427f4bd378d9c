"""The table session: commands, listeners, undo, corrections, the unsure-card prompt, the store."""
import os
import sqlite3

import pytest

from companion.game.store import Store, StoreError
from companion.game.table import CommandError, Table, stored_log


@pytest.fixture
def table(tmp_path):
    t = Table(Store(str(tmp_path / "table.db")))
    t.new_game(["Ann", "Ben", "Cat"], "base")
    return t


def test_listeners_hear_what_happened_after_it_is_stored(table):
    heard = []

    def listener(tb, change):
        # the change is already durable: a second connection sees it
        other = Store(tb.store.path)
        heard.append((change.kind, change.text, other.latest_game().actions))
        other.close()

    table.add_listener(listener)
    table.act({"type": "play", "card": "r1"})
    table.act({"type": "play", "card": "r3"})
    table.act({"type": "hint"})
    assert heard == [("played", "r1 played", 1), ("misplay", "misplay: fuse 1 of 3", 2),
                     ("hint", "hint given: 7 of 8 tokens left", 3)]


def test_final_round_is_announced(tmp_path):
    t = Table()
    t.new_game(2, {"preset": "base", "allow_discard_at_max_hints": True})
    kinds = []
    t.add_listener(lambda tb, c: kinds.append(c.text))
    cards = [f"{s}{v}" for s in "rygbw" for v in (1, 1, 1, 2, 2, 3, 3, 4)]
    for c in cards[:40]:
        t.act({"type": "discard", "card": c})
    assert "final round: 2 turns left" in kinds


def test_refused_commands_change_nothing(table):
    before = table.snapshot()
    for bad in ({"type": "discard", "card": "r1"}, {"type": "play", "card": "m1"}, {"type": "play"},
                {"type": "jump"}, "hint", {"type": "play", "card": "r9"}):
        with pytest.raises(CommandError):
            table.act(bad)
    assert table.snapshot() == before
    assert Table(Store(table.store.path)).snapshot()["actions"] == 0


def test_illegal_and_bad_input_are_told_apart(table):
    with pytest.raises(CommandError) as e:
        table.act({"type": "discard", "card": "r1"})
    assert e.value.illegal
    with pytest.raises(CommandError) as e:
        table.act({"type": "play", "card": "zz"})
    assert not e.value.illegal


def test_undo_any_number_of_steps(table):
    states = [table.state]
    for a in ({"type": "play", "card": "r1"}, {"type": "hint"}, {"type": "play", "card": "y2"}):
        table.act(a)
        states.append(table.state)
    for expected in reversed(states[:-1]):
        table.undo()
        assert table.state == expected
    with pytest.raises(CommandError, match="nothing to undo"):
        table.undo()


def test_correcting_an_earlier_card_rejudges_everything_after(table):
    table.act({"type": "play", "card": "r2"})   # camera misread: it was r1
    table.act({"type": "play", "card": "r2"})
    assert table.state.fuses_used == 2 and table.state.score == 0
    table.correct(0, "r1")
    assert table.state.fuses_used == 0 and table.state.score == 2
    assert table.actions[0]["card"] == "r1"
    reopened = Table(Store(table.store.path))
    assert reopened.state == table.state


def test_a_correction_that_breaks_a_later_action_is_refused(table):
    table.act({"type": "play", "card": "r1"})
    for _ in range(3):
        table.act({"type": "hint"})
        table.act({"type": "discard", "card": "b1"})
    before = table.state
    with pytest.raises(CommandError, match="action 6 .* would be illegal"):
        table.correct(0, "b1")  # a fourth b1 cannot exist
    assert table.state == before and table.actions[0]["card"] == "r1"


def test_end_game_and_resume(table):
    table.act({"type": "play", "card": "g1"})
    table.end_game()
    assert table.state.over and table.state.outcome == "finished"
    with pytest.raises(CommandError, match="ended at the table"):
        table.act({"type": "hint"})
    assert Table(Store(table.store.path)).state.over
    table.undo()
    assert not table.state.over
    table.act({"type": "hint"})


def test_unsure_card_waits_for_confirmation(table):
    table.propose({"type": "play", "card": "r1"}, 0.6, ["r1", "y1"])
    assert table.snapshot()["pending"]["candidates"] == ["r1", "y1"]
    assert table.snapshot()["actions"] == 0
    assert Table(Store(table.store.path)).pending is not None  # survives a restart
    table.confirm("y1")
    assert table.state.fireworks_map()["y"] == 1 and table.pending is None
    with pytest.raises(CommandError, match="no unsure card"):
        table.confirm()


def test_the_cards_asked_about_are_counted_for_the_game(table):
    """Each unsure card the camera proposed counts, confirmed, corrected or dismissed; a restart keeps
    the count and a new game starts it again (the page suggests teaching the deck by it)."""
    assert table.snapshot()["asked"] == 0
    table.propose({"type": "play", "card": "r1"}, 0.6, ["r1", "y1"])
    table.confirm()
    table.propose({"type": "play", "card": "b1"}, 0.5, ["b1", "w1"])
    table.undo()  # dismissed: it was still asked about
    table.act({"type": "play", "card": "g1"})
    assert table.snapshot()["asked"] == 2 and not table.snapshot()["suggest_teaching"]
    assert Table(Store(table.store.path)).snapshot()["asked"] == 2
    for card in ["y1", "w1", "b1"]:
        table.propose({"type": "play", "card": card}, 0.5, [card])
        table.confirm()
    assert table.snapshot()["asked"] == 5 and table.snapshot()["suggest_teaching"]
    table.new_game(["Ann", "Ben"], "base")
    assert table.snapshot()["asked"] == 0 and not table.snapshot()["suggest_teaching"]


def test_the_cards_a_game_showed_the_camera_count_a_card_still_waiting(table):
    """The page's "unsure of 6 of the 27 cards" takes its second number from the state: the cards
    played or discarded, or the cards asked about where they are more (the first card still
    waiting, a card dismissed), so it is never fewer than those asked about."""
    assert table.snapshot()["cards_shown"] == 0
    table.propose({"type": "play", "card": "b1"}, 0.5, ["b1", "w1"])
    assert table.snapshot()["cards_shown"] == 1 and table.snapshot()["actions"] == 0
    table.confirm()
    table.act({"type": "play", "card": "r1"})
    assert table.snapshot()["cards_shown"] == 2 and table.snapshot()["asked"] == 1
    table.propose({"type": "play", "card": "g1"}, 0.5, ["g1", "y1"])
    table.undo()  # dismissed: asked about, never laid
    table.propose({"type": "play", "card": "y1"}, 0.5, ["y1", "g1"])
    table.undo()
    assert table.snapshot()["cards_shown"] == 3 and table.snapshot()["asked"] == 3


def test_history_and_export(table):
    table.act({"type": "play", "card": "r1"})
    table.new_game(["Dan", "Eve"], "rainbow", first_player=1)
    assert table.players == ("Eve", "Dan")
    table.act({"type": "play", "card": "m1"})
    games = table.store.games()
    assert [g.players for g in games] == [["Ann", "Ben", "Cat"], ["Eve", "Dan"]]
    assert games[0].score == 1 and games[1].variant == "rainbow"
    log = stored_log(table.store, games[0].id).to_json()
    assert log == {"variant": "base", "players": ["Ann", "Ben", "Cat"],
                   "actions": [{"type": "play", "card": "r1"}]}


def test_game_over_recorded_in_history(table):
    for a in ({"type": "play", "card": "r2"},) * 2 + ({"type": "play", "card": "y3"},):
        table.act(a)
    rec = table.store.latest_game()
    assert rec.outcome == "lost" and rec.score == 0


def test_store_settings_are_durable(tmp_path):
    s = Store(str(tmp_path / "x.db"))
    assert s._db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert s._db.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL


def test_a_damaged_store_is_refused_and_kept(tmp_path):
    path = tmp_path / "table.db"
    path.write_bytes(b"this is not a database" * 100)
    with pytest.raises(StoreError, match="damaged") as e:
        Store(str(path))
    copies = [f for f in os.listdir(tmp_path) if ".damaged-" in f]
    assert copies and "copy was kept" in str(e.value)
    assert path.read_bytes().startswith(b"this is not")  # never overwritten


def test_no_game_yet():
    t = Table()
    assert t.snapshot()["outcome"] == "no_game"
    with pytest.raises(CommandError, match="no game yet"):
        t.act({"type": "hint"})
    with pytest.raises(CommandError, match="2 to 5 players"):
        t.new_game(["Solo"])
    with pytest.raises(CommandError, match="unknown variant"):
        t.new_game(2, "chess")


def test_a_broken_listener_does_not_break_the_game(table):
    def broken(tb, change):
        raise RuntimeError("screen unplugged")
    table.add_listener(broken)
    table.act({"type": "hint"})
    assert table.state.hints == 7


def test_sqlite_is_used_from_the_standard_library():
    assert Store.__module__ == "companion.game.store" and sqlite3.sqlite_version


def test_cards_are_stored_in_canonical_notation(table):
    table.act({"type": "play", "card": " R1 "})
    table.propose({"type": "play", "card": "Y1"}, 0.5, ["y1"])
    table.confirm(" G1")
    assert [a["card"] for a in table.actions] == ["r1", "g1"]
