"""Real storage faults for the store: a small tmpfs that fills up or turns read-only, and strace's
syscall fault injection for a card whose writes fail. Both need root (mounting, attaching to a
process); a machine without them fails the test in CI and skips it elsewhere."""
from __future__ import annotations

import contextlib
import json
import os
import shutil
import subprocess
import tempfile
import time
from collections.abc import Iterator
from typing import Any

import pytest

from tests.conftest import DATA


def need(tool: str) -> str:
    path = shutil.which(tool)
    if path is None:
        missing(f"{tool} is missing (apt-get install {tool})")
    return path  # type: ignore[return-value]


def missing(what: str) -> None:
    if os.environ.get("CI"):
        pytest.fail(f"{what}: CI must provide it")
    pytest.skip(what)


class SmallCard:
    """A tmpfs of ``size`` mounted at ``path``: the SD card in miniature, filled and freed at will."""

    def __init__(self, path: str, size: str = "16m"):
        need("mount")
        if os.geteuid() != 0:
            missing("mounting a small file system needs root")
        self.path = path
        os.makedirs(path, exist_ok=True)
        done = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size},mode=0755", "tmpfs", path],
                              capture_output=True, text=True)
        if done.returncode != 0:
            missing(f"cannot mount a tmpfs here: {done.stderr.strip()}")
        self.filler = os.path.join(path, "filler")

    def fill(self) -> None:
        """Write until the card has no byte left."""
        fd = os.open(self.filler, os.O_WRONLY | os.O_CREAT | os.O_APPEND)
        try:
            for chunk in (1 << 20, 1 << 16, 1 << 12, 1 << 9, 1):
                with contextlib.suppress(OSError):
                    while True:
                        os.write(fd, b"\0" * chunk)
        finally:
            os.close(fd)
        assert os.statvfs(self.path).f_bavail == 0

    def free(self) -> None:
        with contextlib.suppress(FileNotFoundError):
            os.remove(self.filler)

    def read_only(self) -> None:
        subprocess.run(["mount", "-o", "remount,ro", self.path], check=True)

    def writable(self) -> None:
        subprocess.run(["mount", "-o", "remount,rw", self.path], check=True)

    def unmount(self) -> None:
        subprocess.run(["umount", "-l", self.path], check=False)


@contextlib.contextmanager
def small_card(size: str = "16m") -> Iterator[SmallCard]:
    card = SmallCard(tempfile.mkdtemp(prefix="small-card-"), size)
    try:
        yield card
    finally:
        card.unmount()
        os.rmdir(card.path)


@contextlib.contextmanager
def failing_syncs(pid: int, every: int, log: str) -> Iterator[None]:
    """Make fsync/fdatasync of process ``pid`` fail with EIO: strace counts calls per thread, so in
    each thread of the box every ``every``-th call fails."""
    strace = need("strace")
    proc = subprocess.Popen(
        [strace, "-f", "-p", str(pid), "-o", os.devnull, "-e", "trace=fsync,fdatasync",
         "-e", f"inject=fsync,fdatasync:error=EIO:when={every}+{every}"],
        stderr=open(log, "w"), start_new_session=True)
    deadline = time.monotonic() + 10
    while "attached" not in open(log).read():
        if proc.poll() is not None or time.monotonic() > deadline:
            proc.kill()
            missing(f"strace cannot attach to a process here: {open(log).read().strip()}")
        time.sleep(0.05)
    try:
        yield
    finally:
        proc.terminate()  # detaching leaves the box running as before
        proc.wait(10)


class Game:
    """Requests that play the recorded games one after another, and what the box acknowledged."""

    def __init__(self) -> None:
        self.games = [json.loads(line)["log"]["actions"] for line in open(f"{DATA}/ah2ac2-3p.jsonl")]
        self.acked: list[list[dict[str, Any]]] = []  # per game started, the actions acknowledged
        self.ids: list[int] = []

    def next(self) -> tuple[str, Any]:
        if not self.acked or len(self.acked[-1]) == len(self.games[len(self.acked) - 1]):
            return "/api/games", {"players": ["A", "B", "C"], "variant": "base"}
        return "/api/actions", self.games[len(self.acked) - 1][len(self.acked[-1])]

    def acknowledged(self, path: str, body: Any, answer: Any) -> None:
        if path == "/api/games":
            self.acked.append([])
            self.ids.append(answer["game_id"])
        else:
            self.acked[-1].append(body)

    @property
    def actions(self) -> int:
        return sum(len(a) for a in self.acked)

    def check_stored(self, box: Any) -> None:
        """Every acknowledged game and action is in the store, and nothing that was refused."""
        stored = {g["id"]: g for g in box.get("/api/games")["games"]}
        for gid, acked in zip(self.ids, self.acked, strict=True):
            assert gid in stored, f"game {gid} was acknowledged but is not stored"
            assert box.get(f"/api/games/{gid}/log")["actions"] == acked, f"game {gid} differs"
        assert box.get("/api/state")["actions"] == len(self.acked[-1])
