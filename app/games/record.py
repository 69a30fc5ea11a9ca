"""A game's text record: PGN-style tag pairs, then the numbered moves and the result.

lichess exports games as PGN; ours are not chess, so the record keeps PGN's shape (tag pairs,
move numbers, a result) around our canonical move texts and position strings
(docs/notation.md). The exact format is in docs/notation.md ("Game records"); ``parse``
reads back exactly what ``write`` writes, so that a record can be downloaded, kept and loaded
again (an analysis board replays ``moves`` from ``FEN`` under ``Variant`` and ``Rules``).
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field

import engine

RESULTS = ("1-0", "0-1", "1/2-1/2", "*")
TAG = re.compile(r'\[([A-Za-z0-9_]+) "((?:[^"\\]|\\.)*)"\]')
MOVE_NUMBER = re.compile(r"\d+\.(?:\.\.)?")
COMMENT = re.compile(r"\{[^}]*\}")
# The tags every record has, in this order (PGN's seven first, then ours); optional ones
# (WhiteTitle, BlackTitle, ...) come after.
TAG_ORDER = (
    "Event",
    "Site",
    "Date",
    "White",
    "Black",
    "Result",
    "GameId",
    "UTCDate",
    "UTCTime",
    "Variant",
    "Rules",
    "TimeControl",
    "FEN",
    "Termination",
)


class RecordError(ValueError):
    """A text that is not a game record (code ``record.invalid``)."""

    code = "record.invalid"


@dataclass
class Record:
    """One game's record: its tags (in order) and its moves."""

    tags: dict[str, str] = field(default_factory=dict)
    moves: list[str] = field(default_factory=list)

    @property
    def result(self) -> str:
        return self.tags.get("Result", "*")


def rules_text(rules: Mapping[str, str]) -> str:
    """Rule options as ``name=value`` pairs separated by spaces ("" when there are none)."""
    return " ".join(f"{name}={value}" for name, value in rules.items())


def parse_rules(text: str) -> dict[str, str]:
    rules: dict[str, str] = {}
    for pair in text.split():
        name, eq, value = pair.partition("=")
        if not eq or not name or not value:
            raise RecordError(f"a rule option is name=value, not {pair!r}")
        rules[name] = value
    return rules


def _quote(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"')


def _unquote(value: str) -> str:
    return re.sub(r"\\(.)", r"\1", value)


def movetext(
    variant: str,
    rules: Mapping[str, str],
    start: str,
    moves: Sequence[str],
    result: str,
    comments: Sequence[str | None] | None = None,
) -> str:
    """The moves numbered as in PGN: ``1. white black 2. white ...``. The sides come from
    replaying the game, not from the parity of the ply: in wali a side that cannot move is
    passed, so one side may move twice in a row (``1. a 2. b``, ``1... x``). ``comments``:
    one per move (or None), written after it in braces as PGN's."""
    game = engine.get_game(variant, **rules)
    pos = game.from_text(start)
    words: list[str] = []
    number = 1  # PGN's fullmove number: first's move opens it, second's closes it
    first_moved = False  # first has moved in this number
    after_first = False  # the previous move was first's
    for index, text in enumerate(moves):
        if game.side_to_move(pos) == "first":
            if first_moved:
                number += 1  # second was passed: first moves again, in the next number
            words.append(f"{number}.")
            first_moved = after_first = True
        else:
            if not after_first:
                words.append(f"{number}...")
            number += 1
            first_moved = after_first = False
        words.append(text)
        comment = comments[index] if comments is not None else None
        if comment:
            words.append("{ " + comment.replace("}", ")") + " }")
            after_first = False  # PGN numbers the move after a comment again (``1... x``)
        pos = game.play(pos, text)
    words.append(result)
    return " ".join(words)


def write(tags: Mapping[str, str], moves_text: str | None) -> str:
    """The record's text: one tag pair a line, an empty line, the moves (``None``: no moves,
    as lichess's ``moves=false``), then two empty lines (lichess's separator between games)."""
    lines = [f'[{name} "{_quote(value)}"]' for name, value in tags.items()]
    if moves_text is not None:
        if lines:
            lines.append("")
        lines.append(moves_text)
    return "\n".join(lines) + "\n\n\n"


def parse_many(text: str) -> Iterator[Record]:
    """Every record of a text holding several, as the multi-game exports send them: two
    empty lines (or more) between records."""
    for chunk in re.split(r"\n[ \t]*\n(?:[ \t]*\n)+", text.replace("\r\n", "\n")):
        if chunk.strip():
            yield parse(chunk)


def parse(text: str) -> Record:
    """One record. Tags first (one a line), then move numbers, move texts and the result;
    move numbers are checked for form only (the sides come from replaying the moves)."""
    record = Record()
    words: list[str] = []
    for raw in text.splitlines():
        line = raw.strip()
        if not line:
            continue
        if line.startswith("["):
            if words:
                raise RecordError("a tag pair after the moves")
            found = TAG.fullmatch(line)
            if found is None:
                raise RecordError(f"not a tag pair: {line[:60]!r}")
            name, value = found.group(1), _unquote(found.group(2))
            if name in record.tags:
                raise RecordError(f"the tag {name} is given twice")
            record.tags[name] = value
        else:
            words.extend(line.split())
    # PGN's comments (``{ [%eval 0.35] }``, the exports' evaluations) say nothing of the moves.
    words = COMMENT.sub(" ", " ".join(words)).split()
    if not record.tags and not words:
        raise RecordError("an empty record")
    moves: list[str] = []
    for index, word in enumerate(words):
        if word in RESULTS:
            if index != len(words) - 1:
                raise RecordError(f"the result {word} is not at the end")
            if "Result" in record.tags and record.tags["Result"] != word:
                raise RecordError(f"the result {word} differs from the Result tag")
            record.tags.setdefault("Result", word)
        elif MOVE_NUMBER.fullmatch(word):
            continue
        else:
            moves.append(word)
    record.moves = moves
    return record


def replay(record: Record) -> list[str]:
    """The position string after each move (the first: the start), checking every move with
    the engine under the record's Variant, Rules and FEN: ``engine.EngineError`` if any is
    illegal or a tag is wrong."""
    variant = record.tags.get("Variant")
    if variant is None:
        raise RecordError("the Variant tag is missing")
    game = engine.get_game(variant, **parse_rules(record.tags.get("Rules", "")))
    pos = game.from_text(record.tags["FEN"]) if "FEN" in record.tags else game.start()
    seen = [game.to_text(pos)]
    for text in record.moves:
        pos = game.play(pos, text)
        seen.append(game.to_text(pos))
    return seen


__all__ = [
    "RESULTS",
    "TAG_ORDER",
    "Record",
    "RecordError",
    "movetext",
    "parse",
    "parse_many",
    "parse_rules",
    "replay",
    "rules_text",
    "write",
]
