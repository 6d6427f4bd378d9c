"""The OpenAPI description served at ``/api/openapi.json``: the HTTP contract, machine-readable."""
from __future__ import annotations

from typing import Any

from companion.game.variants import PRESETS

from .auth import PIN_HEADER
from .commands import ACTION_FIELDS
from .i18n import LANGUAGES

CARD = {"type": "string", "pattern": "^[rygbwmkRYGBWMK][1-5]$", "example": "r3",
        "description": "suit letter (r y g b w m k) and value 1-5"}


def _error(description: str) -> dict[str, Any]:
    return {"description": description,
            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}


WRITE_ERRORS = {
    "400": _error("bad input (wrong type, unknown card or field); the table is unchanged"),
    "401": _error("no PIN: send X-Table-PIN or enter it on the page"),
    "403": _error("wrong PIN, or a cross-site request"),
    "409": _error("the rules forbid this action now; the table is unchanged"),
    "429": _error("too many wrong PINs; wait a minute"),
}


TEACH_STATE = {
    "type": "object",
    "description": "The lesson: which card kind to lay in PLAY (`asked`), the picture waiting for OK "
                   "(`captured`), the kinds kept (`taken`), and at the end where the profile and the "
                   "settings are. `version` counts changes.",
    "properties": {
        "active": {"type": "boolean", "description": "a lesson runs or its profile is being fitted: "
                                                     "the camera judges no card meanwhile"},
        "status": {"type": "string", "enum": ["idle", "waiting", "seen", "captured", "complete", "fitting",
                                              "saved", "failed", "cancelled"]},
        "variant": {"$ref": "#/components/schemas/Variant"},
        "kinds": {"type": "array", "items": {"$ref": "#/components/schemas/Card"}},
        "taken": {"type": "array", "items": {"$ref": "#/components/schemas/Card"}},
        "asked": {"type": "string", "nullable": True}, "captured": {"type": "string", "nullable": True},
        "doubt": {"type": "string", "nullable": True,
                  "description": "the value the picture waiting for OK seems to show instead of its kind's: "
                                 "a card skipped or not seen laid; the next card laid replaces that picture"},
        "done": {"type": "integer"}, "total": {"type": "integer"},
        "mat": {"type": "boolean", "description": "the mat (or the configured zones) is in view"},
        "version": {"type": "integer"},
        "pictures": {"type": "integer", "description": "pictures taken so far in this lesson"},
        "progress": {"type": "object", "nullable": True,
                     "properties": {"done": {"type": "integer"}, "total": {"type": "integer"}}},
        "profile": {"type": "string", "nullable": True}, "settings": {"type": "string", "nullable": True},
        "error": {"type": "string", "nullable": True,
                  "enum": ["fit_failed", "save_failed", "settings_failed", None]},
        "message": {"type": "string", "nullable": True}},
}
TEACH_ERRORS = {
    "401": _error("no PIN"), "403": _error("wrong PIN, or a cross-site request"),
    "404": _error("this box has no camera service (`reason`: no_teacher)"),
    "409": _error("not now (`reason`: not_teaching, nothing_captured, busy, or incomplete with `missing`)"),
    "429": _error("too many wrong PINs; wait a minute"),
}


def teach_paths() -> dict[str, Any]:
    """``/api/teach``: teaching the family's own deck with the box's camera."""
    pin: list[dict[str, list[str]]] = [{"pin": []}, {"pinCookie": []}]
    state = {"description": "the lesson", "content": _json("TeachState")}

    def write(summary: str, ok: str = "200", body: dict[str, Any] | None = None,
              errors: dict[str, Any] | None = None) -> dict[str, Any]:
        op: dict[str, Any] = {"summary": summary, "security": pin,
                              "responses": {ok: state, **TEACH_ERRORS, **(errors or {})}}
        if body is not None:
            op["requestBody"] = {"required": False, "content": {"application/json": {"schema": body}}}
        return {"post": op}

    return {
        "/api/teach": {
            "get": {"summary": "The lesson now (status idle when none ran yet)",
                    "responses": {"200": state, "404": TEACH_ERRORS["404"]}},
            **write("Start teaching the card kinds of a variant; the camera judges no card until it ends", "201",
                    {"type": "object", "properties": {"variant": {"$ref": "#/components/schemas/Variant"}}},
                    errors={"400": _error("unknown variant (`reason`: bad_variant) or field"),
                            "503": _error("no camera, camera fault or no card model (`reason`: no_camera, "
                                          "camera_fault, model_missing)")})},
        "/api/teach/confirm": write("Keep the picture waiting for OK (the OK button)"),
        "/api/teach/retake": write("Take a kind again: `card`, else the picture waiting for OK or the last kept",
                                   body={"type": "object",
                                         "properties": {"card": {"$ref": "#/components/schemas/Card"}}},
                                   errors={"400": _error("not a card of this lesson (`reason`: unknown_kind)")}),
        "/api/teach/cancel": write("Stop the lesson; nothing is saved and the camera judges again"),
        "/api/teach/finish": write("Fit the profile in the background (follow `progress`), save it, put it "
                                   "into the settings and judge with it", "202"),
        "/api/teach/crops/{name}.png": {"get": {
            "summary": "The picture taken of a card kind in this lesson",
            "parameters": [{"name": "name", "in": "path", "required": True, "schema": CARD}],
            "responses": {"200": {"description": "PNG", "content": {"image/png": {"schema": {"type": "string",
                                                                                             "format": "binary"}}}},
                          "400": _error("not a card"), "404": _error("no picture of it (`reason`: no_picture)")}}},
    }


SPEECH_STATE = {
    "type": "object",
    "description": "Spoken announcements: the box says each change aloud in the game's language "
                   "(espeak-ng on the box's speaker).",
    "properties": {
        "on": {"type": "boolean"},
        "available": {"type": "boolean", "description": "false when espeak-ng is not installed on the box"},
        "reason": {"type": "string", "nullable": True, "enum": ["no_engine", "engine_failed", None],
                   "description": "no_engine: espeak-ng is missing; engine_failed: the last sentence could "
                                  "not be said (no sound card?)"},
        "message": {"type": "string", "nullable": True, "description": "what to do about `reason`"},
        "voice": {"type": "string", "description": "the espeak-ng voice of [box] speech_voice; \"\" follows "
                                                   "the game's language"}},
}


def speech_path() -> dict[str, Any]:
    """``/api/speech``: spoken announcements on or off (until the box restarts; ``[box] speech`` keeps it)."""
    state = {"description": "speech now", "content": _json("Speech")}
    no_speech = _error("this app has no speech (`reason`: no_speech)")
    return {
        "get": {"summary": "Whether the box speaks, and whether it can", "responses": {"200": state, "404": no_speech}},
        "post": {"summary": "Turn spoken announcements on or off",
                 "security": [{"pin": []}, {"pinCookie": []}],
                 "requestBody": {"required": True, "content": {"application/json": {"schema": {
                     "type": "object", "required": ["on"], "additionalProperties": False,
                     "properties": {"on": {"type": "boolean"}}}}}},
                 "responses": {"200": state, "400": WRITE_ERRORS["400"], "401": WRITE_ERRORS["401"],
                               "403": WRITE_ERRORS["403"], "404": no_speech, "429": WRITE_ERRORS["429"],
                               "503": _error("no espeak-ng on the box (`reason`: no_engine): speech stays off")}}}


def _json(ref: str) -> dict[str, Any]:
    return {"application/json": {"schema": {"$ref": f"#/components/schemas/{ref}"}}}


def document() -> dict[str, Any]:
    """The whole description; built on request so it always matches the code it documents."""
    kinds = list(ACTION_FIELDS)
    return {
        "openapi": "3.0.3",
        "info": {"title": "Hanabi table companion", "version": "1",
                 "description": "Watch a game of Hanabi live and change it with the pairing PIN shown on "
                                "the box. Reads are open to anyone on the network; every write needs the "
                                f"PIN in the {PIN_HEADER} header (or the cookie set by entering it on the "
                                "page) and leaves the table unchanged when refused."},
        "components": {
            "securitySchemes": {
                "pin": {"type": "apiKey", "in": "header", "name": PIN_HEADER},
                "pinCookie": {"type": "apiKey", "in": "cookie", "name": "table_pin"}},
            "schemas": {
                "Error": {"type": "object", "required": ["error"],
                          "properties": {"error": {"type": "string"}, "status": {"type": "integer"}}},
                "Card": CARD,
                "Variant": {"oneOf": [{"type": "string", "enum": list(PRESETS)},
                                      {"type": "object", "properties": {"preset": {"enum": list(PRESETS)}},
                                       "additionalProperties": True}]},
                "Action": {
                    "type": "object", "required": ["type"], "additionalProperties": False,
                    "description": "A table-log action (hint, play, discard, reward) or a table command: "
                                   "undo (the last action, an unsure card or an ended game), correct (the "
                                   "card of action `index`; later actions are judged again), confirm (the "
                                   "unsure card, or `card` instead), end (end the game now).",
                    "properties": {"type": {"type": "string", "enum": kinds},
                                   "card": {"$ref": "#/components/schemas/Card"},
                                   "to": {"type": "integer", "minimum": 0},
                                   "clue": {"type": "string", "example": "r"},
                                   "announce": {"type": "string", "example": "g"},
                                   "tile": {"type": "string"},
                                   "as": {"type": "string", "enum": ["rescue"]},
                                   "index": {"type": "integer", "minimum": 0}}},
                "NewGame": {
                    "type": "object", "required": ["players"], "additionalProperties": False,
                    "properties": {"players": {"oneOf": [
                                       {"type": "array", "items": {"type": "string", "maxLength": 24},
                                        "minItems": 2, "maxItems": 5},
                                       {"type": "integer", "minimum": 2, "maximum": 5}]},
                                   "variant": {"$ref": "#/components/schemas/Variant"},
                                   "first_player": {"type": "integer", "minimum": 0},
                                   "lang": {"type": "string", "enum": list(LANGUAGES)}}},
                "State": {
                    "type": "object",
                    "description": "The replay fields (score, max_score, reachable_score, hints, hint_tokens, "
                                   "fuses_used, fuse_tokens, deck, fireworks, discards, turn, current_player, "
                                   "final_turns_left, over, outcome, reason, rating) plus players, variant, "
                                   "actions (count), log (the actions), last_event, pending, asked, "
                                   "cards_shown, suggest_teaching, camera, camera_reason, storage, lang.",
                    "properties": {"asked": {"type": "integer", "minimum": 0,
                                             "description": "cards the camera was unsure of and asked about "
                                                            "in this game (pending), confirmed or not"},
                                   "cards_shown": {"type": "integer", "minimum": 0,
                                                   "description": "cards this game showed the camera: those "
                                                                  "played or discarded, or those asked about "
                                                                  "where they are more (a card still waiting, "
                                                                  "one dismissed); what suggest_teaching "
                                                                  "weighs asked against"},
                                   "suggest_teaching": {"type": "boolean",
                                                        "description": "the camera asked about so many of this "
                                                                       "game's cards (at least 5, and a fifth of "
                                                                       "those laid) that teaching the deck is "
                                                                       "suggested"},
                                   "camera": {"type": "string", "enum": ["ok", "missing", "fault"]},
                                   "camera_reason": {"type": "string", "nullable": True,
                                                     "description": "why the camera is not ok, in one line "
                                                                    "(English), e.g. a missing deck profile; "
                                                                    "null when it is ok or there is nothing "
                                                                    "to add"},
                                   "storage": {"type": "string", "nullable": True,
                                               "enum": ["disk_full", "write_failed", "read_only", None],
                                               "description": "why the last change could not be saved; null "
                                                              "once a save succeeds again"},
                                   "actions": {"type": "integer"},
                                   "outcome": {"type": "string",
                                               "enum": ["no_game", "in_progress", "won", "lost", "finished"]}},
                    "additionalProperties": True},
                "TableLog": {"type": "object", "required": ["variant", "players", "actions"],
                             "properties": {"variant": {"$ref": "#/components/schemas/Variant"},
                                            "players": {"type": "array", "items": {"type": "string"}},
                                            "actions": {"type": "array",
                                                        "items": {"$ref": "#/components/schemas/Action"}}}},
                "TeachState": TEACH_STATE,
                "Speech": SPEECH_STATE,
                "GameRecord": {"type": "object", "properties": {
                    k: {"type": t} for k, t in (("id", "integer"), ("created", "number"), ("updated", "number"),
                                                ("actions", "integer"), ("score", "integer"),
                                                ("max_score", "integer"), ("outcome", "string"))}
                    | {"lang": {"type": "string", "nullable": True, "enum": [*LANGUAGES, None],
                                "description": "the language chosen for the game (null: the box's own)"}}},
            },
        },
        "paths": {
            "/api/state": {"get": {"summary": "The table now",
                                   "responses": {"200": {"description": "the state", "content": _json("State")}}}},
            "/api/actions": {"post": {
                "summary": "One action or table command", "security": [{"pin": []}, {"pinCookie": []}],
                "requestBody": {"required": True, "content": _json("Action")},
                "responses": {"200": {"description": "done: the change and the new state"}, **WRITE_ERRORS}}},
            "/api/games": {
                "get": {"summary": "Every stored game, oldest first",
                        "responses": {"200": {"description": "{\"games\": [GameRecord...]}"}}},
                "post": {"summary": "Start a new game", "security": [{"pin": []}, {"pinCookie": []}],
                         "requestBody": {"required": True, "content": _json("NewGame")},
                         "responses": {"201": {"description": "the new game's state", "content": _json("State")},
                                       **WRITE_ERRORS}}},
            "/api/games/{id}/log": {"get": {
                "summary": "A game as a table log (`?download=1` to save it as a file)",
                "parameters": [{"name": "id", "in": "path", "required": True, "schema": {"type": "integer"}}],
                "responses": {"200": {"description": "the table log", "content": _json("TableLog")},
                              "404": _error("no such game")}}},
            "/games/{id}.csv": {"get": {
                "summary": "A game as a CSV file to save: a header row, then one row per action (index, player, "
                           "type, card, to, clue, announce, tile, as) with the score, hint tokens, fuses used "
                           "and deck after it; UTF-8 with a byte-order mark",
                "parameters": [{"name": "id", "in": "path", "required": True, "schema": {"type": "integer"}}],
                "responses": {"200": {"description": "the CSV file (Content-Disposition: attachment)",
                                      "content": {"text/csv": {"schema": {"type": "string"}}}},
                              "404": {"description": "no such game (plain text)"}}}},
            "/api/events": {"get": {
                "summary": "Server-Sent Events: the state at once, then one `state` event per change",
                "responses": {"200": {"description": "text/event-stream; `data` is the State plus `changes`",
                                      "content": {"text/event-stream": {"schema": {"type": "string"}}}},
                              "503": _error("every live-update slot is in use; retry later")}}},
            "/pair/{token}": {"get": {
                "summary": "Pair a phone by the one-time token of the QR code on the box's screen (what the "
                           "code holds); a token works once, within five minutes, and a refused one counts "
                           "as a wrong PIN",
                "parameters": [{"name": "token", "in": "path", "required": True, "schema": {"type": "string"}}],
                "responses": {"303": {"description": "paired: the PIN cookie is set, on to the table page"},
                              "403": {"description": "the token was already used or is too old (the PIN "
                                                     "form, saying so), or was sent to another host"},
                              "429": {"description": "too many wrong PINs or tokens: wait and try again"}}}},
            "/api/buttons/{name}": {"post": {
                "summary": "Press a button of the box (demo only)", "security": [{"pin": []}, {"pinCookie": []}],
                "parameters": [{"name": "name", "in": "path", "required": True,
                                "schema": {"type": "string", "enum": ["hint", "undo", "ok"]}}],
                "responses": {"200": {"description": "the state after the press", "content": _json("State")},
                              "404": _error("this box has no page buttons"), **WRITE_ERRORS}}},
            **teach_paths(),
            "/api/speech": speech_path(),
            "/api/openapi.json": {"get": {"summary": "This description",
                                          "responses": {"200": {"description": "OpenAPI 3"}}}},
        },
    }
