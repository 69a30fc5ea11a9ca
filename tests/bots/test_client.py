"""The bot client and runner against a stand-in server (httpx.MockTransport): streams,
errors, reconnection, challenge answers, clock budgets and draw offers."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from typing import Any

import httpx
import pytest

import engine
from bots import client as client_module
from bots.client import ApiError, Client
from bots.players import RandomPlayer
from bots.runner import NO_CLOCK_MS, GameRun, Runner, Settings

Handler = Callable[[httpx.Request], httpx.Response]


def make_client(handler: Handler) -> Client:
    return Client("http://kodama.test", "kdm_token", transport=httpx.MockTransport(handler))


def ndjson(*items: Any) -> bytes:
    return b"".join(b"\n" if i is None else json.dumps(i).encode() + b"\n" for i in items)


async def collect(client: Client, path: str, count: int) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = []
    stream = client.stream(path)
    async for item in stream:
        found.append(item)
        if len(found) == count:
            break
    await stream.aclose()
    await client.close()
    return found


def test_streams_skip_keep_alives_and_send_the_token() -> None:
    seen: list[httpx.Request] = []

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        body = ndjson(None, {"type": "gameStart", "game": {"gameId": "g1"}}, None) + b"oops\n"
        return httpx.Response(200, content=body + ndjson({"type": "gameFinish"}))

    found = asyncio.run(collect(make_client(handler), "/api/stream/event", 2))
    assert [f["type"] for f in found] == ["gameStart", "gameFinish"]
    assert seen[0].headers["authorization"] == "Bearer kdm_token"


def test_streams_reconnect_after_server_errors_and_rate_limits(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(client_module, "backoff", lambda attempt: 0.0)
    answers = [
        httpx.Response(503, json={"error": "down", "code": "unavailable"}),
        httpx.Response(
            429,
            json={
                "error": "slow",
                "code": "ratelimit",
                "ratelimit": {"key": "stream", "seconds": 0},
            },
        ),
        httpx.Response(200, content=ndjson({"type": "a"})),  # then the server ends it
        httpx.Response(200, content=ndjson({"type": "b"})),
    ]

    def handler(request: httpx.Request) -> httpx.Response:
        return answers.pop(0)

    found = asyncio.run(collect(make_client(handler), "/api/stream/event", 2))
    assert [f["type"] for f in found] == ["a", "b"]
    assert not answers


def test_streams_reconnect_after_network_failures(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(client_module, "backoff", lambda attempt: 0.0)
    calls = []

    def handler(request: httpx.Request) -> httpx.Response:
        calls.append(request)
        if len(calls) == 1:
            raise httpx.ConnectError("refused", request=request)
        return httpx.Response(200, content=ndjson({"type": "ok"}))

    found = asyncio.run(collect(make_client(handler), "/api/stream/event", 1))
    assert found == [{"type": "ok"}] and len(calls) == 2


def test_client_errors_are_raised_with_their_code() -> None:
    def handler(request: httpx.Request) -> httpx.Response:
        return httpx.Response(401, json={"error": "bad token", "code": "token.invalid"})

    async def main() -> ApiError:
        client = make_client(handler)
        with pytest.raises(ApiError) as caught:
            await collect(client, "/api/stream/event", 1)
        with pytest.raises(ApiError):
            await client.move("g1", "a1a2")
        return caught.value

    error = asyncio.run(main())
    assert (error.status, error.code, error.transient) == (401, "token.invalid", False)


def test_a_rate_limit_says_how_long_to_wait() -> None:
    limited = ApiError(429, "ratelimit", "slow down", {"ratelimit": {"key": "move", "seconds": 3}})
    assert limited.transient and limited.retry_after == 3.0
    assert ApiError(500, "http.error", "oops", {}).transient
    assert ApiError(404, "game.not_found", "no", {}).retry_after is None


def test_moves_and_challenge_answers_use_lichess_paths() -> None:
    seen: list[tuple[str, str, bytes]] = []

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append((request.method, str(request.url), request.content))
        return httpx.Response(200, json={"ok": True})

    async def main() -> None:
        async with make_client(handler) as client:
            await client.move("g1", "C*a3", offering_draw=True)
            await client.draw("g1", False)
            await client.accept_challenge("c1")
            await client.decline_challenge("c2", "later")
            await client.chat("g1", "hello")

    asyncio.run(main())
    assert [(m, u) for m, u, _ in seen] == [
        ("POST", "http://kodama.test/api/bot/game/g1/move/C%2Aa3?offeringDraw=true"),
        ("POST", "http://kodama.test/api/bot/game/g1/draw/no"),
        ("POST", "http://kodama.test/api/challenge/c1/accept"),
        ("POST", "http://kodama.test/api/challenge/c2/decline"),
        ("POST", "http://kodama.test/api/bot/game/g1/chat"),
    ]
    assert seen[3][2] == b"reason=later"
    assert seen[4][2] == b"room=player&text=hello"


# ---- the runner --------------------------------------------------------------------------
class Recorder:
    """A stand-in server for the runner: records the POSTs, answers them ok."""

    def __init__(self) -> None:
        self.posts: list[str] = []

    def __call__(self, request: httpx.Request) -> httpx.Response:
        self.posts.append(request.url.path)
        return httpx.Response(200, json={"ok": True})


def runner(recorder: Recorder, settings: Settings | None = None, player: Any = None) -> Runner:
    bot = Runner(make_client(recorder), lambda: player or RandomPlayer(1), settings)
    bot.me = {"id": "me", "username": "mybot", "title": "BOT"}
    return bot


def challenge(variant: str = "dobutsu", **extra: Any) -> dict[str, Any]:
    return {
        "id": "c1",
        "status": "created",
        "challenger": {"id": "alice"},
        "variant": {"key": variant},
        "rules": {},
        **extra,
    }


def test_the_runner_accepts_what_it_plays_and_declines_the_rest() -> None:
    recorder = Recorder()
    bot = runner(recorder, Settings(games=("dobutsu",)))

    async def main() -> None:
        await bot.on_challenge(challenge())
        await bot.on_challenge(challenge("jungle"))
        await bot.on_challenge(challenge(challenger={"id": "me"}))  # its own: ignored
        await bot.on_challenge(challenge(rules={"ruleset": "chess"}))

    asyncio.run(main())
    assert recorder.posts == [
        "/api/challenge/c1/accept",
        "/api/challenge/c1/decline",
        "/api/challenge/c1/decline",
    ]
    assert bot.decline_reason(challenge("jungle")) == "variant"
    assert bot.decline_reason(challenge(rated=True)) == "casual"


def test_the_runner_declines_when_it_has_enough_games() -> None:
    bot = runner(Recorder(), Settings(max_games=1))

    async def main() -> str | None:
        bot.games["g1"] = asyncio.create_task(asyncio.sleep(10))
        try:
            return bot.decline_reason(challenge())
        finally:
            bot.games["g1"].cancel()

    assert asyncio.run(main()) == "later"


def test_the_budget_follows_the_clock() -> None:
    bot = runner(Recorder(), Settings(time_budget_s=2.0))
    no_clock = {"wtime": NO_CLOCK_MS, "btime": NO_CLOCK_MS, "winc": 0, "binc": 0}
    assert bot.budget(no_clock, "white") == 2.0
    short = {"wtime": 10_000, "btime": 100_000, "winc": 0, "binc": 1000}
    assert bot.budget(short, "white") == pytest.approx(0.4)  # a 25th of 10 s
    assert bot.budget(short, "black") == 2.0
    assert bot.budget({"wtime": 100, "winc": 0}, "white") == 0.02  # never nothing
    # Byo-yomi: main time spent, a 1 s period: most of the period, as an increment.
    byoyomi = {"wtime": 0, "btime": 0, "winc": 0, "binc": 0, "byoyomi": 1000, "wperiods": 3}
    assert bot.budget(byoyomi, "white") == pytest.approx(0.8)


def state(game: engine.Game[Any], pos: Any, **extra: Any) -> dict[str, Any]:
    return {
        "type": "gameState",
        "status": "started",
        "fen": game.to_text(pos),
        "legalMoves": game.legal_moves(pos),
        "turn": "white" if game.side_to_move(pos) == "first" else "black",
        "ply": 0,
        "wtime": NO_CLOCK_MS,
        "btime": NO_CLOCK_MS,
        **extra,
    }


class Scored(RandomPlayer):
    def __init__(self, score: int) -> None:
        super().__init__(1)
        self.score = score

    def last_score(self) -> int | None:
        return self.score


@pytest.mark.parametrize(("score", "answer"), [(-200, "yes"), (0, "yes"), (300, "no")])
def test_draw_offers_are_accepted_only_when_the_search_says_drawn_or_worse(
    score: int, answer: str
) -> None:
    game = engine.get_game("dobutsu")
    recorder = Recorder()
    player = Scored(score)
    bot = runner(recorder, player=player)
    run = GameRun("g1", game=game, color="white")
    asyncio.run(bot.on_state(run, player, state(game, game.start(), bdraw=True)))
    assert recorder.posts[0] == f"/api/bot/game/g1/draw/{answer}"
    if answer == "no":
        assert recorder.posts[1].startswith("/api/bot/game/g1/move/")
    else:
        assert len(recorder.posts) == 1  # accepted: no move


def test_the_runner_moves_once_per_state_and_only_on_its_turn() -> None:
    game = engine.get_game("jungle")
    recorder = Recorder()
    bot = runner(recorder)
    player = RandomPlayer(1)
    start = game.start()

    async def main() -> list[bool]:
        white = GameRun("g1", game=game, color="white")
        black = GameRun("g2", game=game, color="black")
        done = [await bot.on_state(white, player, state(game, start))]
        done.append(await bot.on_state(white, player, state(game, start)))  # the same ply
        done.append(await bot.on_state(black, player, state(game, start)))  # not its turn
        done.append(await bot.on_state(white, player, state(game, start, status="resign")))
        return done

    assert asyncio.run(main()) == [False, False, False, True]
    assert len(recorder.posts) == 1
    move = recorder.posts[0].rsplit("/", 1)[1]
    assert move in game.legal_moves(start)


class Busy(Recorder):
    """Answers the first ``busy`` moves with 409 ``game.busy``, then ok."""

    def __init__(self, busy: int, status: int = 409, code: str = "game.busy") -> None:
        super().__init__()
        self.busy, self.status, self.code = busy, status, code

    def __call__(self, request: httpx.Request) -> httpx.Response:
        self.posts.append(request.url.path)
        if self.busy > 0:
            self.busy -= 1
            return httpx.Response(self.status, json={"error": "not now", "code": self.code})
        return httpx.Response(200, json={"ok": True})


def test_a_busy_game_is_retried_not_taken_for_a_finished_one(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr("bots.runner.backoff", lambda attempt: 0.0)
    game = engine.get_game("jungle")
    recorder = Busy(2)
    bot = runner(recorder)
    run = GameRun("g1", game=game, color="white")
    asyncio.run(bot.on_state(run, RandomPlayer(1), state(game, game.start())))
    assert len(recorder.posts) == 3  # twice busy, then played
    assert run.moved_at_ply == 0


def test_a_move_that_could_not_be_sent_is_tried_again_at_the_next_state_of_that_ply() -> None:
    game = engine.get_game("jungle")
    recorder = Busy(1, status=400, code="move.invalid")
    bot = runner(recorder)
    run = GameRun("g1", game=game, color="white")
    player = RandomPlayer(1)

    async def main() -> None:
        await bot.on_state(run, player, state(game, game.start()))  # refused: not played
        await bot.on_state(run, player, state(game, game.start()))  # the same ply, resent
        await bot.on_state(run, player, state(game, game.start()))  # played: nothing more

    asyncio.run(main())
    assert len(recorder.posts) == 2
    assert run.moved_at_ply == 0
