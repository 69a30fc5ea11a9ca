"""Runs a player as a bot: answers challenges, plays every game it is in, until stopped.

The loop is lichess-bot's, in a page: read ``/api/stream/event``; accept the challenges the
bot can play (decline the others with a lichess reason); on ``gameStart`` follow that game's
stream in a task; on each ``gameState`` where the bot is to move, choose a move from ``fen``
(the position with its repetition history) and POST it. ``legalMoves`` is in every state, so a
bot needs no rules of its own: this one uses the engine for search.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import os
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import httpx

import engine

from . import evaluation
from .client import ApiError, Client, backoff
from .players import Player, Scoring

log = logging.getLogger(__name__)

# gameState clocks without a clock are int32's maximum (as lichess sends them).
NO_CLOCK_MS = 2_147_483_647
# Of the time left, a move may use this share (plus most of the increment).
CLOCK_SHARE = 1 / 25
# Tries to send one move through network failures and rate limits.
MOVE_ATTEMPTS = 8
# Accept a draw offer when the search says the position is no better than this for us.
DRAW_MARGIN = 25


@dataclass
class Settings:
    """How a bot plays and which challenges it takes."""

    time_budget_s: float = 0.5  # per move, when the clock allows it
    games: tuple[str, ...] = field(default_factory=evaluation.playable)
    # Games at once whose opponent is connected; more challenges are declined ("later"). A
    # game whose opponent is gone (``opponentGone``) costs no search and holds no seat.
    max_games: int = 4
    accept_challenges: bool = True
    rated: bool = False  # accept rated challenges too (else declined: "casual")
    greeting: str | None = None  # said in the players' chat when a game starts


@dataclass
class GameRun:
    """The bot's view of one game."""

    id: str
    game: engine.Game[Any] | None = None
    color: str | None = None  # "white" (first) or "black" (second)
    moved_at_ply: int = -1  # the ply of the last state the bot moved in (no double moves)
    answered_offer_at_ply: int = -1


class Runner:
    """One bot account: its token's client, a player, and the games in progress."""

    def __init__(
        self,
        client: Client,
        make_player: Callable[[], Player],
        settings: Settings | None = None,
    ) -> None:
        self.client = client
        self.make_player = make_player
        self.settings = settings or Settings()
        self.me: dict[str, Any] = {}
        self.games: dict[str, asyncio.Task[None]] = {}
        self.away: set[str] = set()  # the games whose opponent is gone (opponentGone)

    @property
    def name(self) -> str:
        return str(self.me.get("username") or "bot")

    # ---- the event stream ----------------------------------------------------------------
    async def run(self) -> None:
        """Plays until cancelled (or until the token is refused: ApiError)."""
        self.me = await self.account()
        if self.me.get("title") != "BOT":
            log.warning("%s is not a BOT account: POST /api/bot/account/upgrade", self.name)
        log.info("%s: listening for challenges and games", self.name)
        try:
            every = set(engine.game_ids()) <= set(self.settings.games)
            games = () if every else self.settings.games
            async with contextlib.aclosing(self.client.events(games)) as events:
                async for event in events:
                    await self.on_event(event)
        finally:
            for task in list(self.games.values()):
                task.cancel()
            await asyncio.gather(*self.games.values(), return_exceptions=True)

    async def account(self) -> dict[str, Any]:
        """The bot's account, waiting for the server if it is not up yet."""
        attempt = 0
        while True:
            try:
                return await self.client.account()
            except ApiError as exc:
                if not exc.transient:
                    raise
                wait = exc.retry_after or backoff(attempt)
            except httpx.TransportError as exc:
                wait = backoff(attempt)
                log.info("server not reachable (%r); trying again in %.1f s", exc, wait)
            attempt += 1
            await asyncio.sleep(wait)

    async def on_event(self, event: Mapping[str, Any]) -> None:
        kind = event.get("type")
        if kind == "challenge":
            await self.on_challenge(event.get("challenge") or {})
        elif kind == "gameStart":
            game_id = str((event.get("game") or {}).get("gameId") or "")
            if game_id:
                self.start_game(game_id)
        # gameFinish (the game's own stream ends too), challengeCanceled, challengeDeclined:
        # nothing to do.

    def start_game(self, game_id: str) -> None:
        running = self.games.get(game_id)
        if running is not None and not running.done():
            return  # a reconnected event stream announces the games in progress again
        task = asyncio.create_task(self.play(game_id), name=f"game {game_id}")
        self.games[game_id] = task
        task.add_done_callback(lambda done: self._forget(game_id, done))

    def _forget(self, game_id: str, done: asyncio.Task[None]) -> None:
        if self.games.get(game_id) is done:  # not a newer task of the same game
            del self.games[game_id]
            self.away.discard(game_id)

    # ---- challenges ----------------------------------------------------------------------
    def decline_reason(self, challenge: Mapping[str, Any]) -> str | None:
        """None to accept, else lichess's reason key for declining."""
        if not self.settings.accept_challenges:
            return "generic"
        variant = str((challenge.get("variant") or {}).get("key") or "")
        if variant not in self.settings.games:
            return "variant"
        try:
            engine.get_game(variant, **(challenge.get("rules") or {}))
        except engine.EngineError:
            return "variant"
        if challenge.get("rated") and not self.settings.rated:
            return "casual"
        if self.seats_taken() >= self.settings.max_games:
            return "later"
        return None

    def seats_taken(self) -> int:
        """The games in progress whose opponent is connected."""
        return sum(not t.done() and i not in self.away for i, t in self.games.items())

    async def on_challenge(self, challenge: Mapping[str, Any]) -> None:
        challenge_id = str(challenge.get("id") or "")
        challenger = challenge.get("challenger") or {}
        if not challenge_id or challenger.get("id") == self.me.get("id"):
            return  # our own challenge to someone else
        if challenge.get("status", "created") != "created":
            return
        reason = self.decline_reason(challenge)
        try:
            if reason is None:
                log.info("%s: accepting challenge %s", self.name, challenge_id)
                await self.client.accept_challenge(challenge_id)
            else:
                log.info("%s: declining challenge %s (%s)", self.name, challenge_id, reason)
                await self.client.decline_challenge(challenge_id, reason)
        except ApiError as exc:
            # Cancelled or answered meanwhile: nothing to do.
            log.info("%s: challenge %s: %s", self.name, challenge_id, exc)

    # ---- one game ------------------------------------------------------------------------
    async def play(self, game_id: str) -> None:
        run = GameRun(game_id)
        player = self.make_player()
        try:
            async with contextlib.aclosing(self.client.game(game_id)) as lines:
                async for data in lines:
                    kind = data.get("type")
                    if kind == "gameFull":
                        await self.on_full(run, data)
                        state = data.get("state") or {}
                    elif kind == "gameState":
                        state = data
                    elif kind == "opponentGone":
                        # Waiting for a player who left costs no search: no seat meanwhile
                        # (claimWinInSeconds says when claim-victory may end the game).
                        if data.get("gone"):
                            self.away.add(game_id)
                        else:
                            self.away.discard(game_id)
                        continue
                    else:
                        continue  # chatLine
                    if await self.on_state(run, player, state):
                        break
        except ApiError as exc:
            log.warning("%s: game %s: %s", self.name, game_id, exc)
        except Exception:
            log.exception("%s: game %s failed", self.name, game_id)

    async def on_full(self, run: GameRun, full: Mapping[str, Any]) -> None:
        variant = str((full.get("variant") or {}).get("key") or "")
        run.game = engine.get_game(variant, **(full.get("rules") or {}))
        me = self.me.get("id")
        if (full.get("white") or {}).get("id") == me:
            run.color = "white"
        elif (full.get("black") or {}).get("id") == me:
            run.color = "black"
        if run.color and self.settings.greeting and run.moved_at_ply < 0:
            with contextlib.suppress(ApiError):
                await self.client.chat(run.id, self.settings.greeting)

    async def on_state(self, run: GameRun, player: Player, state: Mapping[str, Any]) -> bool:
        """Moves if it is the bot's turn; True when the game is over."""
        if state.get("status") != "started":
            if state.get("status") not in (None, "created"):
                winner = state.get("winner")
                log.info(
                    "%s: game %s over: %s%s, %s",
                    self.name,
                    run.id,
                    state.get("status"),
                    f" ({state['reason']})" if state.get("reason") else "",
                    f"{winner} won" if winner else "no winner",
                )
                return True
            return False
        if run.game is None or run.color is None or state.get("turn") != run.color:
            return False
        legal = list(state.get("legalMoves") or [])
        ply = int(state.get("ply", len(str(state.get("moves") or "").split())))
        if not legal or ply == run.moved_at_ply:
            return False
        offered = state.get("bdraw" if run.color == "white" else "wdraw")
        position = run.game.from_text(str(state["fen"]))
        budget = self.budget(state, run.color)
        move = await asyncio.to_thread(player.choose, run.game, position, budget)
        if offered and run.answered_offer_at_ply != ply:
            run.answered_offer_at_ply = ply
            score = player.last_score() if isinstance(player, Scoring) else None
            accept = score is not None and score <= DRAW_MARGIN
            log.info("%s: game %s: draw offered, %s", self.name, run.id, "yes" if accept else "no")
            try:
                await self.client.draw(run.id, accept)
                if accept:
                    run.moved_at_ply = ply
                    return False  # the next state says the game is drawn
            except ApiError as exc:
                log.info("%s: game %s: draw answer: %s", self.name, run.id, exc)
        if await self.send_move(run, move, legal):
            run.moved_at_ply = ply
        return False

    async def send_move(self, run: GameRun, move: str, legal: list[str]) -> bool:
        """True once the move is played (or no longer needed: the game ended meanwhile);
        False if it could not be sent, so that the next state of this ply tries again."""
        for attempt in range(MOVE_ATTEMPTS):
            try:
                await self.client.move(run.id, move)
                return True
            except httpx.TransportError as exc:
                wait = backoff(attempt)
                log.warning("%s: game %s: %r; again in %.1f s", self.name, run.id, exc, wait)
            except ApiError as exc:
                if exc.transient:
                    wait = exc.retry_after or backoff(attempt)
                elif exc.status == 409:
                    return True  # the game ended meanwhile (a flag, a resignation): the stream says
                elif exc.status == 422 and move != legal[0]:
                    # Should never happen: a move the server lists keeps the game going.
                    log.error("%s: game %s: %s; playing %s", self.name, run.id, exc, legal[0])
                    move = legal[0]
                    continue
                else:
                    log.warning("%s: game %s: move %s: %s", self.name, run.id, move, exc)
                    return False
            await asyncio.sleep(wait)
        log.error("%s: game %s: could not send the move %s", self.name, run.id, move)
        return False

    def budget(self, state: Mapping[str, Any], color: str) -> float:
        """The level's time a move, less when the clock is short. A byo-yomi period counts
        as an increment: a move made within one costs nothing (``wtime`` is the main time)."""
        budget = self.settings.time_budget_s
        left = state.get("wtime" if color == "white" else "btime")
        increment = state.get("winc" if color == "white" else "binc") or 0
        increment += state.get("byoyomi") or 0
        if isinstance(left, int) and left < NO_CLOCK_MS:
            allowed = (left * CLOCK_SHARE + increment * 0.8) / 1000
            budget = max(0.02, min(budget, allowed))
        return budget


# ---- command line ------------------------------------------------------------------------
def arguments(description: str) -> argparse.ArgumentParser:
    """The options every bot command takes: --server and --token."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument(
        "--server",
        default=os.environ.get("KODAMA_SERVER", "http://127.0.0.1:8000"),
        help="the server's address (default: KODAMA_SERVER or %(default)s)",
    )
    parser.add_argument(
        "--token",
        default=os.environ.get("KODAMA_BOT_TOKEN"),
        help="the bot account's API token (default: the KODAMA_BOT_TOKEN variable)",
    )
    parser.add_argument("--max-games", type=int, default=4, help="games at once")
    parser.add_argument("-v", "--verbose", action="store_true", help="log every request")
    return parser


def serve(
    args: argparse.Namespace,
    make_player: Callable[[], Player],
    settings: Settings,
    runner: type[Runner] = Runner,
) -> int:
    """Runs one bot (a ``runner``) until Ctrl-C; the exit status for the command."""
    logging.basicConfig(
        level=logging.DEBUG if args.verbose else logging.INFO,
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
    )
    if not args.verbose:
        logging.getLogger("httpx").setLevel(logging.WARNING)
    if not args.token:
        print("a token is needed: --token T or KODAMA_BOT_TOKEN=T", file=sys.stderr)
        return 2

    async def main() -> None:
        async with Client(args.server, args.token) as client:
            await runner(client, make_player, settings).run()

    try:
        asyncio.run(main())
    except KeyboardInterrupt:
        return 0
    except ApiError as exc:
        print(f"the server refused: {exc}", file=sys.stderr)
        return 1
    return 0


__all__ = ["GameRun", "Runner", "Settings", "arguments", "serve"]
