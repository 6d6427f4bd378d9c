"""The box while the family's deck is taught: the OLED leads the lesson, its buttons serve it, and
the game comes back afterwards untouched."""
from __future__ import annotations

import pytest

from hardware.box import Box
from hardware.screens import Dashboard, Teaching, render

from .conftest import FakeTime


@pytest.fixture
def box(table, display, fake_time: FakeTime) -> Box:
    return Box(table, display, lang="cs", clock=fake_time, schedule=fake_time.schedule)


def test_the_lesson_has_the_screen_and_the_buttons_then_the_game_comes_back(box, table, display, fake_time):
    pressed = []
    lay = Teaching("lay", "r1", 0, 25)
    box.teach(lay, lambda button: pressed.append(button) or (True, "kept"))
    assert box.screen() == lay and display.image.tobytes() == render(lay, "cs").tobytes()
    table.act({"type": "hint"})  # the game changes meanwhile: the lesson stays on the screen
    assert box.screen() == lay
    assert box.press("ok").accepted and box.press("undo").accepted and pressed == ["ok", "undo"]
    assert table.state.hints == 7  # no button reached the game
    box.teach(Teaching("saved"))  # the end of the lesson shows for a moment
    assert box.screen() == Teaching("saved") and box.press("hint").accepted and table.state.hints == 6
    fake_time.advance(box.status_seconds)
    assert isinstance(box.screen(), Dashboard)


def test_a_cancelled_lesson_gives_the_screen_back_at_once(box):
    box.teach(Teaching("got", "y3", 4, 25), lambda button: (False, "no"))
    assert not box.press("ok").accepted
    box.teach(None)
    assert isinstance(box.screen(), Dashboard)


def test_the_screen_follows_the_lesson_state():
    lesson = {"active": True, "status": "waiting", "asked": "g2", "captured": None, "done": 6, "total": 25,
              "mat": False}
    assert Teaching.of(lesson) == Teaching("lay", "g2", 6, 25, mat=False)
    assert Teaching.of({**lesson, "status": "captured", "asked": None, "captured": "g2", "done": 7,
                        "mat": True}) == Teaching("got", "g2", 7, 25)
    assert Teaching.of({**lesson, "status": "complete", "asked": None, "done": 25}) == \
        Teaching("complete", None, 25, 25, mat=False)
    assert Teaching.of({**lesson, "status": "fitting", "progress": {"done": 3, "total": 25}}) == \
        Teaching("fitting", done=3, total=25)
    assert Teaching.of({"active": False, "status": "failed"}) == Teaching("failed")
    assert Teaching.of({"active": False, "status": "cancelled"}) is None
