"""Refusals and game ends carry codes: the OLED and the page key their own words on the code, so
rewording an English message cannot change what they show."""
import pytest

from companion.game.rules import END_FUSE, RULE_CODES
from companion.game.table import CommandError, Table
from hardware.commands import refusal
from hardware.screens import Refusal


def test_every_rule_has_its_own_code():
    codes = list(RULE_CODES.values())
    assert len(set(codes)) == len(codes)
    assert all(c.isidentifier() and c.islower() for c in codes)


def refused(table: Table, action: dict) -> CommandError:
    with pytest.raises(CommandError) as e:
        table.act(action)
    return e.value


def test_a_refusal_carries_the_rules_code_and_card():
    # 002 "<Game Progress>" 1: a clue spends a blue token, so none can be given without one.
    table = Table()
    table.new_game(["Ann", "Ben"])
    for _ in range(8):
        table.act({"type": "hint"})
    e = refused(table, {"type": "hint"})
    assert (e.code, e.illegal, e.card) == ("no_hints", True, None)
    # 002 "<Set Up>": one 5 of each colour in the box; a second r5 cannot be laid.
    table.act({"type": "discard", "card": "r5"})
    e = refused(table, {"type": "play", "card": "r5"})
    assert (e.code, e.card) == ("no_copies", "r5")


def test_the_box_screen_depends_on_the_code_not_the_words():
    table = Table()
    table.new_game(["Ann", "Ben"])
    for _ in range(8):
        table.act({"type": "hint"})
    e = refused(table, {"type": "hint"})
    reworded = CommandError("Keine Hinweise mehr", illegal=True, code=e.code, card=e.card)
    assert refusal(e) == refusal(reworded) == Refusal("no_hints")
    assert refusal(CommandError("r5 gone", code="no_copies", card="r5")) == Refusal("no_copies", card="r5")
    assert refusal(CommandError("any words", code="clue_black")) == Refusal("rules")


def test_table_refusals_have_codes():
    table = Table()
    with pytest.raises(CommandError) as e:
        table.undo()
    assert e.value.code == "no_game" and refusal(e.value) == Refusal("no_game")
    table.new_game(["Ann", "Ben"])
    with pytest.raises(CommandError) as e:
        table.undo()
    assert e.value.code == "nothing_to_undo"
    with pytest.raises(CommandError) as e:
        table.confirm()
    assert e.value.code == "nothing_pending"
    with pytest.raises(CommandError) as e:
        table.act({"type": "fly"})
    assert e.value.code == "bad_input" and not e.value.illegal


def test_a_game_end_carries_its_code():
    # 002 "<How to Finish the Game>": the game is lost when the last fuse token burns.
    table = Table()
    table.new_game(["Ann", "Ben"])
    for card in ("r2", "g2", "b2"):
        table.act({"type": "play", "card": card})
    snap = table.snapshot()
    assert snap["over"] and snap["reason_key"] == END_FUSE
    table.undo()
    table.end_game()
    assert table.snapshot()["reason_key"] == "ended"
    with pytest.raises(CommandError) as e:
        table.act({"type": "hint"})
    assert e.value.code == "ended" and refusal(e.value) == Refusal("ended")
