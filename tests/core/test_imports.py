"""What a command loads: the game is the standard library only, and the commands that only read logs
or settings start without OpenCV, numpy, Flask or Pillow (a replay on the Pi takes a fraction of a second)."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

HEAVY = ("cv2", "numpy", "flask", "waitress", "PIL", "luma", "gpiozero", "qrcode", "babel")

# runs the command line as `companion ...` does, then prints the top-level modules it loaded
PROBE = """
import json, sys
from companion.app.cli import main
try:
    code = main(sys.argv[1:])
except SystemExit as e:
    code = e.code
print(json.dumps({"code": code, "modules": sorted({m.split(".")[0] for m in sys.modules})}), file=sys.stderr)
"""

LOG = {"variant": "base", "players": 3, "actions": [{"type": "play", "card": "r1"}, {"type": "hint"},
                                                     {"type": "discard", "card": "b4"}]}


def loaded(*args: str) -> tuple[int, set[str], str]:
    p = subprocess.run([sys.executable, "-c", PROBE, *args], capture_output=True, text=True, timeout=60)
    report = json.loads(p.stderr.strip().splitlines()[-1])
    return report["code"], set(report["modules"]), p.stdout


@pytest.fixture
def log(tmp_path: Path) -> Path:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(LOG))
    return path


def test_replay_loads_neither_opencv_nor_numpy(log):
    code, modules, out = loaded("replay", str(log), "--json")
    assert code == 0 and json.loads(out)["discards"] == ["b4"]
    assert not modules & set(HEAVY), sorted(modules & set(HEAVY))


def test_many_games_replay_without_the_adapters(tmp_path):
    path = tmp_path / "games.jsonl"
    path.write_text(json.dumps(LOG) + "\n" + json.dumps({"log": LOG, "score": 1}) + "\n")
    code, modules, out = loaded("replay", str(path), "--json")
    assert code == 0 and [json.loads(line)["score"] for line in out.splitlines()] == [1, 1]
    assert not modules & {"cv2", "numpy", "hardware", "web"}


@pytest.mark.parametrize("args", [("variants", "--json"), ("--help",), ("teach", "--help")])
def test_commands_that_read_no_pictures_load_no_opencv(args):
    code, modules, out = loaded(*args)
    assert code == 0 and out
    assert not modules & {"cv2", "numpy", "flask", "PIL"}


def test_the_game_loads_only_the_standard_library():
    probe = ("import json, pkgutil, importlib, sys, companion.game as g\n"
             "names = [m.name for m in pkgutil.iter_modules(g.__path__, 'companion.game.')]\n"
             "for n in names: importlib.import_module(n)\n"
             "print(json.dumps({'names': names, 'modules': sorted({m.split('.')[0] for m in sys.modules})}))")
    p = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=60, check=True)
    report = json.loads(p.stdout)
    assert {"companion.game.rules", "companion.game.table", "companion.game.store"} <= set(report["names"])
    outside = {m for m in report["modules"] if m not in sys.stdlib_module_names and not m.startswith("_")}
    assert outside <= {"companion"}, sorted(outside)
