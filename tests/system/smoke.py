"""Smoke check of an installed companion, the way a new box is tried: Python's standard library only,
so any python3 runs it, inside or outside the companion's venv (also in an emulated Pi root).

    python3 tests/system/smoke.py --companion VENV/bin/companion --frame FRAME.jpg --work DIR

FRAME is a whole camera frame with one card lying in a zone of the mat (like
``tests/vision/frames/glare-edge-merged-frame-play-y4.jpg``). The steps, each printed as one line
``smoke: STEP ok|FAIL (seconds) detail``:

- ``recognize``: ``companion recognize FRAME --json``; the line ends with that JSON (also written to
  ``DIR/recognize.json``) for the caller to compare with another install's;
- ``mat``: ``companion mat --out DIR/mat.pdf`` writes a PDF;
- ``replay``: ``companion replay`` folds a small table log to the expected state;
- ``run``: ``companion run`` with a folder camera, the emulated OLED and mock GPIO pins. It waits for
  ``GET /api/state``, gives a hint with the page's HINT button, puts FRAME into the camera's folder
  and waits for the card the camera reads there, plays the rest of the game through
  ``POST /api/actions`` until it is over, checks the page, its static files, a translated page and
  the OLED picture, then stops the box with SIGTERM and expects a clean exit 0.

Exit 0 when every step passed, 1 otherwise. All commands run in DIR, away from any checkout.
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

PIN = "2468"
REPLAY_LOG = {"variant": "base", "players": ["Ann", "Ben"],
              "actions": [{"type": "hint"}, {"type": "play", "card": "r1"}, {"type": "discard", "card": "b4"}]}
REPLAY_EXPECTED = {"score": 1, "hints": 8, "fuses_used": 0, "deck": 38, "discards": ["b4"], "over": False,
                   "outcome": "in_progress"}


class StepFailed(Exception):
    """A step found something wrong; the message says what."""


@dataclass
class Smoke:
    companion: str
    frame: str
    work: str
    timeout: float
    results: list[tuple[str, bool]] = field(default_factory=list)

    def step(self, name: str, fn: Callable[[], str]) -> None:
        started = time.monotonic()
        try:
            detail, ok = fn(), True
        except StepFailed as e:
            detail, ok = str(e), False
        except Exception as e:  # anything unexpected is this step's failure, and the next steps still run
            detail, ok = f"{type(e).__name__}: {e}", False
        print(f"smoke: {name} {'ok' if ok else 'FAIL'} ({time.monotonic() - started:.1f} s) {detail}", flush=True)
        self.results.append((name, ok))

    def command(self, *args: str, timeout: float = 300) -> subprocess.CompletedProcess:
        return subprocess.run([self.companion, *args], cwd=self.work, env=child_env(), capture_output=True,
                              text=True, timeout=timeout)

    # -- the steps ------------------------------------------------------------------------------
    def recognize(self) -> str:
        p = self.command("recognize", self.frame, "--json")
        if p.returncode != 0 or "Traceback" in p.stderr:
            raise StepFailed(f"exit {p.returncode}: {p.stderr.strip()[-500:]}")
        out = json.loads(p.stdout.splitlines()[0])
        with open(os.path.join(self.work, "recognize.json"), "w") as f:
            f.write(p.stdout.splitlines()[0] + "\n")
        if not out["mat"] or not laid_card(out):
            raise StepFailed(f"no card read in a zone of the mat: {p.stdout.strip()}")
        return p.stdout.splitlines()[0]

    def mat(self) -> str:
        out = os.path.join(self.work, "mat.pdf")
        p = self.command("mat", "--out", out)
        if p.returncode != 0:
            raise StepFailed(f"exit {p.returncode}: {p.stderr.strip()[-500:]}")
        with open(out, "rb") as f:
            head, size = f.read(5), os.path.getsize(out)
        if head != b"%PDF-" or size < 1000:
            raise StepFailed(f"{out} is not a PDF ({size} bytes starting {head!r})")
        return f"{size} bytes"

    def replay(self) -> str:
        log = os.path.join(self.work, "replay.json")
        with open(log, "w") as f:
            json.dump(REPLAY_LOG, f)
        p = self.command("replay", log, "--json")
        if p.returncode != 0:
            raise StepFailed(f"exit {p.returncode}: {p.stderr.strip()[-500:]}")
        state = json.loads(p.stdout)
        wrong = {k: state.get(k) for k, v in REPLAY_EXPECTED.items() if state.get(k) != v}
        if wrong or state["fireworks"].get("r") != 1:
            raise StepFailed(f"expected {REPLAY_EXPECTED} and fireworks r1; got {state}")
        return f"score {state['score']}/{state['max_score']}, deck {state['deck']}"

    def run(self) -> str:
        folder = os.path.join(self.work, "camera")
        data = os.path.join(self.work, "data")
        shutil.rmtree(folder, ignore_errors=True)
        shutil.rmtree(data, ignore_errors=True)
        os.makedirs(folder)  # empty: the camera has nothing to show until the card is laid
        port = free_port()
        config = os.path.join(self.work, "config.toml")
        with open(config, "w") as f:
            f.write(run_config(folder, port))
        log_path = os.path.join(self.work, "run.log")
        with open(log_path, "w") as log:
            box = subprocess.Popen([self.companion, "run", "--config", config, "--data", data], cwd=self.work,
                                   env=child_env(GPIOZERO_PIN_FACTORY="mock"), stdout=log,
                                   stderr=subprocess.STDOUT)
        api = Api(f"http://127.0.0.1:{port}")
        try:
            detail = self._play(box, api, folder)
        except StepFailed as e:
            raise StepFailed(f"{e}; box log: {tail(log_path)}") from None
        finally:
            code = stop(box)
        if code != 0 or "Traceback" in read_text(log_path):
            raise StepFailed(f"SIGTERM: exit {code}; box log: {tail(log_path)}")
        return detail + ", SIGTERM: exit 0"

    def _play(self, box: subprocess.Popen, api: Api, folder: str) -> str:
        started = time.monotonic()
        state = wait_for(lambda: api.state() if box.poll() is None else exit_early(box), self.timeout,
                         "GET /api/state to answer")
        up = time.monotonic() - started
        if state["actions"] != 0 or state["over"]:
            raise StepFailed(f"a fresh box should start an empty game; got {state}")
        status, state, how = api.press_hint()
        if status != 200 or state["hints"] != state["hint_tokens"] - 1:
            raise StepFailed(f"the HINT button: {status} {state}")
        zone, card = laid_card(json.loads(read_text(os.path.join(self.work, "recognize.json"))))
        # written under another name first: the camera must never read half a file
        shutil.copyfile(self.frame, os.path.join(folder, "frame.part"))
        os.replace(os.path.join(folder, "frame.part"), os.path.join(folder, "frame" + os.path.splitext(self.frame)[1]))
        laid = time.monotonic()
        state = wait_for(lambda: card_taken(api.state()), self.timeout,
                         f"the camera to read {card} in the {zone} zone")
        if state["pending"] is not None:  # unsure: the players confirm it on the page
            state = api.act({"type": "confirm"})
        read = time.monotonic() - laid
        seen = {k: v for k, v in state["log"][1].items() if k in ("type", "card")}
        if seen != {"type": zone, "card": card} or state["camera"] != "ok":
            raise StepFailed(f"the camera should lay {card} in {zone}; the table has {seen}, camera {state['camera']}")
        state, posted = finish_game(api, state)
        if not state["over"]:
            raise StepFailed(f"the game is not over after {posted} actions: {state}")
        pages = check_pages(api)
        return (f"page up in {up:.1f} s, camera read {zone} {card} in {read:.1f} s, {posted} actions posted, "
                f"{state['outcome']} {state['score']}/{state['max_score']} ({state['reason']}), {pages}, {how}")


@dataclass
class Api:
    """The box's HTTP contract, as a phone uses it."""

    base: str

    def request(self, method: str, path: str, body: Any = None) -> tuple[int, bytes, str]:
        headers = {"X-Table-PIN": PIN}
        data = None
        if body is not None:
            data, headers["Content-Type"] = json.dumps(body).encode(), "application/json"
        req = urllib.request.Request(self.base + path, data=data, headers=headers, method=method)
        try:
            with urllib.request.urlopen(req, timeout=30) as r:
                return r.status, r.read(), r.headers.get("Content-Type", "")
        except urllib.error.HTTPError as e:
            return e.code, e.read(), e.headers.get("Content-Type", "")

    def state(self) -> dict[str, Any]:
        status, body, _ = self.request("GET", "/api/state")
        if status != 200:
            raise StepFailed(f"GET /api/state: {status} {body[:200]!r}")
        return json.loads(body)

    def post(self, action: dict[str, Any]) -> tuple[int, Any]:
        """The status and, when the action was taken, the new state (else the refusal)."""
        status, body, _ = self.request("POST", "/api/actions", action)
        answer = json.loads(body)
        return status, answer["state"] if status == 200 else answer

    def act(self, action: dict[str, Any]) -> dict[str, Any]:
        status, body = self.post(action)
        if status != 200:
            raise StepFailed(f"POST /api/actions {action}: {status} {body}")
        return body

    def press_hint(self) -> tuple[int, dict[str, Any], str]:
        """HINT from the page's buttons; a box without buttons takes the clue as an action."""
        status, body, _ = self.request("POST", "/api/buttons/hint")
        if status == 404:
            status, state = self.post({"type": "hint"})
            return status, state, "no buttons on the page (hint posted as an action)"
        return status, json.loads(body), "HINT pressed on the page"


def finish_game(api: Api, state: dict[str, Any]) -> tuple[dict[str, Any], int]:
    """Build every firework in order; if a card needed is gone, burn the fuses with misplays."""
    posted = 0
    suits = list(state["fireworks"])
    for suit in suits:
        while not state["over"] and state["fireworks"][suit] < 5:
            status, body = api.post({"type": "play", "card": f"{suit}{state['fireworks'][suit] + 1}"})
            posted += 1
            if status == 409:
                break  # no copy of the next card is left: this firework stays short
            if status != 200:
                raise StepFailed(f"play: {status} {body}")
            state = body
    misplays = [f"{s}{v}" for s in suits for v in range(1, 6)]
    while not state["over"] and misplays:
        card = misplays.pop(0)
        if int(card[1]) > state["fireworks"][card[0]]:
            continue  # only cards already on their firework are sure misplays
        status, body = api.post({"type": "play", "card": card})
        posted += 1
        if status == 200:
            state = body
            misplays.insert(0, card)  # another copy may be left
    return state, posted


def check_pages(api: Api) -> str:
    """The page, its static files, a translated page and the OLED picture come from the package."""
    checks = {"/": "text/html", "/static/style.css": "text/css", "/static/table.js": "javascript",
              "/history?lang=pl": "text/html", "/oled.png": "image/png"}
    for path, kind in checks.items():
        status, body, ctype = api.request("GET", path)
        if status != 200 or kind not in ctype:
            raise StepFailed(f"GET {path}: {status} {ctype}")
        if path.endswith("lang=pl") and b"Historia" not in body:
            raise StepFailed("GET /history?lang=pl is not in Polish: the translations are missing")
    return "page, static files, Polish page and OLED picture served"


def card_taken(state: dict[str, Any]) -> dict[str, Any] | None:
    """The state once the table has taken a card after the hint, or waits for it to be confirmed."""
    return state if state["actions"] > 1 or state["pending"] else None


def laid_card(recognized: dict[str, Any]) -> tuple[str, str] | None:
    """The zone and card of the first card read in a zone of the mat."""
    for c in recognized.get("cards", []):
        if c.get("zone") in ("play", "discard") and c.get("card"):
            return c["zone"], c["card"]
    return None


def run_config(folder: str, port: int) -> str:
    return (f'[box]\npin = "{PIN}"\nplayers = 2\nvariant = "base"\n\n'
            f'[web]\nhost = "127.0.0.1"\nport = {port}\n\n'
            f'[camera]\nsource = "folder:{folder}"\nretry_seconds = 0.5\n\n'
            '[display]\ndriver = "dummy"\n')


def child_env(**extra: str) -> dict[str, str]:
    """This environment without anything that could import another copy of the program."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME", "PYTHONSTARTUP")}
    env.update(extra)
    return env


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for(probe: Callable[[], Any], seconds: float, what: str) -> Any:
    deadline = time.monotonic() + seconds
    last = "no answer"
    while time.monotonic() < deadline:
        try:
            got = probe()
        except (OSError, ValueError) as e:  # not listening yet, or an answer cut short
            got, last = None, str(e)
        if got:
            return got
        time.sleep(0.2)
    raise StepFailed(f"waited {seconds:.0f} s for {what} ({last})")


def exit_early(box: subprocess.Popen) -> None:
    raise StepFailed(f"companion run exited with {box.returncode} before serving the page")


def stop(box: subprocess.Popen) -> int | None:
    if box.poll() is None:
        box.send_signal(signal.SIGTERM)
        try:
            return box.wait(timeout=30)
        except subprocess.TimeoutExpired:
            box.kill()
            box.wait()
            return None
    return box.returncode


def read_text(path: str) -> str:
    with open(path, encoding="utf-8", errors="replace") as f:
        return f.read()


def tail(path: str, lines: int = 8) -> str:
    return " | ".join(read_text(path).splitlines()[-lines:])


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description="smoke check of an installed companion")
    p.add_argument("--companion", required=True, help="the installed companion command")
    p.add_argument("--frame", required=True, help="a whole camera frame with one card in a zone of the mat")
    p.add_argument("--work", required=True, help="an empty folder to work in (outside any checkout)")
    p.add_argument("--timeout", type=float, default=180.0,
                   help="seconds to wait for the page and for the camera (more under emulation)")
    args = p.parse_args(argv)
    os.makedirs(args.work, exist_ok=True)
    companion = shutil.which(args.companion)
    if companion is None:
        p.error(f"--companion {args.companion} is not an executable command")
    smoke = Smoke(os.path.abspath(companion), os.path.abspath(args.frame), os.path.abspath(args.work), args.timeout)
    started = time.monotonic()
    smoke.step("recognize", smoke.recognize)
    smoke.step("mat", smoke.mat)
    smoke.step("replay", smoke.replay)
    if smoke.results[0][1]:
        smoke.step("run", smoke.run)
    else:
        print("smoke: run FAIL (0.0 s) needs the card that recognize reads in FRAME", flush=True)
        smoke.results.append(("run", False))
    failed = [name for name, ok in smoke.results if not ok]
    took = time.monotonic() - started
    outcome = f"all {len(smoke.results)} steps passed" if not failed else "FAILED: " + ", ".join(failed)
    print(f"smoke: {outcome}"
          f" in {took:.0f} s", flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
