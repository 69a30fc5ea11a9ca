"""An external USI or UCI engine as a player: its process, its protocol, and Kodama's notation
translated to the engine's and back.

Kodama's shōgi games and the engine protocols share the board string (ranks from the top,
upper case for ``first``, ``+`` before a promoted piece). The rest differs:

==================  ========================  ==============================  ======================
                    Kodama                    UCI (Fairy-Stockfish)           USI
==================  ========================  ==============================  ======================
square              ``b2`` (rank 1: first's)  ``b2``                          ``2c``: files numbered
                                                                              from the right, ranks
                                                                              lettered from the top
drop                ``C*a3``                  ``C@a3``                        ``C*3b``
promotion           ``b3b4+``                 ``b3b4+``                       ``2b2a+``
side to move        ``f`` / ``s``             ``w`` / ``b``                   ``b`` / ``w``
hands               ``2Cg``                   ``[CCg]`` after the board       ``2Cg`` (``-``: none)
==================  ========================  ==============================  ======================

The engine is one process shared by every game of the bridge (a lock makes the searches take
turns); each search gets the game's start and all its moves, so that the engine knows the
positions already seen (repetition).
"""

from __future__ import annotations

import logging
import queue
import re
import shlex
import subprocess
import threading
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import engine

log = logging.getLogger(__name__)

PROTOCOLS = ("uci", "usi")
# Kodama's games the bridge can translate: board files and ranks, and the engine's variant
# (first the one of the shipped variants file, whose rules are Kodama's, then the engine's own).
BOARDS: dict[str, tuple[int, int]] = {"dobutsu": (3, 4), "gorogoro": (5, 6)}
VARIANTS_FILE = Path(__file__).with_name("fairy-variants.ini")
VARIANT_OPTION = "UCI_Variant"
# gameState clocks without a clock are int32's maximum (as lichess sends them).
NO_CLOCK_MS = 2_147_483_647
# How long an engine may take beyond its time for a move, and for the handshake.
SLACK_S = 30.0
_SQUARE = re.compile(r"([a-z])(\d+)")
_USI_SQUARE = re.compile(r"(\d+)([a-z])")


class EngineFailed(Exception):
    """The engine process ended, or did not answer in time."""


def variant_names(game_id: str) -> tuple[str, str]:
    """The engine variants for a game, the one with Kodama's rules first."""
    return f"kodama-{game_id}", game_id


# ---- notation ----------------------------------------------------------------------------
@dataclass(frozen=True)
class Dialect:
    """One protocol's notation on one game's board."""

    protocol: str
    files: int
    ranks: int

    @classmethod
    def of(cls, protocol: str, game_id: str) -> Dialect:
        if protocol not in PROTOCOLS:
            raise ValueError(f"protocol {protocol!r}: one of {', '.join(PROTOCOLS)}")
        if game_id not in BOARDS:
            raise ValueError(f"the bridge does not play {game_id!r} ({', '.join(BOARDS)})")
        files, ranks = BOARDS[game_id]
        return cls(protocol, files, ranks)

    def square_out(self, square: str) -> str:
        """Kodama's square in the engine's notation."""
        if self.protocol == "uci":
            return square
        found = _SQUARE.fullmatch(square)
        if found is None:
            raise ValueError(f"not a square: {square!r}")
        file, rank = ord(found[1]) - ord("a"), int(found[2])
        return f"{self.files - file}{chr(ord('a') + self.ranks - rank)}"

    def square_in(self, square: str) -> str:
        """The engine's square in Kodama's notation."""
        if self.protocol == "uci":
            return square
        found = _USI_SQUARE.fullmatch(square)
        if found is None:
            raise ValueError(f"not a USI square: {square!r}")
        file, rank = self.files - int(found[1]), self.ranks - (ord(found[2]) - ord("a"))
        return f"{chr(ord('a') + file)}{rank}"

    def move_out(self, move: str) -> str:
        """Kodama's move text (``b2b3``, ``b3b4+``, ``C*a3``) in the engine's notation."""
        if "*" in move:
            piece, square = move.split("*")
            return piece + ("@" if self.protocol == "uci" else "*") + self.square_out(square)
        promote = "+" if move.endswith("+") else ""
        body = move.removesuffix("+")
        squares = _SQUARE.findall(body)
        if len(squares) != 2 or "".join(f + r for f, r in squares) != body:
            raise ValueError(f"not a move of a shogi game: {move!r}")
        start, end = (self.square_out(f + r) for f, r in squares)
        return start + end + promote

    def move_in(self, text: str) -> str:
        """The engine's move in Kodama's notation (checked against the rules by the caller)."""
        for mark in "@*":
            if mark in text:
                piece, square = text.split(mark)
                return piece.upper() + "*" + self.square_in(square)
        promote = "+" if text.endswith("+") else ""
        body = text.removesuffix("+")
        pattern = _SQUARE if self.protocol == "uci" else _USI_SQUARE
        squares = ["".join(pair) for pair in pattern.findall(body)]
        if len(squares) != 2 or "".join(squares) != body:
            raise ValueError(f"not a move: {text!r}")
        return self.square_in(squares[0]) + self.square_in(squares[1]) + promote

    def position_out(self, position: str) -> str:
        """Kodama's position string as the engine's (``fen …`` or ``sfen …``); the history
        field is left out (the moves carry it)."""
        board, side, hands = position.split()[:3]
        if self.protocol == "usi":
            return f"sfen {board} {'b' if side == 'f' else 'w'} {hands} 1"
        pocket = "".join(
            letter * int(count or 1) for count, letter in re.findall(r"(\d*)([A-Za-z])", hands)
        )
        return f"fen {board}[{pocket}] {'w' if side == 'f' else 'b'} - - 0 1"

    def position_command(self, start: str, moves: Sequence[str]) -> str:
        """``position …`` for the game from ``start`` (Kodama's text) after ``moves``."""
        command = "position " + self.position_out(start)
        if moves:
            command += " moves " + " ".join(self.move_out(m) for m in moves)
        return command

    def go_command(self, state: Mapping[str, Any], movetime_ms: int, overhead_ms: int = 0) -> str:
        """``go …`` with the game's clocks, less ``overhead_ms`` (the time a move takes to
        reach the server and its clock); ``movetime`` when the game has none. A byo-yomi
        period counts in UCI as time left (UCI has no byo-yomi)."""
        first, second = state.get("wtime"), state.get("btime")
        if not isinstance(first, int) or not isinstance(second, int) or first >= NO_CLOCK_MS:
            return f"go movetime {movetime_ms}"
        first_inc, second_inc = int(state.get("winc") or 0), int(state.get("binc") or 0)
        byoyomi = int(state.get("byoyomi") or 0)
        if self.protocol == "usi":  # sente (b) is first
            first, second = max(0, first - overhead_ms), max(0, second - overhead_ms)
            go = f"go btime {first} wtime {second} binc {first_inc} winc {second_inc}"
            return go + (f" byoyomi {max(1, byoyomi - overhead_ms)}" if byoyomi else "")
        first = max(1, first + byoyomi - overhead_ms)
        second = max(1, second + byoyomi - overhead_ms)
        return f"go wtime {first} btime {second} winc {first_inc} binc {second_inc}"


# ---- the process -------------------------------------------------------------------------
@dataclass
class EngineProcess:
    """One engine process speaking ``protocol``; ``variants``: the engine's variants file (an
    engine with a ``VariantPath`` option loads it); ``options``: ``setoption`` name → value."""

    command: str
    protocol: str = "uci"
    variants: Path | None = VARIANTS_FILE
    options: Mapping[str, str] = field(default_factory=dict)
    name: str = field(default="engine", init=False)
    engine_options: dict[str, str] = field(default_factory=dict, init=False)  # name → line
    process: subprocess.Popen[str] | None = field(default=None, init=False)
    lines: queue.Queue[str | None] = field(default_factory=queue.Queue, init=False)
    lock: threading.Lock = field(default_factory=threading.Lock, init=False)
    variant: str | None = field(default=None, init=False)  # the one set in the engine

    def start(self) -> None:
        """Starts the engine and does the handshake (and loads the variants file)."""
        self.lines, self.variant = queue.Queue(), None
        self.process = subprocess.Popen(
            shlex.split(self.command),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            bufsize=1,
        )
        threading.Thread(
            target=self._read, args=(self.process, self.lines), name="engine-out", daemon=True
        ).start()
        self.handshake()
        if self.variants is not None and "VariantPath" in self.engine_options:
            self.send(f"setoption name VariantPath value {self.variants}")
            self.handshake()  # again: the variant list now holds the file's variants
        for option, value in self.options.items():
            self.send(f"setoption name {option} value {value}")
        self.ready()

    @staticmethod
    def _read(process: subprocess.Popen[str], lines: queue.Queue[str | None]) -> None:
        assert process.stdout is not None
        for line in process.stdout:
            lines.put(line.rstrip("\n"))
        lines.put(None)

    def send(self, line: str) -> None:
        if self.process is None or self.process.stdin is None or self.process.poll() is not None:
            raise EngineFailed(f"{self.name} is not running")
        log.debug("%s < %s", self.name, line)
        self.process.stdin.write(line + "\n")
        self.process.stdin.flush()

    def expect(self, prefix: str, timeout_s: float) -> list[str]:
        """The lines up to and including the first that starts with ``prefix``."""
        seen: list[str] = []
        while True:
            try:
                line = self.lines.get(timeout=timeout_s)
            except queue.Empty:
                raise EngineFailed(f"{self.name} did not answer {prefix!r} in time") from None
            if line is None:
                raise EngineFailed(f"{self.name} exited")
            log.debug("%s > %s", self.name, line)
            seen.append(line)
            if line.split(" ", 1)[0] == prefix:
                return seen

    def handshake(self) -> None:
        self.send(self.protocol)
        for line in self.expect(f"{self.protocol}ok", SLACK_S):
            if line.startswith("id name "):
                self.name = line.removeprefix("id name ")
            elif line.startswith("option name "):
                option = line.removeprefix("option name ").split(" type ")[0]
                self.engine_options[option] = line

    def ready(self) -> None:
        self.send("isready")
        self.expect("readyok", SLACK_S)

    def variants_known(self) -> set[str]:
        """The variants the engine plays (its ``UCI_Variant`` choices); empty without one."""
        line = self.engine_options.get(VARIANT_OPTION, "")
        return set(re.findall(r" var (\S+)", line))

    def games(self) -> tuple[str, ...]:
        """Kodama's games this engine plays: those of its variants, or all the bridge
        translates for an engine without variants (it plays one game: say which, --games)."""
        known = self.variants_known()
        if not known:
            return tuple(BOARDS)
        return tuple(g for g in BOARDS if known & set(variant_names(g)))

    def use_variant(self, game_id: str) -> None:
        known = self.variants_known()
        if not known:
            return
        wanted = next((v for v in variant_names(game_id) if v in known), None)
        if wanted is None:
            raise EngineFailed(f"{self.name} does not play {game_id}")
        if wanted == self.variant:
            return
        if wanted == game_id:  # the bridge still checks every move against Kodama's rules
            log.warning("%s: no %s with Kodama's rules; playing its own", self.name, game_id)
        self.send(f"setoption name {VARIANT_OPTION} value {wanted}")
        self.send(f"{self.protocol}newgame")
        self.ready()
        self.variant = wanted

    def best_move(
        self, game_id: str, start: str, moves: Sequence[str], go: str, limit_s: float
    ) -> str:
        """The engine's move (in its notation) for the game after ``moves``; an engine that
        has exited (a crash) is started again first."""
        with self.lock:
            if self.process is None or self.process.poll() is not None:
                log.warning("%s is not running: starting it again", self.name)
                self.close()
                self.start()
            self.use_variant(game_id)
            dialect = Dialect.of(self.protocol, game_id)
            self.send(dialect.position_command(start, moves))
            self.send(go)
            answer = self.expect("bestmove", limit_s + SLACK_S)[-1].split()
            if len(answer) < 2:
                raise EngineFailed(f"{self.name}: no move in {' '.join(answer)!r}")
            return answer[1]

    def close(self) -> None:
        if self.process is None:
            return
        if self.process.poll() is None:
            try:
                self.send("quit")
                self.process.wait(timeout=5)
            except (EngineFailed, OSError, subprocess.TimeoutExpired):
                self.process.kill()
                self.process.wait()
        self.process = None


class EnginePlayer:
    """A player (bots/players.py) whose moves come from an engine process. The bridge's runner
    tells it each game's start and moves (``observe``) before asking for a move."""

    name = "engine"

    def __init__(self, process: EngineProcess, movetime_ms: int, overhead_ms: int = 0) -> None:
        self.process = process
        self.movetime_ms = movetime_ms
        self.overhead_ms = overhead_ms
        self.start: str | None = None
        self.state: Mapping[str, Any] = {}

    def observe(self, start: str | None, state: Mapping[str, Any]) -> None:
        self.start, self.state = start, state

    @staticmethod
    def read(dialect: Dialect, answer: str) -> str:
        try:
            return dialect.move_in(answer)
        except ValueError:
            return answer

    def choose(
        self, game: engine.Game[Any], position: engine.Position, time_budget_s: float
    ) -> str:
        legal = game.legal_moves(position)
        if not legal:
            raise ValueError(f"no legal move: the game is over in {game.to_text(position)}")
        moves = str(self.state.get("moves") or "").split()
        start = self.start or game.to_text(game.start())
        if not moves or self.start is None:  # no record to replay: the position alone
            start, moves = game.to_text(position), []
        dialect = Dialect.of(self.process.protocol, game.id)
        go = dialect.go_command(self.state, self.movetime_ms, self.overhead_ms)
        limit_s = self.movetime_ms / 1000
        if "movetime" not in go:  # at most what is left on the bot's clock
            mine = "w" if self.state.get("turn") == "white" else "b"
            left = self.state.get(f"{mine}time", 0) + self.state.get(f"{mine}inc", 0)
            limit_s = (left + (self.state.get("byoyomi") or 0)) / 1000
        answer = self.process.best_move(game.id, start, moves, go, limit_s)
        move = self.read(dialect, answer)
        if move in legal:
            return move
        # Where the engine's rules still differ from Kodama's (another variants file, an
        # engine's own rules), it searches again among Kodama's legal moves only.
        log.info("%s played %s, not legal here: searching Kodama's moves", self.process.name, move)
        searchmoves = " searchmoves " + " ".join(dialect.move_out(m) for m in legal)
        answer = self.process.best_move(game.id, start, moves, go + searchmoves, limit_s)
        move = self.read(dialect, answer)
        if move in legal:
            return move
        # Never sent: the server would refuse it.
        log.error(
            "%s played %r (%s), not legal here: playing %s",
            self.process.name,
            answer,
            move,
            legal[0],
        )
        return legal[0]


__all__ = [
    "BOARDS",
    "PROTOCOLS",
    "VARIANTS_FILE",
    "Dialect",
    "EngineFailed",
    "EnginePlayer",
    "EngineProcess",
    "variant_names",
]
