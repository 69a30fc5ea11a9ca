"""Lichess's arena scoring, hand-computed: streaks ("on fire"), berserk, early draws, draw
streaks, the sheet's text (most recent first), performance and the tie-break."""

from __future__ import annotations

from app.tournaments.scoring import Flag, played, sheet, standings

WIN, LOSS, DRAW = True, False, None


def points(*games: tuple[bool | None, int] | tuple[bool | None, int, bool]) -> list[int]:
    made = sheet([played(g[0], g[1], berserk=len(g) > 2 and bool(g[2])) for g in games])
    return [s.value for s in reversed(made.scores)]  # oldest first, for reading


def test_a_win_is_two_a_draw_one_a_loss_nothing():
    assert points((WIN, 30), (DRAW, 30), (LOSS, 30)) == [2, 1, 0]


def test_after_two_wins_in_a_row_wins_count_double_until_a_game_is_not_won():
    # win, win, then on fire: 4, 4; a loss ends it; two wins again to be on fire.
    assert points((WIN, 30), (WIN, 30), (WIN, 30), (WIN, 30), (LOSS, 30), (WIN, 30), (WIN, 30),
                  (WIN, 30)) == [2, 2, 4, 4, 0, 2, 2, 4]  # fmt: skip
    # A draw on fire counts double, and ends the streak.
    assert points((WIN, 30), (WIN, 30), (DRAW, 30), (WIN, 30)) == [2, 2, 2, 2]


def test_streaks_off():
    games = [played(WIN, 30), played(WIN, 30), played(WIN, 30), played(DRAW, 30)]
    assert [s.value for s in reversed(sheet(games, streakable=False).scores)] == [2, 2, 2, 1]


def test_a_berserk_win_is_a_point_more_when_the_game_was_not_too_short():
    assert points((WIN, 14, True), (LOSS, 40, True), (DRAW, 40, True)) == [3, 0, 1]
    assert points((WIN, 13, True)) == [2]  # fewer than 14 plies: no bonus
    # On fire and berserk: 4 + 1.
    assert points((WIN, 30), (WIN, 30), (WIN, 30, True)) == [2, 2, 5]


def test_a_draw_in_fewer_than_ten_moves_scores_nothing():
    assert points((DRAW, 19)) == [0]
    assert points((DRAW, 20)) == [1]
    # even on fire
    assert points((WIN, 30), (WIN, 30), (DRAW, 10)) == [2, 2, 0]


def test_a_short_draw_after_a_draw_scores_nothing_unless_a_win_came_between():
    assert points((DRAW, 30), (DRAW, 30)) == [1, 0]
    assert points((DRAW, 30), (LOSS, 30), (DRAW, 30)) == [1, 0, 0]  # a loss keeps the streak
    assert points((DRAW, 30), (WIN, 30), (DRAW, 30)) == [1, 2, 1]  # a win breaks it
    assert points((DRAW, 30), (DRAW, 60)) == [1, 1]  # a long game's draw counts
    assert points((DRAW, 10), (DRAW, 30)) == [0, 0]  # an early draw starts a streak too


def test_the_sheet_text_is_most_recent_first_and_the_streak_flags():
    made = sheet([played(WIN, 30), played(WIN, 30), played(WIN, 30), played(LOSS, 30)])
    assert made.text == "0422"
    assert made.total == 8 and not made.on_fire
    assert sheet([played(WIN, 30), played(WIN, 30)]).on_fire
    # A win followed by a loss is no streak starter any more.
    flags = [s.flag for s in sheet([played(WIN, 30), played(LOSS, 30)]).scores]
    assert flags == [Flag.NORMAL, Flag.NORMAL]


def test_standings_rank_by_score_then_performance():
    # a beats b, c beats d: both 2 points; a's opponent is rated higher, so a ranks first.
    games = {
        "a": [played(WIN, 30, opponent_rating=1700)],
        "b": [played(LOSS, 30, opponent_rating=1500)],
        "c": [played(WIN, 30, opponent_rating=1400)],
        "d": [played(LOSS, 30, opponent_rating=1600)],
    }
    ratings = {"a": 1500, "b": 1700, "c": 1600, "d": 1400}
    table = standings(games, ratings, ["d", "c", "b", "a", "e"])
    assert [(s.player_id, s.rank, s.score, s.performance) for s in table] == [
        ("a", 1, 2, 2200),
        ("c", 2, 2, 1900),
        ("e", 3, 0, None),  # no game yet: ranked by their rating (1500)
        ("d", 4, 0, 1100),
        ("b", 5, 0, 1000),
    ]
