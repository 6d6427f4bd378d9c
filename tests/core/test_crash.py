"""Process crashes: a child appending events is killed with SIGKILL at random moments; after each kill
the store opens and holds exactly the events whose append returned (plus at most the one in flight).
A crash, not a power cut: the page cache outlives the process (card faults: tests/robustness)."""
import os
import random
import signal
import subprocess
import sys
import time

import pytest

from companion.game.rules import fold
from companion.game.store import Store
from companion.game.table import Table
from companion.game.variants import parse_variant
from tests.conftest import ROOT
from tests.core.crash_child import reference_actions

pytestmark = pytest.mark.slow  # starts and kills a process 100 times

KILLS = 100


def test_sigkill_never_loses_an_acknowledged_event(tmp_path):
    path = str(tmp_path / "table.db")
    games = reference_actions()
    rng = random.Random(20261122)
    acked = (0, 0)  # (game id, actions) of the last append that returned
    appended = 0
    for kill in range(KILLS):
        child = subprocess.Popen([sys.executable, "-m", "tests.core.crash_child", path], cwd=ROOT,
                                 stdout=subprocess.PIPE, text=True)
        first = child.stdout.readline()  # the child is up and writing
        time.sleep(rng.uniform(0, 0.03))
        child.send_signal(signal.SIGKILL)
        rest = child.stdout.read()
        child.wait()
        lines = [first] + rest.splitlines()
        reported = [tuple(map(int, line.split())) for line in lines if line.strip()]
        if reported:
            appended += len(reported)
            acked = reported[-1]
        store = Store(path)
        table = Table(store)
        got = (table.game_id, len(table.actions))
        in_flight = [(acked[0], acked[1] + 1), (acked[0] + 1, 0)]
        assert got == acked or got in in_flight, f"kill {kill}: stored {got}, acknowledged {acked}"
        expected = games[(table.game_id - 1) % 20][:len(table.actions)]
        assert table.actions == expected
        assert table.state == fold(parse_variant("base"), 3, expected)
        store.close()
        acked = got
    assert appended > KILLS  # the kills really landed among appends
    assert Store(path).latest_game().id >= 1
    os.remove(path)
