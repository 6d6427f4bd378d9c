"""Server-Sent Events: one event per command, bounded queues, keep-alives, slots, restarts."""
from __future__ import annotations

import json
import socket
import time
import urllib.request
from collections.abc import Iterator
from typing import Any

from companion.game.store import Store
from companion.game.table import Table
from web import create_app
from web.events import QUEUE_SIZE, Broadcaster

from .conftest import PIN, LiveServer


def parse(message: bytes) -> dict[str, Any]:
    """The JSON of one SSE ``state`` message."""
    lines = message.decode().split("\n")
    assert "event: state" in lines, message
    return json.loads(next(line[6:] for line in lines if line.startswith("data: ")))


def next_state(stream: Iterator[bytes]) -> dict[str, Any]:
    while True:
        msg = next(stream)
        if b"event: state" in msg:
            return parse(msg[msg.index(b"id: "):] if msg.startswith(b"retry") else msg)


def render_of(table: Table):  # type: ignore[no-untyped-def]
    return lambda: {**table.snapshot()}


def test_first_message_is_the_current_state_and_retry() -> None:
    table = Table()
    table.new_game(3)
    b = Broadcaster(table, render_of(table))
    try:
        first = next(b.stream())
        assert first.startswith(b"retry: ") and parse(first[first.index(b"id: "):])["players"][0] == "Player 1"
    finally:
        b.close()


def test_one_event_per_command_even_when_it_makes_several_changes() -> None:
    table = Table()
    table.new_game(2, {"preset": "base", "fuse_tokens": 1})
    b = Broadcaster(table, render_of(table), keepalive=0.3)
    try:
        stream = b.stream()
        next(stream)
        table.act({"type": "hint"})
        ev = next_state(stream)
        assert ev["hints"] == 7 and [c["kind"] for c in ev["changes"]] == ["hint"]
        table.act({"type": "play", "card": "r2"})  # burns the only fuse: "misplay" and "game_over"
        ev = next_state(stream)
        assert ev["over"] and [c["kind"] for c in ev["changes"]] == ["misplay", "game_over"]
        assert next(stream) == b": keep-alive\n\n"  # and nothing else came
    finally:
        b.close()


def test_a_client_that_never_reads_keeps_only_recent_states_and_blocks_nobody() -> None:
    table = Table()
    table.new_game(2)
    b = Broadcaster(table, render_of(table), keepalive=5)
    try:
        stuck, reader = b.stream(), b.stream()
        next(stuck)
        next(reader)
        t0 = time.perf_counter()
        for i in range(QUEUE_SIZE * 3):
            b.publish(f"id: x\nevent: state\ndata: {{\"n\": {i}}}\n\n".encode())
        assert time.perf_counter() - t0 < 0.5
        got = [parse(next(reader))["n"] for _ in range(QUEUE_SIZE)]
        assert got[-1] == QUEUE_SIZE * 3 - 1  # the newest state is always kept
        assert len(got) == QUEUE_SIZE
    finally:
        b.close()


def test_keepalive_comment_when_nothing_happens() -> None:
    table = Table()
    b = Broadcaster(table, render_of(table), keepalive=0.05)
    try:
        stream = b.stream()
        next(stream)
        assert next(stream) == b": keep-alive\n\n"
    finally:
        b.close()


def test_close_ends_every_stream() -> None:
    table = Table()
    b = Broadcaster(table, render_of(table), keepalive=5)
    stream = b.stream()
    next(stream)
    b.close()
    assert list(stream) == [] and b.clients == 0


def test_all_slots_taken_answers_503(table: Table) -> None:
    app = create_app(table, sse_max_clients=1)
    client = app.test_client()
    first = client.get("/api/events", buffered=False)
    try:
        assert first.status_code == 200 and first.mimetype == "text/event-stream"
        next(first.response)
        second = client.get("/api/events")
        assert second.status_code == 503 and second.headers["Retry-After"] and "slots" in second.json["error"]
    finally:
        first.close()
        from web import close_app
        close_app(app)


def read_events(sock: socket.socket, n: int, timeout: float = 5.0) -> list[dict[str, Any]]:
    """Read ``n`` state events from a raw HTTP connection (waitress sends them chunked)."""
    sock.settimeout(timeout)
    buf, out = b"", []
    while len(out) < n:
        chunk = sock.recv(65536)
        assert chunk, "stream closed"
        buf += chunk
        while b"\n\n" in buf:
            block, buf = buf.split(b"\n\n", 1)
            for line in block.split(b"\n"):
                if line.startswith(b"data: "):
                    out.append(json.loads(line[6:]))
    return out


def open_stream(port: int) -> socket.socket:
    s = socket.create_connection(("127.0.0.1", port), timeout=5)
    s.sendall(b"GET /api/events HTTP/1.1\r\nHost: x\r\nAccept: text/event-stream\r\n\r\n")
    return s


def post(url: str, body: Any) -> int:
    req = urllib.request.Request(url, data=json.dumps(body).encode(), method="POST",
                                 headers={"Content-Type": "application/json", "X-Table-PIN": PIN})
    with urllib.request.urlopen(req, timeout=5) as r:
        return r.status


def test_live_server_streams_each_change_to_every_client(live: LiveServer) -> None:
    post(f"{live.url}/api/games", {"players": ["Ann", "Ben"]})
    socks = [open_stream(live.port) for _ in range(5)]
    try:
        for s in socks:
            assert read_events(s, 1)[0]["actions"] == 0
        t0 = time.perf_counter()
        post(f"{live.url}/api/actions", {"type": "hint"})
        for s in socks:
            events = read_events(s, 1)
            # the new game's own event may come after the opening state, or share the hint's burst
            while "hint" not in [c["kind"] for c in events[-1]["changes"]]:
                events += read_events(s, 1)
            *before, ev = events
            assert all(c["kind"] == "new_game" for e in before for c in e["changes"])
            assert ev["actions"] == 1 and ev["hints"] == 7 and ev["changes"][-1]["kind"] == "hint"
        assert time.perf_counter() - t0 < 2.0
    finally:
        for s in socks:
            s.close()


def test_after_a_restart_a_new_stream_starts_from_the_restored_game(store: Store) -> None:
    first = LiveServer(create_app(Table(store), store, pin=PIN))
    post(f"{first.url}/api/games", {"players": ["Ann", "Ben"]})
    post(f"{first.url}/api/actions", {"type": "hint"})
    first.stop()
    second = LiveServer(create_app(Table(store), store, pin=PIN))
    s = open_stream(second.port)
    try:
        ev = read_events(s, 1)[0]
        assert ev["actions"] == 1 and ev["hints"] == 7 and ev["last_event"]["kind"] == "restored"
    finally:
        s.close()
        second.stop()


def test_server_has_a_thread_per_live_page_and_sends_writes_at_once(live: LiveServer) -> None:
    from web.app import SSE_MAX_CLIENTS
    from web.server import THREADS
    adj = live.server.adj  # type: ignore[attr-defined]
    assert adj.threads == THREADS >= SSE_MAX_CLIENTS + 4 >= 24 and isinstance(live.server.port, int)
    assert adj.send_bytes == 1


def test_streams_end_after_a_while_so_vanished_phones_free_their_slot() -> None:
    table = Table()
    b = Broadcaster(table, render_of(table), keepalive=0.02, max_stream=0.1)
    try:
        stream = b.stream()
        assert b.clients == 1
        t0 = time.perf_counter()
        rest = list(stream)
        assert 0.09 < time.perf_counter() - t0 < 2 and all(m.startswith(b":") or m.startswith(b"retry")
                                                            for m in rest)
        assert b.clients == 0
    finally:
        b.close()


def test_camera_changes_reach_the_pages_without_a_table_change() -> None:
    table = Table()
    table.new_game(2)
    camera = {"status": "ok"}
    b = Broadcaster(table, lambda: {"camera": camera["status"], **table.snapshot()}, keepalive=5, poll=0.05)
    try:
        stream = b.stream()
        assert parse(next(stream)[len(f"retry: {2000}\n\n"):])["camera"] == "ok"
        camera["status"] = "fault"
        ev = next_state(stream)
        assert ev["camera"] == "fault" and ev["changes"] == []
    finally:
        b.close()


def test_no_new_streams_once_closed() -> None:
    import pytest

    from web.events import TooManyClients
    b = Broadcaster(Table(), lambda: {})
    b.close()
    with pytest.raises(TooManyClients, match="shutting down"):
        b.stream()
