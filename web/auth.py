"""Pairing and request safety: the PIN from the box, its cookie, and refusal of writes from elsewhere.

Anyone on the network may watch; changing the game needs the PIN shown on the OLED. Scripts send
it in ``X-Table-PIN``; a browser enters it once and keeps an HMAC of it in an HttpOnly cookie, so
the PIN itself is never stored in the browser. Writes whose Origin/Referer names another site are
refused (cross-site request forgery), and so are writes sent to a ``Host`` that is not this box: a
page whose name an attacker rebinds to the box's address (DNS rebinding) still sends its own name.
Wrong PINs are limited per address and, because addresses are cheap, for the whole box as well.
A phone that scans the QR code on the box's screen is paired by its one-time token instead of the
PIN; a used, stale or unknown token counts as a wrong PIN, so tokens cannot be guessed either.
"""
from __future__ import annotations

import hashlib
import hmac
import ipaddress
import socket
import threading
import time
from collections import OrderedDict, deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from urllib.parse import urlsplit

from flask import Request

from companion.game.pairing import TOKEN_USED
from companion.game.pairing import Pairing as Tokens

PIN_HEADER = "X-Table-PIN"
PIN_COOKIE = "table_pin"
COOKIE_MAX_AGE = 30 * 24 * 3600


class Refused(Exception):
    """A write the page may not make; ``status`` is the HTTP code, the message says why.

    ``code`` names the reason for adapters (no_pin, wrong_pin, cross_site, wrong_host, throttled,
    and for a QR code's token token_used or token_unknown);
    ``retry_after`` (seconds) tells a throttled client when asking again can succeed.
    """

    def __init__(self, status: int, code: str, message: str, retry_after: float | None = None):
        super().__init__(message)
        self.status, self.code = status, code
        self.retry_after = retry_after


@dataclass(frozen=True)
class Limits:
    """How many wrong PINs the box evaluates before it stops listening for a while."""

    per_address: int = 10        # wrong PINs from one address within ``window``
    window: float = 60.0
    budget: int = 50             # wrong PINs from all addresses together within ``budget_window``
    budget_window: float = 600.0
    backoff: float = 60.0        # every PIN waits this long once the budget is spent; doubles each time
    max_backoff: float = 3600.0
    addresses: int = 256         # addresses remembered at once (the oldest is forgotten first)


class Throttle:
    """Counts wrong PINs per address and for the whole box; one lock makes each attempt atomic.

    The check of "may this address guess?" and the recording of a wrong guess happen under the
    same lock as the guess itself, so concurrent guesses cannot all slip past the limit. Durations
    use a monotonic clock: setting the wall clock (a Pi has none until the network sets it) neither
    lifts nor extends a lock-out.
    """

    def __init__(self, limits: Limits = Limits(), clock: Callable[[], float] = time.monotonic):
        self.limits = limits
        self._clock = clock
        self._fails: OrderedDict[str, deque[float]] = OrderedDict()  # least recently failed first
        self._all: deque[float] = deque()
        self._locked_until = 0.0
        self._backoff = limits.backoff
        self._last_fail = float("-inf")
        self._lock = threading.Lock()

    @property
    def addresses(self) -> int:
        """How many addresses are remembered now (bounded by ``limits.addresses``)."""
        with self._lock:
            return len(self._fails)

    def attempt(self, who: str, check: Callable[[], bool]) -> bool:
        """Make one guess from ``who``: raise Refused (429) if it may not guess now, else count a
        wrong answer of ``check()`` and return whether it was right."""
        with self._lock:
            now = self._clock()
            self._refuse_if_blocked(who, now)
            if check():
                return True
            self._record(who, now)
            return False

    def _refuse_if_blocked(self, who: str, now: float) -> None:
        if now < self._locked_until:
            wait = self._locked_until - now
            raise Refused(429, "throttled", f"too many wrong PINs on this box: PIN entry is paused for "
                                            f"{_minutes(wait)}; phones already paired keep working", wait)
        fails = self._fails.get(who)
        if fails is not None and len(fails) >= self.limits.per_address \
                and now - fails[0] < self.limits.window:
            raise Refused(429, "throttled", "too many wrong PINs: wait a minute and try again",
                          self.limits.window - (now - fails[0]))

    def _record(self, who: str, now: float) -> None:
        lim = self.limits
        fails = self._fails.pop(who, None) or deque(maxlen=lim.per_address)
        fails.append(now)
        self._fails[who] = fails
        while self._fails:  # forget addresses whose last wrong PIN is older than the window
            oldest = next(iter(self._fails.values()))
            if now - oldest[-1] < lim.window and len(self._fails) <= lim.addresses:
                break
            self._fails.popitem(last=False)
        if now - self._last_fail > lim.budget_window:
            self._backoff = lim.backoff  # a quiet spell: the next lock-out is short again
        self._last_fail = now
        while self._all and now - self._all[0] >= lim.budget_window:
            self._all.popleft()
        self._all.append(now)
        if len(self._all) >= lim.budget:
            self._locked_until = now + self._backoff
            self._backoff = min(self._backoff * 2, lim.max_backoff)
            self._all.clear()


def _minutes(seconds: float) -> str:
    n = max(1, round(seconds / 60))
    return "1 minute" if n == 1 else f"{n} minutes"


class Hosts:
    """The names this box answers writes at: its own addresses, ``localhost``, its host name and
    ``<hostname>.local``, and any names the owner adds (a router's DNS name, for instance)."""

    def __init__(self, extra: Iterable[str] = ()):
        self.extra = frozenset(_bare(h) for h in extra)

    def allowed(self, hostname: str) -> bool:
        name = _bare(hostname)
        own = socket.gethostname().lower()
        return name in self.extra or name in ("localhost", own, f"{own}.local") or _own_address(name)

    def check(self, request: Request) -> None:
        """Raise Refused unless the request was sent to one of this box's names."""
        try:
            hostname = urlsplit("//" + request.host).hostname or ""
        except ValueError:
            hostname = ""
        if not self.allowed(hostname):
            raise Refused(403, "wrong_host",
                          f"refused: changes are taken only at this box's own address, not at "
                          f"{request.host!r}; open the page at the address shown on the box's screen")


def _bare(name: str) -> str:
    return name.strip().lower().rstrip(".")


def _own_address(name: str) -> bool:
    """True for an address of one of this machine's interfaces (only those can be bound)."""
    try:
        ip = ipaddress.ip_address(name)
    except ValueError:
        return False
    if ip.is_loopback:
        return True
    if ip.is_unspecified or ip.is_multicast:
        return False
    family = socket.AF_INET6 if ip.version == 6 else socket.AF_INET
    try:
        with socket.socket(family, socket.SOCK_DGRAM) as s:
            s.bind((str(ip), 0))
        return True
    except OSError:
        return False


class Pairing:
    """Checks the pairing PIN in constant time, and the QR code's one-time ``tokens``, and mints the
    cookie that stands for either."""

    def __init__(self, pin: str, secret: bytes, hosts: Iterable[str] = (), limits: Limits = Limits(),
                 clock: Callable[[], float] = time.monotonic, tokens: Tokens | None = None):
        self._pin = pin.encode()
        self._token = hmac.new(secret, b"table-pin:" + self._pin, hashlib.sha256).hexdigest()
        self.throttle = Throttle(limits, clock)
        self.hosts = Hosts(hosts)
        self.tokens = tokens if tokens is not None else Tokens()

    def pin_ok(self, candidate: str) -> bool:
        return hmac.compare_digest(candidate.encode(), self._pin)

    def cookie_value(self) -> str:
        return self._token

    def cookie_ok(self, value: str) -> bool:
        return hmac.compare_digest(value.encode(), self._token.encode())

    def _guess(self, request: Request, candidate: str) -> bool:
        return self.throttle.attempt(request.remote_addr or "?", lambda: self.pin_ok(candidate.strip()))

    def enter(self, request: Request, candidate: str) -> None:
        """Check a PIN typed on the page; raises Refused when wrong, throttled or sent elsewhere."""
        self.hosts.check(request)
        if not self._guess(request, candidate):
            raise Refused(403, "wrong_pin", "wrong PIN: use the PIN shown on the box's screen")

    def scan(self, request: Request, token: str) -> None:
        """Pair by the one-time token of a scanned QR code; raises Refused when the token was used
        (token_used), is stale or unknown (token_unknown), is throttled, or was sent elsewhere."""
        self.hosts.check(request)
        if not self.throttle.attempt(request.remote_addr or "?", lambda: self.tokens.redeem(token)):
            code = self.tokens.refusal(token)
            said = "was already used" if code == TOKEN_USED else "is too old or unknown"
            raise Refused(403, code, f"this pairing code {said}: press OK on the box for a fresh one, "
                                     "or enter the PIN shown there")

    def authorize(self, request: Request) -> None:
        """Allow a write, or raise Refused (401 no PIN, 403 wrong PIN, cross-site or another host,
        429 throttled)."""
        same_site = check_same_site(request)
        self.hosts.check(request)
        header = request.headers.get(PIN_HEADER)
        cookie = request.cookies.get(PIN_COOKIE)
        if header is not None:
            if not self._guess(request, header):
                raise Refused(403, "wrong_pin",
                              f"wrong PIN in {PIN_HEADER}: use the PIN shown on the box's screen")
            return
        if cookie is not None and self.cookie_ok(cookie):
            if not same_site:
                raise Refused(403, "cross_site",
                              "refused: a request with the PIN cookie must come from this box's own pages")
            return
        raise Refused(401, "no_pin", f"changing the game needs the PIN shown on the box: enter it on the "
                                     f"page or send it in the {PIN_HEADER} header")


def check_same_site(request: Request) -> bool:
    """Raise Refused for a request sent by another site; True when the browser proved it is ours."""
    if request.headers.get("Sec-Fetch-Site") == "cross-site":
        raise Refused(403, "cross_site", "refused: cross-site request")
    for name in ("Origin", "Referer"):
        value = request.headers.get(name)
        if value is None:
            continue
        if value == "null" or urlsplit(value).netloc != request.host:
            raise Refused(403, "cross_site", f"refused: cross-site request ({name} {value!r} is not this box)")
        return True
    return False
