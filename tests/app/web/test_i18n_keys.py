"""Every shipped language has every word English has, and no other (docs/i18n.md): the page
words, the games' words (with a name for every piece of every picture set), the rules pages
(the same sections and diagrams), the games' names, and the same placeholders in each
sentence. A missing key fails here, never falls back to English on a page."""

from __future__ import annotations

import ast
import json
import re
from typing import Any

import pytest

import engine
from tests.app.web.test_pages import STATIC, needs_node, run_module

pytestmark = needs_node

I18N = json.dumps((STATIC / "js" / "i18n" / "i18n.js").as_uri())
RULES = json.dumps((STATIC / "js" / "i18n" / "rules-text.js").as_uri())
INDEX = json.dumps((STATIC / "js" / "i18n" / "lang" / "index.js").as_uri())


def dictionaries() -> dict[str, Any]:
    out = run_module(
        f"""import {{ DICTIONARIES, LANGS, LANG_NAMES, LANG_SHORT }} from {I18N};
        import {{ RULES_TEXT }} from {RULES};
        import * as index from {INDEX};
        const rules = {{}};
        for (const [lang, games] of Object.entries(RULES_TEXT)) {{
          rules[lang] = {{}};
          for (const [id, g] of Object.entries(games)) {{
            rules[lang][id] = {{
              intro: String(g.intro),
              sections: g.sections.map((s) =>
                ({{ title: s.title, body: String(s.body), show: s.show || [] }})),
              captions: g.captions || {{}},
              pieces: g.pieces || {{}},
            }};
          }}
        }}
        // One file per language: the languages listed there (all of them once folded).
        const files = index.LANGUAGES || index.MORE_LANGUAGES;
        const pages = Object.fromEntries(files.map((l) => [l.code, Object.keys(l.pages || {{}})]));
        const pageKeys = Object.fromEntries(Object.entries(files[0].pages || {{}})
          .map(([name, words]) => [name, Object.keys(words)]));
        console.log(JSON.stringify({{ ui: DICTIONARIES.ui, game: DICTIONARIES.game, rules,
          langs: LANGS, names: LANG_NAMES, short: LANG_SHORT, pages, page_keys: pageKeys }}));"""
    )
    assert isinstance(out, dict)
    return out


@pytest.fixture(scope="module")
def words() -> dict[str, Any]:
    return dictionaries()


def others(words: dict[str, Any]) -> list[str]:
    return [lang for lang in words["langs"] if lang != "en"]


def placeholders(text: str) -> set[str]:
    return set(re.findall(r"\{(\w+)\}", text))


def piece_keys() -> set[str]:
    """A name for every piece of every picture set: what pieceName() asks for."""
    keys = set()
    for game in engine.game_ids():
        for piece in engine.describe(game).get("pieces", []):
            if piece.get("names"):
                keys |= {f"piece.{game}.{s}.{piece['letter']}" for s in piece["names"]}
            elif engine.describe(game).get("family") != "stones":
                keys.add(f"piece.{game}.{piece['letter']}")
    return keys


def test_every_language_has_exactly_englishs_page_words(words: dict[str, Any]) -> None:
    english = words["ui"]["en"]
    problems = {}
    for lang in others(words):
        mine = words["ui"][lang]
        missing = sorted(set(english) - set(mine))
        extra = sorted(set(mine) - set(english))
        empty = sorted(k for k, v in mine.items() if not str(v).strip())
        wrong = sorted(
            k for k in set(english) & set(mine) if placeholders(english[k]) != placeholders(mine[k])
        )
        if missing or extra or empty or wrong:
            problems[lang] = {
                "missing": missing,
                "extra": extra,
                "empty": empty,
                "placeholders": wrong,
            }
    assert problems == {}


def test_every_language_names_every_piece_and_has_englishs_game_words(
    words: dict[str, Any],
) -> None:
    required = set(words["game"]["en"]) | piece_keys()
    problems = {}
    for lang in others(words):
        mine = set(words["game"][lang])
        if mine != required:
            problems[lang] = {"missing": sorted(required - mine), "extra": sorted(mine - required)}
    assert problems == {}


def test_every_rules_page_has_englishs_sections_diagrams_and_captions(
    words: dict[str, Any],
) -> None:
    english = words["rules"]["en"]
    for lang in others(words):
        mine = words["rules"][lang]
        assert set(mine) == set(english), lang
        for game, text in english.items():
            theirs = mine[game]
            where = f"{lang} {game}"
            shows = [s["show"] for s in theirs["sections"]]
            assert shows == [s["show"] for s in text["sections"]], where
            assert set(theirs["captions"]) == set(text["captions"]), where
            assert set(theirs["pieces"]) == set(text["pieces"]), where
            shown = [theirs["intro"], *theirs["captions"].values(), *theirs["pieces"].values()]
            shown += [part for s in theirs["sections"] for part in (s["title"], s["body"])]
            assert all(part.strip() for part in shown), where


def test_every_game_is_named_in_every_language(words: dict[str, Any]) -> None:
    for game in engine.game_ids():
        names = engine.describe(game)["names"]
        assert set(words["langs"]) <= set(names), game


def test_the_switch_names_every_language_in_itself(words: dict[str, Any]) -> None:
    assert set(words["names"]) == set(words["langs"]) == set(words["short"])
    assert words["names"]["ja"] == "日本語"
    # The one-file languages carry the words of the pages that keep their own (account.js…).
    for lang, pages in words["pages"].items():
        assert set(pages) == {"account", "accountControl", "challenge", "challengeNotice"}, lang


def test_plurals_come_in_pairs(words: dict[str, Any]) -> None:
    for lang in words["langs"]:
        keys = set(words["ui"][lang])
        ones = {k.removesuffix(".one") for k in keys if k.endswith(".one")}
        others_ = {k.removesuffix(".other") for k in keys if k.endswith(".other")}
        assert ones <= others_, (lang, sorted(ones - others_))


# ---- every refusal the server sends a page has a sentence in every language ------------------
APP = STATIC.parent / "app"
# Codes only programs meet (the bot and board APIs, tokens sent by hand, the socket's own
# protocol): their English sentence is for the program's author.
API_ONLY = {
    "token.invalid": "an API token sent by a program",
    "token.scope": "an API token sent by a program",
    "token.required": "revoking by a token sent by a program",
    "request.malformed": "a socket message that is not JSON text: a program's",
    "request.too_large": "a socket message over the limit: a program's",
    "request.unknown_type": "a socket message type the page never sends",
    "request.unsupported": "a challenge field the page never sends",
    "perf.unknown": "the games export's perfType, a program's",
    "bot.required": "the bot API called without a BOT account",
    "bot.forbidden": "a BOT account on the board API",
    "ai.unavailable": "lichess's challenge of its AI, a program's",
    "challenge.accept_token": "acceptByToken, a program's",
    "chat.too_fast": "the chat's own sentence, chat.tooFast, with the seconds to wait",
}


def server_codes() -> set[str]:
    """The codes of every ServiceError app/ raises with a literal code."""
    codes = set()
    for path in APP.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if not isinstance(node, ast.Call) or not node.args:
                continue
            name = getattr(node.func, "id", getattr(node.func, "attr", None))
            code = node.args[0]
            if name == "ServiceError" and isinstance(code, ast.Constant):
                codes.add(str(code.value))
    return codes


def test_every_refusal_a_page_can_meet_has_a_sentence(words: dict[str, Any]) -> None:
    english = set(words["ui"]["en"])
    # The account pages' own dictionaries name some codes themselves (account.js).
    own = {key for keys in words["page_keys"].values() for key in keys}
    missing = sorted(
        code
        for code in server_codes() - set(API_ONLY)
        if f"error.{code}" not in english
        and f"chat.error.{code}" not in english
        and code not in own
    )
    assert missing == []
