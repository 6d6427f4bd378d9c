"""The box's settings: a TOML file with documented defaults, checked once, against one schema, when
it is read. Every refusal is one line naming the file, the key, the value and what is allowed, so
`companion run` and `companion config --check` can print it as it is."""
from __future__ import annotations

import ipaddress
import math
import os
import re
import tomllib
from collections.abc import Callable
from dataclasses import asdict, dataclass, field, fields
from typing import Any

from companion.game.reading import SURE
from companion.game.variants import PRESETS, VariantError, parse_variant
from companion.words import LANGUAGES

CONFIG_NAME = "config.toml"
DRIVERS = ("auto", "ssd1306", "sh1106", "dummy")
BUTTONS = ("hint", "undo", "ok")
# BCM GPIO numbers on the 40-pin header. 0 and 1 talk to a HAT's ID EEPROM, 2 and 3 are the I2C bus
# the OLED hangs on: a button on any of them would fight that hardware.
GPIO_PINS = range(0, 28)
RESERVED_PINS = {0: "the HAT ID EEPROM's", 1: "the HAT ID EEPROM's", 2: "the OLED's I2C", 3: "the OLED's I2C"}
I2C_ADDRESSES = range(0x03, 0x78)
_SHOWN = 60  # longest value quoted in a refusal


class ConfigError(ValueError):
    """The settings cannot be used; the one-line message names the file, the key and what to write.
    ``key`` is "section.key" (or the section, or None for the file itself)."""

    def __init__(self, message: str, key: str | None = None):
        super().__init__(" ".join(message.split()))
        self.key = key


@dataclass
class BoxConfig:
    language: str = "en"          # the OLED's and the page's default language: en, pl, de, cs
    pin: str = ""                 # pairing PIN for the page; empty: a new random PIN every boot
    variant: Any = "base"         # variant of the first game when the store is empty: a preset or a table
    players: int = 3              # players of the first game when the store is empty
    speech: bool = False          # say aloud what the box judged (needs espeak-ng and a speaker)
    speech_voice: str = ""        # an espeak-ng voice, like "en-us"; "": the game's language


@dataclass
class WebConfig:
    host: str = "0.0.0.0"         # where the page listens (0.0.0.0: every network of the box)
    port: int = 8000
    # names the page may be opened by besides the box's own addresses, localhost and <hostname>.local
    # (a name of your router's DNS, say); a page opened by any other name cannot change the game
    hosts: list = field(default_factory=list)


@dataclass
class CameraConfig:
    source: str = "auto"          # auto, picamera2, opencv:INDEX_OR_FILE, folder:DIR, none
    profile: str = ""             # a deck profile made by `companion teach` (optional)
    fps: float = 10.0
    confidence: float = SURE      # below this a recognised card waits for OK / a correction
    learn: bool = True            # after each game, learn the deck from the cards the camera read
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
                text = f"0x{value:02X}" if (section, key) == ("display", "address") else _toml(value)
                lines.append(f"{key} = {text}")
        return "\n".join(lines) + "\n"


def _toml(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k} = {_toml(v)}" for k, v in value.items()) + "}"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    return str(value)


# -- the schema: for every key, which TOML values it takes and what to tell the user otherwise --------

@dataclass(frozen=True)
class Rule:
    """``allowed`` says in words what the key takes; ``ok(value)`` is True when the value is one;
    ``detail(value)``, when given, says more precisely what is wrong with a refused value."""

    allowed: str
    ok: Callable[[Any], bool]
    detail: Callable[[Any], str | None] | None = None


def _whole(lo: int, hi: int) -> Callable[[Any], bool]:
    return lambda v: type(v) is int and lo <= v <= hi


def _number(lo: float, hi: float, lo_open: bool = True) -> Callable[[Any], bool]:
    def ok(v: Any) -> bool:
        if type(v) not in (int, float) or not math.isfinite(v):
            return False
        return (lo < v if lo_open else lo <= v) and v <= hi
    return ok


def _one_of(*choices: Any) -> Callable[[Any], bool]:
    return lambda v: any(type(v) is type(c) and v == c for c in choices)


def _pin_text(v: Any) -> bool:
    return type(v) is str and (v == "" or (v.isascii() and v.isdigit() and 4 <= len(v) <= 8))


_VOICE = re.compile(r"[A-Za-z0-9][A-Za-z0-9_+-]{0,39}")


def _voice_ok(v: Any) -> bool:
    return type(v) is str and (v == "" or _VOICE.fullmatch(v) is not None)


def _variant_problem(v: Any) -> str | None:
    """What the rules say about a variant table (None when it is fine or not a table)."""
    if not isinstance(v, dict):
        return None
    try:
        parse_variant(v)
    except VariantError as e:
        return str(e)
    return None


def _variant_ok(v: Any) -> bool:
    return (isinstance(v, str) and v in PRESETS) or (isinstance(v, dict) and _variant_problem(v) is None)


_HOST = re.compile(r"[A-Za-z0-9]([A-Za-z0-9.-]{0,251}[A-Za-z0-9])?")


def _host_ok(v: Any) -> bool:
    if type(v) is not str:
        return False
    try:
        ipaddress.ip_address(v)
    except ValueError:
        return _HOST.fullmatch(v) is not None
    return True


def _source_ok(v: Any) -> bool:
    if type(v) is not str:
        return False
    kind, colon, arg = v.partition(":")
    if not colon:
        return v in ("auto", "picamera2", "none")
    return kind in ("opencv", "folder") and arg.strip() == arg and arg != "" and "\n" not in arg


def _profile_ok(v: Any) -> bool:
    return type(v) is str and "\x00" not in v and (v == "" or v.strip() == v)


def _zone_ok(v: Any) -> bool:
    if type(v) is not list:
        return False
    if not v:
        return True
    return (len(v) == 4 and all(type(x) in (int, float) and math.isfinite(x) for x in v)
            and 0 <= v[0] < v[2] and 0 <= v[1] < v[3])


def _pin_ok(v: Any) -> bool:
    return type(v) is int and v in GPIO_PINS and v not in RESERVED_PINS


_BUTTON = Rule("a free BCM GPIO number 4-27 (GPIO 0 and 1 are the HAT ID EEPROM's, 2 and 3 the OLED's I2C bus)",
               _pin_ok)

SCHEMA: dict[str, dict[str, Rule]] = {
    "box": {
        "language": Rule(f"one of {', '.join(LANGUAGES)}", _one_of(*LANGUAGES)),
        "pin": Rule('4-8 digits in quotes, like "2468", or "" for a random PIN every boot', _pin_text),
        "variant": Rule(f"a preset ({', '.join(PRESETS)}) or a table like {{preset = \"base\", hint_tokens = 9}} "
                        "with the options of `companion variants`", _variant_ok, _variant_problem),
        "players": Rule("a whole number 2-5", _whole(2, 5)),
        "speech": Rule("true or false (spoken announcements need espeak-ng and a speaker)", _one_of(True, False)),
        "speech_voice": Rule('an espeak-ng voice in quotes, like "en-us" (`espeak-ng --voices` lists them), '
                             'or "" for the game\'s language', _voice_ok),
    },
    "web": {
        "host": Rule('an address of this box in quotes, like "0.0.0.0" (every network) or "127.0.0.1"', _host_ok),
        "port": Rule("a whole number 1-65535, like 8000", _whole(1, 65535)),
        "hosts": Rule('a list of host names in quotes, like ["hanabi.home.arpa"], or [] for the box\'s own names '
                      "only", lambda v: type(v) is list and all(_host_ok(h) for h in v)),
    },
    "camera": {
        "source": Rule('"auto", "picamera2", "none", "opencv:INDEX_OR_FILE" or "folder:DIR"', _source_ok),
        "profile": Rule('the path of a deck profile made by `companion teach`, or "" for none', _profile_ok),
        "fps": Rule("a number above 0, up to 60", _number(0, 60)),
        "confidence": Rule("a number above 0, up to 1", _number(0, 1)),
        "learn": Rule("true or false (learn the deck from the cards of each game)", _one_of(True, False)),
        "retry_seconds": Rule("a number of seconds above 0, up to 3600", _number(0, 3600)),
        "play_zone": Rule("[left, top, right, bottom] in pixels of the camera picture, like [100, 80, 560, 640], "
                          "or [] with the printed mat", _zone_ok),
        "discard_zone": Rule("[left, top, right, bottom] in pixels of the camera picture, like [600, 80, 1060, 640], "
                             "or [] with the printed mat", _zone_ok),
    },
    "display": {
        "driver": Rule(f"one of {', '.join(DRIVERS)}", _one_of(*DRIVERS)),
        "port": Rule("an I2C bus number 0-99, like 1", _whole(0, 99)),
        "address": Rule("an I2C address 0x03-0x77, like 0x3C (some modules answer on 0x3D)",
                        lambda v: type(v) is int and v in I2C_ADDRESSES),
        "rotate": Rule("0, or 2 to turn the picture upside down", _one_of(0, 2)),
    },
    "buttons": {name: _BUTTON for name in BUTTONS},
}
_SECTIONS: dict[str, type] = {f.name: type(f.default_factory()) for f in fields(Config)}  # type: ignore[operator]  # each has one


def _key(name: str) -> str:
    """A key as TOML writes it: bare when it can be, else quoted (so no newline reaches the message)."""
    return name if re.fullmatch(r"[A-Za-z0-9_-]{1,40}", name) else _shown(name)


def _shown(value: Any) -> str:
    text = _toml(value) if isinstance(value, (str, bool, int, float, list, dict)) else repr(value)
    text = " ".join(text.split())
    return text if len(text) <= _SHOWN else text[:_SHOWN - 1] + "…"


def parse_config(data: dict[str, Any], path: str = "config") -> Config:
    """Settings from a parsed TOML document; the first problem found raises ConfigError."""
    for name in data:
        if name not in _SECTIONS:
            raise ConfigError(f"{path}: [{_key(name)}] is not a section of the settings; "
                              f"the sections are {', '.join(_SECTIONS)}", name)
    sections = {name: _section(name, data.get(name, {}), path) for name in _SECTIONS}
    cfg = Config(**sections)
    _check_together(cfg, path)
    return cfg


def _section(name: str, values: Any, path: str) -> Any:
    rules = SCHEMA[name]
    if not isinstance(values, dict):
        raise ConfigError(f"{path}: {name} = {_shown(values)} is not allowed: [{name}] is a table of settings "
                          f"({', '.join(rules)})", name)
    for key, value in values.items():
        if key not in rules:
            raise ConfigError(f"{path}: [{name}] {_key(key)} = {_shown(value)} is not a setting; [{name}] has "
                              f"{', '.join(rules)}", f"{name}.{key}")
        rule = rules[key]
        if not rule.ok(value):
            why = (rule.detail(value) if rule.detail else None) or rule.allowed
            raise ConfigError(f"{path}: [{name}] {key} = {_shown(value)} is not allowed: {why}", f"{name}.{key}")
    floats = {f.name for f in fields(_SECTIONS[name]) if f.type == "float"}
    return _SECTIONS[name](**{k: float(v) if k in floats else v for k, v in values.items()})


def _check_together(cfg: Config, path: str) -> None:
    """The rules that span keys: both zones or neither, and one pin per button."""
    cam = cfg.camera
    if bool(cam.play_zone) != bool(cam.discard_zone):
        key = "discard_zone" if cam.play_zone else "play_zone"
        raise ConfigError(f"{path}: [camera] {key} = [] is not allowed with the other zone set: set both "
                          "play_zone and discard_zone (a table without the printed mat), or neither", f"camera.{key}")
    seen: dict[int, str] = {}
    for name in BUTTONS:
        pin = getattr(cfg.buttons, name)
        if pin in seen:
            raise ConfigError(f"{path}: [buttons] {name} = {pin} is not allowed: GPIO{pin} is already the "
                              f"{seen[pin]} button's; each button needs its own pin", f"buttons.{name}")
        seen[pin] = name


def check_files(cfg: Config, path: str = "config") -> None:
    """The files the settings name must be there. `companion run` does not ask this at start: a file
    that appears later (a profile taught afterwards) heals a camera fault without a restart."""
    profile = cfg.camera.profile
    if profile and not os.path.isfile(profile):
        raise ConfigError(f"{path}: [camera] profile = {_shown(profile)} is not allowed: no such file; "
                          "make one with `companion teach`, or set profile = \"\"", "camera.profile")


def load_config(path: str | None, files: bool = False) -> Config:
    """Read ``path`` (a missing file means the defaults); ``files``: also require the named files."""
    if path is None or not os.path.exists(path):
        return Config()
    try:
        with open(path, "rb") as f:
            data = tomllib.load(f)
    except tomllib.TOMLDecodeError as e:
        raise ConfigError(f"{path}: not valid TOML: {e}") from None
    except (OSError, UnicodeDecodeError) as e:
        raise ConfigError(f"{path}: cannot read: {getattr(e, 'strerror', None) or e}") from None
    cfg = parse_config(data, path)
    if files:
        check_files(cfg, path)
    return cfg
