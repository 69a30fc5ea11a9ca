"""Per-game knowledge for the searching player: a static evaluation and move classification.

Every evaluation scores a position for its side to move (negamax convention), in centi-units
where one chick, pawn or stone is about 100. Tables are built once per game (and rule options)
from the engine's public ``describe()`` data and its position values (``board``, ``hands``).
"""

from __future__ import annotations

import abc
from collections.abc import Callable
from typing import Any

import engine
from engine.games.placement import StoneGame
from engine.games.wali import Wali

# A capture's victim value per move, for move ordering (0 = not a capture).
Victims = Callable[[Any, str], int]


class Evaluator(abc.ABC):
    """What the search needs to know about one game beyond its rules."""

    # Whether quiescence search follows the tactical moves (captures, immediate wins).
    quiescence = True
    # Whether a position seen before in the game may be scored as a draw inside the search.
    repetition_is_draw = True
    # Whether the search may prune with a null move: not where having to move can lose.
    null_move = True

    def __init__(self, game: engine.Game[Any]) -> None:
        self.game = game
        self._parsed: dict[str, tuple[int, int]] = {}

    @abc.abstractmethod
    def evaluate(self, pos: Any) -> int:
        """The position's score for the side to move (centipawn-like units)."""

    @abc.abstractmethod
    def victim(self, pos: Any, move: str) -> int:
        """The value of what ``move`` captures, 0 when it captures nothing."""

    def tactical(self, pos: Any, move: str) -> bool:
        """Whether quiescence search should try ``move`` (a capture or an immediate win)."""
        return self.victim(pos, move) > 0

    def squares(self, move: str) -> tuple[int, int]:
        """(origin, target) squares of a move text; origin -1 for a drop or placement."""
        found = self._parsed.get(move)
        if found is None:
            index = self.game.square_index
            star = move.find("*")
            if star >= 0:
                found = (-1, index[move[star + 1 : star + 3]])
            else:
                found = (index[move[0:2]], index[move[2:4]])
            self._parsed[move] = found
        return found


# ---- the shogi family ----------------------------------------------------------------------

# Piece values by letter; hand pieces are worth a little more (a drop goes anywhere).
SHOGI_VALUES = {
    "dobutsu": {"L": 0, "E": 300, "G": 400, "C": 100, "H": 450},
    "gorogoro": {"K": 0, "G": 550, "S": 450, "P": 100, "+S": 520, "+P": 540},
}
HAND_BONUS = 1.15


class ShogiEvaluator(Evaluator):
    def __init__(self, game: engine.Game[Any]) -> None:
        super().__init__(game)
        data = game.describe()
        values = SHOGI_VALUES[game.id]
        kinds = data["pieces"]
        files: int = data["board"]["files"]
        ranks: int = data["board"]["ranks"]
        self.files, self.ranks = files, ranks
        size = files * ranks
        count = len(kinds)
        # value[code] for signed codes (python's negative indexing reads second's pieces).
        self.value = [0] * (2 * count + 1)
        for code, kind in enumerate(kinds, start=1):
            self.value[code] = self.value[-code] = values[kind["letter"]]
        self.royal = next(c for c, k in enumerate(kinds, start=1) if k["royal"])
        self.hand_values = [round(values[letter] * HAND_BONUS) for letter in data["hand_order"]]
        self.hand_count = len(self.hand_values)
        self.drops = {letter: values[letter] for letter in data["hand_order"]}
        zones = data["squares"]["promotion_zone"]
        self.zone = tuple(
            frozenset(game.square_index[name] for name in zones[side]) for side in engine.SIDES
        )
        # Positional bonus per signed code and square, for first (+) and second (-) pieces.
        self.place: list[list[int]] = [[0] * size for _ in range(2 * count + 1)]
        for code, kind in enumerate(kinds, start=1):
            for sq in range(size):
                rank = sq // files
                for sign, advance in ((1, rank), (-1, ranks - 1 - rank)):
                    self.place[sign * code][sq] = self._placement(kind, sq % files, advance)
        self.dobutsu = game.id == "dobutsu"
        self.try_rule = data["rule_flags"]["try_rule"]
        # King neighbourhoods (Chebyshev distance 1 and 2) for gorogoro's king safety.
        self.near1 = [self._ring(sq, 1) for sq in range(size)]
        self.near2 = [self._ring(sq, 2) for sq in range(size)]

    def _placement(self, kind: dict[str, Any], file: int, advance: int) -> int:
        letter: str = kind["letter"]
        centre = -abs(2 * file - (self.files - 1))  # 0 in the centre file, negative out
        if kind["royal"]:
            # Dobutsu's lion aims for the try; gorogoro's king stays home.
            return 25 * advance if self.files == 3 else -15 * advance
        if letter in ("C", "P"):
            return 8 * advance
        return 3 * centre + 4 * min(advance, 3)

    def _ring(self, sq: int, distance: int) -> tuple[int, ...]:
        f, r = sq % self.files, sq // self.files
        return tuple(
            t
            for t in range(self.files * self.ranks)
            if t != sq and max(abs(t % self.files - f), abs(t // self.files - r)) <= distance
        )

    def evaluate(self, pos: Any) -> int:
        board = pos.board
        value = self.value
        place = self.place
        score = 0
        kings = [0, 0]
        royal = self.royal
        for sq, p in enumerate(board):
            if p > 0:
                score += value[p] + place[p][sq]
                if p == royal:
                    kings[0] = sq
            elif p < 0:
                score -= value[p] + place[p][sq]
                if p == -royal:
                    kings[1] = sq
        hands = pos.hands
        n = self.hand_count
        for i, v in enumerate(self.hand_values):
            score += v * (hands[i] - hands[n + i])
        if not self.dobutsu:
            score += self._king_safety(board, kings[0], 1, hands[n:]) - self._king_safety(
                board, kings[1], -1, hands[:n]
            )
        return score if pos.side == 0 else -score

    def _king_safety(
        self, board: tuple[int, ...], king: int, sign: int, enemy_hand: tuple[int, ...]
    ) -> int:
        """Defenders next to the king, attackers close to it (more dangerous with drops)."""
        safety = 0
        for t in self.near1[king]:
            if board[t] * sign > 0:
                safety += 12
        attackers = sum(1 for t in self.near2[king] if board[t] * sign < 0)
        return safety - attackers * (12 + 4 * sum(enemy_hand))

    def victim(self, pos: Any, move: str) -> int:
        if "*" in move:
            return 0
        _, to = self.squares(move)
        board: tuple[int, ...] = pos.board
        return self.value[board[to]]

    def tactical(self, pos: Any, move: str) -> bool:
        if "*" in move:
            return False
        origin, to = self.squares(move)
        board = pos.board
        if board[to]:
            return True
        if move.endswith("+"):
            return True
        # A royal's move onto its promotion zone is a try (dobutsu's default rule).
        return (
            self.try_rule != "none"
            and abs(board[origin]) == self.royal
            and to in self.zone[pos.side]
        )


# ---- jungle ----------------------------------------------------------------------------------

# By rank (rat 1 … elephant 8): the rat is worth more than its rank (it takes the elephant
# and swims towards the den).
JUNGLE_VALUES = (0, 400, 200, 300, 400, 500, 800, 900, 1000)
# Bonus by distance to the enemy den: a piece next to it wins next move unless stopped.
DEN_DISTANCE = (0, 300, 120, 60, 35, 20, 10, 5, 2, 0, 0, 0, 0, 0, 0, 0)


class JungleEvaluator(Evaluator):
    # No better with null-move pruning: 43% against the same search without it (32 games),
    # 50% with the repetitions seen through the pass (27 games).
    null_move = False

    def __init__(self, game: engine.Game[Any]) -> None:
        super().__init__(game)
        data = game.describe()
        files: int = data["board"]["files"]
        index = game.square_index
        dens = [index[data["squares"]["dens"][side]] for side in engine.SIDES]
        self.repetition_is_draw = game.options.get("repetition", "draw") == "draw"
        size = len(game.square_names)

        def distance(a: int, b: int) -> int:
            return abs(a % files - b % files) + abs(a // files - b // files)

        # advance[side][sq]: the bonus of side's piece there (the den it attacks is the other's).
        self.advance = tuple(
            tuple(DEN_DISTANCE[distance(sq, dens[1 - side])] for sq in range(size))
            for side in (0, 1)
        )
        self.enemy_den = (dens[1], dens[0])

    def evaluate(self, pos: Any) -> int:
        score = 0
        values = JUNGLE_VALUES
        first, second = self.advance
        for sq, p in enumerate(pos.board):
            if p > 0:
                score += values[p] + first[sq]
            elif p < 0:
                score -= values[-p] + second[sq]
        return score if pos.side == 0 else -score

    def victim(self, pos: Any, move: str) -> int:
        _, to = self.squares(move)
        return JUNGLE_VALUES[abs(pos.board[to])]

    def tactical(self, pos: Any, move: str) -> bool:
        _, to = self.squares(move)
        return pos.board[to] != 0 or to == self.enemy_den[pos.side]


# ---- the stone games -------------------------------------------------------------------------

STONE_VALUE = 100


class StoneEvaluator(Evaluator):
    """Yote and wali: stones are all alike, so what counts is how many and what they threaten."""

    quiescence = False  # a capture's removal choices make one move per enemy stone
    null_move = False  # placing and stepping are often forced: passing would mislead

    def __init__(self, game: engine.Game[Any]) -> None:
        super().__init__(game)
        assert isinstance(game, StoneGame)
        self.neighbours: tuple[tuple[int, ...], ...] = game.neighbours
        self.jumps: tuple[tuple[tuple[int, int], ...], ...] = game.jumps
        self._victims: dict[str, int] = {}

    def victim(self, pos: Any, move: str) -> int:
        # The move's text alone says what it takes: kept by text (ordering asks for every
        # move of every node).
        found = self._victims.get(move)
        if found is None:
            found = self._victims[move] = self._victim(move)
        return found

    def _victim(self, move: str) -> int:
        if "x" in move:
            return STONE_VALUE * 2
        origin, to = self.squares(move)
        # A yote jump moves two squares; wali steps never capture without the "x".
        if origin >= 0 and to not in self.neighbours[origin]:
            return STONE_VALUE
        return 0


class YoteEvaluator(StoneEvaluator):
    def __init__(self, game: engine.Game[Any]) -> None:
        super().__init__(game)
        self.limit: int = game.NO_PROGRESS_LIMIT

    def evaluate(self, pos: Any) -> int:
        board: tuple[int, ...] = pos.board
        stm = 1 if pos.side == 0 else -1
        hands: tuple[int, int] = pos.hands
        own = board.count(stm) + hands[pos.side]
        opp = board.count(-stm) + hands[1 - pos.side]
        score = STONE_VALUE * (own - opp)
        # Enemy stones the side to move could jump now, and its own the other side could.
        by_first, by_second = self._threatened(board)
        mine, theirs = (by_first, by_second) if stm > 0 else (by_second, by_first)
        if mine:
            score += 170 if opp > 1 else 100
        score -= 70 * min(theirs, 2)
        # Stones in hand cannot be captured, and they capture nothing either: a small premium.
        score += 4 * (hands[pos.side] - hands[1 - pos.side])
        # An advantage fades as the no-progress draw nears: the side ahead must capture or
        # place to keep it, rather than step back and forth.
        quiet: int = pos.quiet
        return score * (4 * self.limit - 3 * quiet) // (4 * self.limit)

    def _threatened(self, board: Any) -> tuple[int, int]:
        """How many second stones first could jump if it were to move, and how many first
        stones second could."""
        jumps = self.jumps
        by_first: set[int] = set()
        by_second: set[int] = set()
        for sq, v in enumerate(board):
            if v:
                hit = by_first if v > 0 else by_second
                for over, land in jumps[sq]:
                    if board[over] == -v and not board[land]:
                        hit.add(over)
        return len(by_first), len(by_second)


class WaliEvaluator(StoneEvaluator):
    def __init__(self, game: engine.Game[Any]) -> None:
        super().__init__(game)
        assert isinstance(game, Wali)
        self.triples_at: tuple[tuple[tuple[int, int], ...], ...] = game.triples_at
        # Per square: each line of three through it (the two other squares), and the square's
        # neighbours outside that line (where the stone that would step in stands).
        self._lines = tuple(
            tuple(
                (a, b, tuple(n for n in self.neighbours[sq] if n not in (a, b)))
                for a, b in self.triples_at[sq]
            )
            for sq in range(len(self.neighbours))
        )

    def evaluate(self, pos: Any) -> int:
        board: tuple[int, ...] = pos.board
        stm = 1 if pos.side == 0 else -1
        first, second = self._ready(board)
        mine, theirs = (first, second) if stm > 0 else (second, first)
        mobility = self._mobility(board, stm)
        if any(pos.hands):
            # Placement: build pairs that a later step completes, squares a step fills to
            # make a line, and room to move (a side with no step loses).
            twos = self._open_twos(board, stm) - self._open_twos(board, -stm)
            return 30 * (mine - theirs) + 10 * twos + 4 * mobility
        score = STONE_VALUE * (board.count(stm) - board.count(-stm))
        if mine:
            score += 150
        return score + 25 * mine - 45 * theirs + 8 * mobility

    def _mobility(self, board: Any, stone: int) -> int:
        """Steps ``stone`` could make, less the other side's."""
        count = 0
        neighbours = self.neighbours
        for sq, v in enumerate(board):
            if v == 0:
                for n in neighbours[sq]:
                    count += board[n]
        return count * stone

    def _open_twos(self, board: Any, stone: int) -> int:
        """Empty squares that would complete a line of three ``stone`` stones."""
        count = 0
        for sq, v in enumerate(board):
            if v == 0:
                for a, b in self.triples_at[sq]:
                    if board[a] == stone and board[b] == stone:
                        count += 1
                        break
        return count

    def _ready(self, board: Any) -> tuple[int, int]:
        """Empty squares where one step of a first (+1) stone, and of a second (-1) one,
        would complete a line of three: the two counts."""
        first = second = 0
        for sq, v in enumerate(board):
            if v:
                continue
            found = 0  # bit 1: a first stone would complete a line here; bit 2: a second
            for a, b, others in self._lines[sq]:
                stone = board[a]
                if stone and stone == board[b] and not found & (1 if stone > 0 else 2):
                    for n in others:
                        if board[n] == stone:
                            found |= 1 if stone > 0 else 2
                            break
            first += found & 1
            second += found >> 1
        return first, second


def evaluator(game: engine.Game[Any]) -> Evaluator:
    """The evaluator of this game, with its rule options (KeyError: the bots do not play it)."""
    found = _CACHE.get(id(game))
    if found is None or found.game is not game:
        key = engine.variants.get(game.id).evaluator
        if key is None:
            raise KeyError(f"the built-in bots do not play {game.id}")
        found = _CACHE[id(game)] = EVALUATORS[key](game)
    return found


def playable() -> tuple[str, ...]:
    """The games the built-in bots play: those whose table entry names an evaluator."""
    return tuple(v.id for v in engine.variants.all_variants() if v.evaluator in EVALUATORS)


# By the key the games' entries name (engine/variants.py, ``evaluator``).
EVALUATORS: dict[str, Callable[[engine.Game[Any]], Evaluator]] = {
    "shogi": ShogiEvaluator,
    "jungle": JungleEvaluator,
    "yote": YoteEvaluator,
    "wali": WaliEvaluator,
}


_CACHE: dict[int, Evaluator] = {}
