"""The watcher on rendered sequences: one event per card laid, none for hands, shadows or
straightening, and a cleared zone when the pile is taken away."""
import pytest

from vision import synth
from vision.watcher import CardPlaced, Watcher, ZoneCleared, make_watcher

from .scenes import Table

FPS = 10


@pytest.fixture(scope="module")
def watcher_factory():
    return make_watcher


def run(watcher, table, frames, t0):
    events = []
    for i in range(frames):
        events += watcher.feed(table.frame(), t0 + i / FPS)
    return events, t0 + frames / FPS


def test_a_game_sequence(watcher_factory):
    w: Watcher = watcher_factory()
    table = Table()
    t = 0.0
    ev, t = run(w, table, 3, t)
    assert ev == []  # an empty mat says nothing

    table.scene.hand_zone, table.scene.hand_seed = "play", 1
    ev, t = run(w, table, 2, t)
    table.scene.hand_zone = None
    table.lay("r1", "play")
    ev2, t = run(w, table, 4, t)
    placed = [e for e in ev + ev2 if isinstance(e, CardPlaced)]
    assert [(e.zone, e.card) for e in placed] == [("play", "r1")]

    # a hand passes over and leaves: nothing new
    for seed in (2, 3):
        table.scene.hand_zone, table.scene.hand_seed = "play", seed
        ev, t = run(w, table, 1, t)
        assert ev == []
    table.scene.hand_zone = None
    ev, t = run(w, table, 4, t)
    assert ev == []

    # the card is straightened a little: nothing new
    top = table.scene.cards[-1]
    table.scene.cards[-1] = synth.Placed(top.card, "play", (top.centre[0] + 2, top.centre[1] - 2),
                                         top.angle - 5, top.face)
    ev, t = run(w, table, 4, t)
    assert ev == []

    # two cards in a row
    table.lay("r2", "play")
    ev, t = run(w, table, 4, t)
    table.lay("b4", "discard")
    ev2, t = run(w, table, 4, t)
    assert [(e.zone, e.card) for e in ev + ev2] == [("play", "r2"), ("discard", "b4")]

    # the piles are taken away at the end of the game
    table.scene.cards.clear()
    ev, t = run(w, table, 4, t)
    assert sorted(e.zone for e in ev if isinstance(e, ZoneCleared)) == ["discard", "play"]


def test_latency_from_still_to_event_is_at_most_300ms(watcher_factory):
    w = watcher_factory()
    table = Table(seed=8, design=11)
    run(w, table, 2, 0.0)
    table.lay("g3", "discard")
    times = []
    for i in range(10):
        now = 0.2 + i / FPS
        if w.feed(table.frame(), now):
            times.append(now)
    assert times and times[0] - 0.2 <= 0.3 + 1e-9
