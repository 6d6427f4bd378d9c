"""The OLED speaks the game's language (chosen on the page, stored with the game), else the box's."""
from __future__ import annotations

from companion.game.store import Store
from companion.game.table import Table
from hardware.box import Box
from hardware.screens import Dashboard, render

from .conftest import FakeTime


def shown(box: Box, display) -> bytes:  # type: ignore[no-untyped-def]
    box.refresh()
    return display.image.tobytes()


def test_the_oled_draws_in_the_games_language(display, fake_time: FakeTime) -> None:
    table = Table()
    box = Box(table, display, lang="en", clock=fake_time, schedule=fake_time.schedule)
    try:
        table.new_game(["Ann", "Ben"], "base", lang="de")
        fake_time.advance(box.flash_seconds)
        screen = box.screen()
        assert isinstance(screen, Dashboard)
        assert shown(box, display) == render(screen, "de").tobytes() != render(screen, "en").tobytes()
        table.new_game(["Ann", "Ben"], "base")  # no language chosen: the box's own
        fake_time.advance(box.flash_seconds)
        assert shown(box, display) == render(box.screen(), "en").tobytes()
    finally:
        box.close()


def test_after_a_restart_the_oled_still_draws_in_the_games_language(tmp_path, display, fake_time) -> None:
    path = str(tmp_path / "games.sqlite")
    store = Store(path)
    Table(store).new_game(["Ann", "Ben"], "base", lang="cs")
    store.close()
    store = Store(path)
    box = Box(Table(store), display, lang="pl", clock=fake_time, schedule=fake_time.schedule)
    try:
        screen = box.screen()  # "game restored", then the dashboard
        assert shown(box, display) == render(screen, "cs").tobytes() != render(screen, "pl").tobytes()
        fake_time.advance(box.status_seconds)
        assert isinstance(box.screen(), Dashboard)
        assert shown(box, display) == render(box.screen(), "cs").tobytes()
    finally:
        box.close()
        store.close()
