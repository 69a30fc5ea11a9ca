"""The perfect Dōbutsu player (bots/perfect.py) on reduced problems' tables (a lion each and
one piece), held to the independent brute-force minimax of the tablebase's tests: it never
turns a win into a non-win, wins as fast as the table says and loses as slowly, keeps a draw
leaving the opponent the fewest drawing replies; and its runner declines what no table
holds."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import engine
from app.core.time import ManualClock
from app.tablebase.build import build as tablebase_build
from app.tablebase.lookup import Tablebases
from bots import builtin
from bots.client import Client
from bots.perfect import GAME, NotInTable, PerfectPlayer, PerfectRunner
from bots.players import MATE
from bots.runner import Settings
from tests.app.tablebase import minimax
from tests.app.tablebase.positions import REDUCED

GAME_RULES = engine.get_game(GAME)


def build(folder: Path, start: str, ruleset: str = "dobutsu") -> Tablebases:
    """The reduced problem's table, solved and stored under ``folder/<ruleset>``, as
    ``python -m app tablebase build`` stores the whole game's."""
    tablebase_build(ruleset, folder, lambda _line: None, ManualClock(), start=start)
    return Tablebases(folder)


@pytest.fixture(scope="module")
def solved(tmp_path_factory: pytest.TempPathFactory) -> Callable[[str], Path]:
    """``solved(start)``: the folder of that reduced problem's table, built once a module
    (a build takes seconds)."""
    folders: dict[str, Path] = {}

    def folder(start: str) -> Path:
        if start not in folders:
            folders[start] = tmp_path_factory.mktemp("tables")
            build(folders[start], start)
        return folders[start]

    return folder


def value_of(values: dict[str, minimax.Value], game: engine.Game[Any], pos: Any) -> Any:
    """The minimax value of a position reached in play: ("draw", None) for a draw."""
    found = values[minimax._key(game, pos)]
    return ("draw", None) if found is None else found


@pytest.mark.parametrize("start", REDUCED["dobutsu"])
def test_every_choice_keeps_the_value_as_minimax_says(
    solved: Callable[[str], Path], start: str
) -> None:
    tables = Tablebases(solved(start))
    values = minimax.solve("dobutsu", start)
    player = PerfectPlayer(tables, seed=1)
    game = GAME_RULES
    checked = {"win": 0, "loss": 0, "draw": 0}
    for key, value in values.items():
        pos = game.from_text(key)
        if game.result(pos) is not None:
            continue
        category, plies = value or ("draw", None)
        after = {m: value_of(values, game, game.play(pos, m)) for m in game.legal_moves(pos)}
        chosen = player.choices(game, pos)
        assert chosen, key
        for choice in chosen:
            opponent = after[choice.move]
            assert choice.category == category, (key, choice)
            if category == "win":
                assert plies is not None
                # A move to the opponent's loss, one ply nearer the end: the fastest win.
                assert opponent == ("loss", plies - 1), (key, choice, opponent)
                assert choice.plies == plies
            elif category == "loss":
                assert plies is not None
                # The slowest loss: the opponent's win as far away as any move allows.
                assert opponent == ("win", plies - 1), (key, choice, opponent)
            else:
                assert opponent == ("draw", None), (key, choice)
                drawing = [
                    sum(
                        value_of(values, game, game.play(game.play(pos, m), r))[0] == "draw"
                        for r in game.legal_moves(game.play(pos, m))
                    )
                    for m, v in after.items()
                    if v == ("draw", None)
                ]
                assert choice.drawing_replies == min(drawing), (key, choice, drawing)
        # Every best move is offered (the choice among them is at random).
        best = {m for m, v in after.items() if v == after[chosen[0].move]}
        if category != "draw":
            assert {c.move for c in chosen} == best, key
        checked[category] += 1
    assert checked["win"] and checked["loss"], checked
    assert checked["draw"] or None not in values.values(), checked


@pytest.mark.parametrize("start", REDUCED["dobutsu"])
def test_perfect_against_perfect_ends_exactly_when_the_table_says(
    solved: Callable[[str], Path], start: str
) -> None:
    """Both sides perfect: the winner wins as fast and the loser loses as slowly as the
    table says, so the game lasts exactly the start's distance."""
    tables = Tablebases(solved(start))
    values = minimax.solve("dobutsu", start)
    game = GAME_RULES
    players = (PerfectPlayer(tables, seed=2), PerfectPlayer(tables, seed=3))
    played = 0
    for key, value in values.items():
        if value is None or played >= 40:
            continue
        pos = game.from_text(key)
        if game.result(pos) is not None:
            continue
        category, plies = value
        mover = pos.side
        for ply in range(plies + 1):
            if game.result(pos) is not None:
                break
            pos = game.play(pos, players[ply % 2].choose(game, pos, 0.0))
        result = game.result(pos)
        assert result is not None and ply == plies, (key, value, ply)
        won = result.winner == engine.SIDES[mover]
        assert won is (category == "win"), (key, value, result)
        played += 1
    assert played


def test_the_score_says_how_it_stands_for_draw_offers(solved: Callable[[str], Path]) -> None:
    start = "1l1/3/3/1L1 f C"
    tables = Tablebases(solved(start))
    values = minimax.solve("dobutsu", start)
    game = GAME_RULES
    player = PerfectPlayer(tables, seed=4)
    assert player.last_score() is None
    seen = set()
    for key, value in values.items():
        pos = game.from_text(key)
        if game.result(pos) is not None:
            continue
        player.choose(game, pos, 0.0)
        score = player.last_score()
        assert score is not None
        if value is None:
            assert score == 0
        elif value[0] == "win":
            assert score == MATE - value[1]
        else:
            assert score == value[1] - MATE
        seen.add(value[0] if value else "draw")
    assert seen >= {"win", "loss"}


def test_a_position_the_table_lacks_is_searched_instead(solved: Callable[[str], Path]) -> None:
    tables = Tablebases(solved("1l1/3/3/1L1 f E"))
    game = GAME_RULES
    start = game.start()  # the whole game's start: not in this reduced table
    with pytest.raises(NotInTable):
        PerfectPlayer(tables).choose(game, start, 0.05)
    searched: list[str] = []

    class Searcher:
        name = "searcher"

        def choose(self, game: Any, position: Any, budget: float) -> str:
            searched.append(game.to_text(position))
            return str(game.legal_moves(position)[0])

    player = PerfectPlayer(tables, fallback=Searcher)
    assert player.choose(game, start, 0.05) in game.legal_moves(start)
    assert searched == [game.to_text(start)] and player.last_score() is None


def challenge(variant: str = GAME, **extra: Any) -> dict[str, Any]:
    return {"id": "c1", "variant": {"key": variant}, "rated": True, "rules": {}, **extra}


def runner(folder: Path) -> PerfectRunner:
    settings = Settings(games=(GAME,), rated=True)
    return PerfectRunner(Client("http://127.0.0.1:9", "kdm_x"), Tablebases(folder), settings)


def test_without_a_table_every_challenge_is_declined(tmp_path: Path) -> None:
    bot = runner(tmp_path)
    assert bot.decline_reason(challenge()) == "variant"
    assert bot.decline_reason(challenge(rules={"ruleset": "yokai"})) == "variant"


def test_only_the_rulesets_and_positions_of_its_tables_are_accepted(
    solved: Callable[[str], Path],
) -> None:
    start = "1l1/3/3/1L1 f E"
    bot = runner(solved(start))
    assert bot.decline_reason(challenge()) is None
    assert bot.decline_reason(challenge(rules={"ruleset": "dobutsu"})) is None
    # No yokai table here: those games are declined, as is any other game.
    assert bot.decline_reason(challenge(rules={"ruleset": "yokai"})) == "variant"
    assert bot.decline_reason(challenge("gorogoro")) == "variant"
    # From a position: accepted if the table holds it.
    assert bot.decline_reason(challenge(initialFen=start)) is None
    assert bot.decline_reason(challenge(initialFen="gle/1c1/1C1/ELG f -")) == "variant"
    assert bot.decline_reason(challenge(initialFen="nonsense")) == "variant"


def test_the_builtin_process_makes_the_perfect_and_fairy_runners(
    solved: Callable[[str], Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(builtin.TABLES_VARIABLE, str(solved("1l1/3/3/1L1 f E")))
    bot = builtin.runner("http://x", "kodama-perfect", "kdm_not-a-real-token", seats=9)
    assert isinstance(bot, PerfectRunner)
    assert bot.settings.games == (GAME,) and bot.settings.rated and bot.settings.max_games == 9
    assert bot.decline_reason(challenge()) is None
    # An engine that is not there: an error the process logs, the other accounts play on.
    monkeypatch.setenv(builtin.FAIRY_VARIABLE, str(tmp_path / "no-such-engine"))
    with pytest.raises(OSError):
        builtin.runner("http://x", "kodama-fairy", "kdm_not-a-real-token")
