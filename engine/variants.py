"""The table of games: one entry per game with every fact about it that is not a rule.

The server, the bots and the client all read this table: the engine builds a game from its
entry's ``module``; the quick-pairing pools come from ``pools``; the built-in bots look their
evaluator up by ``evaluator`` (bots/evaluation.py's ``EVALUATORS``); ``GET /api/variants``
sends each entry's ``client()`` facts with the game's ``describe()``, so no client file lists
the games. The rules themselves (moves, results, position strings, rule options, the pieces'
steps) live in the entry's engine module.

What stays per game outside this table, keyed by the game id (docs/adding-a-game.md):

- the pieces' pictures: ``ART`` in static/js/board/pieces.js (the stone games need none);
- the rules page's text and diagrams: static/js/i18n/rules-text.js (English, French) and
  each other language's file, static/js/i18n/lang/<code>.js; rules/<id>.md;
- the one-line blurb and piece names in every language but English: ``GAME_TEXT`` in
  static/js/i18n/i18n.js and the languages' files (docs/i18n.md).

``register`` adds a game at run time (the tests' toy game); production code never calls it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from .errors import UnknownGameError

Step = tuple[int, int]  # (files, ranks) as seen by the first player
ORTHOGONAL: tuple[Step, ...] = ((0, 1), (0, -1), (1, 0), (-1, 0))


@dataclass(frozen=True, slots=True)
class Stones:
    """How a stone game's stones move, for the client's premoves and move notation.

    ``steps``: the offsets a stone may step by; ``jumps``: a step of two squares over an
    enemy stone captures it (written ``c3xc5``); ``move_while_placing``: stones may step
    while a hand still holds stones (else only once both hands are empty)."""

    steps: tuple[Step, ...] = ORTHOGONAL
    jumps: bool = False
    move_while_placing: bool = True

    def client(self) -> dict[str, Any]:
        jumps = tuple((2 * f, 2 * r) for f, r in self.steps) if self.jumps else ()
        return {
            "steps": [list(s) for s in self.steps],
            "jumps": [list(s) for s in jumps],
            "move_while_placing": self.move_while_placing,
        }


@dataclass(frozen=True, slots=True)
class Variant:
    """One game's entry. ``names``: the name pages show in each of the site's languages
    (en, fr, ja, zh: as that language's players say it) and "home", the game's name in the
    language of the place it comes from (``home_lang``, a BCP 47 tag)."""

    id: str
    names: dict[str, str]
    home_lang: str
    board: tuple[int, int]  # (files, ranks): the engine module's class must agree
    # Each side's starting time and increment (minutes, seconds), fastest first: its pools.
    pools: tuple[tuple[int, int], ...]
    # Key of bots/evaluation.py's EVALUATORS; None: the built-in bots do not play it.
    evaluator: str | None
    # How the move list writes a move (static/js/board/notation.js): "letter" (the letter
    # drawn on the piece), "name" (the piece's name) or "squares" (stones: squares only).
    notation: Literal["letter", "name", "squares"]
    # The picture sets a player may choose between, the first the default ("" if none).
    piece_sets: tuple[str, ...] = ()
    stones: Stones | None = None  # the stone games only
    # The module defining the class ``GAME`` (default: engine.games.<id>).
    module: str = ""

    @property
    def module_name(self) -> str:
        return self.module or f"{__package__}.games.{self.id}"

    def client(self) -> dict[str, Any]:
        """What the client needs besides the game's describe() (GET /api/variants)."""
        return {
            "names": dict(self.names),
            "home_lang": self.home_lang,
            "notation": self.notation,
            "piece_sets": list(self.piece_sets),
            "stones": None if self.stones is None else self.stones.client(),
        }


# Each game's pools, fastest first. dobutsu is over in 20-40 moves on a 3x4 board: bullet
# suits it. yote's captures take two stones each, so its games are short too. gorogoro and
# jungle take 60-100 moves: blitz and rapid. wali places 24 stones (no capture) before its
# real play.
_BUILT_IN = (
    Variant(
        id="dobutsu",
        names={
            "en": "Dōbutsu shōgi",
            "fr": "Dōbutsu shōgi",
            "ja": "どうぶつしょうぎ",
            "zh": "动物将棋",
            "home": "どうぶつしょうぎ",
        },
        home_lang="ja",
        board=(3, 4),
        pools=((1, 1), (3, 2), (5, 3)),
        evaluator="dobutsu",
        notation="letter",
        piece_sets=("animals", "yokai"),
    ),
    Variant(
        id="gorogoro",
        names={
            "en": "Gorogoro shōgi",
            "fr": "Gorogoro shōgi",
            "ja": "ごろごろどうぶつしょうぎ",
            "zh": "咕噜咕噜动物将棋",
            "home": "ごろごろ将棋",
        },
        home_lang="ja",
        board=(5, 6),
        pools=((3, 2), (5, 5), (10, 5)),
        evaluator="gorogoro",
        notation="letter",
        piece_sets=("animals", "yokai"),
    ),
    Variant(
        id="jungle",
        names={
            "en": "Dou shou qi (Jungle)",
            "fr": "Dou shou qi (la jungle)",
            "ja": "闘獣棋（ジャングル）",
            "zh": "斗兽棋",
            "home": "斗兽棋",
        },
        home_lang="zh",
        board=(7, 9),
        pools=((3, 2), (5, 5), (10, 5)),
        evaluator="jungle",
        notation="name",
    ),
    Variant(
        id="yote",
        # West African games: the name is written the same in French, their written language.
        names={"en": "Yoté", "fr": "Yoté", "ja": "ヨテ", "zh": "约特棋", "home": "Yoté"},
        home_lang="fr-SN",
        board=(6, 5),
        pools=((2, 1), (3, 2), (5, 3)),
        evaluator="yote",
        notation="squares",
        stones=Stones(jumps=True),
    ),
    Variant(
        id="wali",
        names={"en": "Wali", "fr": "Wali", "ja": "ワリ", "zh": "瓦里棋", "home": "Wali"},
        home_lang="fr-ML",
        board=(6, 5),
        pools=((3, 2), (5, 3), (10, 5)),
        evaluator="wali",
        notation="squares",
        stones=Stones(move_while_placing=False),
    ),
)

_TABLE: dict[str, Variant] = {v.id: v for v in _BUILT_IN}
BUILT_IN: tuple[str, ...] = tuple(_TABLE)


def ids() -> tuple[str, ...]:
    """Every game's id, in the table's order (the order pages list them in)."""
    return tuple(_TABLE)


def all_variants() -> tuple[Variant, ...]:
    return tuple(_TABLE.values())


def get(game_id: str) -> Variant:
    """The entry of ``game_id`` (UnknownGameError if there is none)."""
    found = _TABLE.get(game_id) if isinstance(game_id, str) else None
    if found is None:
        raise UnknownGameError(f"unknown game {game_id!r}; the games are {', '.join(_TABLE)}")
    return found


def listing(last: str = "or") -> str:
    """The ids for a sentence: "dobutsu, gorogoro, jungle, yote or wali"."""
    names = ids()
    return f"{', '.join(names[:-1])} {last} {names[-1]}" if len(names) > 1 else "".join(names)


def register(variant: Variant) -> None:
    """Add a game to the table (tests only: the built-in games are never replaced)."""
    if variant.id in BUILT_IN:
        raise ValueError(f"{variant.id!r} is a built-in game")
    _TABLE[variant.id] = variant


def unregister(game_id: str) -> None:
    """Take a game ``register`` added out of the table again."""
    if game_id in BUILT_IN:
        raise ValueError(f"{game_id!r} is a built-in game")
    _TABLE.pop(game_id, None)
