"""What the box says aloud after each table change, in the box's four languages.

Spoken words differ from printed ones: numbers are words ("red three", not "r3"), and Polish and
Czech numbers and nouns agree ("zostały dwa żetony", "zostało pięć żetonów"). Suits and tokens are
named as each edition's rulebook names them (the Polish "kafelek pomyłki", the German "Blitz", the
Czech "červený žeton"). Player names are said as they were typed.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from companion.cards import parse_card
from companion.rating import rating_line
from companion.tablelog import player_names
from companion.variants import Variant

LANGUAGES = ("en", "pl", "de", "cs")

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


# (one, few, many, gender) of what is counted
_NOUNS: dict[str, dict[str, tuple[str, str, str, str]]] = {
    "en": {"token": ("clock token", "clock tokens", "clock tokens", ""), "turn": ("turn", "turns", "turns", "")},
    "pl": {"token": ("żeton", "żetony", "żetonów", "m"), "turn": ("tura", "tury", "tur", "f")},
    "de": {"token": ("Hinweisplättchen", "Hinweisplättchen", "Hinweisplättchen", "n"),
           "turn": ("Zug", "Züge", "Züge", "m")},
    "cs": {"token": ("modrý žeton", "modré žetony", "modrých žetonů", "m"), "turn": ("tah", "tahy", "tahů", "m")},
}


def left(n: int, noun: str, lang: str) -> str:
    """"Five clock tokens left", "zostały dwie tury", "noch ein Zug", "nezbývá žádný tah"."""
    one, few, many, gender = _NOUNS[lang][noun]
    if n <= 0:
        return {"en": f"no {many} left", "de": f"keine {many} mehr",
                "pl": f"nie została żadna {one}" if gender == "f" else f"nie został żaden {one}",
                "cs": f"nezbývá žádný {one}"}[lang]
    form = _form(n, lang)
    counted = f"{number(n, lang, gender)} {(one, few, many)[form]}"
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
# "trójka", "trojka"; the German "Drei" is feminine too)
_SUITS = {
    "en": {"r": "red", "y": "yellow", "g": "green", "b": "blue", "w": "white", "m": "multicolor", "k": "black"},
    "pl": {"r": "czerwona", "y": "żółta", "g": "zielona", "b": "niebieska", "w": "biała", "m": "wielokolorowa",
           "k": "czarna"},
    "de": {"r": "rote", "y": "gelbe", "g": "grüne", "b": "blaue", "w": "weiße", "m": "bunte", "k": "schwarze"},
    "cs": {"r": "červená", "y": "žlutá", "g": "zelená", "b": "modrá", "w": "bílá", "m": "duhová", "k": "černá"},
}
_VALUES = {
    "en": ("one", "two", "three", "four", "five"),
    "pl": ("jedynka", "dwójka", "trójka", "czwórka", "piątka"),
    "de": ("Eins", "Zwei", "Drei", "Vier", "Fünf"),
    "cs": ("jednička", "dvojka", "trojka", "čtyřka", "pětka"),
}


def card(text: str, lang: str) -> str:
    """"r3" as words: "red three", "czerwona trójka", "rote Drei", "červená trojka"."""
    c = parse_card(text)
    return f"{_SUITS[lang][c.suit]} {_VALUES[lang][c.value - 1]}"


# -- phrases ----------------------------------------------------------------------------------------

_TILES = {
    "en": {"hint": "extra hint", "fuse": "fuse back", "color_clue": "free colour clue",
           "value_clue": "free value clue", "reshuffle": "reshuffle", "rescue": "rescue"},
    "pl": {"hint": "dodatkowy żeton wskazówki", "fuse": "kafelek pomyłki wraca", "color_clue": "wskazówka o kolorze",
           "value_clue": "wskazówka o wartości", "reshuffle": "karta wraca do talii",
           "rescue": "karta wraca na fajerwerk"},
    "de": {"hint": "zusätzliches Hinweisplättchen", "fuse": "Blitz zurück", "color_clue": "Farbhinweis gratis",
           "value_clue": "Zahlhinweis gratis", "reshuffle": "Zurückmischen", "rescue": "Rettung"},
    "cs": {"hint": "nápověda navíc", "fuse": "červený žeton zpět", "color_clue": "barva zdarma",
           "value_clue": "číslo zdarma", "reshuffle": "zamíchání", "rescue": "záchrana"},
}

_WORDS: dict[str, dict[str, str]] = {
    "en": {
        "played": "{card} played", "discarded": "{card} discarded", "misplay": "{card}: misplay, {nth} fuse",
        "hint": "hint, {left}", "final_round": "final round, {turns}",
        "won": "game won", "lost": "game lost", "finished": "game over", "score": "score {score}",
        "undo": "undone: {what}", "undo.hint": "hint", "undo.reward": "reward tile",
        "corrected": "corrected: {card}, not {old}",
        "new_game": "new game", "players": "new game: {names}", "and": "and",
        "last_copy_lost": "last {card} lost, best score now {score}",
        "pace_zero": "pace {pace}: any further discard costs points",
        "pending": "is this {card}?", "dismissed": "card dismissed, lay it again", "resumed": "game resumed",
        "reward_revealed": "firework complete, turn over one reward tile", "reward": "reward tile: {tile}",
    },
    "pl": {
        "played": "{card} zagrana", "discarded": "{card} odrzucona",
        "misplay": "{card}: pomyłka, {nth} kafelek pomyłki",
        "hint": "wskazówka, {left}", "final_round": "ostatnia runda, {turns}",
        "won": "wygrana", "lost": "przegrana", "finished": "koniec gry", "score": "wynik: {score}",
        "undo": "cofnięto: {what}", "undo.hint": "wskazówka", "undo.reward": "kafelek nagrody",
        "corrected": "poprawiono: {card}, nie {old}",
        "new_game": "nowa gra", "players": "nowa gra: {names}", "and": "i",
        "last_copy_lost": "stracona ostatnia {card}, najlepszy możliwy wynik: {score}",
        "pace_zero": "tempo {pace}: każde kolejne odrzucenie kosztuje punkty",
        "pending": "niepewna karta: {card}?", "dismissed": "karta pominięta, połóżcie ją jeszcze raz",
        "resumed": "gra wznowiona",
        "reward_revealed": "fajerwerk ukończony, odkryjcie kafelek nagrody", "reward": "kafelek nagrody: {tile}",
    },
    "de": {
        "played": "{card} ausgespielt", "discarded": "{card} abgeworfen", "misplay": "{card}: Fehler, {nth} Blitz",
        "hint": "Hinweis, {left}", "final_round": "letzte Runde, {turns}",
        "won": "gewonnen", "lost": "verloren", "finished": "Spielende",
        "undo": "zurückgenommen: {what}", "undo.hint": "Hinweis", "undo.reward": "Belohnungsplättchen",
        "corrected": "korrigiert: {card}, nicht {old}",
        "new_game": "neues Spiel", "players": "neues Spiel: {names}", "and": "und",
        "last_copy_lost": "letzte {card} verloren, höchstens noch {score}",
        "pace_zero": "Tempo {pace}: jeder weitere Abwurf kostet Punkte",
        "pending": "ist das eine {card}?", "dismissed": "Karte verworfen, bitte noch einmal hinlegen",
        "resumed": "Spiel fortgesetzt",
        "reward_revealed": "Feuerwerk vollständig, deckt ein Belohnungsplättchen auf",
        "reward": "Belohnungsplättchen: {tile}",
    },
    "cs": {
        "played": "{card} zahrána", "discarded": "{card} odhozena", "misplay": "{card}: chyba, {nth} červený žeton",
        "hint": "nápověda, {left}", "final_round": "poslední kolo, {turns}",
        "won": "výhra", "lost": "prohra", "finished": "konec hry", "score": "skóre {score}",
        "undo": "vráceno: {what}", "undo.hint": "nápověda", "undo.reward": "destička odměny",
        "corrected": "opraveno: {card}, ne {old}",
        "new_game": "nová hra", "players": "nová hra: {names}", "and": "a",
        "last_copy_lost": "ztracena poslední {card}, nejlepší možné skóre {score}",
        "pace_zero": "tempo {pace}: každé další odhození stojí body",
        "pending": "nejistá karta: {card}?", "dismissed": "karta zrušena, položte ji znovu",
        "resumed": "hra obnovena",
        "reward_revealed": "ohňostroj hotový, odkryjte destičku odměny", "reward": "destička odměny: {tile}",
    },
}


def _points(score: int, lang: str) -> str:
    """A score as said: "score twenty-one"; German counts points ("einundzwanzig Punkte")."""
    if lang == "de":
        return f"{number(score, 'de', 'm')} {'Punkt' if score == 1 else 'Punkte'}"
    return _WORDS[lang]["score"].format(score=number(score, lang))


def _names(players: list[str], lang: str) -> str:
    if len(players) == 1:
        return players[0]
    return f"{', '.join(players[:-1])} {_WORDS[lang]['and']} {players[-1]}"


def _new_game(p: dict[str, Any], lang: str, variant: Variant) -> str:
    players = [str(name) for name in p.get("players", [])]
    if not players or players == list(player_names(len(players))):  # "Player 1"...: names nobody typed
        return _WORDS[lang]["new_game"]
    return _WORDS[lang]["players"].format(names=_names(players, lang))


def _game_over(p: dict[str, Any], lang: str, variant: Variant) -> str:
    score = int(p["score"])
    outcome = p["outcome"] if p["outcome"] in ("won", "lost") else "finished"
    line = rating_line(score, variant.max_score, lang, variant.all_or_nothing)
    return f"{_WORDS[lang][outcome]}, {_points(score, lang)}. {line}"


def _undo(p: dict[str, Any], lang: str, variant: Variant) -> str:
    action = p.get("action", {})
    kind = action.get("type")
    words = _WORDS[lang]
    if kind in ("play", "discard") and "card" in action:
        what = words["played" if kind == "play" else "discarded"].format(card=card(action["card"], lang))
    else:
        what = words["undo.reward" if kind == "reward" else "undo.hint"]
    return words["undo"].format(what=what)


def _misplay(p: dict[str, Any], lang: str, variant: Variant) -> str:
    return _WORDS[lang]["misplay"].format(card=card(p["card"], lang), nth=ordinal(int(p["fuses_used"]), lang))


def _last_copy(p: dict[str, Any], lang: str, variant: Variant) -> str:
    score = int(p["reachable_score"])
    said = _points(score, lang) if lang == "de" else number(score, lang)
    return _WORDS[lang]["last_copy_lost"].format(card=card(p["card"], lang), score=said)


def _simple(key: str) -> Callable[[dict[str, Any], str, Variant], str]:
    def say(p: dict[str, Any], lang: str, variant: Variant) -> str:
        return _WORDS[lang][key]
    return say


def _with_card(key: str) -> Callable[[dict[str, Any], str, Variant], str]:
    def say(p: dict[str, Any], lang: str, variant: Variant) -> str:
        return _WORDS[lang][key].format(card=card(p["card"], lang))
    return say


PHRASES: dict[str, Callable[[dict[str, Any], str, Variant], str]] = {
    "played": _with_card("played"),
    "discarded": _with_card("discarded"),
    "misplay": _misplay,
    "hint": lambda p, lang, v: _WORDS[lang]["hint"].format(left=left(int(p["hints"]), "token", lang)),
    "final_round": lambda p, lang, v: _WORDS[lang]["final_round"].format(
        turns=left(int(p["turns_left"]), "turn", lang)),
    "game_over": _game_over,
    "undo": _undo,
    "corrected": lambda p, lang, v: _WORDS[lang]["corrected"].format(card=card(p["card"], lang),
                                                                      old=card(p["old"], lang)),
    "new_game": _new_game,
    "last_copy_lost": _last_copy,
    "pace_zero": lambda p, lang, v: _WORDS[lang]["pace_zero"].format(pace=number(int(p["pace"]), lang)),
    "pending": _with_card("pending"),
    "dismissed": _simple("dismissed"),
    "resumed": _simple("resumed"),
    "reward_revealed": _simple("reward_revealed"),
    "reward": lambda p, lang, v: _WORDS[lang]["reward"].format(tile=_TILES[lang][p["tile"]]),
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
