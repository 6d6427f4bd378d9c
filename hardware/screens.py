"""The box's screens: each a small immutable value, drawn by ``render`` into a 128x64 1-bit image.

A screen value holds everything its image depends on, so equal values mean equal images; the
box compares values before drawing and never renders the same thing twice in a row.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from PIL import Image

from companion.game.rating import rating_line
from companion.game.table import Change

from . import qr
from .canvas import HEIGHT, OFF, ON, WIDTH, Canvas, _lines, width
from .messages import card_name, check_language, text
from .status import BootStatus
from .view import PendingCard, View

# Bold is never set at 12 px: at that size the font's hinting merges the dot of the i into its stem.
TITLE = (16, 14, 13, 11)
BIG = (22, 20, 18, 16, 14, 13, 11)
SMALL = (11, 10, 9)
# The camera problems the status screen names; any other fault reads "Camera: fault".
FAULT_LINES = ("model", "profile", "camera")


@dataclass(frozen=True)
class Dashboard:
    """The count during play: hint pips, deck, fuses, pace, score, whose turn, the final round."""

    view: View


@dataclass(frozen=True)
class Flash:
    """A table change, shown for a moment before the dashboard comes back."""

    kind: str
    card: str | None = None
    old: str | None = None
    number: int | None = None
    total: int | None = None
    tile: str | None = None
    names: tuple[str, ...] = ()

    @classmethod
    def of(cls, change: Change) -> Flash:
        p = change.params
        if change.kind == "undo":
            undone = p.get("action", {})
            return cls("undo", card=undone.get("card"), tile=undone.get("tile"))
        number = next((p[k] for k in ("hints", "fuses_used", "turns_left", "actions", "reachable_score", "pace")
                       if k in p), None)
        return cls(change.kind, card=p.get("card"), old=p.get("old"), number=number,
                   total=p.get("fuse_tokens"), tile=p.get("tile"), names=tuple(p.get("players", ())))


@dataclass(frozen=True)
class Prompt:
    """The camera is unsure of a card: its best guess, the alternatives, and which button says what."""

    pending: PendingCard


@dataclass(frozen=True)
class Refusal:
    """A press or an action the rules (or the moment) do not allow; nothing was changed."""

    reason: str                 # a refuse.* key of the catalogue, without the prefix
    card: str | None = None


@dataclass(frozen=True)
class GameOver:
    """The final score and the rulebook's line for it; after a game the camera was often unsure
    in, a suggestion to teach it the deck instead of the line."""

    view: View


@dataclass(frozen=True)
class Status:
    """Where to find the web page, its PIN and whether the camera works; shown at boot, before the
    first game and on a press of OK when no card waits."""

    boot: BootStatus | None
    game: bool = True


@dataclass(frozen=True)
class Teaching:
    """Teaching the family's deck: which card to lay (``lay``), the picture taken waiting for OK
    (``got``; ``doubt``: the value it seems to show instead), every card taken (``complete``), the
    deck being learnt (``fitting``, with ``done`` of ``total`` kinds), and the end (``saved`` or
    ``failed``)."""

    phase: str
    card: str | None = None
    done: int = 0
    total: int = 0
    mat: bool = True
    doubt: str | None = None

    @classmethod
    def of(cls, state: dict[str, Any]) -> Teaching | None:
        """The screen for a teaching state (as ``/api/teach`` gives it); None once nothing is taught."""
        status = state.get("status")
        if not state.get("active"):
            return cls(status) if status in ("saved", "failed") else None
        if status == "fitting":
            progress = state.get("progress") or {}
            return cls("fitting", done=progress.get("done", 0), total=progress.get("total", 0))
        done, total, mat = state.get("done", 0), state.get("total", 0), bool(state.get("mat"))
        if state.get("captured"):
            return cls("got", state["captured"], done, total, mat, state.get("doubt"))
        if status == "complete":
            return cls("complete", None, done, total, mat)
        return cls("lay", state.get("asked"), done, total, mat)


Screen = Dashboard | Flash | Prompt | Refusal | GameOver | Status | Teaching


def render(screen: Screen, lang: str = "en") -> Image.Image:
    """The image of ``screen`` in ``lang`` (en, pl, de, cs)."""
    check_language(lang)
    c = Canvas()
    _DRAW[type(screen)](c, screen, lang)
    return c.image


def _dashboard(c: Canvas, s: Dashboard, lang: str) -> None:
    v = s.view
    diameter, gap = 11, 3
    row = v.hint_tokens * diameter + (v.hint_tokens - 1) * gap
    c.pips((WIDTH - row) // 2, 0, v.hints, v.hint_tokens, diameter, gap)
    cols = ((0, 38), (38, 40), (78, 50))  # deck, fuses, score: (left, width)
    keys = ("final" if v.final_turns_left is not None else "deck", "fuses", "score")
    for (left, w), key in zip(cols, keys, strict=True):
        c.text((left, 13), text(lang, key), SMALL, max_width=w, align="center")
    left, w = cols[0]
    if v.final_turns_left is None:
        c.text((left, 20), str(v.deck), (24,), bold=True, max_width=w, align="center")
    else:  # the deck is empty now: its place counts the last turns down, lit to stand out
        c.invert((left + 6, 25, left + w - 7, 45))
        c.text((left, 20), str(v.final_turns_left), (24,), bold=True, max_width=w, align="center", fill=OFF)
    left, w = cols[1]
    size, gap = 8, 3
    row = v.fuse_tokens * size + (v.fuse_tokens - 1) * gap
    c.fuses(left + (w - row) // 2, 26, v.fuses_used, v.fuse_tokens, size, gap)
    pace, middle = text(lang, "pace", n=v.pace), left + w // 2  # under the fuses, lit once none is spare
    if v.pace <= 0:
        half = width(pace, 9) // 2 + 2
        c.invert((middle - half, 35, middle + half, 45))
    c.text((middle - 22, 34), pace, (9,), max_width=44, align="center", fill=OFF if v.pace <= 0 else ON)
    left, w = cols[2]
    score, of = str(v.score), f"/{v.max_score}"
    total = width(score, 24, True) + width(of, 10)
    x = left + (w - total) // 2
    c.text((x, 20), score, (24,), bold=True)
    c.text((x + width(score, 24, True), 33), of, (10,))
    c.draw.line((0, 46, WIDTH - 1, 46), fill=ON)
    right = text(lang, "reward_due") if v.reward_due else text(lang, "turn", n=v.turn)
    right_w = width(right, 10, bold=v.reward_due)
    c.text((0, 48), "▶ " + v.player, (13, 11), bold=True, max_width=WIDTH - right_w - 4)
    if v.reward_due:
        c.invert((WIDTH - right_w - 3, 49, WIDTH - 1, HEIGHT - 1))
    c.text((WIDTH - 1, 51), right, (10,), bold=v.reward_due, align="right", fill=OFF if v.reward_due else ON)


def _flash_lines(s: Flash, lang: str) -> tuple[str, str, str]:
    """Title, big line and small line of a flash."""
    name = card_name(lang, s.card) if s.card else ""
    tile = text(lang, f"tile.{s.tile}") if s.tile else ""
    k = s.kind
    if k == "hint":
        return text(lang, k), text(lang, "hint.detail", hints=s.number), ""
    if k == "misplay":
        return text(lang, k), name, text(lang, "misplay.detail", used=s.number, tokens=s.total)
    if k in ("played", "discarded"):
        return text(lang, k), name, ""
    if k == "final_round":
        return text(lang, k), text(lang, "final_round.detail", n=s.number), ""
    if k == "last_copy_lost":
        return text(lang, k), name, text(lang, "last_copy_lost.detail", n=s.number)
    if k == "pace_zero":
        return text(lang, k, n=s.number), "", text(lang, "pace_zero.detail")
    if k == "undo":
        return text(lang, k), name or tile or text(lang, "undo.hint"), ""
    if k == "reward":
        return text(lang, k), tile, ""
    if k == "corrected":
        return text(lang, k), name, card_name(lang, s.old) if s.old else ""
    if k in ("reward_revealed", "dismissed"):
        return text(lang, k), "", text(lang, f"{k}.detail")
    if k == "new_game":
        return text(lang, k), "", ", ".join(s.names)
    if k == "restored":
        return text(lang, k), "", text(lang, "restored.detail", n=s.number)
    return text(lang, k), "", ""


def _flash(c: Canvas, s: Flash, lang: str) -> None:
    title, big, small = _flash_lines(s, lang)
    c.invert((0, 0, WIDTH - 1, 18))
    c.text((WIDTH // 2, 1), title, TITLE, bold=True, align="center", fill=OFF)
    if big:
        c.text((WIDTH // 2, 22 if small else 28), big, BIG, bold=True, align="center")
    if small:
        if s.kind == "corrected":
            small = text(lang, "corrected.was", card=small)
        if big:
            c.text((WIDTH // 2, 50), small, SMALL, align="center")
        else:
            c.wrap(20, small, (13, 12, 11, 10))


def _prompt(c: Canvas, s: Prompt, lang: str) -> None:
    p = s.pending
    key = "pending.play" if p.action == "play" else "pending.discard"
    c.text((WIDTH // 2, 0), text(lang, key), (11, 10), bold=True, align="center")
    c.text((WIDTH // 2, 15), card_name(lang, p.card), BIG, bold=True, align="center")
    if p.others:
        others = ", ".join(card_name(lang, o) for o in p.others[:3])
        c.text((WIDTH // 2, 38), text(lang, "pending.or", cards=others), SMALL, align="center")
    c.invert((0, 52, WIDTH - 1, HEIGHT - 1))
    c.text((WIDTH // 2, 52), text(lang, "pending.keys"), (10, 9), bold=True, align="center", fill=OFF)


def _refusal(c: Canvas, s: Refusal, lang: str) -> None:
    c.invert((0, 0, WIDTH - 1, 16))
    c.text((WIDTH // 2, 1), "✗ " + text(lang, "refused"), (13, 11), bold=True, align="center", fill=OFF)
    card = card_name(lang, s.card) if s.card else ""
    c.wrap(18, text(lang, f"refuse.{s.reason}", card=card), (14, 13, 12, 11, 10))


def _game_over(c: Canvas, s: GameOver, lang: str) -> None:
    v = s.view
    c.text((WIDTH // 2, 0), text(lang, f"over.{v.outcome}"), TITLE, bold=True, align="center")
    c.text((WIDTH // 2, 13), f"{v.score}/{v.max_score}", (24,), bold=True, align="center")
    line = (text(lang, "over.teach", asked=v.asked, laid=v.laid) if v.suggest_teaching
            else rating_line(v.score, v.max_score, lang, v.all_or_nothing))
    c.wrap(39, line, (10, 9), line_gap=0)


def _status(c: Canvas, s: Status, lang: str) -> None:
    b = s.boot
    if b is not None and b.pair_url is not None:
        _status_qr(c, b, b.pair_url, lang)
        return
    c.text((WIDTH // 2, 0), text(lang, "status.title" if s.game else "no_game"), (13, 11), bold=True,
           align="center")
    if b is None:  # no game and nothing known yet about the network: say how to begin
        c.wrap(16, text(lang, "no_game.detail"), (14, 13, 12, 11))
        return
    address = f"http://{b.address}" if b.address else text(lang, "status.no_network")
    c.text((WIDTH // 2, 15), address, (12, 11, 10, 9), align="center")
    c.text((WIDTH // 2, 27), text(lang, "status.pin", pin=b.pin), (20, 18, 16), bold=True, align="center")
    specific = b.camera == "fault" and b.problem in FAULT_LINES
    line = text(lang, f"camera.fault.{b.problem}" if specific else f"camera.{b.camera}")
    if b.camera == "ok":
        c.text((WIDTH // 2, 52), line, SMALL, align="center")
    else:  # a missing camera is the one thing at boot someone must act on
        c.invert((0, 51, WIDTH - 1, HEIGHT - 1))
        c.text((WIDTH // 2, 51), line, SMALL, bold=True, align="center", fill=OFF)


# The status screen with a pairing code: the code fills the right square, the words the left column.
QR_BOX = (WIDTH - HEIGHT, 0, WIDTH - 1, HEIGHT - 1)
COLUMN = WIDTH - HEIGHT - 2
# The column's rows (host, ":port", "PIN", the PIN) and the sizes of the address and the PIN, by the
# lines the camera's lit bar takes at the bottom (0: the camera works, one plain line says so).
_COLUMN_ROWS: dict[int, tuple[tuple[int, int, int, int], tuple[int, ...], tuple[int, ...]]] = {
    0: ((0, 12, 24, 34), (11, 10, 9, 8), (18, 16, 14, 13)),
    1: ((0, 11, 22, 31), (10, 9, 8), (16, 14, 13)),
    2: ((0, 9, 18, 26), (9, 8), (13, 12, 11)),
}


def _status_qr(c: Canvas, b: BootStatus, url: str, lang: str) -> None:
    """The page's address and PIN beside the QR code a phone scans to pair without typing them."""
    qr.draw(c, url, QR_BOX)
    specific = b.camera == "fault" and b.problem in FAULT_LINES
    line = text(lang, f"camera.fault.{b.problem}" if specific else f"camera.{b.camera}")
    bar: list[str] = []
    if b.camera == "ok":
        c.text((0, 54), line, (9,), max_width=COLUMN, align="center")
    else:  # a camera that does not work is the one thing someone must act on: lit, in up to two lines
        bar = _lines(line, COLUMN - 2, 9, False)
        bar = bar[:1] + [" ".join(bar[1:])] if len(bar) > 2 else bar
    rows, address_sizes, pin_sizes = _COLUMN_ROWS[len(bar)]
    host, _, port = (b.address or "").rpartition(":")
    size = min(c.fit(host, COLUMN, address_sizes), c.fit(f":{port}", COLUMN, address_sizes))
    for y, words, sizes, bold in ((rows[0], host, (size,), False), (rows[1], f":{port}", (size,), False),
                                  (rows[2], text(lang, "status.pin_label"), (9,), False),
                                  (rows[3], b.pin, pin_sizes, True)):
        c.text((0, y), words, sizes, bold=bold, max_width=COLUMN, align="center")
    if bar:
        top = HEIGHT - 10 * len(bar) - 1
        c.invert((0, top - 1, COLUMN - 1, HEIGHT - 1))
        for i, row in enumerate(bar):
            c.text((0, top + 10 * i - 1), row, (9,), max_width=COLUMN, align="center", fill=OFF)


def _teaching(c: Canvas, s: Teaching, lang: str) -> None:
    if s.phase in ("saved", "failed"):
        c.invert((0, 0, WIDTH - 1, 18))
        c.text((WIDTH // 2, 1), text(lang, f"teach.{s.phase}"), TITLE, bold=True, align="center", fill=OFF)
        c.wrap(22, text(lang, f"teach.{s.phase}.detail"), (14, 13, 12, 11, 10))
        return
    if s.phase == "fitting":
        c.text((WIDTH // 2, 0), text(lang, "teach.fitting"), (13, 11), bold=True, align="center")
        c.draw.rectangle((4, 24, WIDTH - 5, 38), outline=ON)
        if s.total:
            c.draw.rectangle((6, 26, 6 + (WIDTH - 13) * s.done // s.total, 36), fill=ON)
        c.text((WIDTH // 2, 44), f"{s.done}/{s.total}", (13, 11), bold=True, align="center")
        return
    if s.phase == "complete":
        c.text((WIDTH // 2, 2), text(lang, "teach.complete", total=s.total), TITLE, bold=True, align="center")
        c.text((WIDTH // 2, 24), text(lang, "teach.count", done=s.done, total=s.total), SMALL, align="center")
        c.invert((0, 52, WIDTH - 1, HEIGHT - 1))
        c.text((WIDTH // 2, 52), text(lang, "teach.complete.keys"), (10, 9), bold=True, align="center", fill=OFF)
        return
    title = text(lang, "teach.doubt", value=s.doubt) if s.doubt else text(lang, "teach.got" if s.phase == "got"
                                                                           else "teach.lay")
    c.text((WIDTH // 2, 0), title, (13, 11), bold=True, align="center")
    if s.card:
        c.text((WIDTH // 2, 15), card_name(lang, s.card), BIG, bold=True, align="center")
    if s.phase == "got":
        bottom = text(lang, "teach.keys")
    else:
        bottom = text(lang, "teach.count" if s.mat else "teach.no_mat", done=s.done, total=s.total)
    if s.phase == "got" or not s.mat:  # something to do: lit
        c.invert((0, 52, WIDTH - 1, HEIGHT - 1))
        c.text((WIDTH // 2, 52), bottom, (10, 9), bold=True, align="center", fill=OFF)
    else:
        c.text((WIDTH // 2, 52), bottom, SMALL, align="center")
    if s.phase == "lay" and s.done and s.total:
        c.draw.rectangle((0, 44, (WIDTH - 1) * s.done // s.total, 46), fill=ON)


_DRAW: dict[type, Any] = {Dashboard: _dashboard, Flash: _flash, Prompt: _prompt, Refusal: _refusal,
                          GameOver: _game_over, Status: _status, Teaching: _teaching}
