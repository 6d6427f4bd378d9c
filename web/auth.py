"""Pairing and request safety: the PIN from the box, its cookie, and refusal of cross-site writes.

Anyone on the network may watch; changing the game needs the PIN shown on the OLED. Scripts send
it in ``X-Table-PIN``; a browser enters it once and keeps an HMAC of it in an HttpOnly cookie, so
the PIN itself is never stored in the browser. Writes whose Origin/Referer names another site are
refused (cross-site request forgery), and a cookie alone is only trusted with a same-site Origin.
"""
from __future__ import annotations

import hashlib
import hmac
import threading
import time
from collections import defaultdict, deque
from urllib.parse import urlsplit

from flask import Request

PIN_HEADER = "X-Table-PIN"
PIN_COOKIE = "table_pin"
COOKIE_MAX_AGE = 30 * 24 * 3600


class Refused(Exception):
    """A write the page may not make; ``status`` is the HTTP code, the message says why."""

    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status = status


class Throttle:
    """Too many wrong PINs from one address within a minute: refuse for a while (4 digits are few)."""

    def __init__(self, limit: int = 10, window: float = 60.0):
        self.limit, self.window = limit, window
        self._fails: dict[str, deque[float]] = defaultdict(deque)
        self._lock = threading.Lock()

    def _recent(self, who: str, now: float) -> deque[float]:
        fails = self._fails[who]
        while fails and now - fails[0] > self.window:
            fails.popleft()
        return fails

    def blocked(self, who: str) -> bool:
        with self._lock:
            return len(self._recent(who, time.monotonic())) >= self.limit

    def failed(self, who: str) -> None:
        with self._lock:
            self._recent(who, time.monotonic()).append(time.monotonic())


class Pairing:
    """Checks the pairing PIN in constant time and mints the cookie that stands for it."""

    def __init__(self, pin: str, secret: bytes):
        self._pin = pin.encode()
        self._token = hmac.new(secret, b"table-pin:" + self._pin, hashlib.sha256).hexdigest()
        self.throttle = Throttle()

    def pin_ok(self, candidate: str) -> bool:
        return hmac.compare_digest(candidate.encode(), self._pin)

    def cookie_value(self) -> str:
        return self._token

    def cookie_ok(self, value: str) -> bool:
        return hmac.compare_digest(value.encode(), self._token.encode())

    def enter(self, request: Request, candidate: str) -> None:
        """Check a PIN typed on the page; raises Refused when wrong or throttled."""
        who = request.remote_addr or "?"
        if self.throttle.blocked(who):
            raise Refused(429, "too many wrong PINs: wait a minute and try again")
        if not self.pin_ok(candidate.strip()):
            self.throttle.failed(who)
            raise Refused(403, "wrong PIN: use the PIN shown on the box's screen")

    def authorize(self, request: Request) -> None:
        """Allow a write, or raise Refused (401 no PIN, 403 wrong PIN or cross-site, 429 throttled)."""
        same_site = check_same_site(request)
        who = request.remote_addr or "?"
        header = request.headers.get(PIN_HEADER)
        cookie = request.cookies.get(PIN_COOKIE)
        if header is not None:
            if self.throttle.blocked(who):
                raise Refused(429, "too many wrong PINs: wait a minute and try again")
            if not self.pin_ok(header.strip()):
                self.throttle.failed(who)
                raise Refused(403, f"wrong PIN in {PIN_HEADER}: use the PIN shown on the box's screen")
            return
        if cookie is not None and self.cookie_ok(cookie):
            if not same_site:
                raise Refused(403, "refused: a request with the PIN cookie must come from this box's own pages")
            return
        raise Refused(401, f"changing the game needs the PIN shown on the box: enter it on the page "
                           f"or send it in the {PIN_HEADER} header")


def check_same_site(request: Request) -> bool:
    """Raise Refused for a request sent by another site; True when the browser proved it is ours."""
    if request.headers.get("Sec-Fetch-Site") == "cross-site":
        raise Refused(403, "refused: cross-site request")
    for name in ("Origin", "Referer"):
        value = request.headers.get(name)
        if value is None:
            continue
        if value == "null" or urlsplit(value).netloc != request.host:
            raise Refused(403, f"refused: cross-site request ({name} {value!r} is not this box)")
        return True
    return False
