"""The server's sentences: every language has English's keys and placeholders, and a
request's language is the page's cookie, else the browser's best accepted language."""

from __future__ import annotations

import re

import pytest

from app.core.words import LANGUAGES, from_accept_language, request_language, say


def placeholders(text: str) -> set[str]:
    return set(re.findall(r"\{(\w+)\}", text))


@pytest.mark.parametrize("lang", sorted(set(LANGUAGES) - {"en"}))
def test_every_language_has_englishs_sentences(lang: str) -> None:
    english, mine = LANGUAGES["en"], LANGUAGES[lang]
    assert set(mine) == set(english)
    for key, text in english.items():
        assert placeholders(mine[key]) == placeholders(text), key
        assert mine[key].strip()


def test_the_pages_cookie_wins_over_the_browsers_languages() -> None:
    assert request_language({"kodama_lang": "ja"}, "fr-FR,fr;q=0.9") == "ja"
    # A cookie naming no language of the site is ignored.
    assert request_language({"kodama_lang": "xx"}, "fr-FR,fr;q=0.9") == "fr"
    assert request_language({}, None) == "en"


def test_the_browsers_languages_are_read_by_their_weights() -> None:
    assert from_accept_language("de;q=0.9, ja;q=0.8, fr;q=0.85") == "fr"
    assert from_accept_language("ja-JP,ja;q=0.9,en-US;q=0.8") == "ja"
    assert from_accept_language("de, nl;q=0.5") is None
    assert from_accept_language("fr;q=0, ja") == "ja"  # q=0: not acceptable
    assert from_accept_language("*, garbage;;, en;q=x") is None


def test_a_sentence_is_filled_in_the_language_asked_or_english() -> None:
    assert say("ja", "mail.reset.body", name="ann", link="L").startswith("ann さん")
    assert say("xx", "mail.reset.subject") == LANGUAGES["en"]["mail.reset.subject"]
