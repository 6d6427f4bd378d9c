"""systemd's notify protocol (READY, WATCHDOG, STATUS) in a few lines, so the unit can be Type=notify."""
from __future__ import annotations

import os
import socket


def notify(message: str) -> bool:
    """Send ``message`` to systemd when run under a notify unit; a no-op (False) elsewhere."""
    address = os.environ.get("NOTIFY_SOCKET")
    if not address:
        return False
    if address.startswith("@"):
        address = "\0" + address[1:]
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as s:
        try:
            s.connect(address)
            s.sendall(message.encode())
        except OSError:
            return False
    return True


def watchdog_interval() -> float | None:
    """Seconds between watchdog pings: half of what systemd allows, or None without a watchdog."""
    usec = os.environ.get("WATCHDOG_USEC")
    if not usec or not usec.isdigit():
        return None
    return int(usec) / 2e6
