"""Fixtures for the box: a table, an emulated OLED and a clock the test moves by hand."""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import pytest

from companion.game.table import Table
from hardware.display import Display, get_display


@dataclass
class FakeTime:
    """A clock and a timer queue: flashes end when the test says so, not after real seconds."""

    now: float = 1000.0
    due: list[tuple[float, Callable[[], object]]] = field(default_factory=list)

    def __call__(self) -> float:
        return self.now

    def schedule(self, delay: float, fn: Callable[[], object]) -> None:
        self.due.append((self.now + delay, fn))

    def advance(self, seconds: float) -> None:
        self.now += seconds
        ready = [fn for at, fn in self.due if at <= self.now]
        self.due = [(at, fn) for at, fn in self.due if at > self.now]
        for fn in ready:
            fn()


@pytest.fixture
def fake_time() -> FakeTime:
    return FakeTime()


@pytest.fixture
def display() -> Display:
    return get_display({"driver": "dummy"})


@pytest.fixture
def table() -> Table:
    t = Table()
    t.new_game(["Ann", "Ben", "Cat"])
    return t
