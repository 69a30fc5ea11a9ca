"""A built-in bot's greeting (bots/builtin.py) is read in each reader's language
(static/js/game/botgreeting.js); anyone else's line, and a bot's other lines, as written."""

from __future__ import annotations

import json

from bots.builtin import greeting
from tests.app.web.test_pages import STATIC, needs_node, run_module

pytestmark = needs_node


def shown(lang: str, lines: list[dict[str, str]]) -> list[str]:
    module = json.dumps((STATIC / "js" / "game" / "botgreeting.js").as_uri())
    i18n = json.dumps((STATIC / "js" / "i18n" / "i18n.js").as_uri())
    out = run_module(
        f"""import {{ shownText }} from {module};
        import {{ setLang }} from {i18n};
        setLang({json.dumps(lang)});
        console.log(JSON.stringify({json.dumps(lines)}.map(shownText)));"""
    )
    assert isinstance(out, list)
    return out


def test_the_greeting_is_in_the_readers_language() -> None:
    said = {"room": "player", "username": "kodama-easy", "text": greeting("kodama-easy", "easy")}
    [ja] = shown("ja", [said])
    assert ja.startswith("こんにちは！kodama-easyです。") and "2手先まで読みます" in ja
    [fr] = shown("fr", [said])
    assert fr.startswith("Bonjour ! Je suis kodama-easy,")
    [en] = shown("en", [said])
    assert en.startswith("Hello! I am kodama-easy, a built-in computer opponent: Looks two")


def test_other_lines_stay_as_written() -> None:
    lines = [
        # A person naming themselves like a bot cannot: "kodama" names are the server's.
        {"room": "player", "username": "ann", "text": "Hello! I am ann, hi"},
        {"room": "player", "username": "kodama-easy", "text": "gg"},
        {"room": "spectator", "username": "kodama-easy", "text": "Hello! I am kodama-easy, x"},
    ]
    assert shown("ja", lines) == [line["text"] for line in lines]
