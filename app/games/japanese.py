"""The two shōgi games' moves in Japanese notation, as Japanese players read them
(docs/notation.md, "Japanese notation"): the downloaded record writes each move's Japanese
form beside it when asked (``?notation=japanese``). The game page writes the same from
static/js/board/notation.js; tests/app/games/test_japanese.py holds the two to one output.

Dōbutsu as its books print it: ``▲B2ひよこ`` (columns A–C from the first player's left, rows
1–4 from the far side). Gorogoro with ごろごろどうぶつしょうぎ's animals on shogi's squares:
``▲３四ひよこ``, ``△２二ねこ成``, ``▲４五ひよこ打`` (files 1–5 from the first player's right,
ranks 一–六 from the far side, as Japanese players read a shogi board)."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

import engine

NAMES = {
    "dobutsu": {"L": "ライオン", "E": "ゾウ", "G": "キリン", "C": "ひよこ", "H": "ニワトリ"},
    "gorogoro": {
        "K": "ライオン",
        "G": "いぬ",
        "S": "ねこ",
        "P": "ひよこ",
        "+S": "パワーアップねこ",
        "+P": "ニワトリ",
    },
}
SHOGI_STYLE = {"gorogoro"}
FILE_DIGITS = "０１２３４５６７８９"
RANK_KANJI = ["", "一", "二", "三", "四", "五", "六", "七", "八", "九"]
MOVE = re.compile(r"^(?:([A-Z])\*|([a-z]\d+))([a-z]\d+)(\+)?$")
TOKEN = re.compile(r"\d+|\+?[A-Za-z]")


def has_japanese(variant: str) -> bool:
    return variant in NAMES


def _board(field: str, ranks: int) -> dict[str, str]:
    board: dict[str, str] = {}
    for i, row in enumerate(field.split("/")):
        rank, file = ranks - i, 0
        for token in TOKEN.findall(row):
            if token.isdigit():
                file += int(token)
            else:
                board[f"{chr(97 + file)}{rank}"] = token
                file += 1
    return board


def japanese_move(variant: str, before: str, text: str) -> str | None:
    """``text`` (canonical) played from position ``before``, in Japanese; None for a game
    without Japanese notation or a text that is not a shogi move."""
    names = NAMES.get(variant)
    found = MOVE.match(text)
    if names is None or found is None:
        return None
    drop, origin, target, plus = found.groups()
    info: dict[str, Any] = engine.describe(variant)
    files, ranks = info["board"]["files"], info["board"]["ranks"]
    field, turn = before.split()[:2]
    key, side = drop, "second" if turn == "s" else "first"
    if origin is not None:
        token = _board(field, ranks).get(origin)
        if token is None:
            return None
        key = token.upper()
        side = "first" if token == key else "second"
    file, rank = ord(target[0]) - 97, int(target[1:])
    mark = "▲" if side == "first" else "△"
    name = names.get(key, key)
    if variant not in SHOGI_STYLE:
        return f"{mark}{'ABCDEFGHI'[file]}{ranks + 1 - rank}{name}{'' if origin else '打'}"
    suffix = "" if origin else "打"
    if plus:
        suffix = "成"
    elif origin and _can_promote(info, key, side, origin, target):
        suffix = "不成"
    return f"{mark}{FILE_DIGITS[files - file]}{RANK_KANJI[ranks + 1 - rank]}{name}{suffix}"


def _can_promote(info: dict[str, Any], key: str, side: str, origin: str, target: str) -> bool:
    piece = next((p for p in info["pieces"] if p["letter"] == key), None)
    zone = info.get("squares", {}).get("promotion_zone", {}).get(side, [])
    return bool(piece and piece.get("promotes_to")) and (origin in zone or target in zone)


def japanese_moves(
    variant: str, rules: Mapping[str, Any], start: str, moves: Sequence[str]
) -> list[str | None]:
    """Each move of a game in Japanese (None for every move of another game)."""
    if not has_japanese(variant):
        return [None] * len(moves)
    game = engine.get_game(variant, **rules)
    pos = game.from_text(start)
    out: list[str | None] = []
    for text in moves:
        out.append(japanese_move(variant, game.to_text(pos), text))
        pos = game.play(pos, text)
    return out


def beside(
    variant: str,
    rules: Mapping[str, Any],
    start: str,
    moves: Sequence[str],
    comments: Sequence[str | None] | None,
) -> list[str | None] | None:
    """The record's comments with each move's Japanese form first (``{ ▲B2ひよこ }``, then a
    review's evaluation if any); the comments as they were for another game."""
    if not has_japanese(variant):
        return None if comments is None else list(comments)
    written = japanese_moves(variant, rules, start, moves)
    others = list(comments) if comments is not None else [None] * len(moves)
    return [
        " ".join(part for part in (mine, other) if part) or None
        for mine, other in zip(written, others, strict=True)
    ]
