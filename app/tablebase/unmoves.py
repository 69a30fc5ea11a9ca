"""Every move into many positions at once, in numpy: the solver's moves turned round.

``predecessors`` undoes moves: of a position (a working code, seen from its side to move)
it lists every position with a legal move to it, once a move, as ``moves.successors`` would
list that move from there. The retrograde analysis walks the moves backwards with it rather
than keeping every move of every position in memory; tests/app/tablebase/test_unmoves.py
holds it to ``successors`` move for move.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .encoding import (
    ATTACKED_BY_THEM,
    FILES,
    HAND_KINDS,
    HAND_SHIFT,
    SQUARES,
    THEIRS,
    U64,
    C,
    Codes,
    E,
    G,
    H,
    L,
)
from .moves import _STEPS, GAIN, LAST_RANK, UNKNOWN, _attackers, _lion, ended, mirror, nibbles, turn

Ints = np.ndarray[Any, np.dtype[np.intp]]

# The pieces a capture can have taken, by what it added to the mover's hand (a hen comes
# back as a chick); a lion adds nothing, and is put back only where it is missing.
_TAKEN = (E | THEIRS, G | THEIRS, C | THEIRS, H | THEIRS)


def predecessors(codes: Codes, ruleset: str) -> tuple[Ints, Codes]:
    """Every legal move into each position of ``codes`` (canonical working codes): (index of
    the position, canonical code of the position the move is made from), once a move."""
    # A canonical code stands for the position and its mirror image: moves into either.
    flipped = mirror(codes)
    other = np.flatnonzero(flipped != codes)
    child = np.concatenate([np.arange(len(codes), dtype=np.intp), other])
    after = turn(np.concatenate([codes, flipped[other]]))  # the mover's view, after the move
    nib = nibbles(after)
    if ruleset == "dobutsu":  # a legal move leaves the mover's lion unattacked
        lion, present = _lion(nib, L)
        attacked, _ = _attackers(nib, lion, ATTACKED_BY_THEM)
        keep = np.flatnonzero((attacked == 0) & (present == 1))
        child, after = child[keep], after[keep]
        nib = [n[keep] for n in nib]
    ours, our_lion = _lion(nib, L)
    theirs, their_lion = _lion(nib, L | THEIRS)
    # Whether a lion stands where the game could be over (moves.ended): missing, ours on
    # the last rank, theirs on our first. Only such positions need ``ended``'s full look.
    our_edge = (our_lion == 0) | (ours >= LAST_RANK)
    their_edge = (their_lion == 0) | (theirs < FILES)
    hand = [((after >> U64(HAND_SHIFT + 2 * i)) & U64(3)) for i in range(len(HAND_KINDS))]
    parents: list[Ints] = []
    befores: list[Codes] = []
    edges: list[np.ndarray[Any, np.dtype[np.bool_]]] = []

    def emit(idx: Ints, before: Codes, edge: np.ndarray[Any, np.dtype[np.bool_]]) -> None:
        parents.append(idx)
        befores.append(before)
        edges.append(edge)

    for i, kind in enumerate(HAND_KINDS):  # drops
        back = U64(1 << (HAND_SHIFT + 2 * i))
        for sq in range(SQUARES):
            idx = np.flatnonzero(nib[sq] == kind)
            if len(idx):
                emit(
                    idx, after[idx] - U64(kind << (4 * sq)) + back, our_edge[idx] | their_edge[idx]
                )
    for frm, to, movers in _STEPS:
        piece = nib[to]
        empty = nib[frm] == 0
        # The piece now on ``to`` stood on ``frm``: as it is (a chick on the last rank was
        # dropped there, not moved: it would have been promoted), or a chick promoted.
        plain = empty & (movers[piece] == 1) & ((piece != C) | (to < LAST_RANK))
        promoted = empty & (piece == H) & (to >= LAST_RANK) & (movers[C] == 1)
        clear = ~U64((15 << (4 * frm)) | (15 << (4 * to)))
        for ok, was in ((plain, None), (promoted, C)):
            idx = np.flatnonzero(ok)
            if not len(idx):
                continue
            mover = piece[idx].astype(U64) if was is None else U64(was)
            before = (after[idx] & clear) | (mover << U64(4 * frm))
            our = (
                our_edge[idx]
                if was is not None
                else np.where(piece[idx] == L, frm >= LAST_RANK, our_edge[idx])
            )
            edge = our | their_edge[idx]
            emit(idx, before, edge)
            for taken in _TAKEN:  # a capture: the piece taken leaves the mover's hand
                slot = HAND_KINDS.index(C if taken >= C | THEIRS else taken ^ THEIRS)
                got = np.flatnonzero(hand[slot][idx] > 0)
                if len(got):
                    emit(idx[got], before[got] - GAIN[taken] + U64(taken << (4 * to)), edge[got])
            got = np.flatnonzero(their_lion[idx] == 0)
            if len(got):
                lion_back = before[got] | U64((L | THEIRS) << (4 * to))
                emit(idx[got], lion_back, our[got] | (to < FILES))
    if not parents:
        return np.zeros(0, dtype=np.intp), np.zeros(0, dtype=U64)
    parent = np.concatenate(parents)
    before = np.concatenate(befores)
    # The mover's position must be its class's code (its mirror image's moves are the same
    # moves, already counted) and a game not yet over.
    ok = before <= mirror(before)
    look = ok & np.concatenate(edges)
    ok[look] = ended(before[look], ruleset) == UNKNOWN
    return child[parent[ok]], before[ok]
