"""A duplicate or stale submission can never apply twice: concurrent submissions of the same
move (two tabs, two requests at once) against the real databases."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from app.core.config import Settings
from app.core.errors import ServiceError
from app.core.time import ManualClock
from app.db.engine import make_engine, make_sessionmaker
from app.games import GameService, Identity, NewGame
from app.games.terms import GameTerms
from app.realtime.hub import LocalHub
from tests.app.conftest import SECRET

pytestmark = pytest.mark.anyio

ALICE = Identity("a" * 16, "Anonymous AAAA")
BOB = Identity("b" * 16, "Anonymous BBBB")


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


async def _service(url: str, tmp_path: Path) -> tuple[GameService, object]:
    engine = make_engine(url)
    settings = Settings(database_url=url, data_dir=tmp_path, secret_key=SECRET)
    service = GameService(
        make_sessionmaker(engine),
        LocalHub(),
        settings,
        ManualClock(),
        is_postgres=url.startswith("postgresql"),
    )
    return service, engine


async def _started(service: GameService) -> str:
    game = await service.setup.create(ALICE, NewGame(GameTerms("dobutsu"), "first", True))
    await service.setup.join(BOB, game_id=game.id)
    return game.id


async def _race(service: GameService, who: Identity, game_id: str, move: str, ply: int | None):
    tries = [service.play.move(who, game_id, move, ply) for _ in range(12)]
    return await asyncio.gather(*tries, return_exceptions=True)


async def test_the_same_move_sent_twelve_times_at_once_applies_once(database_url, tmp_path):
    service, engine = await _service(database_url, tmp_path)
    try:
        game_id = await _started(service)
        outcomes = await _race(service, ALICE, game_id, "b2b3", 0)
        applied = [o for o in outcomes if not isinstance(o, BaseException)]
        refused = [o for o in outcomes if isinstance(o, ServiceError)]
        assert len(applied) == 1
        assert len(refused) == 11
        assert {e.code for e in refused} <= {"game.stale", "game.not_your_turn"}
        game = await service.reads.get(game_id)
        assert (game.ply, game.moves) == (1, "b2b3")
    finally:
        await engine.dispose()  # type: ignore[attr-defined]


async def test_moves_without_a_ply_race_and_only_the_first_counts(database_url, tmp_path):
    service, engine = await _service(database_url, tmp_path)
    try:
        game_id = await _started(service)
        outcomes = await _race(service, ALICE, game_id, "b1c2", None)
        assert sum(not isinstance(o, BaseException) for o in outcomes) == 1
        assert all(o.code == "game.not_your_turn" for o in outcomes if isinstance(o, ServiceError))
        game = await service.reads.get(game_id)
        assert (game.ply, game.moves) == (1, "b1c2")
    finally:
        await engine.dispose()  # type: ignore[attr-defined]


async def test_both_players_racing_never_corrupt_the_game(database_url, tmp_path):
    service, engine = await _service(database_url, tmp_path)
    try:
        game_id = await _started(service)
        outcomes = await asyncio.gather(
            service.play.move(ALICE, game_id, "b2b3", 0),
            service.play.move(BOB, game_id, "b3b2", 0),
            service.play.resign(BOB, game_id),
            return_exceptions=True,
        )
        game = await service.reads.get(game_id)
        # Whatever won the race, the stored game is one consistent history.
        assert game.moves in ("", "b2b3")
        assert game.ply == len(game.moves.split())
        assert any(not isinstance(o, BaseException) for o in outcomes)
    finally:
        await engine.dispose()  # type: ignore[attr-defined]
