"""The OLED: a real SSD1306 or SH1106 over I2C on the Pi, luma's emulated ``dummy`` elsewhere.

Either way the last image shown is kept, so the web page can show exactly what the box shows.
"""
from __future__ import annotations

import io
import logging
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from luma.core.device import dummy
from luma.core.error import DeviceNotFoundError, DevicePermissionError
from luma.core.interface.serial import i2c
from luma.oled.device import sh1106, ssd1306
from PIL import Image

from .canvas import HEIGHT, WIDTH

log = logging.getLogger(__name__)


class HardwareError(RuntimeError):
    """The box's hardware cannot be used as configured; the message says what to check."""


@dataclass(frozen=True)
class DisplayConfig:
    """``driver``: auto (the real OLED on a Pi when it answers, else emulated), ssd1306, sh1106 or
    dummy. ``port``/``address``: the I2C bus and address (0x3C on most modules, some 0x3D).
    ``rotate``: 0, or 2 to turn the picture upside down for a module mounted that way. The allowed
    values are checked once, by the settings schema (``companion.app.config``), when the file is read."""

    driver: str = "auto"
    port: int = 1
    address: int = 0x3C
    rotate: int = 0


class Display:
    """One OLED (or its emulation) and the image on it now. Thread-safe."""

    def __init__(self, device: Any, driver: str):
        self.device = device
        self.driver = driver        # what it really is: ssd1306, sh1106 or dummy
        self.frames = 0             # images sent to the device since start
        self._image = Image.new("1", (WIDTH, HEIGHT), 0)
        self._lock = threading.Lock()

    @property
    def emulated(self) -> bool:
        return self.driver == "dummy"

    def show(self, image: Image.Image) -> None:
        if image.size != (WIDTH, HEIGHT) or image.mode != "1":
            raise ValueError(f"the OLED takes 1-bit {WIDTH}x{HEIGHT} images; got {image.mode} {image.size}")
        with self._lock:
            self.device.display(image)
            self._image = image.copy()
            self.frames += 1

    @property
    def image(self) -> Image.Image:
        """A copy of the image shown now, upright whatever the rotation."""
        with self._lock:
            return self._image.copy()

    def png(self, scale: int = 1) -> bytes:
        """The image shown now as PNG, ``scale`` screen pixels per OLED pixel, for the web page."""
        im = self.image
        if scale != 1:
            im = im.resize((WIDTH * scale, HEIGHT * scale), Image.Resampling.NEAREST)
        out = io.BytesIO()
        im.save(out, "PNG")
        return out.getvalue()

    def close(self) -> None:
        """Blank the screen and release the bus."""
        with self._lock:
            self.device.cleanup()


def on_raspberry_pi() -> bool:
    try:
        return "raspberry pi" in Path("/proc/device-tree/model").read_text(errors="ignore").lower()
    except OSError:
        return False


def get_display(config: DisplayConfig | Mapping[str, Any] | None = None,
                serial: Callable[[int, int], Any] | None = None) -> Display:
    """The display the config asks for. ``auto`` falls back to the emulation (with a warning) when
    no OLED answers, so a box without one still serves the web page; a named driver that cannot be
    reached is an error. ``serial(port, address)`` builds the I2C interface (tests pass a fake)."""
    if config is None:
        config = DisplayConfig()
    elif not isinstance(config, DisplayConfig):
        config = DisplayConfig(**config)
    if config.driver == "dummy" or (config.driver == "auto" and not on_raspberry_pi() and serial is None):
        return _dummy(config)
    driver = "ssd1306" if config.driver == "auto" else config.driver
    try:
        return Display(_oled(driver, config, serial or _i2c), driver)
    except HardwareError as e:
        if config.driver != "auto":
            raise
        log.warning("%s; showing the screen on the web page only", e)
        return _dummy(config)


def _dummy(config: DisplayConfig) -> Display:
    return Display(dummy(width=WIDTH, height=HEIGHT, rotate=config.rotate, mode="1"), "dummy")


def _i2c(port: int, address: int) -> Any:
    return i2c(port=port, address=address)


def _oled(driver: str, config: DisplayConfig, serial: Callable[[int, int], Any]) -> Any:
    where = f"I2C bus {config.port} at 0x{config.address:02X}"
    try:
        interface = serial(config.port, config.address)
        device_class = ssd1306 if driver == "ssd1306" else sh1106
        return device_class(interface, width=WIDTH, height=HEIGHT, rotate=config.rotate)
    except DevicePermissionError as e:
        raise HardwareError(f"no permission for the OLED on {where}: add the user to the i2c group "
                            f"({e})") from None
    except (DeviceNotFoundError, OSError) as e:
        raise HardwareError(f"no {driver} OLED answers on {where}: is I2C enabled (raspi-config) and "
                            f"the module wired to SDA/SCL? ({e})") from None
