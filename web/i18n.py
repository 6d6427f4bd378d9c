"""The page's language: Flask's side of the one catalogue of words (``companion.words``).

The language of a page is, in order: the browser's own choice (a cookie set from the language
menu), the language chosen for the game, the browser's Accept-Language, and the box's default.
"""
from __future__ import annotations

from flask import Flask, Request, g

from companion.words import LANGUAGE_NAMES, LANGUAGES, translations

__all__ = ["LANGUAGES", "LANGUAGE_NAMES", "LANG_COOKIE", "choose", "gettext", "install", "translations"]

LANG_COOKIE = "lang"


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
    """Make ``_()``, ``ngettext()``, ``pgettext()`` and ``npgettext()`` in templates use the page's language."""
    app.jinja_env.add_extension("jinja2.ext.i18n")
    app.jinja_env.install_gettext_callables(  # type: ignore[attr-defined]
        lambda s: g.translations.gettext(s),
        lambda s, p, n: g.translations.ngettext(s, p, n),
        newstyle=True,
        pgettext=lambda c, s: g.translations.pgettext(c, s),
        npgettext=lambda c, s, p, n: g.translations.npgettext(c, s, p, n))
