"""The one catalogue: the shipped .mo files are the .po sources compiled, every message is translated,
the template holds what the code marks, and reading it needs the standard library only."""
from __future__ import annotations

import io
import re
import subprocess
import sys
from gettext import GNUTranslations
from importlib import resources
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.frontend import parse_keywords, parse_mapping_cfg
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

from companion.words import LANGUAGES, UnknownLanguage, mo_path, pgettext, translations
from tests.conftest import ROOT

LOCALE = Path(ROOT) / "companion" / "words" / "locale"
TRANSLATED = [lang for lang in LANGUAGES if lang != "en"]
PLACEHOLDER = re.compile(r"%\(\w+\)s")


def read_catalogue(lang: str) -> Catalog:
    with open(LOCALE / lang / "LC_MESSAGES" / "messages.po", "rb") as f:
        return read_po(f, locale=lang)


def template() -> Catalog:
    with open(LOCALE / "messages.pot", "rb") as f:
        return read_po(f)


def makefile_keywords() -> dict:
    """The ``-k`` options ``make words-extract`` passes to pybabel."""
    text = (Path(ROOT) / "Makefile").read_text().replace("\\\n", " ")
    (line,) = [row for row in text.splitlines() if row.startswith("WORDS_KEYWORDS")]
    assert "--no-default-keywords" in line
    return parse_keywords(re.findall(r"-k (\S+)", line))


def source_messages() -> set[tuple[str | None, str]]:
    """(context, msgid) of every message ``make words-extract`` finds in the code and the templates."""
    with open(LOCALE.parent / "babel.cfg") as f:
        method_map, options_map = parse_mapping_cfg(f)
    found = set()
    for folder in ("companion", "hardware", "web"):
        for _, _, msg, _, context in extract_from_dir(Path(ROOT) / folder, method_map, options_map,
                                                       keywords=makefile_keywords()):
            found.add((context, msg if isinstance(msg, str) else msg[0]))
    return found


def ids(catalog: Catalog) -> set[tuple[str | None, str]]:
    return {(m.context, m.id if isinstance(m.id, str) else m.id[0]) for m in catalog if m.id}


@pytest.mark.parametrize("lang", TRANSLATED)
def test_the_shipped_mo_is_the_po_compiled(lang: str) -> None:
    """A .po edited without ``make words-compile`` fails here: the box reads only the .mo."""
    compiled = io.BytesIO()
    write_mo(compiled, read_catalogue(lang))
    compiled.seek(0)
    fresh = GNUTranslations(compiled)._catalog  # type: ignore[attr-defined]
    with resources.files("companion.words").joinpath(mo_path(lang)).open("rb") as f:
        shipped = GNUTranslations(f)._catalog  # type: ignore[attr-defined]
    fresh.pop("", None), shipped.pop("", None)  # the header: its dates change with every update
    assert len(fresh) > 250
    assert shipped == fresh, f"{lang}: run make words-compile"


@pytest.mark.parametrize("lang", TRANSLATED)
def test_every_message_is_translated_with_its_placeholders(lang: str) -> None:
    catalog = read_catalogue(lang)
    assert ids(catalog) == ids(template()), f"{lang}: run make words-update and translate what is new"
    for m in catalog:
        if not m.id:
            continue
        strings = m.string if isinstance(m.string, tuple) else (m.string,)
        msgids = m.id if isinstance(m.id, tuple) else (m.id,)
        assert all(s.strip() for s in strings) and len(strings) == catalog.num_plurals ** isinstance(m.id, tuple), \
            (lang, m.context, m.id)
        assert "fuzzy" not in m.flags, (lang, m.id)
        wanted = sorted(PLACEHOLDER.findall(msgids[0]))
        for s in strings:
            assert sorted(PLACEHOLDER.findall(s)) == wanted, (lang, m.context, m.id, s)


def test_the_template_holds_every_marked_message_and_nothing_else() -> None:
    found = source_messages()
    assert ("oled", "Fuses") in found and ("speech", "%(card)s played") in found and (None, "History") in found
    assert ids(template()) == found, "run make words-update"


def test_oled_and_speech_words_have_their_own_context() -> None:
    contexts = {context for context, _ in ids(template())}
    assert contexts == {None, "oled", "speech"}
    assert pgettext("oled", "Fuses", "de") == "Gewitter"
    assert pgettext("speech", "red", "de") == "rote"


def test_an_unknown_language_is_an_error_naming_the_four() -> None:
    with pytest.raises(UnknownLanguage, match="en, pl, de, cs"):
        translations("fr")


def test_the_catalogue_needs_the_standard_library_only() -> None:
    code = ("import sys, companion.words as w; w.translations('de'); "
            "print(sorted(m for m in sys.modules if m.split('.')[0] in "
            "('babel', 'flask', 'hardware', 'web', 'vision', 'numpy', 'cv2') or m.startswith('companion.game')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True)
    assert out.stdout.strip() == "[]"
