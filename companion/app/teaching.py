"""The box's "Teach our deck": one guided session at a time over the box's camera, its profile
fitted in the background, saved, put into the settings and used at once.

While a deck is taught the camera judges nothing (its frames go to the session); afterwards it
judges again with the new profile. The page, the OLED's buttons and the tests all drive the same
``Teacher``; every refusal is a ``TeachError`` with a code.
"""
from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from companion.game.variants import VariantError, parse_variant

from .config import ConfigError
from .recognition import CameraService, one_line
from .settingsfile import set_key

log = logging.getLogger(__name__)

# codes of the Teacher's own refusals (the session's are in vision.guided)
BUSY = "busy"                  # a deck is being taught or fitted already
NO_CAMERA = "no_camera"        # the box has no camera configured
CAMERA_FAULT = "camera_fault"  # the camera does not give pictures now
MODEL_MISSING = "model_missing"
BAD_VARIANT = "bad_variant"
# why fitting or saving failed
FIT_FAILED = "fit_failed"
SAVE_FAILED = "save_failed"
SETTINGS_FAILED = "settings_failed"


@dataclass
class Outcome:
    """The end of the last session: saved, failed (``error`` a code) or cancelled."""

    status: str
    profile: str | None = None
    settings: str | None = None
    error: str | None = None
    message: str | None = None


@dataclass
class Teacher:
    """``make_session(kinds)`` builds a guided session (it needs the card model);
    ``use_profile(path)`` makes the camera judge with a new profile."""

    camera: CameraService
    make_session: Callable[[tuple[str, ...]], Any]
    profile_path: str
    settings_path: str | None
    use_profile: Callable[[str], Callable[[], Any]]
    fit: Callable[..., Any] | None = None
    session: Any = None
    variant: Any = None
    progress: tuple[int, int] | None = None
    outcome: Outcome | None = None
    listeners: list[Callable[[], None]] = field(default_factory=list)
    _lock: threading.RLock = field(default_factory=threading.RLock)
    _thread: threading.Thread | None = None
    _closing: threading.Event = field(default_factory=threading.Event)

    # -- commands -----------------------------------------------------------------------------------
    def start(self, variant: Any) -> dict[str, Any]:
        from vision.classifier import ModelMissing
        from vision.guided import TeachError, card_kinds
        try:
            parsed = parse_variant(variant)
        except VariantError as e:
            raise TeachError(BAD_VARIANT, str(e)) from None
        with self._lock:
            if self.active:
                raise TeachError(BUSY, "a deck is being taught already: finish or cancel it first")
            if not self.camera.configured:
                raise TeachError(NO_CAMERA, "this box has no camera: set [camera] source in the settings")
            if self.camera.status == "fault":  # still opening is fine: the lesson waits for pictures
                reason = self.camera.state.reason or "it gives no pictures"
                raise TeachError(CAMERA_FAULT, f"the camera does not work now ({reason}); try again when it does")
            try:
                session = self.make_session(card_kinds(parsed))
            except ModelMissing as e:
                raise TeachError(MODEL_MISSING, str(e)) from None
            session.listeners.append(self._changed)
            self.session, self.variant, self.progress, self.outcome = session, variant, None, None
            self.camera.pause(self._feed)
        self._changed()
        return self.state()

    def confirm(self) -> dict[str, Any]:
        self._teaching().confirm()
        return self.state()

    def retake(self, kind: str | None = None) -> dict[str, Any]:
        self._teaching().retake(kind)
        return self.state()

    # The session tells its listeners (this teacher among them) from inside its own calls, so those
    # calls are made without holding this teacher's lock: its lock is always taken first.
    def cancel(self) -> dict[str, Any]:
        session = self._teaching()
        session.cancel()
        with self._lock:
            self.session = None
            self.outcome = Outcome("cancelled")
            self.camera.resume()
        self._changed()
        return self.state()

    def finish(self) -> dict[str, Any]:
        """Take the crops and fit the profile in the background (``state()['progress']``)."""
        crops = self._teaching().finish()
        with self._lock:
            self.progress = (0, len(crops))
            self._thread = threading.Thread(target=self._fit, args=(crops,), name="teach-fit", daemon=True)
            self._thread.start()
        self._changed()
        return self.state()

    def press(self, button: str) -> tuple[bool, str]:
        """A button of the box while teaching: OK keeps the picture, UNDO takes it again."""
        from vision.guided import TeachError
        try:
            if button == "ok":
                lesson = self._teaching().lesson
                if lesson.waiting is None and lesson.complete:
                    self.finish()
                    return True, "learning the deck"
                return True, f"kept {self._teaching().confirm()}"
            if button == "undo":
                return True, f"take {self._teaching().retake()} again"
        except TeachError as e:
            return False, str(e)
        return False, "while a deck is taught, OK keeps the picture and UNDO takes it again"

    def wait(self, timeout: float | None = None) -> None:
        """Until the fitting ends (tests, the terminal)."""
        thread = self._thread
        if thread is not None:
            thread.join(timeout)

    def close(self, timeout: float) -> bool:
        """Before the box exits: a profile being fitted stops, its pictures saved before the fit began
        and fitted when the box next starts, so the lesson is not lost (fitting takes half a minute,
        more than a service is given to stop) and the network is not running when the process exits.
        False if the fit still runs."""
        self._closing.set()
        self.wait(timeout)
        return self._thread is None or not self._thread.is_alive()

    # -- reading ------------------------------------------------------------------------------------
    @property
    def active(self) -> bool:
        """A session is open, or its profile is being fitted: the camera judges nothing."""
        return self.session is not None

    def state(self) -> dict[str, Any]:
        with self._lock:
            s = self.session
            out = self.outcome
            base = {"active": self.active, "variant": self.variant, "kinds": [], "taken": [], "asked": None,
                    "captured": None, "doubt": None, "done": 0, "total": 0, "mat": False, "version": 0, "pictures": 0,
                    "progress": None, "profile": None, "settings": None, "error": None, "message": None}
            if out is not None:
                base.update(status=out.status, profile=out.profile, settings=out.settings, error=out.error,
                            message=out.message)
            else:
                base["status"] = "idle"
            if s is None:
                return base
            base.update(s.snapshot())
            if self.progress is not None:
                base.update(status="fitting", progress={"done": self.progress[0], "total": self.progress[1]})
            return base

    def crop_png(self, kind: str) -> bytes | None:
        from vision.guided import png
        s = self.session
        crop = s.crop(kind) if s is not None else None
        return png(crop) if crop is not None else None

    # -- inside -------------------------------------------------------------------------------------
    def _teaching(self) -> Any:
        from vision.guided import NOT_TEACHING, TeachError
        s = self.session
        if s is None or self.progress is not None:
            raise TeachError(NOT_TEACHING, "no deck is being taught now: start teaching first")
        return s

    def _feed(self, frame: Any, now: float, detail: Callable[[], Any] | None = None) -> None:
        """A camera frame (camera thread), and the camera's larger picture of it when it has one:
        whatever goes wrong here is logged, never a camera fault."""
        s = self.session
        if s is None or self.progress is not None:
            return
        try:
            s.feed(frame, now, detail)
        except Exception as e:  # a frame the finder cannot use must not stop the camera
            log.warning("teaching: a frame could not be used: %s", one_line(e))

    def _fit(self, crops: dict[str, Any]) -> None:
        from vision.classifier import Profile
        from vision.guided import fit_profile
        from vision.teach import Stopped
        fit = self.fit or fit_profile
        try:
            # the pictures first, named in the settings: a power cut, or a stop that outlasts the
            # service's wait, during the minute of fitting loses no lesson (the next start fits it)
            Profile(crops).save(self.profile_path)
        except OSError as e:
            outcome = self._not_saved(e)
        else:
            outcome = self._named()
            try:
                fit(crops, self.profile_path, self._progress, stop=self._closing.is_set)
            except Stopped:  # the pictures are saved: the next start fits them
                outcome.message = outcome.message or "to be fitted when the box starts"
            except OSError as e:
                outcome = self._not_saved(e)
            except Exception as e:  # the model missing or broken: the camera reads on as before
                outcome = Outcome("failed", error=FIT_FAILED, message=one_line(e))
        with self._lock:
            self.session, self.progress, self.outcome = None, None, outcome
            self.camera.resume(self.use_profile(self.profile_path) if outcome.profile else None)
        log.info("teaching: %s%s", outcome.status, f" ({outcome.message})" if outcome.message else "")
        self._changed()

    def _not_saved(self, error: OSError) -> Outcome:
        return Outcome("failed", error=SAVE_FAILED,
                       message=f"the profile could not be written to {self.profile_path}: {error.strerror or error}")

    def _named(self) -> Outcome:
        """The profile named in the settings (when the box has a settings file)."""
        if self.settings_path is None:
            return Outcome("saved", self.profile_path, None)
        try:
            set_key(self.settings_path, "camera", "profile", self.profile_path)
        except (ConfigError, OSError) as e:
            return Outcome("saved", self.profile_path, None, SETTINGS_FAILED,
                           f"the profile is saved in {self.profile_path}, but the settings could not "
                           f"be changed: {one_line(e)}")
        return Outcome("saved", self.profile_path, self.settings_path)

    def _progress(self, done: int, total: int) -> None:
        self.progress = (done, total)
        self._changed()

    def _changed(self) -> None:
        for listener in list(self.listeners):
            try:
                listener()
            except Exception as e:  # a screen that cannot draw must not stop the lesson
                log.warning("teaching: a listener failed: %s", one_line(e))
