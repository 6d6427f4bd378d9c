"""The composition root: camera → watcher → table → (store, OLED, page); buttons and page → table.

One process: the camera has one owner thread, the page is served by waitress threads, and the
main thread waits for a signal and feeds systemd's watchdog. Whatever hardware is missing, the
companion still starts: no camera means manual entry, no OLED or buttons means the page only.
"""
from __future__ import annotations

import logging
import os
import secrets
import signal
import threading
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from typing import Any

from companion.game.pairing import Pairing
from companion.game.store import Store, default_data_dir
from companion.game.table import Table

from . import sdnotify
from .config import Config
from .learning import CLOSE_WAIT
from .recognition import CameraFault, CameraService, Source, Watcher, one_line

log = logging.getLogger(__name__)

STORE_NAME = "table.db"
Rect = tuple[float, float, float, float]  # a zone without the mat: left, top, right, bottom in the picture
PROFILE_NAME = "deck-profile.npz"


@dataclass
class RunOptions:
    host: str | None = None
    port: int | None = None
    pin: str | None = None
    data: str | None = None
    config: str | None = None     # the settings file the box was started with (a taught profile goes there)


@dataclass
class CameraParts:
    """How to open the camera and make a watcher for it (``open_source`` None: no camera);
    ``zones``: the rectangles that stand for a table without the printed mat."""

    open_source: Callable[[], Source] | None
    make_watcher: Callable[[], Watcher]
    zones: dict[str, Rect] | None = None


def random_pin() -> str:
    """Six random digits: a million PINs against the page's limits on wrong guesses."""
    return f"{secrets.randbelow(1_000_000):06d}"


def open_store(data_dir: str | None) -> Store:
    folder = data_dir or default_data_dir()
    os.makedirs(folder, exist_ok=True)
    return Store(os.path.join(folder, STORE_NAME))


class Companion:
    """Everything of one box, built from the config; ``serve()`` runs it until a signal."""

    def __init__(self, config: Config, options: RunOptions, camera: CameraParts | None = None,
                 pin_factory: Any = None, use_buttons: bool = True):
        self.config = config
        self.host = options.host or config.web.host
        self.port = options.port or config.web.port
        self.pin = options.pin or config.box.pin or random_pin()
        self.pairing = Pairing()  # the QR code's one-time tokens: the box shows them, the page takes them
        self.store = open_store(options.data)
        self.table = Table(self.store)
        if not self.table.started:
            self.table.new_game(config.box.players, config.box.variant)
        self.display, self.buttons, self.box = self._box(pin_factory, use_buttons)
        from_settings = camera is None  # the camera reads with the profile the settings name
        camera = camera or camera_from_config(config)
        self.camera = CameraService(
            self.table, camera.open_source, camera.make_watcher, fps=config.camera.fps,
            confidence=config.camera.confidence, retry_seconds=config.camera.retry_seconds,
            on_refused=self.box.refuse if self.box is not None else None)
        self.teacher = self._teacher(options, camera.zones)
        self.learner = self._learner(options, camera.zones) if config.camera.learn else None
        self.fitter = self._fitter(camera.zones) if from_settings else None
        self.speech = self._speech()
        self.app = self._web()
        if config.box.speech:
            self.speech.turn(True)  # without espeak-ng it stays off and the page says why
        self.server: Any = None
        self._stop = threading.Event()

    def _box(self, pin_factory: Any, use_buttons: bool) -> tuple[Any, Any, Any]:
        """The OLED (emulated when the named one does not answer) and the buttons (on a Pi, or
        wherever gpiozero is given pins: ``pin_factory`` or ``GPIOZERO_PIN_FACTORY``)."""
        from hardware.box import Box
        from hardware.buttons import Buttons
        from hardware.display import HardwareError, get_display, on_raspberry_pi
        settings = asdict(self.config.display)
        try:
            display = get_display(settings)
        except HardwareError as e:
            log.warning("%s; showing the screen on the web page only", e)
            display = get_display({**settings, "driver": "dummy"})
        buttons = None
        if use_buttons and (pin_factory is not None or on_raspberry_pi() or os.environ.get("GPIOZERO_PIN_FACTORY")):
            try:
                buttons = Buttons(asdict(self.config.buttons), pin_factory=pin_factory)
            except HardwareError as e:
                log.warning("no buttons: %s; use the page instead", e)
        return display, buttons, Box(self.table, display, buttons, lang=self.config.box.language,
                                     pairing=self.pairing)

    @staticmethod
    def _own_files(options: RunOptions) -> tuple[str, str]:
        """The box's own deck profile, beside the store, and the settings file the box was started
        with (or the one it would read first), where the profile it makes is written."""
        from .config import CONFIG_NAME
        folder = options.data or default_data_dir()
        return os.path.join(folder, PROFILE_NAME), options.config or os.path.join(folder, CONFIG_NAME)

    def _teacher(self, options: RunOptions, zones: dict[str, Rect] | None) -> Any:
        """"Teach our deck": the profile goes beside the store, and into the settings."""
        from .teaching import Teacher
        own, settings = self._own_files(options)

        def session(kinds: tuple[str, ...]) -> Any:
            from vision.guided import GuidedSession
            from vision.watcher import make_watcher
            return GuidedSession(kinds, make_watcher(zones=zones))

        def use_profile(path: str) -> Callable[[], Watcher]:
            self.config.camera.profile = path
            return lambda: build_watcher(path, zones)

        teacher = Teacher(self.camera, session, own, settings, use_profile)
        teacher.listeners.append(self._teaching_changed)
        return teacher

    def _learner(self, options: RunOptions, zones: dict[str, Rect] | None) -> Any:
        """The deck learned from each game's cards, into the box's own profile and the settings."""
        from .learning import DeckLearner
        own, settings = self._own_files(options)

        def use_profile(path: str) -> None:
            self.config.camera.profile = path
            profile = load_profile(path)

            def update(watcher: Any) -> None:
                watcher.use_profile(profile)
            self.camera.refresh(lambda: build_watcher(path, zones), update)

        def read_with(profile: Any, grown: bool) -> None:
            def update(watcher: Any) -> None:
                watcher.use_profile(profile, grown)
            self.camera.refresh(None, update)

        learner = DeckLearner(self.table, self.camera, lambda: self.config.camera.profile or None, own, settings,
                              use_profile, read_with, busy=lambda: self.teacher.active)
        learner.attach()
        return learner

    def _fitter(self, zones: dict[str, Rect] | None) -> Any:
        """The profile the settings name, if it is still to be fitted (a lesson the box stopped
        during, or a profile of an older version): fitted in the background, then read with."""
        from vision.classifier import ModelMissing

        from .fitting import ProfileFitter
        path = self.config.camera.profile
        if not path:
            return None
        try:
            profile = load_profile(path)
            if profile.fitted:
                return None
        except (CameraFault, ModelMissing):
            return None  # the camera says what is wrong

        def use(fitted: Any) -> None:
            if self.config.camera.profile != path or self.camera.paused or self.teacher.active:
                return  # another profile was chosen meanwhile (a lesson): that one stands

            def update(watcher: Any) -> None:
                watcher.use_profile(fitted)
            self.camera.refresh(lambda: build_watcher(fitted, zones), update)
        return ProfileFitter(path, profile, use)

    def _teaching_changed(self) -> None:
        """The OLED follows the lesson, and its buttons serve it while it runs."""
        if self.box is None:
            return
        from hardware.screens import Teaching
        state = self.teacher.state()
        self.box.teach(Teaching.of(state), self.teacher.press if state["active"] else None)

    def _speech(self) -> Any:
        """Spoken announcements, off until the settings or the page turn them on."""
        from hardware.speech import Speech
        return Speech(self.table, self._game_lang, self.config.box.speech_voice)

    def _game_lang(self) -> str:
        """The current game's language (chosen on the page, else the box's): speech follows it."""
        return self.app.extensions["companion"].game_lang()

    def _web(self) -> Any:
        from web import create_app
        oled = None
        if self.display is not None and self.display.emulated:
            display = self.display
            oled = lambda: display.image  # noqa: E731 - a fresh image at each request
        return create_app(self.table, self.store, pin=self.pin, camera_status=lambda: self.camera.status,
                          camera_reason=lambda: self.camera.state.reason,
                          oled_image=oled, buttons=self.box.press if self.box is not None else None,
                          lang=self.config.box.language, hosts=tuple(self.config.web.hosts),
                          teacher=self.teacher, speech=self.speech, pairing=self.pairing)

    def start(self) -> None:
        """Bind the page and start the camera; the page answers as soon as this returns."""
        from web import make_server
        self.server = make_server(self.app, self.host, self.port)
        self.camera.start()
        if self.fitter is not None:
            self.fitter.start()
        self._show_status()
        threading.Thread(target=self.server.run, name="web", daemon=True).start()
        log.info("table page on http://%s:%d/ — a pairing PIN is set (the box's screen shows it)",
                 self.host, self.port)
        sdnotify.notify(f"READY=1\nSTATUS=page on port {self.port}, camera {self.camera.status}")

    def _show_status(self) -> None:
        """The status screen: where the page is, its PIN, and whether the camera works."""
        if self.box is not None:
            from hardware.status import BootStatus, local_address
            state = self.camera.state
            self.box.show_status(BootStatus(local_address(self.port), self.pin, state.status, state.problem))

    def serve(self) -> bool:
        """Run until SIGTERM or Ctrl-C, feeding the watchdog meanwhile. The watchdog follows this loop
        only: a camera in fault is the page's and the OLED's news, never a reason to restart. False
        when a thread that runs OpenCV had not stopped in the time given (``close``). The signals
        are taken first: the page answers before ``start`` is over, and a stop then is a stop too."""
        for sig in (signal.SIGTERM, signal.SIGINT):
            signal.signal(sig, lambda *_: self._stop.set())
        self.start()
        ping = sdnotify.watchdog_interval()
        camera = self.camera.state
        try:
            while not self._stop.wait(min(ping or 1.0, 1.0)):
                if ping:
                    sdnotify.notify("WATCHDOG=1")
                if self.camera.state != camera:  # lost, failed or back: say so on the box
                    camera = self.camera.state
                    self._show_status()
        finally:
            stopped = self.close()
        return stopped

    def close(self) -> bool:
        """Stop everything and save; False if a thread that runs OpenCV still runs: the process must
        then end without Python's shutdown (``exiting.exit_now``), which that thread would abort."""
        sdnotify.notify("STOPPING=1")
        self.speech.close()
        # the frame being read ends, a deck being fitted stops and is saved, and the game's deck stops
        # growing, all within the one wait: OpenCV aborts a process that exits while another thread
        # runs the network
        deadline = time.monotonic() + CLOSE_WAIT
        stopped = self.camera.stop()
        for worker in (self.fitter, self.teacher, self.learner):
            if worker is not None:
                stopped = worker.close(max(deadline - time.monotonic(), 0.0)) and stopped
        if not stopped:
            log.warning("a camera reading or a deck's fitting had not stopped after %.0f s; the box ends "
                        "without it (a fit is redone or dropped as at any stop)", CLOSE_WAIT)
        if self.server is not None:
            from web import close_app
            close_app(self.app)
            self.server.close()
        if self.buttons is not None:
            self.buttons.close()
        if self.box is not None:
            self.box.close()
        if self.display is not None:
            self.display.close()
        self.store.close()
        return stopped


def camera_source(config: Config) -> str:
    """The camera the settings name; ``auto`` is the Pi camera on a Pi and none elsewhere."""
    spec = config.camera.source
    if spec == "auto":
        from hardware.display import on_raspberry_pi
        spec = "picamera2" if on_raspberry_pi() else "none"
    return spec


def camera_from_config(config: Config) -> CameraParts:
    """The camera and the watcher the settings ask for (with no camera, the watcher is still built
    once, so a missing model or profile shows at once)."""
    spec = camera_source(config)
    profile = config.camera.profile or None
    zones = table_zones(config)
    return CameraParts(None if spec == "none" else lambda: open_camera(spec),
                       lambda: build_watcher(profile, zones), zones)


def open_camera(spec: str) -> Source:
    """The camera ``spec`` names; whatever stops it opening is a CameraFault of the camera."""
    from vision.camera import open_source
    try:
        return open_source(spec)
    except Exception as e:
        raise CameraFault("camera", one_line(e)) from None


def table_zones(config: Config) -> dict[str, Rect] | None:
    """The zones the settings draw on a table without the printed mat (None: the mat's own)."""
    cam = config.camera
    return {"play": _rect(cam.play_zone), "discard": _rect(cam.discard_zone)} if cam.play_zone else None


def _rect(values: list[float]) -> Rect:
    """A zone from the settings (checked there to hold four numbers) as the watcher takes it."""
    x0, y0, x1, y1 = values
    return x0, y0, x1, y1


def build_watcher(profile: str | Any | None, zones: dict[str, Rect] | None = None) -> Watcher:
    """The real watcher, with a deck profile (read already, or its file); a missing or unreadable
    model or profile is a CameraFault saying which. A profile still to be fitted is left out: the
    box fits it in the background (``ProfileFitter``) while the network reads alone."""
    from vision.classifier import ModelMissing
    from vision.watcher import make_watcher
    deck = load_profile(profile) if isinstance(profile, str) else profile
    try:
        return make_watcher(profile=deck if deck is not None and deck.fitted else None, zones=zones)
    except ModelMissing as e:
        raise CameraFault("model", one_line(e)) from None


def load_profile(profile: str) -> Any:
    """The deck profile (read once: the watcher gets this very one), or a CameraFault saying what to do."""
    from vision.classifier import Profile
    if not os.path.isfile(profile):
        raise CameraFault("profile", f"the deck profile {profile} is missing: make one with "
                                     "`companion teach`, or set [camera] profile = \"\"")
    try:
        return Profile.load(profile)
    except Exception as e:  # numpy raises many kinds for a file that is not a profile
        raise CameraFault("profile", one_line(e)) from None


def demo_camera(table_scene: Any, seed: int) -> CameraParts:
    """The simulated camera over the demo's mat, watched by the real vision pipeline."""
    from vision.simtable import SimulatedMat
    from vision.watcher import make_watcher
    mat = SimulatedMat(table_scene, seed)
    return CameraParts(mat.source, make_watcher)

