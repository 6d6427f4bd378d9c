"""What the box says about itself at boot: where the web page is, its pairing PIN, the camera."""
from __future__ import annotations

import socket
from dataclasses import dataclass

from companion.game.pairing import pairing_url

CAMERA_STATES = ("ok", "missing", "fault")
# Why a camera is in fault, as the camera service reports it: the card model, the deck profile, the
# camera itself, or anything else while setting up the recognition.
CAMERA_PROBLEMS = ("model", "profile", "camera", "watcher")


@dataclass(frozen=True)
class BootStatus:
    """``address`` is "host:port" for the phones (None without a network); ``camera`` is one of
    ok, missing, fault, as the web API reports it; ``problem`` says why it is in fault; ``token``
    is a one-time pairing token, shown as a QR code a phone scans instead of typing the PIN."""

    address: str | None
    pin: str
    camera: str = "ok"
    problem: str | None = None
    token: str | None = None

    def __post_init__(self) -> None:
        if self.camera not in CAMERA_STATES:
            raise ValueError(f"camera must be one of {', '.join(CAMERA_STATES)}; got {self.camera!r}")
        if self.problem is not None and self.problem not in CAMERA_PROBLEMS:
            raise ValueError(f"problem must be one of {', '.join(CAMERA_PROBLEMS)}; got {self.problem!r}")

    @property
    def pair_url(self) -> str | None:
        """What the QR code holds: the page's pairing address (None without a network or a token)."""
        return pairing_url(self.address, self.token) if self.address and self.token else None


def local_address(port: int = 8000) -> str | None:
    """This machine's address on the local network as "ip:port", or None when it has none.

    Connecting a UDP socket sends nothing; it only asks the kernel which interface would be used.
    """
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        try:
            s.connect(("10.255.255.255", 1))
            ip = s.getsockname()[0]
        except OSError:
            return None
    return None if ip.startswith("127.") or ip == "0.0.0.0" else f"{ip}:{port}"
