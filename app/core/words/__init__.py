"""The sentences the server itself writes to a person (the e-mails), in each of the site's
languages: one module per language (``WORDS``, English's keys, the same ``{name}``
placeholders), checked by tests/app/core/test_words.py. The pages' words are the client's
(static/js/i18n/, docs/i18n.md).

A request's language is the page's choice, sent as the ``kodama_lang`` cookie by i18n.js,
else the browser's Accept-Language, else English (``request_language``).
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from . import en, fr, ja, zh

# Adding a language: its module, then one entry here.
LANGUAGES: dict[str, Mapping[str, str]] = {
    "en": en.WORDS,
    "fr": fr.WORDS,
    "ja": ja.WORDS,
    "zh": zh.WORDS,
}
DEFAULT = "en"
COOKIE = "kodama_lang"
_TAG = re.compile(r"\s*([A-Za-z]{1,8})(?:-[A-Za-z0-9]{1,8})*\s*(?:;\s*q\s*=\s*([0-9.]+))?\s*")


def say(lang: str, key: str, **values: object) -> str:
    """The sentence ``key`` in ``lang`` (English for a language the site does not have)."""
    words = LANGUAGES.get(lang, LANGUAGES[DEFAULT])
    return words[key].format(**values)


def from_accept_language(header: str) -> str | None:
    """The first of the site's languages the header accepts, by its q weights."""
    wanted: list[tuple[float, int, str]] = []
    for i, part in enumerate(header.split(",")):
        found = _TAG.fullmatch(part)
        if not found:
            continue
        try:
            weight = float(found.group(2)) if found.group(2) else 1.0
        except ValueError:
            continue
        if weight > 0:
            wanted.append((-weight, i, found.group(1).lower()))
    for _, _, base in sorted(wanted):
        if base in LANGUAGES:
            return base
    return None


def request_language(cookies: Mapping[str, str], accept_language: str | None) -> str:
    """The language to write to this person in: the page's cookie, else the browser's."""
    chosen = cookies.get(COOKIE, "")
    if chosen in LANGUAGES:
        return chosen
    return from_accept_language(accept_language or "") or DEFAULT
