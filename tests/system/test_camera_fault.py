"""`companion run` with a deck profile that is not there: the box keeps serving the page, the camera
reads `fault` with the reason on the page and the OLED, systemd's watchdog keeps being fed, and no
traceback is printed."""
from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from tests.robustness.boxproc import free_port

pytestmark = pytest.mark.slow  # starts the box as a process

FRAMES = Path(__file__).parents[1] / "vision" / "frames"


def get(port: int, path: str) -> bytes:
    with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=5) as r:
        return r.read()


def test_a_missing_profile_leaves_the_page_up_with_the_camera_in_fault(tmp_path):
    frames = tmp_path / "frames"
    frames.mkdir()
    shutil.copy(next(FRAMES.glob("*.jpg")), frames)
    missing = tmp_path / "missing.profile"
    config = tmp_path / "config.toml"
    config.write_text(f'[camera]\nsource = "folder:{frames}"\nprofile = "{missing}"\nretry_seconds = 0.5\n'
                      '[display]\ndriver = "dummy"\n')
    notify = tmp_path / "notify.sock"
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(str(notify))
    sock.settimeout(0.2)
    port = free_port()
    env = {**os.environ, "NOTIFY_SOCKET": str(notify), "WATCHDOG_USEC": "1000000"}
    proc = subprocess.Popen([sys.executable, "-m", "companion.app.cli", "run", "--config", str(config), "--data",
                             str(tmp_path / "data"), "--host", "127.0.0.1", "--port", str(port), "--pin", "2468"],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env,
                            start_new_session=True)
    messages: list[str] = []
    try:
        deadline = time.monotonic() + 60
        state = None
        while time.monotonic() < deadline:
            assert proc.poll() is None, proc.communicate()[0]
            try:
                messages.append(sock.recv(4096).decode())
            except TimeoutError:
                pass
            try:
                state = json.loads(get(port, "/api/state"))
            except OSError:
                continue
            if state["camera"] == "fault" and sum(m == "WATCHDOG=1" for m in messages) >= 3:
                break
        assert state is not None and state["camera"] == "fault", state
        assert str(missing) in state["camera_reason"] and "companion teach" in state["camera_reason"]
        assert sum(m == "WATCHDOG=1" for m in messages) >= 3, messages  # the box is not restarted
        page = get(port, "/").decode()
        assert 'id="camera-reason"' in page
        assert proc.poll() is None
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        output = proc.communicate(timeout=20)[0]
        sock.close()
    assert "Traceback" not in output, output
    assert output.count(f"camera fault: the deck profile {missing} is missing") == 1, output  # said once, not per retry
