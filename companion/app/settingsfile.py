"""Changing one key of the settings file in place: the owner's comments, order and other keys stay
as written, the file keeps its mode, and it is replaced in one step (a power cut leaves the old
file or the new one, never half of each). The result is checked against the schema before it is
written, so the box never writes settings it would refuse to start with."""
from __future__ import annotations

import os
import re
import stat
import tempfile
import tomllib
from typing import Any

from .config import ConfigError, _toml, parse_config

NEW_FILE_MODE = 0o644


def _header(section: str) -> re.Pattern[str]:
    return re.compile(rf"^\s*\[\s*{re.escape(section)}\s*\]\s*(#.*)?$")


def with_key(text: str, section: str, key: str, value: Any) -> str:
    """``text`` (a TOML document) with ``[section] key = value``: the key's line replaced (its
    trailing comment kept), else added at the top of the section, else the section appended."""
    line = f"{key} = {_toml(value)}"
    lines = text.splitlines(keepends=True)
    header = _header(section)
    start = next((i for i, ln in enumerate(lines) if header.match(ln)), None)
    if start is None:
        tail = "" if not text or text.endswith("\n") else "\n"
        gap = "\n" if text.strip() else ""
        return f"{text}{tail}{gap}[{section}]\n{line}\n"
    end = next((i for i in range(start + 1, len(lines)) if re.match(r"^\s*\[", lines[i])), len(lines))
    assignment = re.compile(rf"^(\s*){re.escape(key)}\s*=")
    for i in range(start + 1, end):
        m = assignment.match(lines[i])
        if m is None:
            continue
        comment = _trailing_comment(lines[i])
        lines[i] = f"{m.group(1)}{line}{'  ' + comment if comment else ''}\n"
        return "".join(lines)
    lines.insert(start + 1, line + "\n")
    if not lines[start].endswith("\n"):
        lines[start] += "\n"
    return "".join(lines)


def _trailing_comment(line: str) -> str:
    """The ``# ...`` after a one-line value, found by what TOML itself parses (a # inside a string
    is not a comment)."""
    body = line.rstrip("\n")
    for at in (m.start() for m in re.finditer("#", body)):
        try:
            tomllib.loads(body[:at])
        except tomllib.TOMLDecodeError:
            continue
        return body[at:].strip()
    return ""


def set_key(path: str, section: str, key: str, value: Any) -> None:
    """Write ``[section] key = value`` into the settings file at ``path`` (made if missing).
    Raises ConfigError when the result would not be valid settings, OSError when it cannot be written."""
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
        mode = stat.S_IMODE(os.stat(path).st_mode)
    except FileNotFoundError:
        text, mode = "", NEW_FILE_MODE
    new = with_key(text, section, key, value)
    try:
        data = tomllib.loads(new)
    except tomllib.TOMLDecodeError as e:
        raise ConfigError(f"{path}: cannot set [{section}] {key} there without breaking the file ({e}); "
                          f"set it by hand: {key} = {_toml(value)}", f"{section}.{key}") from None
    parse_config(data, path)
    if data.get(section, {}).get(key) != value:
        raise ConfigError(f"{path}: [{section}] {key} is set twice or in a form the box cannot change; "
                          f"set it by hand: {key} = {_toml(value)}", f"{section}.{key}")
    folder = os.path.dirname(os.path.abspath(path))
    os.makedirs(folder, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=".settings-", dir=folder)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(new)
            f.flush()
            os.fchmod(f.fileno(), mode)
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
