"""`companion doctor`: does this box work? One line per part (settings, model, deck profile, camera,
I2C, OLED, buttons, page), each OK or what to do. Looks without changing anything: the OLED is asked
whether it answers, not redrawn, so the running box's screen stays as it is."""
from __future__ import annotations

import errno
import os
import socket
import threading
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from companion.game.camera import Detailed

from .config import Config, ConfigError, load_config
from .recognition import CameraFault, one_line

SERVICE = "hanabi-companion"
STOP_FIRST = f"if the box is running it holds this: stop it first (sudo systemctl stop {SERVICE})"


@dataclass(frozen=True)
class Check:
    """One part of the box: ``ok``, and ``detail``: what was found, or what to do."""

    part: str
    ok: bool
    detail: str


def _i2c_probe(port: int, address: int) -> None:
    """Ask the device at ``address`` for a byte, as `i2cdetect` does; OSError when nothing answers."""
    import smbus2
    with smbus2.SMBus(port) as bus:
        bus.read_byte(address)


def _on_pi() -> bool:
    from hardware.display import on_raspberry_pi
    return on_raspberry_pi()


def _lan_address(port: int) -> str | None:
    from hardware.status import local_address
    return local_address(port)


@dataclass
class Machine:
    """What the doctor looks at; tests replace the parts a machine without a Pi does not have."""

    on_pi: Callable[[], bool] = _on_pi
    dev: str = "/dev"
    i2c_probe: Callable[[int, int], None] = _i2c_probe
    pin_factory: Any = None
    lan_address: Callable[[int], str | None] = _lan_address
    timeout: float = 10.0
    env: dict[str, str] = field(default_factory=lambda: dict(os.environ))

    def has_gpio(self) -> bool:
        return self.pin_factory is not None or bool(self.env.get("GPIOZERO_PIN_FACTORY")) or self.on_pi()


def examine(path: str | None, machine: Machine | None = None) -> list[Check]:
    """Every check, in the order a person would fix them."""
    machine = machine or Machine()
    try:
        config = load_config(path)
        settings = Check("settings", True, path if path and os.path.exists(path) else "no settings file: the defaults")
    except ConfigError as e:
        config = Config()
        settings = Check("settings", False, f"{e} (the checks below use the defaults)")
    return [settings, model(), profile(config), camera(config, machine), i2c(config, machine),
            oled(config, machine), buttons(config, machine), page(config, machine)]


def model() -> Check:
    from .wiring import build_watcher
    try:
        build_watcher(None)
    except CameraFault as e:
        return Check("model", False, str(e))
    except Exception as e:  # a damaged file: OpenCV cannot read it
        return Check("model", False, f"the card classifier cannot be loaded ({one_line(e)}): reinstall the package")
    return Check("model", True, "the card classifier loads")


def profile(config: Config) -> Check:
    from .wiring import load_profile
    path = config.camera.profile
    if not path:
        return Check("profile", True, "none: the general classifier reads the cards "
                                      "(`companion teach` learns your own deck)")
    from vision.classifier import ModelMissing
    try:
        deck = load_profile(path)
    except CameraFault as e:
        return Check("profile", False, str(e))
    try:
        fitted = deck.fitted
    except ModelMissing:
        return Check("profile", True, path)  # the model's own line says what to do
    if not fitted:
        return Check("profile", True, f"{path}: fitted to this version's card reader when the box starts "
                                      "(in the background, a minute or so; the cards are read without it meanwhile)")
    return Check("profile", True, path)


def camera(config: Config, machine: Machine) -> Check:
    from .wiring import open_camera
    spec = config.camera.source
    if spec == "auto":
        spec = "picamera2" if machine.on_pi() else "none"
    if spec == "none":
        if config.camera.source == "none":
            return Check("camera", True, "none configured: cards are entered on the page and the buttons")
        return Check("camera", False, "no camera: source = \"auto\" finds the Pi camera only on a Raspberry Pi; "
                                      "set [camera] source (opencv:0, folder:DIR) or \"none\"")
    got: list[Any] = []

    def grab() -> None:
        try:
            source = open_camera(spec)
            try:
                got.append(source.read())
                got.append(source.detail() if isinstance(source, Detailed) else None)
            finally:
                source.close()
        except Exception as e:
            got.append(e)

    worker = threading.Thread(target=grab, name="doctor-camera", daemon=True)
    worker.start()
    worker.join(machine.timeout)
    if not got:
        return Check("camera", False, f"{spec} gave no frame within {machine.timeout:g} s; check the cable; "
                                      f"{STOP_FIRST}")
    if isinstance(got[0], Exception):
        hint = f"; {STOP_FIRST}" if not spec.startswith("folder:") else ""
        return Check("camera", False, f"{one_line(got[0])}{hint}")
    return Check("camera", True,
                 f"{spec} gives {_size(got[0])}frames" + _cut_from(got[0], got[1] if len(got) > 1 else None))


def _cut_from(frame: Any, picture: Any) -> str:
    """What the cards are cut out of, when the source says: a larger picture, or the raw frame itself
    (a Pi camera without memory for its larger stream)."""
    if not hasattr(picture, "shape"):
        return ""
    if _size(picture) == _size(frame):
        return ", and cuts the cards out of them (no larger stream)"
    return f", and cuts the cards out of {_size(picture)}pictures of them"


def _size(picture: Any) -> str:
    """"W x H " of an image, or nothing when it has no shape."""
    shape: tuple[int, ...] = getattr(picture, "shape", ())
    return f"{shape[1]}x{shape[0]} " if len(shape) >= 2 else ""


def _emulated(config: Config) -> bool:
    return config.display.driver == "dummy"


def i2c(config: Config, machine: Machine) -> Check:
    if _emulated(config):
        return Check("i2c", True, "not needed: the OLED is emulated (driver = \"dummy\")")
    bus = os.path.join(machine.dev, f"i2c-{config.display.port}")
    if os.path.exists(bus):
        return Check("i2c", True, f"{bus} is there")
    return Check("i2c", False, f"{bus} is missing: turn I2C on (sudo raspi-config nonint do_i2c 0) and reboot")


def oled(config: Config, machine: Machine) -> Check:
    d = config.display
    if _emulated(config):
        return Check("oled", True, "emulated (driver = \"dummy\"): the page shows the screen")
    if not machine.on_pi():
        return Check("oled", False, "no OLED: this is not a Raspberry Pi; set [display] driver = \"dummy\" to "
                                    "show the screen on the page only")
    where = f"I2C bus {d.port} at 0x{d.address:02X}"
    try:
        machine.i2c_probe(d.port, d.address)
    except PermissionError:
        return Check("oled", False, f"no permission for {where}: add the user to the i2c group "
                                    "(sudo adduser $USER i2c) and log in again")
    except FileNotFoundError:
        return Check("oled", False, f"I2C bus {d.port} is off: see the i2c line")
    except OSError:
        return Check("oled", False, f"nothing answers on {where}: check the wiring (SDA to pin 3, SCL to pin 5) "
                                    f"and the address (`i2cdetect -y {d.port}` lists the devices)")
    return Check("oled", True, f"a device answers on {where}")


def buttons(config: Config, machine: Machine) -> Check:
    from hardware.buttons import Buttons
    from hardware.display import HardwareError
    pins = {name: getattr(config.buttons, name) for name in ("hint", "undo", "ok")}
    shown = ", ".join(f"{name} GPIO{pin}" for name, pin in pins.items())
    if not machine.has_gpio():
        return Check("buttons", False, "no GPIO pins here: the buttons work on a Raspberry Pi "
                                       "(GPIOZERO_PIN_FACTORY=mock tries them elsewhere)")
    try:
        Buttons(pins, pin_factory=machine.pin_factory, poll_interval=None).close()
    except HardwareError as e:
        return Check("buttons", False, f"{e}; {STOP_FIRST}")
    return Check("buttons", True, f"pins free: {shown}")


def page(config: Config, machine: Machine) -> Check:
    host, port = config.web.host, config.web.port
    lan = machine.lan_address(port)
    if lan is None and host not in ("127.0.0.1", "localhost", "::1"):
        return Check("page", False, "no network: connect the box to the Wi-Fi (sudo raspi-config, "
                                    "System Options) so phones can open the page")
    url = f"http://{lan or f'{host}:{port}'}/"
    try:
        with socket.create_server((host, port), family=socket.AF_INET6 if ":" in host else socket.AF_INET):
            pass
    except OSError as e:
        if e.errno == errno.EADDRINUSE and _box_answers(port, machine.timeout):
            return Check("page", True, f"the box answers: open {url} on a phone")
        if e.errno == errno.EADDRINUSE:
            return Check("page", False, f"port {port} is taken by another program: set another [web] port")
        return Check("page", False, f"cannot listen on {host}:{port} ({e.strerror or e}): set [web] host "
                                    "to an address of this box, like \"0.0.0.0\"")
    return Check("page", True, f"port {port} is free: the page will be at {url} when the box runs")


def _box_answers(port: int, timeout: float) -> bool:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/state", timeout=timeout) as r:
            return r.status == 200 and b'"camera"' in r.read()
    except (OSError, ValueError):
        return False


def report(checks: list[Check]) -> tuple[str, int]:
    """The lines to print and the exit code: 0 when every part is OK."""
    width = max(len(c.part) for c in checks)
    lines = [f"{'OK' if c.ok else 'FAIL':4}  {c.part:{width}}  {c.detail}" for c in checks]
    bad = sum(not c.ok for c in checks)
    lines.append("all OK: the box works" if not bad else f"{bad} to fix: see the FAIL lines")
    return "\n".join(lines) + "\n", 0 if not bad else 1
