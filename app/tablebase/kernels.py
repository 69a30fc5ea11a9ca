"""The solver's rules of one position at a time, compiled (numba): moves made and undone,
games over, and the stored key.

Every function here works on one working code (encoding.py: four bits a square, two a hand
count, seen from the side to move) as a signed 64-bit integer (codes stay below 2**60), and
is compiled to machine code on first use (cached beside this file). They repeat
engine/games/shogi.py's rules for the two rulesets of rules/dobutsu.md; the engine decides,
and the tests hold these to it move for move (tests/app/tablebase/test_moves.py,
test_unmoves.py). The solver (reach.py, retro.py) calls them inside its compiled loops;
moves.py applies them to arrays.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .encoding import (
    ATTACKED_BY_THEM,
    ATTACKED_BY_US,
    END_DRAW,
    FILES,
    HAND_SHIFT,
    LION_STATES,
    LOSS0,
    PAIR,
    SQUARES,
    STATES,
    STEPS,
    THEIRS,
    UNKNOWN,
    WIN0,
    WIN1,
    C,
    E,
    G,
    H,
    L,
    square,
    state_table,
)

LAST_RANK = SQUARES - FILES  # our promotion zone: squares 9-11
# Room for one position's moves: at most 36 steps (a lion 8, two elephants, two giraffes and
# two hens) and 30 drops (three kinds on 10 empty squares); and for the moves into a
# position and its mirror image: per image at most 196 (each step back of a lion, elephant
# or giraffe with up to 4 pieces given back, 40 a kind; a hen's 7 with its chick's, 70
# for two; 6 drops undone).
MAX_MOVES = 96
MAX_UNMOVES = 1024

_KINDS = np.array([E, G, C], dtype=np.int64)  # the hand's order
_STATES = np.array([STATES[E], STATES[G], STATES[C]], dtype=np.int64)
_PAIRS = np.array([PAIR[E], PAIR[G], PAIR[C]], dtype=np.int64)


def _step_tables() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per square: how many steps leave it, where each goes, and which of our piece codes
    can make it."""
    count = np.zeros(SQUARES, dtype=np.int64)
    target = np.zeros((SQUARES, 8), dtype=np.int64)
    movers = np.zeros((SQUARES, 8, 16), dtype=np.int64)
    for sq in range(SQUARES):
        for df in (-1, 0, 1):
            for dr in (-1, 0, 1):
                f, r = sq % FILES + df, sq // FILES + dr
                if (df or dr) and 0 <= f < FILES and 0 <= r < SQUARES // FILES:
                    j = count[sq]
                    target[sq, j] = square(f, r)
                    for kind, steps in STEPS.items():
                        movers[sq, j, kind] = (df, dr) in steps
                    count[sq] += 1
    return count, target, movers


_STEP_COUNT, _STEP_TO, _STEP_MOVERS = _step_tables()
_BY_THEM = ATTACKED_BY_THEM.astype(np.int64)
_BY_US = ATTACKED_BY_US.astype(np.int64)
# What capturing a piece adds to our hand (a hen goes back as a chick; a lion, nothing).
_GAIN = np.zeros(16, dtype=np.int64)
for _i, _kind in enumerate((E, G, C)):
    _GAIN[_kind | THEIRS] = 1 << (HAND_SHIFT + 2 * _i)
_GAIN[H | THEIRS] = _GAIN[C | THEIRS]
# The state of a piece of kind E, G or C (0-2) standing on a square (encoding.py's key),
# plus one; 0: no piece of that kind.
_STATE = state_table().astype(np.int64)

_CHICKS = np.array([C, H, C | THEIRS, H | THEIRS], dtype=np.int64)  # a chick's states by 12s
_FILE_A = 0x00F00F00F00F
_FILE_C = _FILE_A << 8


@njit(cache=True, inline="always")
def piece(code: int, sq: int) -> int:
    return (code >> (4 * sq)) & 15


@njit(cache=True)
def find(code: int, what: int) -> int:
    """The square of the piece ``what`` (a lion), -1 if it is not on the board."""
    for sq in range(SQUARES):
        if (code >> (4 * sq)) & 15 == what:
            return sq
    return -1


@njit(cache=True)
def attackers(code: int, target: int, theirs: bool) -> tuple[int, int]:
    """How many of one side's pieces attack ``target``, and the square of the last one."""
    table = _BY_THEM if theirs else _BY_US
    base = target * 192
    count, where = 0, 0
    for sq in range(SQUARES):
        p = (code >> (4 * sq)) & 15
        if p and table[base + sq * 16 + p]:
            count += 1
            where = sq
    return count, where


@njit(cache=True)
def turn(code: int) -> int:
    """The position seen from the other side: half a turn, colours and hands swapped."""
    board = 0
    for sq in range(SQUARES):
        p = (code >> (4 * sq)) & 15
        if p:
            board |= (p ^ THEIRS) << (4 * (SQUARES - 1 - sq))
    hands = code >> HAND_SHIFT
    hands = ((hands & 0x3F) << 6) | (hands >> 6)
    return board | (hands << HAND_SHIFT)


@njit(cache=True, inline="always")
def mirror(code: int) -> int:
    """The position with files a and c swapped."""
    return (code & ~(_FILE_A | _FILE_C)) | ((code & _FILE_A) << 8) | ((code & _FILE_C) >> 8)


@njit(cache=True, inline="always")
def canonical(code: int) -> int:
    return min(code, mirror(code))


@njit(cache=True)
def ended(code: int, yokai: bool) -> int:
    """The value of a position the last move ended (UNKNOWN where the game goes on): what
    the engine's ``Position.win`` says, from the side to move's view."""
    theirs = find(code, L | THEIRS)
    their_try = 0 <= theirs < FILES  # their lion on our first rank, their promotion zone
    if not yokai:
        return LOSS0 if their_try else UNKNOWN
    ours = find(code, L)
    if ours < 0:
        return LOSS0  # captured: outranks every try
    their_safe = their_try and attackers(code, theirs, False)[0] == 0
    our_safe = ours >= LAST_RANK and attackers(code, ours, True)[0] == 0
    if our_safe and their_safe:
        return END_DRAW
    if their_safe:
        return LOSS0
    if our_safe:
        return WIN0
    return UNKNOWN


@njit(cache=True)
def known(code: int, yokai: bool) -> int:
    """The value the position alone gives: a game over or, under `yokai`, a lion to take (a
    win in 1: nothing is faster); UNKNOWN elsewhere."""
    value = ended(code, yokai)
    if yokai and value == UNKNOWN and attackers(code, find(code, L | THEIRS), False)[0] > 0:
        return WIN1
    return value


@njit(cache=True)
def moves(code: int, yokai: bool, out: np.ndarray, n: int) -> int:
    """Append the canonical code after each legal move of a position whose game goes on
    (``ended`` is UNKNOWN) to ``out`` from ``n``; the new ``n``."""
    safety = not yokai  # a move may not leave our lion capturable (royal_safety="legal")
    checks, checker = 0, 0
    if safety:
        checks, checker = attackers(code, find(code, L), True)
    for frm in range(SQUARES):
        p = (code >> (4 * frm)) & 15
        if p == 0 or p >= THEIRS:
            continue
        for j in range(_STEP_COUNT[frm]):
            if not _STEP_MOVERS[frm, j, p]:
                continue
            to = _STEP_TO[frm, j]
            q = (code >> (4 * to)) & 15
            if q and q < THEIRS:
                continue
            if safety:
                if p == L:  # the lion may not step onto a square they attack
                    if attackers(code, to, True)[0]:
                        continue
                elif not (checks == 0 or (checks == 1 and checker == to)):
                    continue
            placed = H if (p == C and to >= LAST_RANK) else p  # a chick there promotes
            after = code & ~((15 << (4 * frm)) | (15 << (4 * to)))
            after = (after | (placed << (4 * to))) + _GAIN[q]
            out[n] = canonical(turn(after))
            n += 1
    if safety and checks:
        return n  # a drop never answers a check
    for i in range(3):
        shift = HAND_SHIFT + 2 * i
        if (code >> shift) & 3:
            kind = _KINDS[i]
            for to in range(SQUARES):
                if not (code >> (4 * to)) & 15:
                    out[n] = canonical(turn(code + (kind << (4 * to)) - (1 << shift)))
                    n += 1
    return n


@njit(cache=True, inline="always")
def _emit(before: int, edge: bool, yokai: bool, out: np.ndarray, n: int) -> int:
    """Append ``before`` if it is its class's code (its mirror image's moves are the same
    moves, counted once) and a game not yet over; ``edge``: a lion stands where the game
    could be over, so only then is ``ended`` asked."""
    if before <= mirror(before) and (not edge or ended(before, yokai) == UNKNOWN):
        out[n] = before
        n += 1
    return n


@njit(cache=True)
def _unmoves_into(after: int, yokai: bool, out: np.ndarray, n: int) -> int:
    """Append every position with a legal move to ``after`` (seen from the mover, after the
    move), once a move."""
    ours, theirs = find(after, L), find(after, L | THEIRS)
    if not yokai and (ours < 0 or attackers(after, ours, True)[0]):
        return n  # a legal move leaves the mover's lion unattacked
    # Whether a lion stands where the game could be over (``ended``): missing, ours on the
    # last rank, theirs on our first.
    our_edge = ours < 0 or ours >= LAST_RANK
    their_edge = theirs < FILES
    taken_lion = theirs < 0  # then the move took it: no other move leads here
    for i in range(3 * (not taken_lion)):  # drops
        kind = _KINDS[i]
        back = 1 << (HAND_SHIFT + 2 * i)
        for sq in range(SQUARES):
            if (after >> (4 * sq)) & 15 == kind:
                n = _emit(after - (kind << (4 * sq)) + back, our_edge or their_edge, yokai, out, n)
    for frm in range(SQUARES):
        if (after >> (4 * frm)) & 15:
            continue
        for j in range(_STEP_COUNT[frm]):
            to = _STEP_TO[frm, j]
            p = (after >> (4 * to)) & 15
            clear = after & ~((15 << (4 * frm)) | (15 << (4 * to)))
            # The piece now on ``to`` stood on ``frm``: as it is (a chick on the last rank
            # was dropped there, not moved: it would have been promoted), or a chick promoted.
            for promoted in (False, True):
                if promoted:
                    if not (p == H and to >= LAST_RANK and _STEP_MOVERS[frm, j, C]):
                        continue
                    mover = C
                    our = our_edge
                else:
                    if not (_STEP_MOVERS[frm, j, p] and (p != C or to < LAST_RANK)):
                        continue
                    mover = p
                    our = frm >= LAST_RANK if p == L else our_edge
                before = clear | (mover << (4 * frm))
                if taken_lion:
                    lion_back = before | ((L | THEIRS) << (4 * to))
                    n = _emit(lion_back, our or to < FILES, yokai, out, n)
                    continue
                edge = our or their_edge
                n = _emit(before, edge, yokai, out, n)
                for slot in range(3):  # a capture: the piece taken leaves the mover's hand
                    if (after >> (HAND_SHIFT + 2 * slot)) & 3 == 0:
                        continue
                    kind = _KINDS[slot]
                    taken = before - (1 << (HAND_SHIFT + 2 * slot))
                    n = _emit(taken | ((kind | THEIRS) << (4 * to)), edge, yokai, out, n)
                    if kind == C:  # a hen goes back to the hand as a chick
                        n = _emit(taken | ((H | THEIRS) << (4 * to)), edge, yokai, out, n)
    return n


@njit(cache=True)
def unmoves(code: int, yokai: bool, out: np.ndarray, n: int) -> int:
    """Append the canonical code of every position with a legal move into the canonical
    ``code`` to ``out`` from ``n``, once a move (as ``moves`` lists it); the new ``n``. A
    canonical code stands for the position and its mirror image: moves into either."""
    n = _unmoves_into(turn(code), yokai, out, n)
    flipped = mirror(code)
    if flipped != code:
        n = _unmoves_into(turn(flipped), yokai, out, n)
    return n


@njit(cache=True)
def key(code: int) -> int:
    """The stored key of a working code (encoding.py): a dense number naming each piece's
    square or hand; the lions' squares, then each kind's unordered pair of states."""
    ours = find(code, L)
    result = (ours if ours >= 0 else SQUARES) * LION_STATES + find(code, L | THEIRS)
    for i in range(3):
        states = _STATES[i]
        low, high = states - 1, states - 1  # not in the game
        count = 0
        for sq in range(SQUARES):
            state = _STATE[i, sq, (code >> (4 * sq)) & 15]
            if state:
                if count == 0:
                    low = state - 1
                else:
                    high = state - 1
                count += 1
        for j in range(2):  # pieces in our hand, then in theirs
            state = states - 3 + j
            for _ in range((code >> (HAND_SHIFT + 6 * j + 2 * i)) & 3):
                if count == 0:
                    low = state
                else:
                    high = state
                count += 1
        if low > high:
            low, high = high, low
        result = result * _PAIRS[i] + high * (high + 1) // 2 + low
    return result


@njit(cache=True)
def code_of_key(stored: int) -> int:
    """The working code of a stored key (the inverse of ``key``)."""
    rest, code = stored, 0
    for i in range(2, -1, -1):
        pair = rest % _PAIRS[i]
        rest //= _PAIRS[i]
        high = int((np.sqrt(8.0 * pair + 1.0) - 1.0) // 2)
        while high * (high + 1) // 2 > pair:
            high -= 1
        while (high + 1) * (high + 2) // 2 <= pair:
            high += 1
        low = pair - high * (high + 1) // 2
        kind, in_game = _KINDS[i], _STATES[i] - 1
        for state in (low, high):
            if state == in_game - 1:
                code += 1 << (HAND_SHIFT + 6 + 2 * i)  # their hand
            elif state == in_game - 2:
                code += 1 << (HAND_SHIFT + 2 * i)  # our hand
            elif state < in_game - 2:
                p = _CHICKS[state // 12] if kind == C else (kind if state < 12 else kind | THEIRS)
                code += p << (4 * (state % 12))
    theirs, ours = rest % LION_STATES, rest // LION_STATES
    if ours < SQUARES:
        code |= L << (4 * ours)
    return code | ((L | THEIRS) << (4 * theirs))
