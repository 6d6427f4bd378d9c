"""``companion teach --camera`` in a terminal, with a folder of frames for a camera: prompts for each
card, Enter keeps a picture and r takes it again, clear errors with exit codes, never a traceback."""
from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.game.variants import parse_variant
from vision.classifier import Profile
from vision.guided import card_kinds

from .family import Family

FRAMES_PER_CARD = 5


def companion(*args: str, stdin: str = "", timeout: float = 600) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    return subprocess.run([sys.executable, "-m", "companion.app.cli", *args], input=stdin, capture_output=True,
                          text=True, timeout=timeout, env=env)


def film(folder: Path, cards: list[str], seed: int = 4) -> str:
    """A folder camera: each card laid on the pile in turn, seen for a few frames."""
    folder.mkdir()
    family = Family(seed=seed)
    n = 0
    for card in cards:
        family.lay(card)
        for frame, _ in family.frames(FRAMES_PER_CARD):
            n += 1
            cv2.imwrite(str(folder / f"{n:04d}.jpg"), frame, [cv2.IMWRITE_JPEG_QUALITY, 92])
    return f"folder:{folder}"


def no_traceback(r: subprocess.CompletedProcess) -> None:
    assert "Traceback" not in r.stderr and "Traceback" not in r.stdout, r.stderr


def test_errors_say_what_to_do_with_exit_codes(tmp_path: Path):
    settings = tmp_path / "config.toml"
    settings.write_text('[camera]\nsource = "none"\n')
    r = companion("teach", "--camera", "--profile", str(tmp_path / "p.npz"), "--config", str(settings))
    assert r.returncode == 1 and "no camera" in r.stderr and "--source" in r.stderr
    no_traceback(r)
    r = companion("teach", "--camera", "--profile", "p.npz", "--source", f"folder:{tmp_path / 'nothing'}",
                  "--config", str(settings))
    assert r.returncode == 1 and "cannot open the camera" in r.stderr
    no_traceback(r)
    r = companion("teach", "--camera", "--profile", "p.npz", "--variant", "chess", "--config", str(settings))
    assert r.returncode == 1 and "chess" in r.stderr
    r = companion("teach", str(tmp_path), "--camera", "--profile", "p.npz")
    assert r.returncode == 1 and "not both" in r.stderr
    r = companion("teach", "--profile", "p.npz")
    assert r.returncode == 1 and "--camera" in r.stderr
    # a profile that could not be saved is refused before the lesson, not after the whole deck
    for where, says in ((tmp_path / "no-such-folder" / "p.npz", "no folder"), (tmp_path, "is a folder")):
        r = companion("teach", "--camera", "--profile", str(where), "--config", str(settings))
        assert r.returncode == 1 and says in r.stderr and "no camera" not in r.stderr
        no_traceback(r)
    table = tmp_path / "table"
    table.mkdir()
    cv2.imwrite(str(table / "plain.jpg"), np.full((720, 1280, 3), 130, np.uint8))
    r = companion("teach", "--camera", "--profile", str(tmp_path / "p.npz"), "--source", f"folder:{table}",
                  "--config", str(settings), "--wait", "0.5")
    assert r.returncode == 3 and "no play mat in view" in r.stderr
    assert not (tmp_path / "p.npz").exists()
    no_traceback(r)


def asked_for(out: str) -> list[str]:
    return re.findall(r"got the \w+ \d \((\w\d)\)", out)


def test_each_card_is_prompted_kept_or_retaken_and_stopping_saves_nothing(tmp_path: Path):
    source = film(tmp_path / "frames", ["r1", "r2", "r2", "r3"])
    out = tmp_path / "deck.npz"
    r = companion("teach", "--camera", "--profile", str(out), "--source", source, "--config",
                  str(tmp_path / "none.toml"), stdin="\nr\n\nq\n")
    assert asked_for(r.stdout) == ["r1", "r2", "r2", "r3"], r.stdout + r.stderr
    assert "lay the red 1 (r1) in PLAY" in r.stderr
    assert r.returncode == 1 and "nothing saved" in r.stderr and not out.exists()
    no_traceback(r)


def test_a_card_skipped_is_pointed_out_at_the_prompt(tmp_path: Path):
    source = film(tmp_path / "frames", ["r1", "r3", "r2"])  # r2 skipped, then laid on top
    r = companion("teach", "--camera", "--profile", str(tmp_path / "deck.npz"), "--source", source, "--config",
                  str(tmp_path / "none.toml"), stdin="\nr\nq\n")
    assert asked_for(r.stdout) == ["r1", "r2", "r2"], r.stdout + r.stderr
    assert r.stdout.count("it looks like a 3") == 1 and "got the red 2 (r2), but" in r.stdout
    no_traceback(r)


@pytest.mark.slow
def test_a_whole_deck_is_taught_with_the_camera(tmp_path: Path):
    kinds = list(card_kinds(parse_variant("base")))
    source = film(tmp_path / "frames", kinds, seed=8)
    out = tmp_path / "deck.npz"
    r = companion("teach", "--camera", "--profile", str(out), "--source", source, "--variant", "base",
                  "--config", str(tmp_path / "none.toml"), stdin="\n" * len(kinds))
    assert r.returncode == 0, r.stderr
    assert asked_for(r.stdout) == kinds
    assert "learning" in r.stderr and f"{len(kinds)}/{len(kinds)}" in r.stderr
    assert sorted(Profile.load(str(out)).crops) == sorted(kinds)
    assert f"taught {len(kinds)} card kinds" in r.stdout
    no_traceback(r)
