"""Process crashes: the whole companion is killed with SIGKILL at random moments while actions are
posted; after each restart the game holds every acknowledged action and equals their replay.

This is a crash of the program, not a power cut: the kernel's page cache outlives the process, so
what it wrote reaches the card anyway. Faults of the card itself (full, failing writes, read-only)
are produced in test_storage_faults.py."""
import http.client
import json
import os
import random
import threading
import time

import pytest

from companion.game.rules import fold
from companion.game.variants import parse_variant
from tests.conftest import DATA

from .boxproc import BoxProcess

pytestmark = pytest.mark.slow  # kills and restarts the box, a second or two each time

KILLS = int(os.environ.get("KILLS", "40"))  # the test suite's; KILLS=100 for the longer run


def test_no_acknowledged_action_is_lost_across_process_crashes(tmp_path):
    games = [json.loads(line)["log"]["actions"] for line in open(f"{DATA}/ah2ac2-3p.jsonl")]
    rng = random.Random(1122)
    box = BoxProcess(str(tmp_path))
    box.start()
    assert box.post("/api/games", {"players": ["A", "B", "C"], "variant": "base"})[0] in (200, 201)
    gi, acked, stored_total, survived = 0, 0, 0, 0
    try:
        for kill in range(KILLS):
            actions = games[gi]
            if acked >= len(actions):
                stored_total += acked
                gi, acked = gi + 1, 0
                actions = games[gi]
                assert box.post("/api/games", {"players": ["A", "B", "C"], "variant": "base"})[0] in (200, 201)
            stop = threading.Event()
            count = [acked]

            def poster(stop: threading.Event, count: list[int], actions: list) -> None:
                while not stop.is_set() and count[0] < len(actions):
                    try:
                        code, _ = box.post("/api/actions", actions[count[0]])
                    except (OSError, http.client.HTTPException):  # cut mid-answer: not acknowledged
                        return
                    if code != 200:
                        return
                    count[0] += 1

            t = threading.Thread(target=poster, args=(stop, count, actions), daemon=True)
            t.start()
            time.sleep(rng.uniform(0.01, 0.25))
            box.kill()
            stop.set()
            t.join(5)
            acked = count[0]
            box.start()
            state = box.get("/api/state")
            stored = state["actions"]
            assert acked <= stored <= acked + 1, f"kill {kill}: stored {stored}, acknowledged {acked}"
            expected = fold(parse_variant("base"), 3, actions[:stored])
            for key in ("score", "hints", "fuses_used", "deck", "discards", "current_player"):
                assert state[key] == expected.as_dict()[key], f"kill {kill}: {key}"
            acked = stored
            survived += 1
    finally:
        box.stop()
    assert survived == KILLS and stored_total + acked > KILLS
    print(f"process crash: {survived} kills survived, {stored_total + acked} actions stored, 0 lost")
