"""The HTML pages: the live table, game setup, history, PIN entry and the demo's OLED image."""
from __future__ import annotations

import io
import json
from datetime import datetime
from typing import Any
from urllib.parse import urlsplit

from babel.dates import format_datetime
from babel.numbers import format_decimal
from flask import Blueprint, Response, abort, g, redirect, render_template, request
from markupsafe import Markup
from werkzeug.wrappers import Response as BaseResponse

from companion.game.rating import lines
from companion.game.store import clock_was_set
from companion.game.variants import PRESETS
from companion.words import SUITS

from .auth import COOKIE_MAX_AGE, PIN_COOKIE, Refused, check_same_site
from .chart import score_chart
from .context import BUTTONS, ctx
from .export import NoGame, find_log, to_csv
from .i18n import LANGUAGE_NAMES
from .i18n import gettext as _
from .stats import figures, final_fireworks, variant_label

bp = Blueprint("pages", __name__)

# The values each variant option takes (from the house plan), in the order the form offers them.
OPTION_VALUES: dict[str, tuple[Any, ...]] = {
    "hint_tokens": (8, 9), "fuse_tokens": (3, 2, 1), "multicolor": ("none", "suit", "wild"),
    "multicolor_cards": (10, 5), "black_powder": (False, True), "rewards": (False, True),
    "all_or_nothing": (False, True), "synchronized_show": (False, True),
    "strikeout_score": ("zero", "fireworks"), "allow_discard_at_max_hints": (False, True),
}


def option_choices() -> dict[str, tuple[str, list[tuple[str, str]]]]:
    """Variant options for the setup form: label and (JSON value, label) per choice."""
    names = {"hint_tokens": _("Hint tokens"), "fuse_tokens": _("Fuse tokens"),
             "multicolor": _("Multicolour suit"), "multicolor_cards": _("Multicolour cards"),
             "black_powder": _("Black powder"), "rewards": _("Five Magnificent reward tiles"),
             "all_or_nothing": _("All or nothing"), "synchronized_show": _("Synchronized show"),
             "strikeout_score": _("Score when the last fuse burns"),
             "allow_discard_at_max_hints": _("Allow discarding with all hint tokens")}
    words = {"none": _("none"), "suit": _("as a sixth suit"), "wild": _("wild"), "zero": _("zero"),
             "fireworks": _("what was built")}
    out = {}
    for name, label in names.items():
        choices = []
        for value in OPTION_VALUES[name]:
            text = (_("yes") if value else _("no")) if isinstance(value, bool) else words.get(value, str(value))
            choices.append((json.dumps(value), text))
        out[name] = (label, choices)
    return out


def suit_names() -> dict[str, str]:
    """The suits as the OLED names them too (one catalogue): "red 3", "czerwona 3"."""
    return {suit: _(message.text) for suit, message in SUITS.items()}


def client_strings() -> dict[str, str]:
    """Text the page's script needs, in the page's language; ``%(name)s`` takes event parameters."""
    return {
        "new_game": _("New game: %(players)s"), "hint": _("Hint given: %(hints)s tokens left"),
        "discarded": _("%(card)s discarded"), "played": _("%(card)s played"),
        "misplay": _("Misplay: fuse %(fuses_used)s of %(fuse_tokens)s"),
        "reward_revealed": _("Firework complete: reveal a reward tile"),
        "reward": _("Reward tile: %(tile)s"), "final_round": _("Final round: %(turns_left)s turns left"),
        "game_over": _("Game over: score %(score)s"), "undo": _("Last action undone"),
        "dismissed": _("Unsure card dismissed"), "resumed": _("Game resumed"),
        "corrected": _("Action %(index)s: %(old)s corrected to %(card)s"),
        "pending": _("Unsure card: is it %(card)s?"), "restored": _("Game restored after a restart"),
        "turn_of": _("%(player)s to play"), "final_turns": _("Final round: %(n)s turns left"),
        "won": _("All fireworks complete!"), "lost": _("The show is over: the fireworks went out"),
        "finished": _("The show is over"), "no_game": _("No game yet"),
        "live": _("live"), "offline": _("reconnecting…"),
        "camera_ok": _("camera ok"), "camera_missing": _("no camera"), "camera_fault": _("camera fault"),
        "storage_disk_full": _("SD card full: nothing more is saved"),
        "storage_write_failed": _("SD card error: the last action was not saved"),
        "storage_read_only": _("SD card read-only: nothing more is saved"),
        "act_hint": _("hint"), "act_play": _("play"), "act_discard": _("discard"), "act_reward": _("reward"),
        "correct_to": _("→ %(card)s"), "pick_card": _("Pick a card first"),
        "need_pin": _("Enter the PIN shown on the box to change the game."),
        "confirm_end": _("End this game now?"), "unsure": _("The camera is unsure: is it %(card)s?"),
        "reason_complete": _("Every firework is complete."), "reason_fuse": _("The last fuse burned."),
        "reason_final": _("The final round is over."),
        "reason_card_lost": _("A card needed to finish a firework has no copy left."),
        "reason_stuck": _("No player can act: no cards and no hint tokens left."),
        "reason_ended": _("The game was ended at the table."),
        "last_copies": _("Last copies still needed: %(cards)s"), "empty": _("none yet"),
        "tile_hint": _("a hint token"), "tile_fuse": _("a fuse back"), "tile_color_clue": _("a free colour clue"),
        "tile_value_clue": _("a free value clue"), "tile_reshuffle": _("a discard back into the deck"),
        "tile_rescue": _("a discard onto its firework"),
        "no_announce": _("no colour announced"),
        "last_copy_lost": _("Last copy of %(card)s lost: the best score now reachable is %(reachable_score)s"),
        "pace_zero": _("Pace %(pace)s: from now on every discard loses points"),
        "teach_nudge": _("The camera was unsure of %(asked)s of the %(laid)s cards laid in this game. Teach it "
                         "your deck once, a photo of each card, and it will read them surely."),
    }


def page(template: str, **kw: Any) -> str:
    c = ctx()
    return render_template(template, lang=g.lang, languages=LANGUAGE_NAMES, paired=paired(),
                           demo=c.oled_image is not None or c.buttons is not None, **kw)


def paired() -> bool:
    cookie = request.cookies.get(PIN_COOKIE)
    return cookie is not None and ctx().pairing.cookie_ok(cookie)


@bp.get("/")
def table() -> str:
    c = ctx()
    boot = {"strings": client_strings(), "suits": suit_names(), "ratings": lines(g.lang),
            "lang": g.lang, "buttons": list(BUTTONS) if c.buttons is not None else [],
            "oled": c.oled_image is not None}
    # JSON inside <script type="application/json">: escape "<" so no text can close the tag.
    data = Markup(json.dumps(boot, ensure_ascii=False).replace("<", "\\u003c"))
    return page("table.html", boot=data, buttons=boot["buttons"], oled=boot["oled"])


@bp.get("/setup")
def setup() -> str:
    st = ctx().table.snapshot()
    speech = ctx().speech
    return page("setup.html", presets=list(PRESETS), options=option_choices(),
                players=st.get("players") or ["", "", ""], game_lang=ctx().game_lang(),
                speech=speech.status() if speech is not None else None)


@bp.get("/history")
def history() -> str:
    store = ctx().store
    records = store.games() if store is not None else []
    figs = figures(records)
    options = {**option_choices(), "black_values": (_("Black card values"), [])}
    per_variant = []
    for f in figs.variants if store is not None else ():
        assert store is not None  # for the type checker: the loop runs only with a store
        label = variant_label(f.variant, options)
        per_variant.append({"figures": f, "label": label, "fireworks": final_fireworks(store, f.best_game),
                            "chart": score_chart(f.points, _("Scores over time: %(variant)s", variant=label), "")})
    return page("history.html", games=[r.as_dict() for r in reversed(records)], figures=figs,
                per_variant=per_variant, suits=suit_names(), has_store=store is not None)


@bp.get("/games/<int:game_id>.csv")
def game_csv(game_id: int) -> Response:
    """A game as a spreadsheet, one row per action (the table log is ``/api/games/<id>/log``)."""
    c = ctx()
    try:
        log = find_log(c.table, c.store, game_id)
    except NoGame as e:
        return Response(f"{e}; the history page lists the games there are.", 404, mimetype="text/plain")
    return Response(to_csv(log), mimetype="text/csv",
                    headers={"Content-Disposition": f'attachment; filename="hanabi-game-{game_id}.csv"'})


@bp.app_template_filter("decimal")
def decimal(value: float) -> str:
    """A number as the page's language writes it (22.5, 22,5)."""
    return format_decimal(value, locale=g.lang)


def teach_strings() -> dict[str, str]:
    """Text the teaching page's script needs, in the page's language."""
    return {
        "lay": _("Lay this card in PLAY: %(card)s"), "waiting": _("Waiting for the card…"),
        "seen": _("Card seen: hold still…"), "captured": _("Got %(card)s. Is the picture right?"),
        "doubt": _("This card looks like a %(value)s, not %(card)s. Lay %(card)s on top, or press OK if the "
                   "picture is right."),
        "complete": _("Every card is taken: finish to teach the box."),
        "no_mat": _("The play mat is not in view: are all four corner markers visible?"),
        "fitting": _("Learning your deck… %(done)s of %(total)s"),
        "saved": _("Saved: the box now reads your deck with this profile."),
        "settings": _("The settings use it from now on: %(path)s"),
        "failed": _("Teaching failed: %(message)s"), "cancelled": _("Teaching cancelled."),
        "count": _("%(done)s of %(total)s cards"), "retake": _("Retake"),
        "need_pin": _("Enter the PIN shown on the box to teach it."),
    }


@bp.get("/teach")
def teach() -> str:
    c = ctx()
    boot = {"strings": teach_strings(), "suits": suit_names(), "lang": g.lang,
            "available": c.teacher is not None}
    data = Markup(json.dumps(boot, ensure_ascii=False).replace("<", "\\u003c"))
    variant = c.table.snapshot().get("variant") or "base"
    preset = variant if isinstance(variant, str) else variant.get("preset", "base")
    return page("teach.html", boot=data, presets=list(PRESETS), preset=preset, available=c.teacher is not None)


@bp.get("/pin")
def pin_form() -> str:
    return page("pin.html", next=safe_next(request.args.get("next")), error=None)


@bp.post("/pin")
def pin_enter() -> BaseResponse | tuple[str, int]:
    nxt = safe_next(request.form.get("next"))
    try:
        check_same_site(request)
        ctx().pairing.enter(request, request.form.get("pin", ""))
    except Refused as e:
        return page("pin.html", next=nxt, error=refusal_text(e)), e.status
    return paired_redirect(nxt)


@bp.get("/pair/<token>")
def pair(token: str) -> BaseResponse | tuple[str, int]:
    """A phone that scanned the QR code on the box's screen: paired by its one-time token, then on
    to the table; a used or stale code shows the PIN form saying so. A phone paired already leaves
    the code to the next phone."""
    if paired():
        return redirect("/", code=303)
    try:
        ctx().pairing.scan(request, token)
    except Refused as e:
        return page("pin.html", next="/", error=refusal_text(e)), e.status
    return paired_redirect("/")


def refusal_text(e: Refused) -> str:
    """Why the PIN form is shown again, in the page's language."""
    messages = {"throttled": _("Too many wrong PINs: wait a minute and try again."),
                "wrong_pin": _("Wrong PIN: use the PIN shown on the box's screen."),
                "token_used": _("This QR code was already used: press OK on the box for a fresh one, "
                                "or enter the PIN shown there."),
                "token_unknown": _("This QR code is too old: press OK on the box for a fresh one, "
                                   "or enter the PIN shown there.")}
    return messages.get(e.code, str(e))


def paired_redirect(target: str) -> BaseResponse:
    """On to ``target`` with the cookie that stands for the PIN."""
    resp = redirect(target, code=303)
    resp.set_cookie(PIN_COOKIE, ctx().pairing.cookie_value(), max_age=COOKIE_MAX_AGE, httponly=True,
                    samesite="Strict")
    return resp


@bp.get("/oled.png")
def oled() -> Response:
    c = ctx()
    if c.oled_image is None:
        abort(404)
    buf = io.BytesIO()
    c.oled_image().save(buf, format="PNG")
    return Response(buf.getvalue(), mimetype="image/png", headers={"Cache-Control": "no-store"})


def safe_next(value: str | None) -> str:
    """Only a path on this box may follow the PIN form (no open redirect)."""
    if not value or not value.startswith("/") or value.startswith("//") or "\\" in value \
            or urlsplit(value).netloc:
        return "/"
    return value


@bp.app_template_filter("when")
def when(timestamp: float) -> str:
    """A time as the page's language writes it (the box's local time); unknown when the box's clock
    was not set yet."""
    if not clock_was_set(timestamp):
        return _("date unknown")
    return format_datetime(datetime.fromtimestamp(timestamp), "short", locale=g.lang)
