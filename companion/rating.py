"""The rulebooks' "artistic impression" scale, reworded, in the four languages of the box.

Five-suit games top out at 25 ("legendary"); six-suit games (max 30) stretch "legendary" over
25-29 and add a line for a perfect 30. All-or-nothing uses no scale: the show is perfect or lost.
"""
from __future__ import annotations

LANGUAGES = ("en", "pl", "de", "cs")

# (lowest score of the band, key); the first band that fits, searching from the top, wins.
_BANDS = ((30, "divine"), (25, "legendary"), (21, "brilliant"), (16, "great"),
          (11, "decent"), (6, "weak"), (None, "dreadful"))

LINES: dict[str, dict[str, str]] = {
    "en": {
        "dreadful": "Dreadful: the crowd boos.",
        "weak": "Forgettable: a few polite claps.",
        "decent": "Decent, but nobody will remember it.",
        "great": "Great: the crowd is delighted.",
        "brilliant": "Brilliant: people will talk about it for weeks.",
        "legendary": "Legendary: the audience is left speechless.",
        "divine": "Divine: the show outshone the stars.",
        "perfect": "A perfect show: every firework is complete.",
        "failed": "The show had to be perfect, and it was not.",
    },
    "pl": {
        "dreadful": "Klapa: publiczność gwiżdże.",
        "weak": "Słabo: ledwie kilka oklasków.",
        "decent": "Poprawnie, ale nikt tego nie zapamięta.",
        "great": "Bardzo dobrze: widzowie są zachwyceni.",
        "brilliant": "Znakomicie: o tym pokazie będzie się długo mówić.",
        "legendary": "Legenda: widownia oniemiała.",
        "divine": "Boski pokaz: fajerwerki przyćmiły gwiazdy.",
        "perfect": "Pokaz doskonały: wszystkie fajerwerki ukończone.",
        "failed": "Pokaz musiał być doskonały, a nie był.",
    },
    "de": {
        "dreadful": "Durchgefallen: das Publikum pfeift.",
        "weak": "Mager: kaum jemand klatscht.",
        "decent": "Ordentlich, aber schnell vergessen.",
        "great": "Prima: das Publikum freut sich.",
        "brilliant": "Großartig: davon wird man noch lange reden.",
        "legendary": "Legendär: den Zuschauern fehlen die Worte.",
        "divine": "Göttlich: heller als die Sterne.",
        "perfect": "Perfekte Show: alle Feuerwerke sind vollständig.",
        "failed": "Die Show musste perfekt sein, und sie war es nicht.",
    },
    "cs": {
        "dreadful": "Propadák: publikum píská.",
        "weak": "Slabota: jen pár zatleskání.",
        "decent": "Ujde to, ale brzy se na to zapomene.",
        "great": "Skvělé: diváci jsou nadšení.",
        "brilliant": "Ohromující: o tom se bude dlouho mluvit.",
        "legendary": "Legenda: divákům došla slova.",
        "divine": "Božské: ohňostroj zastínil hvězdy.",
        "perfect": "Dokonalá show: všechny ohňostroje jsou hotové.",
        "failed": "Show musela být dokonalá, a nebyla.",
    },
}


def rating_key(score: int, max_score: int, all_or_nothing: bool = False) -> str:
    if all_or_nothing:
        return "perfect" if score >= max_score else "failed"
    for low, key in _BANDS:
        if low is None or score >= low:
            return key
    raise AssertionError("unreachable: the last band takes every score")


def rating_line(score: int, max_score: int, lang: str = "en", all_or_nothing: bool = False) -> str:
    """The scale's line for a score; unknown languages fall back to English."""
    return LINES.get(lang, LINES["en"])[rating_key(score, max_score, all_or_nothing)]
