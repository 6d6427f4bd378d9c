"""One-time pairing tokens: what the QR code on the box's screen carries instead of the PIN.

A phone that scans the code opens ``http://<address>/pair/<token>`` and is paired as if it had
typed the PIN. A token works once and only for a few minutes, so a photo of the screen taken
yesterday, or a code already used by another phone, pairs nobody. Only a handful of tokens live at
once: the box shows one at a time, and each new one pushes the oldest out.
"""
from __future__ import annotations

import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Callable

PAIR_PATH = "/pair/"
TOKEN_BYTES = 16    # 128 bits: never guessed, and the box's address and a token fit a QR code of 29x29
TTL = 300.0         # seconds a token stays valid
LIVE = 4            # tokens valid at once
SPENT = 16          # used tokens remembered, so a second scan is told "already used", not "unknown"

# Why a token was refused, for the page to say it in the reader's language.
TOKEN_USED, TOKEN_UNKNOWN = "token_used", "token_unknown"


def pairing_url(address: str, token: str) -> str:
    """The address a phone opens to pair: ``address`` is "host:port" as the box's screen shows it."""
    return f"http://{address}{PAIR_PATH}{token}"


class Pairing:
    """Issues one-time tokens and accepts each once, within ``ttl`` seconds of its issue.

    ``clock`` is monotonic (setting the Pi's wall clock neither revives nor kills a token);
    ``listeners`` are called with each token redeemed, outside the lock (the box then shows a fresh
    code for the next phone). Every method is safe to call from any thread.
    """

    def __init__(self, ttl: float = TTL, live: int = LIVE, clock: Callable[[], float] = time.monotonic):
        if ttl <= 0 or live < 1:
            raise ValueError(f"a pairing token needs a positive lifetime and room for one; "
                             f"got ttl={ttl}, live={live}")
        self.ttl, self.live = ttl, live
        self._clock = clock
        self._issued: OrderedDict[str, float] = OrderedDict()  # token -> when it was issued, oldest first
        self._spent: OrderedDict[str, None] = OrderedDict()
        self._lock = threading.Lock()
        self.listeners: list[Callable[[str], None]] = []

    def issue(self) -> str:
        """A fresh token; the oldest live one is dropped when more than ``live`` would be valid."""
        token = secrets.token_urlsafe(TOKEN_BYTES)
        with self._lock:
            now = self._clock()
            self._prune(now)
            self._issued[token] = now
            while len(self._issued) > self.live:
                self._issued.popitem(last=False)
        return token

    def redeem(self, token: str) -> bool:
        """True once for a live token; False for a used, stale or unknown one."""
        with self._lock:
            self._prune(self._clock())
            if self._issued.pop(token, None) is None:
                return False
            self._spent[token] = None
            while len(self._spent) > SPENT:
                self._spent.popitem(last=False)
        for listener in list(self.listeners):
            listener(token)
        return True

    def refusal(self, token: str) -> str:
        """Why ``token`` is refused: ``token_used`` if it paired a phone lately, else ``token_unknown``
        (stale, from before the box restarted, or never issued)."""
        with self._lock:
            return TOKEN_USED if token in self._spent else TOKEN_UNKNOWN

    def valid(self) -> int:
        """How many tokens are valid now."""
        with self._lock:
            self._prune(self._clock())
            return len(self._issued)

    def _prune(self, now: float) -> None:
        while self._issued:
            token, issued = next(iter(self._issued.items()))
            if now - issued < self.ttl:
                break
            del self._issued[token]
