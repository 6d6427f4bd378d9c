"""Translations: gettext catalogues (Babel) in English, Polish, German and Czech.

The ``.po`` files are the source; they are compiled in memory when first used, so there is no
compiled file to forget. The language of a page is, in order: the browser's own choice (a
cookie set from the language menu), the language chosen for the game, the browser's
Accept-Language, and the box's default.
"""
from __future__ import annotations

import functools
import io
from gettext import NullTranslations
from importlib import resources
from importlib.resources.abc import Traversable

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.support import Translations
from flask import Flask, Request, g

LANGUAGES = ("en", "pl", "de", "cs")
LANGUAGE_NAMES = {"en": "English", "pl": "Polski", "de": "Deutsch", "cs": "Čeština"}
LANG_COOKIE = "lang"
CATALOGUES = resources.files("web").joinpath("translations")


def po_path(lang: str) -> Traversable:
    """The catalogue of a language, read through the package (a checkout, a venv or a zip)."""
    return CATALOGUES.joinpath(lang, "LC_MESSAGES", "messages.po")


@functools.cache
def translations(lang: str) -> NullTranslations:
    """The compiled catalogue for a language (English is the source text itself)."""
    if lang == "en" or lang not in LANGUAGES:
        return NullTranslations()
    with po_path(lang).open("rb") as f:
        catalog = read_po(f, locale=lang)
    buf = io.BytesIO()
    write_mo(buf, catalog)
    buf.seek(0)
    return Translations(buf)


def choose(request: Request, game_lang: str | None, default: str) -> str:
    """The language for this page (see the module docstring for the order)."""
    asked = request.args.get("lang") or request.cookies.get(LANG_COOKIE)
    if asked in LANGUAGES:
        return asked
    if game_lang in LANGUAGES:
        return game_lang
    best = request.accept_languages.best_match(LANGUAGES)
    return best or default


def gettext(message: str, **params: object) -> str:
    """Translate into the page's language (``g.translations``); ``%(name)s`` takes ``params``."""
    text = g.translations.gettext(message)
    return text % params if params else text


def install(app: Flask) -> None:
    """Make ``_()`` and ``ngettext()`` in templates use the page's language."""
    app.jinja_env.add_extension("jinja2.ext.i18n")
    app.jinja_env.install_gettext_callables(  # type: ignore[attr-defined]
        lambda s: g.translations.gettext(s),
        lambda s, p, n: g.translations.ngettext(s, p, n),
        newstyle=True)
