"""Gorogoro shōgi / Yōkaï no Mori 5×6 (rules/gorogoro.md): dobutsu's rules with a few changes."""

from __future__ import annotations

from .shogi import DIRECTIONS, PieceKind, ShogiGame, ShogiPosition, ShogiRules

RULES = ShogiRules(
    files=5,
    ranks=6,
    kinds=(
        PieceKind("K", {"shogi": "King", "yokai": "Koropokkuru"}, DIRECTIONS["king"], royal=True),
        PieceKind("G", {"shogi": "Gold general", "yokai": "Kirin"}, DIRECTIONS["gold"]),
        PieceKind(
            "S", {"shogi": "Silver general", "yokai": "Oni"}, DIRECTIONS["silver"], promotes_to="+S"
        ),
        PieceKind(
            "P",
            {"shogi": "Pawn", "yokai": "Kodama"},
            DIRECTIONS["forward"],
            promotes_to="+P",
            pawn=True,
        ),
        PieceKind(
            "+S",
            {"shogi": "Promoted silver", "yokai": "Super oni"},
            DIRECTIONS["gold"],
            demotes_to="S",
        ),
        PieceKind(
            "+P", {"shogi": "Tokin", "yokai": "Kodama samurai"}, DIRECTIONS["gold"], demotes_to="P"
        ),
    ),
    start="sgkgs/5/1ppp1/1PPP1/5/SGKGS",
    promotion_ranks=2,
    camp_ranks=2,
    drop_immobile_illegal=True,
    drop_doubled_pawn_illegal=True,
    drop_pawn_mate_illegal=True,
    royal_safety="legal",
    try_rule="none",
)


class GorogoroPosition(ShogiPosition):
    """A gorogoro position (its own type: positions of another game are refused)."""

    __slots__ = ()


class Gorogoro(ShogiGame):
    id = "gorogoro"
    POSITION = GorogoroPosition
    name = "Gorogoro shōgi"
    files = 5
    ranks = 6
    RULES = RULES


GAME = Gorogoro
