"""Server-Sent Events: one ``state`` event per table change, fanned out to every open page.

The table calls listeners on the thread that changed it, so the listener only records the change
and wakes a broadcaster thread; that thread takes one snapshot per burst of changes (a play
that ends the game is several changes but one event) and offers it to each client's bounded
queue without ever waiting on a client. A slow client loses stale states, never the latest.
"""
from __future__ import annotations

import itertools
import json
import logging
import queue
import secrets
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

from companion.game.table import Change, Table

log = logging.getLogger(__name__)

KEEPALIVE_SECONDS = 15.0
# A phone that vanished without closing its connection would hold a stream slot until TCP gives
# up (many minutes); ending every stream after a while bounds that, and browsers reconnect by
# themselves within RETRY_MS and get the whole state again.
MAX_STREAM_SECONDS = 300.0
# What the table does not announce (the camera coming and going) is looked at this often.
POLL_SECONDS = 2.0
RETRY_MS = 2000
QUEUE_SIZE = 16
_CLOSE = b""


class TooManyClients(RuntimeError):
    """Every stream slot is taken; the page retries later."""


class Broadcaster:
    """Turns table changes into SSE messages for every subscribed client."""

    def __init__(self, table: Table, render: Callable[[], dict[str, Any]], max_clients: int = 24,
                 keepalive: float = KEEPALIVE_SECONDS, max_stream: float = MAX_STREAM_SECONDS,
                 poll: float = POLL_SECONDS):
        self._render = render
        self._max_clients = max_clients
        self._keepalive = keepalive
        self._max_stream = max_stream
        self._poll = poll
        self._cond = threading.Condition()
        self._changes: list[dict[str, Any]] = []
        self._dirty = False
        self._closed = False
        self._clients: set[queue.Queue[bytes]] = set()
        self._clients_lock = threading.Lock()
        self._seq = itertools.count(1)
        self._last_id = 0
        self._boot = secrets.token_hex(4)  # tells event ids of two runs apart, whatever the clock says
        self._last_json = ""
        table.add_listener(self._on_change)
        self._table = table
        self._thread = threading.Thread(target=self._run, name="sse-broadcaster", daemon=True)
        self._thread.start()

    @property
    def clients(self) -> int:
        with self._clients_lock:
            return len(self._clients)

    def close(self) -> None:
        """Stop the broadcaster and end every open stream."""
        self._table.remove_listener(self._on_change)
        with self._cond:
            self._closed = True
            self._cond.notify()
        with self._clients_lock:
            for q in self._clients:
                _offer(q, _CLOSE)
        self._thread.join(timeout=2)

    # -- producer side ------------------------------------------------------------------------
    def refresh(self) -> None:
        """Something outside the table changed what the state shows: send it if it differs."""
        with self._cond:
            self._dirty = True
            self._cond.notify()

    def _on_change(self, table: Table, change: Change) -> None:
        with self._cond:
            self._changes.append({"kind": change.kind, "text": change.text, "params": change.params})
            self._dirty = True
            self._cond.notify()

    def _run(self) -> None:
        try:
            self._last_json = json.dumps(self._render(), separators=(",", ":"))  # what pages get first
        except Exception:
            log.exception("could not render the table state for the live page")
        while True:
            with self._cond:
                if not self._dirty and not self._closed:
                    self._cond.wait(self._poll)  # on a timeout, publish only if the state differs
                if self._closed:
                    return
                self._dirty = False
            try:
                state = self._render()  # waits for the table's lock: the whole command is done
            except Exception:
                log.exception("could not render the table state for the live page")
                continue
            with self._cond:
                changes, self._changes = self._changes, []
            body = json.dumps(state, separators=(",", ":"))
            if not changes and body == self._last_json:
                continue
            self._last_json = body
            self.publish(self._message(state, changes))

    def _message(self, state: dict[str, Any], changes: list[dict[str, Any]]) -> bytes:
        self._last_id = next(self._seq)
        data = json.dumps({**state, "changes": changes}, separators=(",", ":"))
        return f"id: {self._boot}-{self._last_id}\nevent: state\ndata: {data}\n\n".encode()

    def publish(self, message: bytes) -> None:
        with self._clients_lock:
            clients = list(self._clients)
        for q in clients:
            _offer(q, message)

    # -- consumer side ------------------------------------------------------------------------
    def stream(self) -> Iterator[bytes]:
        """One client's event stream: the current state at once, then every change."""
        q: queue.Queue[bytes] = queue.Queue(QUEUE_SIZE)
        with self._clients_lock:
            if self._closed:
                raise TooManyClients("the box is shutting down")
            if len(self._clients) >= self._max_clients:
                raise TooManyClients(f"all {self._max_clients} live-update slots are in use")
            self._clients.add(q)
        return self._pump(q)

    def _pump(self, q: queue.Queue[bytes]) -> Iterator[bytes]:
        try:
            first = self._render()
            yield f"retry: {RETRY_MS}\n\n".encode() + self._initial(first)
            end = time.monotonic() + self._max_stream
            while time.monotonic() < end:
                try:
                    msg = q.get(timeout=min(self._keepalive, max(0.0, end - time.monotonic())))
                except queue.Empty:
                    msg = b": keep-alive\n\n"
                if not msg:  # the broadcaster closed
                    return
                yield msg
        finally:
            with self._clients_lock:
                self._clients.discard(q)

    def _initial(self, state: dict[str, Any]) -> bytes:
        data = json.dumps({**state, "changes": []}, separators=(",", ":"))
        return f"id: {self._boot}-{self._last_id}\nevent: state\ndata: {data}\n\n".encode()


def _offer(q: queue.Queue[bytes], message: bytes) -> None:
    """Queue without blocking; a full queue drops its stale states (each event is a full state)."""
    while True:
        try:
            q.put_nowait(message)
            return
        except queue.Full:
            try:
                q.get_nowait()
            except queue.Empty:
                pass
