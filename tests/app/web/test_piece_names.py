"""The shōgi games' pieces as a page shows them, run in node against the engine's describe():
each picture set draws every piece its own picture (static/js/board/pieces.js), and a piece is
named after the picture shown, in the page's language (static/js/lib/variant.js pieceName;
docs/decisions/words-and-languages.md)."""

from __future__ import annotations

import json
import re

import pytest

import engine
from tests.app.web.test_pages import STATIC, needs_node, run_module

pytestmark = needs_node

SHOGI_GAMES = ["dobutsu", "gorogoro"]
SETS = ["animals", "yokai"]


def js_url(name: str) -> str:
    return json.dumps((STATIC / "js" / name).as_uri())


def names(game: str, lang: str) -> dict[str, dict[str, str]]:
    """{set: {letter: pieceName}} in ``lang``."""
    out = run_module(
        f"""import {{ pieceName }} from {js_url("lib/variant.js")};
        import {{ setLang }} from {js_url("i18n/i18n.js")};
        setLang({json.dumps(lang)});
        const variant = {json.dumps(engine.describe(game))};
        const out = {{}};
        for (const set of {json.dumps(SETS)}) {{
          out[set] = Object.fromEntries(variant.pieces.map((p) =>
            [p.letter, pieceName(variant, p.letter, set)]));
        }}
        console.log(JSON.stringify(out));"""
    )
    assert isinstance(out, dict)
    return out


GOROGORO_ANIMALS = {
    "en": ["Lion", "Dog", "Cat", "Chick", "Power-up cat", "Hen"],
    "fr": ["Lion", "Chien", "Chat", "Poussin", "Super chat", "Coq"],
    "ja": ["ライオン", "いぬ", "ねこ", "ひよこ", "パワーアップねこ", "ニワトリ"],
    "zh": ["狮子", "狗", "猫", "小鸡", "强化猫", "鸡"],
}


@pytest.mark.parametrize("lang", sorted(GOROGORO_ANIMALS))
def test_gorogoros_animal_pictures_take_the_official_animal_names(lang: str) -> None:
    shown = names("gorogoro", lang)
    letters = ["K", "G", "S", "P", "+S", "+P"]
    assert [shown["animals"][letter] for letter in letters] == GOROGORO_ANIMALS[lang]
    # The yokai pictures keep the yokai names.
    koropokkuru = {"ja": "コロポックル", "zh": "克鲁波克鲁"}.get(lang, "Koropokkuru")
    assert shown["yokai"]["K"] == koropokkuru


def test_dobutsus_hen_is_written_as_gorogoros() -> None:
    # The same animal, the same word in both games (the promoted chick).
    for lang in ("en", "fr", "ja", "zh"):
        assert names("dobutsu", lang)["animals"]["H"] == names("gorogoro", lang)["animals"]["+P"]
        assert names("dobutsu", lang)["animals"]["L"] == names("gorogoro", lang)["animals"]["K"]


def pictures(game: str) -> dict[str, dict[str, str]]:
    """{set: {letter: the picture's own markup}}: without the tile, the dots and the side."""
    out = run_module(
        f"""import {{ pieceSvg }} from {js_url("board/pieces.js")};
        const variant = {json.dumps(engine.describe(game))};
        const out = {{}};
        for (const set of {json.dumps(SETS)}) {{
          out[set] = Object.fromEntries(variant.pieces.map((p) =>
            [p.letter, String(pieceSvg(variant, p.letter, set))]));
        }}
        console.log(JSON.stringify(out));"""
    )
    assert isinstance(out, dict)
    inner = re.compile(r"<g transform=[^>]*>(.*)</g>", re.DOTALL)
    drawn: dict[str, dict[str, str]] = {}
    for piece_set, by_letter in out.items():
        drawn[piece_set] = {}
        for letter, svg in by_letter.items():
            found = inner.search(svg)
            assert found, svg
            drawn[piece_set][letter] = found.group(1)
    return drawn


@pytest.mark.parametrize("game", SHOGI_GAMES)
def test_every_piece_of_a_picture_set_has_its_own_picture(game: str) -> None:
    for piece_set, drawn in pictures(game).items():
        # A drawing, never the letter drawn as text for a piece without one.
        assert all(art.strip() and "<text" not in art for art in drawn.values()), (game, piece_set)
        assert len(set(drawn.values())) == len(drawn), (game, piece_set)


def test_gorogoros_animals_are_not_dobutsus() -> None:
    # Gorogoro's dog and cat are no giraffe and elephant: it has none.
    gorogoro = set(pictures("gorogoro")["animals"].values())
    dobutsu = pictures("dobutsu")["animals"]
    assert dobutsu["G"] not in gorogoro and dobutsu["E"] not in gorogoro
    assert dobutsu["L"] in gorogoro and dobutsu["C"] in gorogoro and dobutsu["H"] in gorogoro
