"""Gorogoro shōgi — ごろごろどうぶつしょうぎ, Yōkaï no Mori 5×6 (rules/gorogoro.md): dobutsu's
rules with a few changes. The letters are shogi's (King, Gold, Silver, Pawn, as USI writes
them); the names are the official game's animals and Yōkaï no Mori's yokai."""

from __future__ import annotations

from .shogi import DIRECTIONS, PieceKind, ShogiGame, ShogiPosition, ShogiRules

RULES = ShogiRules(
    files=5,
    ranks=6,
    kinds=(
        PieceKind("K", {"animals": "Lion", "yokai": "Koropokkuru"}, DIRECTIONS["king"], royal=True),
        PieceKind("G", {"animals": "Dog", "yokai": "Kirin"}, DIRECTIONS["gold"]),
        PieceKind("S", {"animals": "Cat", "yokai": "Oni"}, DIRECTIONS["silver"], promotes_to="+S"),
        PieceKind(
            "P",
            {"animals": "Chick", "yokai": "Kodama"},
            DIRECTIONS["forward"],
            promotes_to="+P",
            pawn=True,
        ),
        PieceKind(
            "+S",
            {"animals": "Power-up cat", "yokai": "Super oni"},
            DIRECTIONS["gold"],
            demotes_to="S",
        ),
        PieceKind(
            "+P", {"animals": "Hen", "yokai": "Kodama samurai"}, DIRECTIONS["gold"], demotes_to="P"
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
