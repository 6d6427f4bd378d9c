"""What the box says aloud after each table change, in the box's four languages.

Spoken words differ from printed ones: numbers are words ("red three", not "r3"), and Polish and
Czech numbers and nouns agree ("zostały dwa żetony", "zostało pięć żetonów"). Suits and tokens are
named as each edition's rulebook names them (the Polish "kafelek pomyłki", the German "Blitz", the
Czech "červený žeton"). Player names are said as they were typed.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from companion.game.cards import parse_card
from companion.game.rating import rating_line
from companion.game.tablelog import player_names
from companion.game.variants import Variant
from companion.words import LANGUAGES, N_, NP_, Message, npgettext, translate

# -- numbers ------------------------------------------------------------------------------------------

_ONES = {
    "en": ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven",
           "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen"),
    "pl": ("zero", "jeden", "dwa", "trzy", "cztery", "pięć", "sześć", "siedem", "osiem", "dziewięć", "dziesięć",
           "jedenaście", "dwanaście", "trzynaście", "czternaście", "piętnaście", "szesnaście", "siedemnaście",
           "osiemnaście", "dziewiętnaście"),
    "de": ("null", "eins", "zwei", "drei", "vier", "fünf", "sechs", "sieben", "acht", "neun", "zehn", "elf",
           "zwölf", "dreizehn", "vierzehn", "fünfzehn", "sechzehn", "siebzehn", "achtzehn", "neunzehn"),
    "cs": ("nula", "jedna", "dva", "tři", "čtyři", "pět", "šest", "sedm", "osm", "devět", "deset", "jedenáct",
           "dvanáct", "třináct", "čtrnáct", "patnáct", "šestnáct", "sedmnáct", "osmnáct", "devatenáct"),
}
_TENS = {
    "en": ("twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"),
    "pl": ("dwadzieścia", "trzydzieści", "czterdzieści", "pięćdziesiąt", "sześćdziesiąt", "siedemdziesiąt",
           "osiemdziesiąt", "dziewięćdziesiąt"),
    "de": ("zwanzig", "dreißig", "vierzig", "fünfzig", "sechzig", "siebzig", "achtzig", "neunzig"),
    "cs": ("dvacet", "třicet", "čtyřicet", "padesát", "šedesát", "sedmdesát", "osmdesát", "devadesát"),
}
_MINUS = {"en": "minus", "pl": "minus", "de": "minus", "cs": "mínus"}
# 1 and 2 before a noun take its gender: (masculine, feminine, neuter)
_GENDERED = {
    "pl": {1: ("jeden", "jedna", "jedno"), 2: ("dwa", "dwie", "dwa")},
    "de": {1: ("ein", "eine", "ein")},
    "cs": {1: ("jeden", "jedna", "jedno"), 2: ("dva", "dvě", "dvě")},
}
_GENDERS = "mfn"


def number(n: int, lang: str, gender: str = "") -> str:
    """``n`` in words; ``gender`` (m, f, n) when it counts a noun of that gender, "" said alone.
    Numbers beyond ±99 never occur at the table; they are left as digits, which the voice reads."""
    if n < 0:
        return f"{_MINUS[lang]} {number(-n, lang, gender)}"
    if n >= 100:
        return str(n)
    if n < 20:
        forms = _GENDERED.get(lang, {}).get(n)
        return forms[_GENDERS.index(gender)] if forms and gender else _ONES[lang][n]
    tens, ones = _TENS[lang][n // 10 - 2], n % 10
    if ones == 0:
        return tens
    if lang == "en":
        return f"{tens}-{_ONES['en'][ones]}"
    if lang == "de":
        return f"{'ein' if ones == 1 else _ONES['de'][ones]}und{tens}"
    if lang == "pl" and ones == 1:
        return f"{tens} jeden"  # "dwadzieścia jeden" whatever it counts
    return f"{tens} {number(ones, lang, gender)}"


def ordinal(n: int, lang: str) -> str:
    """First to fifth, masculine (the fuse, Blitz and žeton are): the fuse counts up to three."""
    return {"en": ("first", "second", "third", "fourth", "fifth"),
            "pl": ("pierwszy", "drugi", "trzeci", "czwarty", "piąty"),
            "de": ("erster", "zweiter", "dritter", "vierter", "fünfter"),
            "cs": ("první", "druhý", "třetí", "čtvrtý", "pátý")}[lang][n - 1]


def _form(n: int, lang: str) -> int:
    """Which noun form a count takes: 0 one, 1 few (Polish and Czech 2-4), 2 many."""
    if n == 1:
        return 0
    if lang == "pl" and n % 10 in (2, 3, 4) and n % 100 not in (12, 13, 14):
        return 1
    if lang == "cs" and n in (2, 3, 4):
        return 1
    return 2


# the gender of what is counted (the number agrees with it); its words are in the catalogue
_GENDERS_OF = {"en": {"token": "", "turn": ""}, "pl": {"token": "m", "turn": "f"},
               "de": {"token": "n", "turn": "m"}, "cs": {"token": "m", "turn": "m"}}


def _noun(noun: str, n: int, lang: str) -> str:
    """The noun's form for a count of ``n`` (the catalogue's plural rule picks Polish and Czech forms)."""
    if noun == "token":
        return npgettext("speech", "clock token", "clock tokens", n, lang)
    return npgettext("speech", "turn", "turns", n, lang)


def left(n: int, noun: str, lang: str) -> str:
    """"Five clock tokens left", "zostały dwie tury", "noch ein Zug", "nezbývá žádný tah"."""
    gender = _GENDERS_OF[lang][noun]
    if n <= 0:
        one, many = _noun(noun, 1, lang), _noun(noun, 5, lang)
        return {"en": f"no {many} left", "de": f"keine {many} mehr",
                "pl": f"nie została żadna {one}" if gender == "f" else f"nie został żaden {one}",
                "cs": f"nezbývá žádný {one}"}[lang]
    form = _form(n, lang)
    counted = f"{number(n, lang, gender)} {_noun(noun, n, lang)}"
    if lang == "en":
        return f"{counted} left"
    if lang == "de":
        return f"noch {counted}"
    if lang == "pl":
        verb = (("został", "zostały", "zostało") if gender == "m" else ("została", "zostały", "zostało"))[form]
        return f"{verb} {counted}"
    return f"{('zbývá', 'zbývají', 'zbývá')[form]} {counted}"


# -- cards ------------------------------------------------------------------------------------------

# suits as adjectives agreeing with the value's noun (Polish and Czech card values are feminine nouns:
# "trójka", "trojka"; the German "Drei" is feminine too, so "rote Drei" where the page writes "rot 3")
_SUITS: dict[str, Message] = {
    "r": NP_("speech", "red"), "y": NP_("speech", "yellow"), "g": NP_("speech", "green"),
    "b": NP_("speech", "blue"), "w": NP_("speech", "white"), "m": NP_("speech", "multicolour"),
    "k": NP_("speech", "black"),
}
_VALUES = (NP_("speech", "one"), NP_("speech", "two"), NP_("speech", "three"), NP_("speech", "four"),
           NP_("speech", "five"))


def card(text: str, lang: str) -> str:
    """"r3" as words: "red three", "czerwona trójka", "rote Drei", "červená trojka"."""
    c = parse_card(text)
    return f"{translate(_SUITS[c.suit], lang)} {translate(_VALUES[c.value - 1], lang)}"


# -- phrases ----------------------------------------------------------------------------------------

_TILES: dict[str, Message] = {
    "hint": NP_("speech", "extra hint"), "fuse": NP_("speech", "fuse back"),
    "color_clue": NP_("speech", "free colour clue"), "value_clue": NP_("speech", "free value clue"),
    "reshuffle": NP_("speech", "reshuffle"), "rescue": NP_("speech", "rescue"),
}

# the page's own words where it says the same thing ("Game resumed", "New game")
_WORDS: dict[str, Message] = {
    "played": NP_("speech", "%(card)s played"), "discarded": NP_("speech", "%(card)s discarded"),
    "misplay": NP_("speech", "%(card)s: misplay, %(nth)s fuse"),
    "hint": NP_("speech", "hint, %(left)s"), "final_round": NP_("speech", "final round, %(turns)s"),
    "won": NP_("speech", "game won"), "lost": NP_("speech", "game lost"), "finished": NP_("speech", "game over"),
    "undo": NP_("speech", "undone: %(what)s"), "undo.hint": NP_("speech", "hint"),
    "undo.reward": NP_("speech", "reward tile"),
    "corrected": NP_("speech", "corrected: %(card)s, not %(old)s"),
    "new_game": N_("New game"), "players": NP_("speech", "new game: %(names)s"), "and": NP_("speech", "and"),
    "last_copy_lost": NP_("speech", "last %(card)s lost, best score now %(score)s"),
    "pace_zero": NP_("speech", "pace %(pace)s: any further discard costs points"),
    "pending": NP_("speech", "is this %(card)s?"), "dismissed": NP_("speech", "card dismissed, lay it again"),
    "resumed": N_("Game resumed"),
    "reward_revealed": NP_("speech", "firework complete, turn over one reward tile"),
    "reward": NP_("speech", "reward tile: %(tile)s"),
    "teach": NP_("speech", "The camera was often unsure of the cards: teach it your deck on the page."),
}


def _say(key: str, lang: str, **params: object) -> str:
    return translate(_WORDS[key], lang, **params)


def _points(score: int, lang: str) -> str:
    """A score as said: "score twenty-one"; German counts points ("einundzwanzig Punkte", "ein Punkt")."""
    said = number(score, lang, "m" if lang == "de" else "")
    return npgettext("speech", "score %(score)s", "score %(score)s", score, lang) % {"score": said}


def _names(players: list[str], lang: str) -> str:
    if len(players) == 1:
        return players[0]
    return f"{', '.join(players[:-1])} {_say('and', lang)} {players[-1]}"


def _new_game(p: dict[str, Any], lang: str, variant: Variant) -> str:
    players = [str(name) for name in p.get("players", [])]
    if not players or players == list(player_names(len(players))):  # "Player 1"...: names nobody typed
        return _say("new_game", lang)
    return _say("players", lang, names=_names(players, lang))


def _game_over(p: dict[str, Any], lang: str, variant: Variant) -> str:
    """The outcome, the score and the rulebook's line for it; then, where the camera asked about
    many of the game's cards (``teach``, as the OLED and the page suggest), that teaching helps."""
    score = int(p["score"])
    outcome = p["outcome"] if p["outcome"] in ("won", "lost") else "finished"
    line = rating_line(score, variant.max_score, lang, variant.all_or_nothing)
    said = f"{_say(outcome, lang)}, {_points(score, lang)}. {line}"
    return f"{said} {_say('teach', lang)}" if p.get("teach") else said


def _undo(p: dict[str, Any], lang: str, variant: Variant) -> str:
    action = p.get("action", {})
    kind = action.get("type")
    if kind in ("play", "discard") and "card" in action:
        what = _say("played" if kind == "play" else "discarded", lang, card=card(action["card"], lang))
    else:
        what = _say("undo.reward" if kind == "reward" else "undo.hint", lang)
    return _say("undo", lang, what=what)


def _misplay(p: dict[str, Any], lang: str, variant: Variant) -> str:
    return _say("misplay", lang, card=card(p["card"], lang), nth=ordinal(int(p["fuses_used"]), lang))


def _last_copy(p: dict[str, Any], lang: str, variant: Variant) -> str:
    score = int(p["reachable_score"])
    said = _points(score, lang) if lang == "de" else number(score, lang)
    return _say("last_copy_lost", lang, card=card(p["card"], lang), score=said)


def _simple(key: str) -> Callable[[dict[str, Any], str, Variant], str]:
    def say(p: dict[str, Any], lang: str, variant: Variant) -> str:
        return _say(key, lang)
    return say


def _with_card(key: str) -> Callable[[dict[str, Any], str, Variant], str]:
    def say(p: dict[str, Any], lang: str, variant: Variant) -> str:
        return _say(key, lang, card=card(p["card"], lang))
    return say


PHRASES: dict[str, Callable[[dict[str, Any], str, Variant], str]] = {
    "played": _with_card("played"),
    "discarded": _with_card("discarded"),
    "misplay": _misplay,
    "hint": lambda p, lang, v: _say("hint", lang, left=left(int(p["hints"]), "token", lang)),
    "final_round": lambda p, lang, v: _say("final_round", lang, turns=left(int(p["turns_left"]), "turn", lang)),
    "game_over": _game_over,
    "undo": _undo,
    "corrected": lambda p, lang, v: _say("corrected", lang, card=card(p["card"], lang), old=card(p["old"], lang)),
    "new_game": _new_game,
    "last_copy_lost": _last_copy,
    "pace_zero": lambda p, lang, v: _say("pace_zero", lang, pace=number(int(p["pace"]), lang)),
    "pending": _with_card("pending"),
    "dismissed": _simple("dismissed"),
    "resumed": _simple("resumed"),
    "reward_revealed": _simple("reward_revealed"),
    "reward": lambda p, lang, v: _say("reward", lang, tile=translate(_TILES[p["tile"]], lang)),
}
KINDS = tuple(PHRASES)


def phrase(kind: str, params: dict[str, Any], lang: str, variant: Variant) -> str | None:
    """The sentence for one table change (None for a kind that is not announced); ``variant`` gives
    the maximum score the rating line is judged against."""
    say = PHRASES.get(kind)
    if say is None:
        return None
    text = say(params, lang if lang in LANGUAGES else "en", variant)
    return text[0].upper() + text[1:]
