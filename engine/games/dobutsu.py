"""Dōbutsu shōgi / Yōkaï no Mori 3×4 (rules/dobutsu.md): a rules record over the shogi family."""

from __future__ import annotations

from typing import ClassVar

from ..core import Option
from .shogi import DIRECTIONS, PieceKind, ShogiGame, ShogiPosition, ShogiRules

KINDS = (
    PieceKind("L", {"animals": "Lion", "yokai": "Koropokkuru"}, DIRECTIONS["king"], royal=True),
    PieceKind("E", {"animals": "Elephant", "yokai": "Kitsune"}, DIRECTIONS["diagonals"]),
    PieceKind("G", {"animals": "Giraffe", "yokai": "Tanuki"}, DIRECTIONS["orthogonals"]),
    PieceKind("C", {"animals": "Chick", "yokai": "Kodama"}, DIRECTIONS["forward"], promotes_to="H"),
    PieceKind(
        "H", {"animals": "Hen", "yokai": "Kodama samurai"}, DIRECTIONS["gold"], demotes_to="C"
    ),
)

BASE = ShogiRules(
    files=3,
    ranks=4,
    kinds=KINDS,
    start="gle/1c1/1C1/ELG",
    promotion_ranks=1,
    camp_ranks=1,
)

# ruleset=dobutsu: a move may not leave one's lion capturable; the lion's move into the
# promotion zone wins. ruleset=yokai: every move is legal, capturing the koropokkuru wins, and
# a koropokkuru standing unattacked on its promotion zone after any move wins.
RULESETS = {
    "dobutsu": ShogiRules(**{**BASE.__dict__, "royal_safety": "legal", "try_rule": "move"}),
    "yokai": ShogiRules(**{**BASE.__dict__, "royal_safety": "free", "try_rule": "safe"}),
}


class DobutsuPosition(ShogiPosition):
    """A dobutsu position (its own type: positions of another game are refused)."""

    __slots__ = ()


class Dobutsu(ShogiGame):
    id = "dobutsu"
    POSITION = DobutsuPosition
    name = "Dōbutsu shōgi"
    files = 3
    ranks = 4
    OPTIONS: ClassVar[tuple[Option, ...]] = (
        Option(
            "ruleset",
            ("dobutsu", "yokai"),
            "dobutsu: a move may not leave one's lion capturable and the lion's move into the "
            "last rank wins; yokai: capturing the koropokkuru wins, and so does a koropokkuru "
            "standing unattacked on the last rank after any move",
        ),
    )

    def _rules(self) -> ShogiRules:
        return RULESETS[self.options["ruleset"]]


GAME = Dobutsu
