"""Every move of many positions at once, in numpy: the solver's move generator.

It follows engine/games/shogi.py's rules for the two rulesets of rules/dobutsu.md and is
checked against the engine move for move (tests/app/tablebase/test_moves.py): the engine
decides, this only repeats it fast. Positions and their successors are working codes
(encoding.py), each seen from its own side to move; a move is a few operations on the code.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .encoding import (
    ATTACKED_BY_THEM,
    ATTACKED_BY_US,
    FILES,
    HAND_KINDS,
    HAND_SHIFT,
    RANKS,
    SQUARES,
    STEPS,
    THEIRS,
    U64,
    Bytes,
    C,
    Codes,
    H,
    L,
    square,
)

RULESETS = ("dobutsu", "yokai")

# Values of the solver (uint16): 0 not (yet) decided; a win in n plies 2n+1, a loss 2n+2;
# END_DRAW a game the last move ended drawn (yokai: both lions safe on their last rank).
UNKNOWN = 0
END_DRAW = 0xFFFF
WIN0, LOSS0 = 1, 2

Ints = np.ndarray[Any, np.dtype[np.intp]]
Nibbles = list[Bytes]

# Every (from, to) step on the board and the codes of our pieces that can make it.
_STEPS: list[tuple[int, int, Bytes]] = []
for _sq in range(SQUARES):
    for _df in (-1, 0, 1):
        for _dr in (-1, 0, 1):
            _f, _r = _sq % FILES + _df, _sq // FILES + _dr
            if (_df or _dr) and 0 <= _f < FILES and 0 <= _r < RANKS:
                _movers = np.zeros(16, dtype=np.uint8)
                for _kind, _steps in STEPS.items():
                    _movers[_kind] = (_df, _dr) in _steps
                _STEPS.append((_sq, square(_f, _r), _movers))

NOT_OURS = np.array([not 0 < c < THEIRS for c in range(16)], dtype=np.uint8)
LAST_RANK = SQUARES - FILES  # our promotion zone: squares 9-11
# What capturing a piece adds to our hand (a hen goes back as a chick; a lion, nothing).
GAIN = np.zeros(16, dtype=U64)
for _i, _kind in enumerate(HAND_KINDS):
    GAIN[_kind | THEIRS] = 1 << (HAND_SHIFT + 2 * _i)
GAIN[H | THEIRS] = GAIN[C | THEIRS]
# The piece a move leaves on its square, shifted there (a chick reaching the last rank
# promotes), for each target square.
PLACED = np.zeros((SQUARES, 16), dtype=U64)
for _to in range(SQUARES):
    for _c in range(16):
        _p = H if (_c == C and _to >= LAST_RANK) else _c
        PLACED[_to, _c] = _p << (4 * _to)

BOARD = U64((1 << 48) - 1)
LOW_NIBBLES = U64(0x111111111111)
NIBBLE_PAIRS = U64(0x0F0F0F0F0F0F)
FILE_A = U64(0x00F00F00F00F)
FILE_B = FILE_A << U64(4)
FILE_C = FILE_A << U64(8)


def nibbles(codes: Codes) -> Nibbles:
    """Each square's code, one array a square."""
    return [((codes >> U64(4 * sq)) & U64(15)).astype(np.uint8) for sq in range(SQUARES)]


def _lion(nib: Nibbles, code: int) -> tuple[Ints, Bytes]:
    """Where each position's lion of ``code`` stands, and whether it is there at all."""
    where = np.zeros(len(nib[0]), dtype=np.intp)
    present = np.zeros(len(nib[0]), dtype=np.uint8)
    for sq in range(SQUARES):
        here = nib[sq] == code
        where[here] = sq
        present |= here
    return where, present


def _attackers(nib: Nibbles, target: Ints, table: Bytes) -> tuple[Bytes, Ints]:
    """How many pieces attack ``target`` (``table``: whose), and the square of one."""
    base = target * 192
    count = np.zeros(len(target), dtype=np.uint8)
    where = np.zeros(len(target), dtype=np.intp)
    for sq in range(SQUARES):
        hit = table[base + sq * 16 + nib[sq]]
        count += hit
        where[hit == 1] = sq
    return count, where


def ended(codes: Codes, ruleset: str) -> np.ndarray[Any, np.dtype[np.uint16]]:
    """The value of each position the last move ended (UNKNOWN where the game goes on):
    what the engine's ``Position.win`` says, from the side to move's view."""
    values = np.zeros(len(codes), dtype=np.uint16)
    nib = nibbles(codes)
    theirs, _ = _lion(nib, L | THEIRS)
    their_try = theirs < FILES  # their lion on our first rank, their promotion zone
    if ruleset == "dobutsu":
        values[their_try] = LOSS0
        return values
    ours, present = _lion(nib, L)
    their_safe = their_try & (_attackers(nib, theirs, ATTACKED_BY_US)[0] == 0)
    our_safe = (present == 1) & (ours >= LAST_RANK)
    our_safe &= _attackers(nib, ours, ATTACKED_BY_THEM)[0] == 0
    values[our_safe] = WIN0
    values[their_safe] = LOSS0
    values[our_safe & their_safe] = END_DRAW
    values[present == 0] = LOSS0  # captured: outranks every try
    return values


def turn(codes: Codes) -> Codes:
    """The positions seen from the other side: half a turn, colours and hands swapped."""
    board = codes & BOARD
    board = ((board >> U64(4)) & NIBBLE_PAIRS) | ((board & NIBBLE_PAIRS) << U64(4))
    board = board.byteswap() >> U64(16)  # square sq goes to 11 - sq
    occupied = (board | (board >> U64(1)) | (board >> U64(2)) | (board >> U64(3))) & LOW_NIBBLES
    board ^= occupied << U64(3)  # bit 3 of a square is its piece's colour
    hands = codes >> U64(HAND_SHIFT)
    hands = ((hands & U64(0x3F)) << U64(6)) | (hands >> U64(6))
    result: Codes = board | (hands << U64(HAND_SHIFT))
    return result


def mirror(codes: Codes) -> Codes:
    """The positions with files a and c swapped."""
    result: Codes = (
        (codes & ~(FILE_A | FILE_C)) | ((codes & FILE_A) << U64(8)) | ((codes & FILE_C) >> U64(8))
    )
    return result


def canonical(codes: Codes) -> Codes:
    """The smaller of each code and its mirror image's."""
    return np.minimum(codes, mirror(codes))


def successors(codes: Codes, ruleset: str, grouped: bool = True) -> tuple[Ints, Codes]:
    """Every legal move of each position the game has not ended: (index of the position,
    canonical code of the position after the move); ``grouped``: by position, in order.

    Positions whose game is over (``ended``) have no moves; a position with none otherwise
    is lost by its side to move (no legal move)."""
    live = np.flatnonzero(ended(codes, ruleset) == UNKNOWN)
    codes = codes[live]
    nib = nibbles(codes)
    safety = ruleset == "dobutsu"
    if safety:  # a move may not leave our lion capturable (royal_safety="legal")
        lion, _ = _lion(nib, L)
        checks, checker = _attackers(nib, lion, ATTACKED_BY_THEM)
    parents: list[Ints] = []
    afters: list[Codes] = []
    for frm, to, movers in _STEPS:
        ok = movers[nib[frm]] & NOT_OURS[nib[to]]
        if safety:
            answers = (checks == 0) | ((checks == 1) & (checker == to))
            ok &= (nib[frm] == L) | answers
        idx = np.flatnonzero(ok)
        if not len(idx):
            continue
        piece = nib[frm][idx]
        if safety:  # the lion may not step onto a square they attack
            lion_moves = np.flatnonzero(piece == L)
            if len(lion_moves):
                target = np.full(len(lion_moves), to, dtype=np.intp)
                sub = [n[idx[lion_moves]] for n in nib]
                hit, _ = _attackers(sub, target, ATTACKED_BY_THEM)
                keep = np.ones(len(idx), dtype=bool)
                keep[lion_moves[hit > 0]] = False
                idx, piece = idx[keep], piece[keep]
        clear = ~U64((15 << (4 * frm)) | (15 << (4 * to)))
        after = (codes[idx] & clear) | PLACED[to][piece]
        after += GAIN[nib[to][idx]]
        parents.append(idx)
        afters.append(after)
    for i, kind in enumerate(HAND_KINDS):
        shift = HAND_SHIFT + 2 * i
        has = ((codes >> U64(shift)) & U64(3)) > 0
        if safety:
            has &= checks == 0  # a drop never answers a check
        for to in range(SQUARES):
            idx = np.flatnonzero(has & (nib[to] == 0))
            if len(idx):
                parents.append(idx)
                afters.append(codes[idx] + U64(kind << (4 * to)) - U64(1 << shift))
    if not parents:
        return np.zeros(0, dtype=np.intp), np.zeros(0, dtype=U64)
    parent = np.concatenate(parents)
    after = canonical(turn(np.concatenate(afters)))
    if grouped:
        order = _grouping(parents, len(codes))
        parent, after = parent[order], after[order]
    return live[parent], after


def _grouping(parents: list[Ints], n: int) -> Ints:
    """The order that groups moves by position: each part holds a position at most once,
    so a counting sort needs one pass a part."""
    counts = np.zeros(n, dtype=np.intp)
    for part in parents:
        counts[part] += 1
    cursor = np.zeros(n, dtype=np.intp)
    np.cumsum(counts[:-1], out=cursor[1:])
    order = np.empty(sum(len(p) for p in parents), dtype=np.intp)
    at = 0
    for part in parents:
        order[cursor[part]] = np.arange(at, at + len(part))
        cursor[part] += 1
        at += len(part)
    return order
