"""Every word a person sees or hears, in the box's four languages: one gettext catalogue per language.

The page, the OLED (short forms under the message context ``oled``), the spoken announcements
(context ``speech``), the rating lines and the suit names all read the same catalogue, so a word
the rulebook gives a thing is written once. English is the source text; the other languages are
compiled ``.mo`` files shipped beside their ``.po`` sources (``make words-compile``) and read
through the package, so an installed box sees exactly what the tests see. The standard library only.
"""
from __future__ import annotations

import functools
import gettext as _gettext
from importlib import resources
from typing import NamedTuple

LANGUAGES = ("en", "pl", "de", "cs")
LANGUAGE_NAMES = {"en": "English", "pl": "Polski", "de": "Deutsch", "cs": "Čeština"}
DOMAIN = "messages"


class UnknownLanguage(ValueError):
    """A language the box has no words for."""


class Message(NamedTuple):
    """A message marked for the catalogue but translated later: its context (None: the page's own
    words, shared by everything) and its English text."""

    context: str | None
    text: str


def check_language(lang: str) -> str:
    if lang not in LANGUAGES:
        raise UnknownLanguage(f"the box speaks {', '.join(LANGUAGES)}; got {lang!r}")
    return lang


def mo_path(lang: str) -> str:
    """Where a language's compiled catalogue lies inside this package."""
    return f"locale/{lang}/LC_MESSAGES/{DOMAIN}.mo"


@functools.cache
def translations(lang: str) -> _gettext.NullTranslations:
    """The catalogue of ``lang``; English (the source text) translates every message to itself."""
    if check_language(lang) == "en":
        return _gettext.NullTranslations()
    with resources.files(__name__).joinpath(mo_path(lang)).open("rb") as f:
        return _gettext.GNUTranslations(f)


def gettext(message: str, lang: str) -> str:
    return translations(lang).gettext(message)


def pgettext(context: str, message: str, lang: str) -> str:
    return translations(lang).pgettext(context, message)


def ngettext(singular: str, plural: str, n: int, lang: str) -> str:
    return translations(lang).ngettext(singular, plural, n)


def npgettext(context: str, singular: str, plural: str, n: int, lang: str) -> str:
    return translations(lang).npgettext(context, singular, plural, n)


def N_(text: str) -> Message:
    """Mark one of the shared words for the catalogue; ``translate`` looks it up later."""
    return Message(None, text)


def NP_(context: str, text: str) -> Message:
    """Mark a word of one context (``oled``, ``speech``) for the catalogue."""
    return Message(context, text)


def translate(message: Message, lang: str, **params: object) -> str:
    """A marked message in ``lang``; ``%(name)s`` placeholders take ``params``."""
    t = translations(lang)
    text = t.gettext(message.text) if message.context is None else t.pgettext(message.context, message.text)
    return text % params if params else text


# The suits as the page and the OLED name a card ("red 3"): in Polish and Czech the adjective agrees
# with the card (karta, karta), as the rulebooks write it.
SUITS: dict[str, Message] = {"r": N_("red"), "y": N_("yellow"), "g": N_("green"), "b": N_("blue"),
                             "w": N_("white"), "m": N_("multicolour"), "k": N_("black")}


def suit_name(suit: str, lang: str) -> str:
    return translate(SUITS[suit], lang)
