"""The solver's rules (kernels.py) applied to arrays of working codes: for the tests, which
hold them to the engine, and for checking a built table (bench/tablebase_check.py)."""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

from . import kernels
from .encoding import U64, UNKNOWN, Codes

Ints = np.ndarray[Any, np.dtype[np.intp]]


@njit(cache=True)
def _ended(codes: Any, yokai: bool, known: bool, out: Any) -> None:
    for i in range(len(codes)):
        out[i] = kernels.known(codes[i], yokai) if known else kernels.ended(codes[i], yokai)


def ended(codes: Codes, ruleset: str) -> np.ndarray[Any, np.dtype[np.uint16]]:
    """The value of each position the last move ended (UNKNOWN where the game goes on):
    what the engine's ``Position.win`` says, from the side to move's view."""
    out = np.zeros(len(codes), dtype=np.uint16)
    _ended(codes.view(np.int64), ruleset == "yokai", False, out)
    return out


def known(codes: Codes, ruleset: str) -> np.ndarray[Any, np.dtype[np.uint16]]:
    """The value of each position that the position alone gives (``kernels.known``)."""
    out = np.zeros(len(codes), dtype=np.uint16)
    _ended(codes.view(np.int64), ruleset == "yokai", True, out)
    return out


@njit(cache=True)
def _all(codes: Any, yokai: bool, backwards: bool) -> tuple[Any, Any]:
    room = kernels.MAX_UNMOVES if backwards else kernels.MAX_MOVES
    index = np.empty(len(codes) * room, dtype=np.intp)
    found = np.empty(len(codes) * room, dtype=np.int64)
    n = 0
    for i in range(len(codes)):
        if backwards:
            m = kernels.unmoves(codes[i], yokai, found, n)
        elif kernels.ended(codes[i], yokai) == UNKNOWN:
            m = kernels.moves(codes[i], yokai, found, n)
        else:
            m = n
        index[n:m] = i
        n = m
    return index[:n].copy(), found[:n].copy()


def successors(codes: Codes, ruleset: str) -> tuple[Ints, Codes]:
    """Every legal move of each position whose game goes on: (index of the position,
    canonical code of the position after the move), grouped by position, in order.
    A position with none whose game is not over is lost by its side to move."""
    index, after = _all(codes.view(np.int64), ruleset == "yokai", False)
    return index, after.view(U64)


def predecessors(codes: Codes, ruleset: str) -> tuple[Ints, Codes]:
    """Every legal move into each position of ``codes`` (canonical): (index of the position,
    canonical code of the position the move is made from), once a move, as ``successors``
    lists it from there; positions that cannot be reached are listed too."""
    index, before = _all(codes.view(np.int64), ruleset == "yokai", True)
    return index, before.view(U64)
