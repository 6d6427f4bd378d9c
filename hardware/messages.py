"""The words on the OLED in the box's four languages, kept short so they fit 128x64.

The web page has its own translations; these are only the few the small screen needs. The button
names HINT, UNDO and OK stay as printed on the box in every language.
"""
from __future__ import annotations

from typing import Any

LANGUAGES = ("en", "pl", "de", "cs")

CATALOGUE: dict[str, dict[str, str]] = {
    "en": {
        # dashboard
        "deck": "Deck", "fuses": "Fuses", "score": "Score", "final": "Final",
        "turn": "Turn {n}", "reward_due": "Reward tile!", "pace": "Pace {n}",
        # flashes: one per kind of table change
        "hint": "Hint given", "hint.detail": "{hints} left",
        "played": "Played ✓", "misplay": "Misplay ✗", "misplay.detail": "Fuse {used} of {tokens}",
        "discarded": "Discarded",
        "final_round": "Final round", "final_round.detail": "{n} turns left",
        "undo": "Undone", "undo.hint": "the hint",
        "reward_revealed": "Firework done!", "reward_revealed.detail": "Reveal a reward tile",
        "reward": "Reward tile",
        "corrected": "Corrected", "corrected.was": "was: {card}",
        "dismissed": "Card dismissed", "dismissed.detail": "Lay it again",
        "resumed": "Game resumed",
        "new_game": "New game",
        "restored": "Game restored", "restored.detail": "{n} actions",
        "last_copy_lost": "Last copy lost!", "last_copy_lost.detail": "Max now {n}",
        "pace_zero": "Pace {n}!", "pace_zero.detail": "No more discards",
        # reward tiles
        "tile.hint": "Extra hint", "tile.fuse": "Fuse back", "tile.color_clue": "Free colour clue",
        "tile.value_clue": "Free value clue", "tile.reshuffle": "Reshuffle", "tile.rescue": "Rescue",
        # the unsure card
        "pending.play": "Played this card?", "pending.discard": "Discarded this?",
        "pending.or": "or {cards}", "pending.keys": "OK = yes   UNDO = no",
        # game over
        "over.won": "You won!", "over.lost": "Lost", "over.finished": "Game over",
        # refusals
        "refused": "Not allowed",
        "refuse.no_hints": "No hint tokens left",
        "refuse.discard_max": "All hint tokens available: discard not allowed",
        "refuse.nothing_to_undo": "Nothing to undo",
        "refuse.nothing_pending": "No card waits for OK",
        "refuse.game_over": "The game is over",
        "refuse.ended": "Game ended: UNDO resumes it",
        "refuse.no_game": "No game yet: start one on the phone",
        "refuse.no_copies": "Every {card} is already out",
        "refuse.reward_first": "Record the reward tile first",
        "refuse.rules": "The rules forbid that",
        "refuse.disk_full": "SD card full: not saved", "refuse.write_failed": "SD card error: not saved",
        "refuse.read_only": "SD card read-only: not saved",
        # boot status
        "status.title": "Hanabi companion", "status.no_network": "No network",
        "status.pin": "PIN {pin}", "status.pin_label": "PIN",
        "camera.ok": "Camera: OK", "camera.missing": "Camera: not found", "camera.fault": "Camera: fault",
        "camera.fault.model": "Card model: missing", "camera.fault.profile": "Deck profile: error",
        "camera.fault.camera": "Camera: no picture",
        "no_game": "No game yet", "no_game.detail": "Start one on the phone",
        # teaching the family's deck
        "teach.lay": "Lay in PLAY:", "teach.count": "{done} of {total} taught",
        "teach.no_mat": "Mat not in view", "teach.got": "Got it. OK?",
        "teach.keys": "OK = keep  UNDO = retake", "teach.complete": "All {total} taken",
        "teach.complete.keys": "OK = learn the deck", "teach.fitting": "Learning the deck",
        "teach.saved": "Deck taught ✓", "teach.saved.detail": "The box reads your cards now",
        "teach.failed": "Teaching failed", "teach.failed.detail": "See the phone for why",
    },
    "pl": {
        "deck": "Talia", "fuses": "Lonty", "score": "Wynik", "final": "Finał",
        "turn": "Tura {n}", "reward_due": "Nagroda!", "pace": "Tempo {n}",
        "hint": "Podpowiedź", "hint.detail": "zostało {hints}",
        "played": "Zagrana ✓", "misplay": "Pomyłka ✗", "misplay.detail": "Lont {used} z {tokens}",
        "discarded": "Odrzucona",
        "final_round": "Ostatnia runda", "final_round.detail": "zostało tur: {n}",
        "undo": "Cofnięto", "undo.hint": "podpowiedź",
        "reward_revealed": "Fajerwerk gotowy!", "reward_revealed.detail": "Odkryj nagrodę",
        "reward": "Nagroda",
        "corrected": "Poprawiono", "corrected.was": "było: {card}",
        "dismissed": "Pominięto kartę", "dismissed.detail": "Połóż ją jeszcze raz",
        "resumed": "Gra wznowiona",
        "new_game": "Nowa gra",
        "restored": "Gra przywrócona", "restored.detail": "ruchów: {n}",
        "last_copy_lost": "Ostatnia stracona!", "last_copy_lost.detail": "Maks. teraz {n}",
        "pace_zero": "Tempo {n}!", "pace_zero.detail": "Nie odrzucajcie już",
        "tile.hint": "Dodatkowa podp.", "tile.fuse": "Lont wraca", "tile.color_clue": "Kolor za darmo",
        "tile.value_clue": "Wartość za darmo", "tile.reshuffle": "Przetasowanie", "tile.rescue": "Ratunek",
        "pending.play": "Zagrano tę kartę?", "pending.discard": "Odrzucono tę?",
        "pending.or": "albo {cards}", "pending.keys": "OK = tak   UNDO = nie",
        "over.won": "Wygrana!", "over.lost": "Przegrana", "over.finished": "Koniec gry",
        "refused": "Niedozwolone",
        "refuse.no_hints": "Brak żetonów podpowiedzi",
        "refuse.discard_max": "Wszystkie żetony na stole: nie wolno odrzucać",
        "refuse.nothing_to_undo": "Nie ma czego cofnąć",
        "refuse.nothing_pending": "Żadna karta nie czeka na OK",
        "refuse.game_over": "Gra skończona",
        "refuse.ended": "Gra zakończona: UNDO ją wznowi",
        "refuse.no_game": "Brak gry: zacznij ją w telefonie",
        "refuse.no_copies": "{card}: wszystkie już wyszły",
        "refuse.reward_first": "Najpierw zapisz nagrodę",
        "refuse.rules": "Zasady na to nie pozwalają",
        "refuse.disk_full": "Karta SD pełna: nie zapisano", "refuse.write_failed": "Błąd karty SD: nie zapisano",
        "refuse.read_only": "Karta SD tylko do odczytu",
        "status.title": "Hanabi", "status.no_network": "Brak sieci",
        "status.pin": "PIN {pin}", "status.pin_label": "PIN",
        "camera.ok": "Kamera: OK", "camera.missing": "Brak kamery", "camera.fault": "Kamera: błąd",
        "camera.fault.model": "Model kart: brak", "camera.fault.profile": "Profil talii: błąd",
        "camera.fault.camera": "Kamera: brak obrazu",
        "no_game": "Brak gry", "no_game.detail": "Zacznij ją w telefonie",
        "teach.lay": "Połóż na PLAY:", "teach.count": "nauczone: {done} z {total}",
        "teach.no_mat": "Nie widzę maty", "teach.got": "Mam. OK?",
        "teach.keys": "OK = tak UNDO = znów", "teach.complete": "Wszystkie {total} zebrane",
        "teach.complete.keys": "OK = naucz się talii", "teach.fitting": "Uczę się talii",
        "teach.saved": "Talia nauczona ✓", "teach.saved.detail": "Pudełko zna teraz wasze karty",
        "teach.failed": "Nauka nieudana", "teach.failed.detail": "Szczegóły w telefonie",
    },
    "de": {
        "deck": "Stapel", "fuses": "Blitze", "score": "Punkte", "final": "Ende",
        "turn": "Zug {n}", "reward_due": "Belohnung!", "pace": "Tempo {n}",
        "hint": "Hinweis", "hint.detail": "noch {hints}",
        "played": "Gespielt ✓", "misplay": "Fehler ✗", "misplay.detail": "Blitz {used} von {tokens}",
        "discarded": "Abgeworfen",
        "final_round": "Letzte Runde", "final_round.detail": "noch {n} Züge",
        "undo": "Rückgängig", "undo.hint": "der Hinweis",
        "reward_revealed": "Feuerwerk fertig!", "reward_revealed.detail": "Belohnung aufdecken",
        "reward": "Belohnung",
        "corrected": "Korrigiert", "corrected.was": "war: {card}",
        "dismissed": "Karte verworfen", "dismissed.detail": "Bitte neu hinlegen",
        "resumed": "Spiel geht weiter",
        "new_game": "Neues Spiel",
        "restored": "Spiel geladen", "restored.detail": "{n} Züge",
        "last_copy_lost": "Letzte Karte weg!", "last_copy_lost.detail": "Max. jetzt {n}",
        "pace_zero": "Tempo {n}!", "pace_zero.detail": "Nicht mehr abwerfen",
        "tile.hint": "Extra-Hinweis", "tile.fuse": "Blitz zurück", "tile.color_clue": "Farbhinweis gratis",
        "tile.value_clue": "Zahlhinweis gratis", "tile.reshuffle": "Zurückmischen", "tile.rescue": "Rettung",
        "pending.play": "Diese Karte gespielt?", "pending.discard": "Diese abgeworfen?",
        "pending.or": "oder {cards}", "pending.keys": "OK = ja   UNDO = nein",
        "over.won": "Gewonnen!", "over.lost": "Verloren", "over.finished": "Spielende",
        "refused": "Nicht erlaubt",
        "refuse.no_hints": "Keine Hinweise mehr",
        "refuse.discard_max": "Alle Hinweise da: Abwerfen verboten",
        "refuse.nothing_to_undo": "Nichts zum Zurücknehmen",
        "refuse.nothing_pending": "Keine Karte wartet auf OK",
        "refuse.game_over": "Das Spiel ist vorbei",
        "refuse.ended": "Spiel beendet: UNDO setzt es fort",
        "refuse.no_game": "Noch kein Spiel: am Handy starten",
        "refuse.no_copies": "{card}: alle schon draußen",
        "refuse.reward_first": "Erst die Belohnung eintragen",
        "refuse.rules": "Das verbieten die Regeln",
        "refuse.disk_full": "SD-Karte voll: nicht gespeichert",
        "refuse.write_failed": "SD-Kartenfehler: nicht gespeichert", "refuse.read_only": "SD-Karte schreibgeschützt",
        "status.title": "Hanabi", "status.no_network": "Kein Netzwerk",
        "status.pin": "PIN {pin}", "status.pin_label": "PIN",
        "camera.ok": "Kamera: OK", "camera.missing": "Keine Kamera", "camera.fault": "Kamera: Fehler",
        "camera.fault.model": "Kartenmodell: fehlt", "camera.fault.profile": "Kartenprofil: Fehler",
        "camera.fault.camera": "Kamera: kein Bild",
        "no_game": "Kein Spiel", "no_game.detail": "Am Handy starten",
        "teach.lay": "Auf PLAY legen:", "teach.count": "{done} von {total} gelernt",
        "teach.no_mat": "Matte nicht im Bild", "teach.got": "Aufgenommen. OK?",
        "teach.keys": "OK = gut  UNDO = neu", "teach.complete": "Alle {total} aufgenommen",
        "teach.complete.keys": "OK = Deck lernen", "teach.fitting": "Lerne das Deck",
        "teach.saved": "Deck gelernt ✓", "teach.saved.detail": "Die Box liest eure Karten jetzt",
        "teach.failed": "Fehlgeschlagen", "teach.failed.detail": "Warum: siehe Handy",
    },
    "cs": {
        "deck": "Balík", "fuses": "Blesky", "score": "Skóre", "final": "Konec",
        "turn": "Tah {n}", "reward_due": "Odměna!", "pace": "Tempo {n}",
        "hint": "Rada", "hint.detail": "zbývá {hints}",
        "played": "Zahráno ✓", "misplay": "Chyba ✗", "misplay.detail": "Blesk {used} z {tokens}",
        "discarded": "Odhozeno",
        "final_round": "Poslední kolo", "final_round.detail": "zbývá tahů: {n}",
        "undo": "Vráceno", "undo.hint": "rada",
        "reward_revealed": "Ohňostroj hotov!", "reward_revealed.detail": "Odkryj odměnu",
        "reward": "Odměna",
        "corrected": "Opraveno", "corrected.was": "bylo: {card}",
        "dismissed": "Karta zrušena", "dismissed.detail": "Polož ji znovu",
        "resumed": "Hra pokračuje",
        "new_game": "Nová hra",
        "restored": "Hra obnovena", "restored.detail": "tahů: {n}",
        "last_copy_lost": "Poslední je pryč!", "last_copy_lost.detail": "Max. nyní {n}",
        "pace_zero": "Tempo {n}!", "pace_zero.detail": "Už neodhazujte",
        "tile.hint": "Rada navíc", "tile.fuse": "Blesk zpět", "tile.color_clue": "Barva zdarma",
        "tile.value_clue": "Číslo zdarma", "tile.reshuffle": "Zamíchání", "tile.rescue": "Záchrana",
        "pending.play": "Zahrána tato karta?", "pending.discard": "Odhozena tato?",
        "pending.or": "nebo {cards}", "pending.keys": "OK = ano   UNDO = ne",
        "over.won": "Výhra!", "over.lost": "Prohra", "over.finished": "Konec hry",
        "refused": "Nelze",
        "refuse.no_hints": "Žádné žetony rad",
        "refuse.discard_max": "Všechny žetony jsou na stole: odhodit nelze",
        "refuse.nothing_to_undo": "Není co vrátit",
        "refuse.nothing_pending": "Žádná karta nečeká na OK",
        "refuse.game_over": "Hra skončila",
        "refuse.ended": "Hra ukončena: UNDO ji obnoví",
        "refuse.no_game": "Žádná hra: začni ji v telefonu",
        "refuse.no_copies": "{card}: všechny už jsou venku",
        "refuse.reward_first": "Nejdřív zapiš odměnu",
        "refuse.rules": "To pravidla nedovolují",
        "refuse.disk_full": "Karta SD plná: neuloženo", "refuse.write_failed": "Chyba karty SD: neuloženo",
        "refuse.read_only": "Karta SD jen pro čtení",
        "status.title": "Hanabi", "status.no_network": "Bez sítě",
        "status.pin": "PIN {pin}", "status.pin_label": "PIN",
        "camera.ok": "Kamera: OK", "camera.missing": "Kamera nenalezena", "camera.fault": "Kamera: chyba",
        "camera.fault.model": "Model karet: chybí", "camera.fault.profile": "Profil balíčku: chyba",
        "camera.fault.camera": "Kamera: bez obrazu",
        "no_game": "Žádná hra", "no_game.detail": "Začni ji v telefonu",
        "teach.lay": "Polož na PLAY:", "teach.count": "naučeno {done} z {total}",
        "teach.no_mat": "Podložka není vidět", "teach.got": "Mám. OK?",
        "teach.keys": "OK = ano UNDO = znovu", "teach.complete": "Všech {total} nasnímáno",
        "teach.complete.keys": "OK = naučit balíček", "teach.fitting": "Učím se balíček",
        "teach.saved": "Balíček naučen ✓", "teach.saved.detail": "Krabička teď zná vaše karty",
        "teach.failed": "Učení se nezdařilo", "teach.failed.detail": "Proč: viz telefon",
    },
}

SUIT_NAMES: dict[str, dict[str, str]] = {
    "en": {"r": "red", "y": "yellow", "g": "green", "b": "blue", "w": "white", "m": "rainbow", "k": "black"},
    "pl": {"r": "czerwona", "y": "żółta", "g": "zielona", "b": "niebieska", "w": "biała", "m": "tęczowa",
           "k": "czarna"},
    "de": {"r": "rot", "y": "gelb", "g": "grün", "b": "blau", "w": "weiß", "m": "bunt", "k": "schwarz"},
    "cs": {"r": "červená", "y": "žlutá", "g": "zelená", "b": "modrá", "w": "bílá", "m": "duhová", "k": "černá"},
}


class UnknownLanguage(ValueError):
    """A language the box has no words for."""


def check_language(lang: str) -> str:
    if lang not in CATALOGUE:
        raise UnknownLanguage(f"the box speaks {', '.join(LANGUAGES)}; got {lang!r}")
    return lang


def text(lang: str, key: str, **params: Any) -> str:
    """The line for ``key`` in ``lang`` with its parameters filled in."""
    return CATALOGUE[check_language(lang)][key].format(**params)


def card_name(lang: str, card: str) -> str:
    """``r3`` as people say it: "red 3", "czerwona 3", "rot 3", "červená 3"."""
    return f"{SUIT_NAMES[check_language(lang)][card[0]]} {card[1]}"
