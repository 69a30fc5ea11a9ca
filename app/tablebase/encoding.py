"""How the solver writes a Dōbutsu position as one 64-bit number, and back.

Every position is seen from the side to move ("us"), moving up the board as ``first`` does:
a position with ``second`` to move is turned half a turn and its colours swapped, so both are
one entry. Of a position and its mirror image (files a and c swapped), the one with the
smaller code stands for both: the rules are left-right symmetric, so they share a value.

Working code (the solver's): four bits a square from a1 (0 empty; ours 1-5 for L E G C H,
theirs the same plus 8), then two bits a hand count (our E G C, their E G C) from bit 48.
Key (the stored table's): a dense number below 2**35 naming each piece's square or hand
(``compact``), small enough to store as a bucket of its high bits plus its low 16 bits.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from engine.games.shogi import ShogiPosition

FILES, RANKS, SQUARES = 3, 4, 12
L, E, G, C, H = 1, 2, 3, 4, 5
THEIRS = 8
HAND_SHIFT = 48
HAND_KINDS = (E, G, C)  # the engine's hand order

# Steps (file, rank) of our pieces, forward = +rank; theirs are the negations.
STEPS = {
    L: ((-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (0, 1), (1, 1)),
    E: ((-1, -1), (1, -1), (-1, 1), (1, 1)),
    G: ((0, -1), (-1, 0), (1, 0), (0, 1)),
    C: ((0, 1),),
    H: ((-1, 1), (0, 1), (1, 1), (-1, 0), (1, 0), (0, -1)),
}

RULESETS = ("dobutsu", "yokai")
# Values of the solver: 0 not (yet) decided, which a finished table reads as a draw; a win
# in n plies 2n+1, a loss 2n+2; END_DRAW a game the last move ended drawn (yokai: both
# lions safe on their last rank).
UNKNOWN = 0
END_DRAW = 0xFFFF
WIN0, LOSS0, WIN1 = 1, 2, 3

U64 = np.uint64
Codes = np.ndarray[Any, np.dtype[np.uint64]]
Bytes = np.ndarray[Any, np.dtype[np.uint8]]


def square(file: int, rank: int) -> int:
    return rank * FILES + file


def _on_board(file: int, rank: int) -> bool:
    return 0 <= file < FILES and 0 <= rank < RANKS


ROTATE = tuple(SQUARES - 1 - sq for sq in range(SQUARES))  # half a turn
MIRROR = tuple(square(FILES - 1 - sq % FILES, sq // FILES) for sq in range(SQUARES))


def _attack_table(theirs: bool) -> Bytes:
    """``table[target * 192 + source * 16 + code]``: a piece ``code`` of the given colour on
    ``source`` attacks ``target``."""
    table = np.zeros(SQUARES * SQUARES * 16, dtype=np.uint8)
    sign = -1 if theirs else 1
    for kind, steps in STEPS.items():
        code = kind | THEIRS if theirs else kind
        for src in range(SQUARES):
            f, r = src % FILES, src // FILES
            for df, dr in steps:
                tf, tr = f + sign * df, r + sign * dr
                if _on_board(tf, tr):
                    table[square(tf, tr) * 192 + src * 16 + code] = 1
    return table


ATTACKED_BY_THEM = _attack_table(theirs=True)
ATTACKED_BY_US = _attack_table(theirs=False)


# ---- the stored key ------------------------------------------------------------------------
# Each of the two elephants (and giraffes) is in one of 27 states: our piece on a square
# (0-11), theirs (12-23), in our hand (24), in theirs (25), not in the game (26: the tests'
# smaller problems); chicks in one of 51: our chick (0-11), our hen (12-23), their chick
# (24-35), their hen (36-47), our hand, their hand, none. A pair is unordered:
# (low, high) -> high * (high + 1) / 2 + low.
LION_STATES = SQUARES + 1  # 12: captured (yokai only)
STATES = {E: 27, G: 27, C: 51}
PAIR = {kind: n * (n + 1) // 2 for kind, n in STATES.items()}
KEY_LIMIT = LION_STATES * LION_STATES * PAIR[E] * PAIR[G] * PAIR[C]
KEY_BITS = int(KEY_LIMIT - 1).bit_length()


def state_table() -> np.ndarray[Any, np.dtype[np.int32]]:
    """``table[kind_index, square, code]``: 1 + the state of a piece of that kind standing
    there (0: the square holds no piece of that kind)."""
    table = np.zeros((3, SQUARES, 16), dtype=np.int32)
    for sq in range(SQUARES):
        table[0, sq, E], table[0, sq, E | THEIRS] = 1 + sq, 13 + sq
        table[1, sq, G], table[1, sq, G | THEIRS] = 1 + sq, 13 + sq
        table[2, sq, C], table[2, sq, H] = 1 + sq, 13 + sq
        table[2, sq, C | THEIRS], table[2, sq, H | THEIRS] = 25 + sq, 37 + sq
    return table


_STATE = state_table()


def keys(codes: Codes) -> Codes:
    """The stored keys of working codes (vectorised ``key_of``).

    Of a kind's two pieces in states a <= b (plus one each), the sums S = a + b and
    Q = a² + b² are sums over the squares and hands, and give both back:
    b - a = sqrt(2Q - S²)."""
    nib = [((codes >> U64(4 * sq)) & U64(15)).astype(np.intp) for sq in range(SQUARES)]
    n = len(codes)
    ours = np.full(n, SQUARES, dtype=np.int64)
    theirs = np.zeros(n, dtype=np.int64)
    for sq in range(SQUARES):
        ours[nib[sq] == L] = sq
        theirs[nib[sq] == (L | THEIRS)] = sq
    key = (ours * LION_STATES + theirs).astype(U64)
    for i, kind in enumerate(HAND_KINDS):
        states = STATES[kind]
        mine = ((codes >> U64(HAND_SHIFT + 2 * i)) & U64(3)).astype(np.int64)
        yours = ((codes >> U64(HAND_SHIFT + 6 + 2 * i)) & U64(3)).astype(np.int64)
        total = mine * (states - 2) + yours * (states - 1)
        squares = mine * (states - 2) ** 2 + yours * (states - 1) ** 2
        count = mine + yours
        for sq in range(SQUARES):
            state = _STATE[i, sq][nib[sq]]
            total += state
            squares += state * state
            count += state > 0
        total += (2 - count) * states
        squares += (2 - count) * states**2
        gap = np.rint(np.sqrt((2 * squares - total * total).astype(np.float64))).astype(np.int64)
        low, high = (total - gap) // 2 - 1, (total + gap) // 2 - 1
        key = key * U64(PAIR[kind]) + (high * (high + 1) // 2 + low).astype(U64)
    return key


def codes_of_keys(stored: Codes) -> Codes:
    """The working codes of stored keys (the inverse of ``keys``)."""
    rest = stored.astype(np.uint64)
    codes = np.zeros(len(stored), dtype=np.uint64)
    for i in reversed(range(len(HAND_KINDS))):
        kind = HAND_KINDS[i]
        pair = (rest % U64(PAIR[kind])).astype(np.int64)
        rest //= U64(PAIR[kind])
        high = ((np.sqrt(8 * pair + 1) - 1) // 2).astype(np.int64)
        high -= high * (high + 1) // 2 > pair  # float rounding, either way
        high += (high + 1) * (high + 2) // 2 <= pair
        low = pair - high * (high + 1) // 2
        for state in (low, high):
            codes += _placed(kind, i, state)
    theirs = (rest % U64(LION_STATES)).astype(np.int64)
    ours = (rest // U64(LION_STATES)).astype(np.int64)
    codes |= np.where(ours < SQUARES, U64(L) << (U64(4) * ours.clip(0, 11).astype(U64)), U64(0))
    codes |= U64(L | THEIRS) << (U64(4) * theirs.astype(U64))
    return codes


def _placed(kind: int, i: int, state: np.ndarray[Any, Any]) -> Codes:
    """What one piece in ``state`` adds to a working code."""
    states = STATES[kind] - 1  # the states of a piece in the game
    if kind == C:
        pieces = np.array([C, H, C | THEIRS, H | THEIRS], dtype=np.uint64)
        piece = pieces[np.minimum(state, 47) // 12]
    else:
        piece = np.array([kind, kind | THEIRS], dtype=np.uint64)[np.minimum(state, 23) // 12]
    on_board = piece << (U64(4) * (state % 12).astype(U64))
    ours = U64(1) << U64(HAND_SHIFT + 2 * i)
    theirs = U64(1) << U64(HAND_SHIFT + 6 + 2 * i)
    hand = np.where(state == states - 1, theirs, U64(0))
    hand = np.where(state == states - 2, ours, hand)
    placed: Codes = np.where(state < states - 2, on_board, hand)
    return placed


def key_of(code: int) -> int:
    """The stored key of one working code (pure Python, for lookups)."""
    board = [(code >> (4 * sq)) & 15 for sq in range(SQUARES)]
    hands = [(code >> (HAND_SHIFT + 2 * i)) & 3 for i in range(6)]
    ours = board.index(L) if L in board else SQUARES
    key = ours * LION_STATES + board.index(L | THEIRS)
    for i, kind in enumerate(HAND_KINDS):
        states = STATES[kind]
        found = [int(_STATE[i, sq, p]) - 1 for sq, p in enumerate(board) if _STATE[i, sq, p]]
        found += [states - 3] * hands[i] + [states - 2] * hands[3 + i]
        low, high = sorted([*found, states - 1, states - 1][:2])
        key = key * PAIR[kind] + high * (high + 1) // 2 + low
    return key


# ---- the engine's positions ----------------------------------------------------------------
def from_position(pos: ShogiPosition) -> int:
    """The canonical working code of an engine position (seen from its side to move)."""
    side = pos.side
    board = [0] * SQUARES
    for sq, p in enumerate(pos.board):
        if p:
            mine = (p > 0) == (side == 0)
            target = sq if side == 0 else ROTATE[sq]
            board[target] = abs(p) if mine else abs(p) | THEIRS
    hands = list(pos.hands) if side == 0 else [*pos.hands[3:], *pos.hands[:3]]
    return min(_pack(board, hands), _pack([board[MIRROR[sq]] for sq in range(SQUARES)], hands))


def _pack(board: list[int], hands: list[int]) -> int:
    code = 0
    for sq, p in enumerate(board):
        code |= p << (4 * sq)
    for i, n in enumerate(hands):
        code |= n << (HAND_SHIFT + 2 * i)
    return code


LETTERS = {L: "L", E: "E", G: "G", C: "C", H: "H"}


def to_text(code: int) -> str:
    """The engine's position string of a working code, ``first`` to move."""
    rows = []
    for rank in reversed(range(RANKS)):
        row, empty = "", 0
        for file in range(FILES):
            p = (code >> (4 * square(file, rank))) & 15
            if not p:
                empty += 1
                continue
            row += (str(empty) if empty else "") + (
                LETTERS[p] if p < THEIRS else LETTERS[p ^ THEIRS].lower()
            )
            empty = 0
        rows.append(row + (str(empty) if empty else ""))
    hands = ""
    for i in range(6):
        n = (code >> (HAND_SHIFT + 2 * i)) & 3
        letter = LETTERS[HAND_KINDS[i % 3]]
        if n:
            hands += (str(n) if n > 1 else "") + (letter if i < 3 else letter.lower())
    return f"{'/'.join(rows)} f {hands or '-'}"
