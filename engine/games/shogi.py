"""The shogi family with drops: one move generator driven by a rules record.

``dobutsu`` and ``gorogoro`` are each a ``ShogiRules`` value (pieces, board, start, promotion
zone, drop restrictions, how the game is won), in the spirit of Fairy-Stockfish's variants.ini.
Pieces only step one square (no sliders), which keeps legality cheap: a move can never uncover
an attack, so the enemy's attack map of the current position decides every move.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, ClassVar

from ..core import (
    SIDE_LETTERS,
    SIDES,
    Game,
    Option,
    Position,
    Result,
    RuleReason,
    digest,
    format_board,
)
from ..core import parse_board as _parse_board
from ..errors import InvalidPositionError

# (frm, to, piece): frm is -1 for a drop; piece is the signed code that stands on ``to`` after.
Move = tuple[int, int, int]


@dataclass(frozen=True)
class PieceKind:
    """One kind of piece; ``steps`` are (file, rank) offsets for ``first`` (forward = +rank)."""

    letter: str
    names: dict[str, str]
    steps: tuple[tuple[int, int], ...]
    royal: bool = False
    promotes_to: str | None = None
    demotes_to: str | None = None  # what a captured piece becomes in hand
    pawn: bool = False  # nifu and uchifuzume apply to it


@dataclass(frozen=True)
class ShogiRules:
    """Everything that makes one shogi-like game differ from another."""

    files: int
    ranks: int
    kinds: tuple[PieceKind, ...]
    start: str  # the board field of the start position
    promotion_ranks: int  # depth of the promotion zone (the opponent's camp)
    camp_ranks: int  # depth of each side's own camp, for describe()
    # Drops: no piece where it could never move; no second unpromoted pawn on a file;
    # no pawn drop that checkmates at once.
    drop_immobile_illegal: bool = False
    drop_doubled_pawn_illegal: bool = False
    drop_pawn_mate_illegal: bool = False
    # "legal": a move may not leave one's own royal capturable; "free": every move is legal
    # and capturing the royal wins.
    royal_safety: str = "legal"
    # "none"; "move": a royal moving into its promotion zone wins; "safe": after any move, a
    # royal standing on its promotion zone unattacked wins (both at once: a draw).
    try_rule: str = "none"

    def kind(self, letter: str) -> PieceKind:
        return next(k for k in self.kinds if k.letter == letter)


class ShogiPosition(Position):
    """Board of signed piece codes (+ first, - second, 0 empty) from a1, and both hands."""

    __slots__ = ("board", "hands")

    board: tuple[int, ...]
    hands: tuple[int, ...]  # first's counts then second's, in the hand order of the game


# Step directions from the mover's side (dy > 0 is forward), by movement family.
DIRECTIONS = {
    "king": ((-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (0, 1), (1, 1)),
    "gold": ((-1, 1), (0, 1), (1, 1), (-1, 0), (1, 0), (0, -1)),
    "silver": ((-1, 1), (0, 1), (1, 1), (-1, -1), (1, -1)),
    "diagonals": ((-1, -1), (1, -1), (-1, 1), (1, 1)),
    "orthogonals": ((0, -1), (-1, 0), (1, 0), (0, 1)),
    "forward": ((0, 1),),
}


class ShogiGame(Game[ShogiPosition]):
    """A game of the shogi family, fully described by ``self.rules``."""

    TEXT_FIELDS = 3
    RULES: ClassVar[ShogiRules]

    def __init__(self, options: dict[str, str]) -> None:
        super().__init__(options)
        rules = self.rules = self._rules()
        files, ranks = rules.files, rules.ranks
        n = files * ranks
        kinds = rules.kinds
        k_count = len(kinds)
        self._codes = {k.letter: i + 1 for i, k in enumerate(kinds)}
        # Signed codes index these lists directly: index -c is second's piece c.
        size = 2 * k_count + 1
        self._steps: list[tuple[tuple[int, ...], ...]] = [()] * size
        self._attacks: list[tuple[int, ...]] = [()] * size
        self._promote: list[int] = [0] * size
        self._letter: list[str] = [""] * size
        for code, kind in enumerate(kinds, start=1):
            for sign in (1, -1):
                table: list[tuple[int, ...]] = []
                for sq in range(n):
                    f, r = sq % files, sq // files
                    targets = []
                    for df, dr in kind.steps:
                        tf, tr = f + sign * df, r + sign * dr
                        if 0 <= tf < files and 0 <= tr < ranks:
                            targets.append(tr * files + tf)
                    table.append(tuple(sorted(targets)))
                self._steps[sign * code] = tuple(table)
                self._attacks[sign * code] = tuple(sum(1 << t for t in ts) for ts in table)
                if kind.promotes_to:
                    self._promote[sign * code] = sign * self._codes[kind.promotes_to]
                self._letter[sign * code] = kind.letter if sign > 0 else kind.letter.lower()
        self._royal = next(c for c, k in enumerate(kinds, start=1) if k.royal)
        # Hand: the kinds a captured piece can become, in the order of the rules table.
        self._hand_kinds = tuple(
            c for c, k in enumerate(kinds, start=1) if not k.royal and k.demotes_to is None
        )
        self._hand_index = {c: i for i, c in enumerate(self._hand_kinds)}
        self._demote = [0] * (k_count + 1)
        for c, k in enumerate(kinds, start=1):
            self._demote[c] = self._codes[k.demotes_to] if k.demotes_to else c
        self._pawn = next((c for c, k in enumerate(kinds, start=1) if k.pawn), 0)
        depth = rules.promotion_ranks
        self._zone = (
            tuple(sq // files >= ranks - depth for sq in range(n)),
            tuple(sq // files < depth for sq in range(n)),
        )
        self._zone_mask = (
            sum(1 << sq for sq in range(n) if self._zone[0][sq]),
            sum(1 << sq for sq in range(n) if self._zone[1][sq]),
        )
        self._no_hands = (0,) * (2 * len(self._hand_kinds))
        tokens = sorted({t for k in kinds for t in (k.letter, k.letter.lower())}, key=len)
        self._token = re.compile("|".join(re.escape(t) for t in reversed(tokens)))
        droppable = "".join(kinds[c - 1].letter for c in self._hand_kinds)
        self._hand_token = re.compile(rf"(\d*)([{droppable}{droppable.lower()}])")
        # A drop names one of the game's pieces: other letters are not move texts at all.
        piece_letters = "".join(k.letter for k in kinds if len(k.letter) == 1)
        self.MOVE_SYNTAX = re.compile(  # type: ignore[misc]
            rf"[a-{chr(96 + files)}][1-{ranks}][a-{chr(96 + files)}][1-{ranks}]\+?"
            rf"|[{piece_letters}]\*[a-{chr(96 + files)}][1-{ranks}]"
        )
        self._start_position = self._decode([rules.start, "f", "-"], ())

    def _rules(self) -> ShogiRules:
        return self.RULES

    # ---- move generation -----------------------------------------------------------------
    def _start(self) -> ShogiPosition:
        return self._start_position

    def _generate(self, pos: ShogiPosition) -> dict[str, Move]:
        return self._generate_for(pos.board, pos.side, pos.hands)

    def _generate_for(
        self, board: tuple[int, ...], side: int, hands: tuple[int, ...]
    ) -> dict[str, Move]:
        sgn = 1 - 2 * side
        steps = self._steps
        names = self.square_names
        zone = self._zone[side]
        promote = self._promote
        royal = self._royal * sgn
        moves: dict[str, Move] = {}
        safety = self.rules.royal_safety == "legal"
        checkers: list[int] = []
        attacked = 0
        if safety:
            attacks = self._attacks
            king = board.index(royal)
            for sq, p in enumerate(board):
                if p * sgn < 0:
                    a = attacks[p][sq]
                    attacked |= a
                    if a >> king & 1:
                        checkers.append(sq)
        single = checkers[0] if len(checkers) == 1 else -1
        for sq, p in enumerate(board):
            if p * sgn <= 0:
                continue
            for t in steps[p][sq]:
                q = board[t]
                if q * sgn > 0:
                    continue
                if safety:
                    if p == royal:
                        if attacked >> t & 1:
                            continue
                    elif checkers and t != single:
                        continue
                text = names[sq] + names[t]
                promoted = promote[p]
                if promoted and (zone[sq] or zone[t]):
                    moves[text + "+"] = (sq, t, promoted)
                    if steps[p][t]:  # it could still move unpromoted: promotion is optional
                        moves[text] = (sq, t, p)
                else:
                    moves[text] = (sq, t, p)
        if checkers:
            return moves  # a drop never answers a check: nothing can be blocked
        offset = side * len(self._hand_kinds)
        empties: list[int] | None = None
        for i, code in enumerate(self._hand_kinds):
            if not hands[offset + i]:
                continue
            if empties is None:
                empties = [t for t, q in enumerate(board) if not q]
            piece = code * sgn
            letter = self.rules.kinds[code - 1].letter + "*"
            targets = empties
            if self.rules.drop_immobile_illegal:
                targets = [t for t in targets if steps[piece][t]]
            if code == self._pawn:
                targets = self._pawn_drop_targets(board, side, targets)
            for t in targets:
                moves[letter + names[t]] = (-1, t, piece)
        return moves

    def _pawn_drop_targets(
        self, board: tuple[int, ...], side: int, targets: list[int]
    ) -> list[int]:
        rules = self.rules
        sgn = 1 - 2 * side
        pawn = self._pawn * sgn
        if rules.drop_doubled_pawn_illegal:
            files = self.rules.files
            taken = {sq % files for sq, p in enumerate(board) if p == pawn}
            targets = [t for t in targets if t % files not in taken]
        if rules.drop_pawn_mate_illegal:
            enemy_king = board.index(-self._royal * sgn)
            checking = [t for t in targets if enemy_king in self._steps[pawn][t]]
            for t in checking:
                after = list(board)
                after[t] = pawn
                if not self._generate_for(tuple(after), 1 - side, self._no_hands):
                    targets = [x for x in targets if x != t]  # uchifuzume
        return targets

    # ---- playing a move ------------------------------------------------------------------
    def _apply(self, pos: ShogiPosition, move: Move) -> ShogiPosition:
        frm, to, piece = move
        side = pos.side
        board = list(pos.board)
        hands = list(pos.hands)
        offset = side * len(self._hand_kinds)
        captured = board[to]
        if frm < 0:
            hands[offset + self._hand_index[abs(piece)]] -= 1
        else:
            board[frm] = 0
        if captured and abs(captured) != self._royal:
            hands[offset + self._hand_index[self._demote[abs(captured)]]] += 1
        board[to] = piece
        return self._make(tuple(board), 1 - side, tuple(hands), (*pos.history, pos.digest))

    POSITION: ClassVar[type[ShogiPosition]]

    def _make(
        self,
        board: tuple[int, ...],
        side: int,
        hands: tuple[int, ...],
        history: tuple[str, ...],
    ) -> ShogiPosition:
        pos = self.POSITION.__new__(self.POSITION)
        pos._init(
            board=board,
            side=side,
            hands=hands,
            history=history,
            digest=digest(bytes([*(p + 64 for p in board), *hands, side])),
            win=self._win(board, side),
        )
        return pos

    def _win(self, board: tuple[int, ...], side: int) -> Result | None:
        """The win the last move made, read off the position it led to (``side`` to move)."""
        rules = self.rules
        royal = self._royal
        if rules.royal_safety == "free":
            for s in (0, 1):
                if (royal if s == 0 else -royal) not in board:
                    return Result(SIDES[1 - s], RuleReason.CAPTURE)
        if rules.try_rule == "move":
            for s in (0, 1):
                king = board.index(royal if s == 0 else -royal)
                if self._zone[s][king]:
                    return Result(SIDES[s], RuleReason.TRY)
        elif rules.try_rule == "safe":
            safe = [
                s
                for s in (0, 1)
                if self._zone[s][board.index(royal if s == 0 else -royal)]
                and not self._attacked(board, board.index(royal if s == 0 else -royal), s)
            ]
            if len(safe) == 2:
                return Result(None, RuleReason.TRY)
            if safe:
                return Result(SIDES[safe[0]], RuleReason.TRY)
        return None

    def _attacked(self, board: tuple[int, ...], square: int, side: int) -> bool:
        """Whether any piece of the side opposing ``side`` attacks ``square``."""
        sgn = 1 - 2 * side
        attacks = self._attacks
        return any(p * sgn < 0 and attacks[p][sq] >> square & 1 for sq, p in enumerate(board))

    def in_check(self, pos: ShogiPosition) -> bool:
        self._check_position(pos)
        board, side = pos.board, pos.side
        royal = self._royal * (1 - 2 * side)
        return royal in board and self._attacked(board, board.index(royal), side)

    def _no_move_result(self, pos: ShogiPosition) -> Result:
        board, side = pos.board, pos.side
        reason = RuleReason.NO_MOVES
        if self.rules.royal_safety == "legal":
            king = board.index(self._royal * (1 - 2 * side))
            if self._attacked(board, king, side):
                reason = RuleReason.CHECKMATE
        return Result(SIDES[1 - side], reason)

    # ---- position strings ----------------------------------------------------------------
    def _encode(self, pos: ShogiPosition) -> list[str]:
        letter = self._letter
        squares = [letter[p] if p else None for p in pos.board]
        return [
            format_board(squares, self.rules.files),
            SIDE_LETTERS[pos.side],
            self._encode_hands(pos.hands),
        ]

    def _encode_hands(self, hands: tuple[int, ...]) -> str:
        out = ""
        count = len(self._hand_kinds)
        for side in (0, 1):
            for i, code in enumerate(self._hand_kinds):
                n = hands[side * count + i]
                if n:
                    letter = self.rules.kinds[code - 1].letter
                    out += (str(n) if n > 1 else "") + (letter if side == 0 else letter.lower())
        return out or "-"

    def _decode(self, fields: list[str], history: tuple[str, ...]) -> ShogiPosition:
        text = " ".join(fields)
        rules = self.rules
        cells = _parse_board(fields[0], rules.files, rules.ranks, self._token, text, self.id)
        codes = self._codes
        board = tuple(
            0 if c is None else (codes[c] if c[-1].isupper() else -codes[c.upper()]) for c in cells
        )
        side = self._side_letter(fields[1], text)
        hands = self._decode_hands(fields[2], text)
        self._validate(board, side, hands, text)
        return self._make(board, side, hands, history)

    def _decode_hands(self, field: str, text: str) -> tuple[int, ...]:
        count = len(self._hand_kinds)
        hands = [0] * (2 * count)
        if field == "-":
            return tuple(hands)
        pos = 0
        seen: set[str] = set()
        while pos < len(field):
            match = self._hand_token.match(field, pos)
            if match is None or match.group(1).startswith("0") or match.group(2) in seen:
                raise InvalidPositionError(
                    f"invalid hands {field!r} in {text!r} "
                    "(expected '-' or counts and letters such as '2Cg')"
                )
            digits, letter = match.groups()
            seen.add(letter)
            side = 0 if letter.isupper() else 1
            index = self._hand_index[self._codes[letter.upper()]]
            hands[side * count + index] = int(digits) if digits else 1
            pos = match.end()
        canonical = self._encode_hands(tuple(hands))
        if canonical != field:
            raise InvalidPositionError(
                f"hands {field!r} must be written {canonical!r} (first's pieces, then second's, "
                f"in the order {''.join(self.rules.kinds[c - 1].letter for c in self._hand_kinds)},"
                f" a count only above 1) in {text!r}"
            )
        return tuple(hands)

    def _validate(
        self, board: tuple[int, ...], side: int, hands: tuple[int, ...], text: str
    ) -> None:
        rules = self.rules
        royal = self._royal
        kings = (board.count(royal), board.count(-royal))
        missing_allowed = rules.royal_safety == "free" and sorted(kings) == [0, 1]
        if kings != (1, 1) and not missing_allowed:
            name = rules.kinds[royal - 1].names
            raise InvalidPositionError(
                f"each side needs exactly one {'/'.join(name.values())} in {text!r}"
            )
        # No more pieces of a kind than the set holds (promoted ones and hands counted).
        totals: dict[int, int] = {}
        for code in self._start_codes():
            totals[code] = totals.get(code, 0) + 1
        found: dict[int, int] = {}
        for p in board:
            if p:
                base = self._demote[abs(p)]
                found[base] = found.get(base, 0) + 1
        count = len(self._hand_kinds)
        for i, code in enumerate(self._hand_kinds):
            found[code] = found.get(code, 0) + hands[i] + hands[count + i]
        for code, n in found.items():
            if n > totals.get(code, 0):
                kind = rules.kinds[code - 1]
                raise InvalidPositionError(
                    f"{n} pieces of kind {kind.letter} in {text!r}; "
                    f"the set has {totals.get(code, 0)}"
                )
        if rules.drop_immobile_illegal or rules.drop_doubled_pawn_illegal:
            for sq, p in enumerate(board):
                if p and self._promote[p] and not self._steps[p][sq]:
                    raise InvalidPositionError(
                        f"{self._letter[p]!r} on {self.square_names[sq]} could never move "
                        f"again in {text!r}"
                    )
        if rules.drop_doubled_pawn_illegal:
            for pawn in (self._pawn, -self._pawn):
                on_files = [sq % rules.files for sq, p in enumerate(board) if p == pawn]
                if len(on_files) != len(set(on_files)):
                    raise InvalidPositionError(
                        f"two unpromoted pawns of one side on one file in {text!r}"
                    )
        if missing_allowed:
            return
        if rules.try_rule == "move":
            in_zone = [s for s in (0, 1) if self._zone[s][board.index(royal * (1 - 2 * s))]]
            if len(in_zone) == 2 or (in_zone and in_zone[0] == side):
                raise InvalidPositionError(
                    f"a royal piece stands on its promotion zone, which only the last move "
                    f"can have done, in {text!r}"
                )
        if rules.royal_safety == "legal":
            mover = 1 - side
            if self._attacked(board, board.index(royal * (1 - 2 * mover)), mover):
                raise InvalidPositionError(
                    f"the side that just moved ({SIDES[mover]}) has its royal piece "
                    f"capturable in {text!r}"
                )

    def _start_codes(self) -> list[int]:
        """Base codes of every piece of the full set (both sides), from the start board."""
        cells = _parse_board(
            self.rules.start, self.rules.files, self.rules.ranks, self._token, "", self.id
        )
        return [self._demote[self._codes[c.upper()]] for c in cells if c is not None]

    def _describe(self) -> dict[str, Any]:
        rules = self.rules
        names = self.square_names
        files = rules.files
        camp = rules.camp_ranks
        return {
            "family": "shogi",
            "squares": {
                "promotion_zone": {
                    SIDES[s]: [names[sq] for sq in range(len(names)) if self._zone[s][sq]]
                    for s in (0, 1)
                },
                "camps": {
                    "first": [names[sq] for sq in range(len(names)) if sq // files < camp],
                    "second": [
                        names[sq] for sq in range(len(names)) if sq // files >= rules.ranks - camp
                    ],
                },
            },
            "pieces": [
                {
                    "letter": k.letter,
                    "names": dict(k.names),
                    "moves": [list(s) for s in k.steps],
                    "royal": k.royal,
                    "promotes_to": k.promotes_to,
                    "demotes_to": k.demotes_to,
                    "droppable": c in self._hand_kinds,
                }
                for c, k in enumerate(rules.kinds, start=1)
            ],
            "hand_order": [rules.kinds[c - 1].letter for c in self._hand_kinds],
            "rule_flags": {
                "royal_safety": rules.royal_safety,
                "try_rule": rules.try_rule,
                "drop_immobile_illegal": rules.drop_immobile_illegal,
                "drop_doubled_pawn_illegal": rules.drop_doubled_pawn_illegal,
                "drop_pawn_mate_illegal": rules.drop_pawn_mate_illegal,
            },
        }


__all__ = ["DIRECTIONS", "Option", "PieceKind", "ShogiGame", "ShogiPosition", "ShogiRules"]
