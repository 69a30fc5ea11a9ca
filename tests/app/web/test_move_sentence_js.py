"""A move read aloud (static/js/i18n/words.js moveSentence) joins its parts with the page
language's own comma, run in node."""

from __future__ import annotations

import json

import pytest

import engine
from tests.app.web.test_pages import STATIC, needs_node, run_module

pytestmark = needs_node

WORDS = json.dumps((STATIC / "js" / "i18n" / "words.js").as_uri())
I18N = json.dumps((STATIC / "js" / "i18n" / "i18n.js").as_uri())


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("en", "First player: chick b2 to b3, takes the chick"),
        ("fr", "Premier joueur : poussin de b2 en b3, prend : poussin"),
        ("ja", "先手：ひよこ b2からb3、ひよこを取る"),
        ("zh", "先手：小鸡从b2走到b3，吃掉小鸡"),
    ],
)
def test_a_capture_is_joined_by_the_languages_comma(lang: str, said: str) -> None:
    variant = engine.describe("dobutsu")
    # The first chick takes the second at the start: a move and a capture, two parts.
    out = run_module(
        f"""import {{ moveSentence }} from {WORDS};
        import {{ setLang }} from {I18N};
        setLang({json.dumps(lang)});
        const variant = {json.dumps(variant)};
        console.log(JSON.stringify(moveSentence(variant, variant.start, "b2b3", "first")));"""
    )
    assert out == said
