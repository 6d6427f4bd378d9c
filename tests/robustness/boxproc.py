"""Start `companion run` or `companion demo` as a child process and talk to it over HTTP."""
from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from typing import Any

PIN = "4321"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class BoxProcess:
    """One companion process; ``kill()`` crashes it (SIGKILL to its whole process group).

    ``logs`` is where its output goes (by default next to the store, in ``data``).
    """

    def __init__(self, data: str, command: str = "run", extra: tuple[str, ...] = (), port: int | None = None,
                 logs: str | None = None):
        self.data, self.command, self.extra = data, command, extra
        self.cwd: str | None = None  # run the code of another checkout (a fresh clone)
        self.port = port or free_port()
        self.proc: subprocess.Popen | None = None
        self.log = open(os.path.join(logs or data, f"{command}.log"), "a")

    def start(self, timeout: float = 20.0) -> float:
        t0 = time.monotonic()
        if self.log.closed:  # started again after stop()
            self.log = open(self.log.name, "a")
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "companion.app.cli", self.command, "--host", "127.0.0.1",
             "--port", str(self.port), "--pin", PIN, "--data", self.data, *self.extra],
            stdout=self.log, stderr=self.log, start_new_session=True, cwd=self.cwd,
            env=None if self.cwd is None else {**os.environ, "PYTHONPATH": self.cwd})
        while time.monotonic() - t0 < timeout:
            if self.proc.poll() is not None:
                raise RuntimeError(f"companion exited with {self.proc.returncode}: see {self.log.name}")
            try:
                self.get("/api/state")
                return time.monotonic() - t0
            except OSError:
                time.sleep(0.02)
        raise TimeoutError("the page did not answer")

    def kill(self) -> None:
        assert self.proc is not None
        os.killpg(self.proc.pid, signal.SIGKILL)
        self.proc.wait()

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()
        self.log.close()

    def request(self, method: str, path: str, body: Any = None, pin: bool = True,
                timeout: float = 5.0) -> tuple[int, Any]:
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(f"http://127.0.0.1:{self.port}{path}", data=data, method=method)
        req.add_header("Content-Type", "application/json")
        if pin:
            req.add_header("X-Table-PIN", PIN)
        try:
            with urllib.request.urlopen(req, timeout=timeout) as r:
                return r.status, json.loads(r.read() or b"null")
        except urllib.error.HTTPError as e:
            return e.code, json.loads(e.read() or b"null")

    def page(self, path: str) -> int:
        """The status of an HTML page (its body is not JSON)."""
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{self.port}{path}", timeout=5) as r:
                r.read()
                return r.status
        except urllib.error.HTTPError as e:
            return e.code

    def get(self, path: str) -> Any:
        code, body = self.request("GET", path, pin=False, timeout=2)
        if code != 200:
            raise OSError(f"GET {path}: {code}")
        return body

    def post(self, path: str, body: Any) -> tuple[int, Any]:
        return self.request("POST", path, body)
