"""Lichess's arena scoring (lila's ``arena/ArenaSheet.scala``), a pure function of a player's
finished games in the order they were played, and the standings it makes.

A win is 2 points, a draw 1, a loss 0. After two wins in a row the player is on fire: a win
then counts 4 and a draw 2, until a game that is not a win (with ``streakable`` off, never).
A draw in fewer than ``QUICK_DRAW_PLIES`` plies scores nothing; a draw that is not on fire,
in a game shorter than ``LONG_GAME_PLIES``, following a draw (losses between them do not
break the streak, a win does) scores nothing either. A berserk player's win is worth one
point more if the game lasted ``BERSERK_MIN_PLIES`` plies or more. Ties are broken by
performance: the opponents' ratings, +500 for a win and -500 for a loss, averaged."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum

QUICK_DRAW_PLIES = 20  # lila: Pairing.quickDraw (fewer than 10 moves each)
BERSERK_MIN_PLIES = 14  # lila: Pairing.notSoQuickFinish
LONG_GAME_PLIES = 60  # lila: Pairing.longGame (standard chess's)
PERFORMANCE_DIFF = 500  # lila: Performance.DIFF


class Result(StrEnum):
    WIN = "win"
    DRAW = "draw"
    LOSS = "loss"
    QUICK_DRAW = "dq"  # a draw too early to count


class Flag(StrEnum):
    NORMAL = "normal"
    STREAK_STARTER = "streak"  # a win that may start a streak (shown, not scored)
    DOUBLE = "double"  # on fire
    NULL = "null"  # a draw of a draw streak


@dataclass(frozen=True, slots=True)
class Played:
    """One finished game as one of its players saw it."""

    result: Result | None  # None: filled in by ``played`` from the winner
    plies: int
    berserk: bool
    opponent_rating: int = 1500


def played(
    won: bool | None, plies: int, *, berserk: bool = False, opponent_rating: int = 1500
) -> Played:
    """``won``: True, False, or None for a draw."""
    if won is None:
        result = Result.QUICK_DRAW if plies < QUICK_DRAW_PLIES else Result.DRAW
    else:
        result = Result.WIN if won else Result.LOSS
    return Played(result, plies, berserk, opponent_rating)


@dataclass(frozen=True, slots=True)
class Score:
    result: Result
    flag: Flag
    berserk_bonus: bool

    @property
    def value(self) -> int:
        base = 0
        if self.result == Result.WIN:
            base = 4 if self.flag == Flag.DOUBLE else 2
        elif self.result == Result.DRAW:
            base = {Flag.DOUBLE: 2, Flag.NULL: 0}.get(self.flag, 1)
        return base + (1 if self.result == Result.WIN and self.berserk_bonus else 0)


@dataclass(frozen=True, slots=True)
class Sheet:
    scores: tuple[Score, ...]  # most recent first, as lila keeps them

    @property
    def total(self) -> int:
        return sum(score.value for score in self.scores)

    @property
    def on_fire(self) -> bool:
        return _on_fire(self.scores)

    @property
    def text(self) -> str:
        """lila's ``scoresToString``: each game's points, most recent first."""
        return "".join(str(score.value) for score in self.scores)


def _on_fire(scores: Sequence[Score]) -> bool:
    return len(scores) >= 2 and all(s.result == Result.WIN for s in scores[:2])


def _draw_streak(scores: Sequence[Score]) -> bool:
    for score in scores:  # most recent first
        if score.result in (Result.DRAW, Result.QUICK_DRAW):
            return True
        if score.result == Result.WIN:
            return False
    return False


def sheet(games: Sequence[Played], *, streakable: bool = True) -> Sheet:
    """The sheet of a player's finished games, oldest first."""
    scores: list[Score] = []  # most recent first
    for game in games:
        bonus = game.berserk and game.plies >= BERSERK_MIN_PLIES
        fire = _on_fire(scores)
        if game.result == Result.QUICK_DRAW:
            score = Score(Result.QUICK_DRAW, Flag.NORMAL, bonus)
        elif game.result == Result.DRAW:
            if streakable and fire:
                flag = Flag.DOUBLE
            elif game.plies < LONG_GAME_PLIES and _draw_streak(scores):
                flag = Flag.NULL
            else:
                flag = Flag.NORMAL
            score = Score(Result.DRAW, flag, bonus)
        elif game.result == Result.WIN:
            flag = Flag.NORMAL if not streakable else Flag.DOUBLE if fire else Flag.STREAK_STARTER
            score = Score(Result.WIN, flag, bonus)
        else:
            score = Score(Result.LOSS, Flag.NORMAL, bonus)
        if scores and scores[0].flag == Flag.STREAK_STARTER and score.result != Result.WIN:
            scores[0] = Score(scores[0].result, Flag.NORMAL, scores[0].berserk_bonus)
        scores.insert(0, score)
    return Sheet(tuple(scores))


def performance(games: Sequence[Played]) -> int | None:
    """lila's performance: None before the first game."""
    if not games:
        return None
    total = 0
    for game in games:
        total += game.opponent_rating
        if game.result == Result.WIN:
            total += PERFORMANCE_DIFF
        elif game.result == Result.LOSS:
            total -= PERFORMANCE_DIFF
    return int(total / len(games))  # Scala's Int division: towards zero


@dataclass(frozen=True, slots=True)
class Standing:
    player_id: str
    rank: int
    score: int
    sheet: Sheet
    performance: int | None
    rating: int
    games: int


def standings(
    games_by_player: Mapping[str, Sequence[Played]],
    ratings: Mapping[str, int],
    joined: Sequence[str],
    *,
    streakable: bool = True,
) -> list[Standing]:
    """Everyone who joined (in order of joining), ranked: by score, then performance (their
    rating before their first game), then rating, then who joined first."""
    rows = []
    for order, player_id in enumerate(joined):
        games = games_by_player.get(player_id, ())
        made = sheet(games, streakable=streakable)
        perf = performance(games)
        rating = ratings.get(player_id, 1500)
        key = (-made.total, -(perf if perf is not None else rating), -rating, order)
        rows.append((key, player_id, made, perf, rating, len(games)))
    rows.sort(key=lambda row: row[0])
    return [
        Standing(player_id, rank, made.total, made, perf, rating, count)
        for rank, (_, player_id, made, perf, rating, count) in enumerate(rows, start=1)
    ]
