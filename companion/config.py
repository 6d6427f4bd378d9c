"""The box's configuration: a TOML file with documented defaults, checked when it is read."""
from __future__ import annotations

import os
import tomllib
from dataclasses import asdict, dataclass, field, fields
from typing import Any

LANGUAGES = ("en", "pl", "de", "cs")
CONFIG_NAME = "config.toml"


class ConfigError(ValueError):
    """The config file cannot be used; the message names the file, the key and what to write."""


@dataclass
class BoxConfig:
    language: str = "en"          # the OLED's and the page's default language: en, pl, de, cs
    pin: str = ""                 # pairing PIN for the page; empty: a new random PIN every boot
    variant: str = "base"         # variant of the first game when the store is empty
    players: int = 3              # players of the first game when the store is empty


@dataclass
class WebConfig:
    host: str = "0.0.0.0"         # where the page listens (0.0.0.0: every network of the box)
    port: int = 8000


@dataclass
class CameraConfig:
    source: str = "auto"          # auto, picamera2, opencv:INDEX_OR_FILE, folder:DIR, none
    profile: str = ""             # a deck profile made by `companion teach` (optional)
    fps: float = 10.0
    confidence: float = 0.8       # below this a recognised card waits for OK / a correction
    retry_seconds: float = 5.0    # how often a missing or failed camera is tried again
    # without the printed mat: each zone as [left, top, right, bottom] in camera pixels
    play_zone: list = field(default_factory=list)
    discard_zone: list = field(default_factory=list)


@dataclass
class DisplayConfig:
    driver: str = "auto"          # auto, ssd1306, sh1106, dummy
    port: int = 1                 # I2C bus
    address: int = 0x3C           # I2C address (some modules answer on 0x3D)
    rotate: int = 0               # 0, or 2 to turn the picture upside down


@dataclass
class ButtonsConfig:
    hint: int = 17                # BCM pin numbers; each button connects its pin to ground
    undo: int = 27
    ok: int = 22


@dataclass
class Config:
    box: BoxConfig = field(default_factory=BoxConfig)
    web: WebConfig = field(default_factory=WebConfig)
    camera: CameraConfig = field(default_factory=CameraConfig)
    display: DisplayConfig = field(default_factory=DisplayConfig)
    buttons: ButtonsConfig = field(default_factory=ButtonsConfig)

    def as_dict(self) -> dict[str, dict[str, Any]]:
        return asdict(self)

    def to_toml(self) -> str:
        """The effective settings as a TOML file a user can copy and edit."""
        lines = ["# Hanabi table companion settings; every key is optional."]
        for section, values in self.as_dict().items():
            lines.append(f"\n[{section}]")
            for key, value in values.items():
                if isinstance(value, bool):
                    text = "true" if value else "false"
                elif isinstance(value, str):
                    text = '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
                elif section == "display" and key == "address":
                    text = f"0x{value:02X}"
                else:
                    text = str(value)
                lines.append(f"{key} = {text}")
        return "\n".join(lines) + "\n"


def _section(cls: type, name: str, values: Any, path: str) -> Any:
    if not isinstance(values, dict):
        raise ConfigError(f"{path}: [{name}] must be a table of settings")
    known = {f.name: f for f in fields(cls)}
    default = cls()
    out = {}
    for key, value in values.items():
        if key not in known:
            raise ConfigError(f"{path}: unknown setting '{key}' in [{name}]; known: {', '.join(known)}")
        want = type(getattr(default, key))
        if want is float and type(value) is int:
            value = float(value)
        if type(value) is not want:
            raise ConfigError(f"{path}: [{name}] {key} must be a {want.__name__}, like "
                              f"{key} = {getattr(default, key)!r}; got {value!r}")
        out[key] = value
    return cls(**out)


def parse_config(data: dict[str, Any], path: str = "config") -> Config:
    sections = {f.name: f.default_factory for f in fields(Config)}  # type: ignore[misc]
    unknown = set(data) - set(sections)
    if unknown:
        raise ConfigError(f"{path}: unknown section [{sorted(unknown)[0]}]; known: {', '.join(sections)}")
    cfg = Config(**{name: _section(type(factory()), name, data.get(name, {}), path)
                    for name, factory in sections.items()})
    _check(cfg, path)
    return cfg


def _check(cfg: Config, path: str) -> None:
    if cfg.box.language not in LANGUAGES:
        raise ConfigError(f"{path}: [box] language must be one of {', '.join(LANGUAGES)}")
    if not 1 <= cfg.web.port <= 65535:
        raise ConfigError(f"{path}: [web] port must be 1-65535")
    if not 0 < cfg.camera.confidence <= 1:
        raise ConfigError(f"{path}: [camera] confidence must be between 0 and 1")
    if cfg.camera.fps <= 0 or cfg.camera.retry_seconds <= 0:
        raise ConfigError(f"{path}: [camera] fps and retry_seconds must be positive")
    _check_zones(cfg.camera, path)
    if cfg.display.rotate not in (0, 2):
        raise ConfigError(f"{path}: [display] rotate must be 0 or 2 (upside down); the screens are landscape")
    if not 2 <= cfg.box.players <= 5:
        raise ConfigError(f"{path}: [box] players must be 2-5")
    if cfg.box.pin and not (cfg.box.pin.isdigit() and 4 <= len(cfg.box.pin) <= 8):
        raise ConfigError(f"{path}: [box] pin must be 4-8 digits, or empty for a random PIN per boot")


def _check_zones(camera: CameraConfig, path: str) -> None:
    zones = {"play_zone": camera.play_zone, "discard_zone": camera.discard_zone}
    if bool(camera.play_zone) != bool(camera.discard_zone):
        raise ConfigError(f"{path}: [camera] set both play_zone and discard_zone (a table without the "
                          "printed mat), or neither (the printed mat)")
    for key, rect in zones.items():
        if rect and not (len(rect) == 4 and all(type(v) in (int, float) for v in rect)
                         and 0 <= rect[0] < rect[2] and 0 <= rect[1] < rect[3]):
            raise ConfigError(f"{path}: [camera] {key} must be [left, top, right, bottom] in pixels of the "
                              f"camera picture, like {key} = [100, 80, 560, 640]; got {rect!r}")


def load_config(path: str | None) -> Config:
    """Read ``path`` (a missing file means the defaults)."""
    if path is None or not os.path.exists(path):
        return Config()
    try:
        with open(path, "rb") as f:
            data = tomllib.load(f)
    except tomllib.TOMLDecodeError as e:
        raise ConfigError(f"{path}: not valid TOML: {e}") from None
    except OSError as e:
        raise ConfigError(f"{path}: cannot read: {e.strerror}") from None
    return parse_config(data, path)
