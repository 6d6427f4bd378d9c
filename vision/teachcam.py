"""``companion teach --camera``: the guided lesson in a terminal. The box's camera (or ``--source``)
watches PLAY; each card asked for is taken when it lies still, Enter keeps it and ``r`` takes it
again; then the profile is fitted with a progress bar and saved."""
from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable
from typing import Any

from companion.game.camera import Detailed
from companion.game.cards import SUIT_NAMES
from companion.game.variants import VariantError, parse_variant

from .camera import CameraError, open_source
from .classifier import ModelMissing
from .commands import CameraSettings, LessonCamera, _bar, _fail, cannot_write
from .guided import GuidedSession, card_kinds, fit_profile

EXIT_FAILED, EXIT_NO_MAT = 1, 3


class Stop(Exception):
    """Ends the lesson with a message and an exit code."""

    def __init__(self, message: str, code: int = EXIT_FAILED):
        super().__init__(message)
        self.code = code


def _camera(args: argparse.Namespace, camera_settings: CameraSettings) -> tuple[str, LessonCamera]:
    """The camera to open (``--source``, else the settings') and the rest of its settings."""
    try:
        settings = camera_settings(args)
    except ValueError as e:
        raise Stop(str(e)) from None
    spec = args.source or settings.source
    if spec == "none":
        raise Stop("no camera: set [camera] source in the settings (see `companion config --print`), "
                   "or name one with --source, like --source opencv:0")
    return spec, settings


def cmd_teach_camera(args: argparse.Namespace, camera_settings: CameraSettings,
                     ask: Callable[[str], str] = input) -> int:
    """The lesson; ``camera_settings(args)`` reads the box's settings, ``ask(prompt)`` a line (Enter, r or q)."""
    from .watcher import make_watcher
    try:
        try:
            variant = json.loads(args.variant) if args.variant.startswith("{") else args.variant
            kinds = card_kinds(parse_variant(variant))
        except (VariantError, json.JSONDecodeError) as e:
            raise Stop(str(e)) from None
        spec, cam = _camera(args, camera_settings)
        try:
            session = GuidedSession(kinds, make_watcher(zones=cam.zones))
        except ModelMissing as e:
            raise Stop(str(e)) from None
        try:
            source = open_source(spec)
        except (CameraError, ValueError, OSError) as e:
            raise Stop(f"cannot open the camera {spec}: {e}") from None
        try:
            _lesson(session, source, 1.0 / cam.fps, args.wait, ask)
        finally:
            source.close()
        crops = session.finish()
        try:
            fit_profile(crops, args.profile, lambda done, total: _bar("learning", done, total))
        except ModelMissing as e:
            raise Stop(str(e)) from None
        except OSError as e:
            raise Stop(cannot_write(args.profile, str(e.strerror or e))) from None
        print(file=sys.stderr)
    except Stop as e:
        _fail("teach", str(e))
        return e.code
    print(f"taught {len(kinds)} card kinds with the camera → {args.profile}\n"
          f"to use it, set in the box's settings:  [camera] profile = \"{args.profile}\"")
    return 0


def _lesson(session: GuidedSession, source: Any, period: float, no_mat: float, ask: Callable[[str], str]) -> None:
    """Ask for every kind in turn until each is taken and kept; ``no_mat`` seconds without the mat in
    view end the lesson (the camera looks elsewhere)."""
    lesson = session.lesson
    detail = source.detail if isinstance(source, Detailed) else None
    shown = ""
    mat_seen = time.monotonic()
    while not lesson.complete:
        started = time.monotonic()
        try:
            frame = source.read()
        except CameraError as e:
            raise Stop(f"the camera stopped: {e}") from None
        taken = session.feed(frame, started, detail)
        if session.look.mat:
            mat_seen = started
        elif started - mat_seen > no_mat:
            raise Stop("no play mat in view: are all four corner markers of the mat in the picture?", EXIT_NO_MAT)
        line = _status(session)
        if line != shown:
            print(f"\r{line:<60}", end="", file=sys.stderr, flush=True)
            shown = line
        if taken is not None:
            print(file=sys.stderr)
            _keep_or_retake(session, taken, ask)
            shown = ""
        time.sleep(max(0.0, period - (time.monotonic() - started)))
    print(file=sys.stderr)


def _keep_or_retake(session: GuidedSession, kind: str, ask: Callable[[str], str]) -> None:
    while True:
        try:
            doubt = session.lesson.doubt
            asking = (f"got {_name(kind)}, but it looks like a {doubt} (a card skipped?): r takes it again, "
                      "Enter keeps it anyway, q stops: " if doubt else
                      f"got {_name(kind)}: Enter keeps it, r takes it again, q stops: ")
            answer = ask(asking).strip().lower()
        except EOFError:
            raise Stop("stopped before every card was taught: nothing saved") from None
        if answer == "":
            session.confirm()
            return
        if answer == "r":
            session.retake(kind)
            return
        if answer == "q":
            raise Stop("stopped before every card was taught: nothing saved")


def _status(session: GuidedSession) -> str:
    lesson = session.lesson
    done = len(lesson.crops)
    if not session.look.mat:
        return f"[{done}/{len(lesson.kinds)}] no play mat in view yet…"
    state = "card seen, hold still…" if session.look.card else "waiting…"
    return f"[{done}/{len(lesson.kinds)}] lay {_name(lesson.asked)} in PLAY: {state}"


def _name(kind: str | None) -> str:
    return f"the {SUIT_NAMES[kind[0]]} {kind[1]} ({kind})" if kind else ""
