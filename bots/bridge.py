"""Plays a USI or UCI engine on Kodama through the bot API, as lichess-bot does on lichess.

    python -m bots.bridge --server URL --token T --engine /usr/games/fairy-stockfish

The runner (bots/runner.py) does the bot API side: challenges, game streams, sending moves.
This module gives it a player whose moves come from the engine (bots/engineproc.py): for each
move the engine gets the game's start position and its moves in its own notation, and the
clocks; its answer is translated back and checked against Kodama's rules before it is sent.
Fairy-Stockfish knows dōbutsu and gorogoro, with rules a little different from Kodama's:
the bridge loads bots/fairy-variants.ini, the same games with Kodama's rules.

Challenges are filtered as lichess-bot's config does: the games (``--games``, default every
game the engine plays), rated or not (``--rated``), how many at once (``--max-games``); and
only Kodama's default rules (dōbutsu's ``yokai`` ruleset is another game for an engine).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import engine

from .client import Client
from .engineproc import PROTOCOLS, VARIANTS_FILE, EngineFailed, EnginePlayer, EngineProcess
from .players import Player
from .runner import GameRun, Runner, Settings, arguments, serve


class BridgeRunner(Runner):
    """The runner, telling each game's engine player the game's start and its moves."""

    def __init__(
        self, client: Client, make_player: Callable[[], Player], settings: Settings
    ) -> None:
        super().__init__(client, make_player, settings)
        self.starts: dict[str, str] = {}  # game id → its initialFen

    def decline_reason(self, challenge: Mapping[str, Any]) -> str | None:
        reason = super().decline_reason(challenge)
        if reason is not None:
            return reason
        variant = str((challenge.get("variant") or {}).get("key") or "")
        rules = challenge.get("rules") or {}
        if engine.get_game(variant, **rules).options != engine.get_game(variant).options:
            return "variant"  # the engine's variant has the default rules only
        return None

    async def on_full(self, run: GameRun, full: Mapping[str, Any]) -> None:
        await super().on_full(run, full)
        if full.get("initialFen"):
            self.starts[run.id] = str(full["initialFen"])

    async def on_state(self, run: GameRun, player: Player, state: Mapping[str, Any]) -> bool:
        if isinstance(player, EnginePlayer):
            player.observe(self.starts.get(run.id), state)
        return await super().on_state(run, player, state)

    async def play(self, game_id: str) -> None:
        try:
            await super().play(game_id)
        finally:
            self.starts.pop(game_id, None)


def parser() -> argparse.ArgumentParser:
    parser = arguments("Play a USI or UCI engine on Kodama.")
    parser.add_argument(
        "--engine",
        required=True,
        help="the engine's command line (e.g. /usr/games/fairy-stockfish)",
    )
    parser.add_argument(
        "--protocol", choices=PROTOCOLS, default="uci", help="what it speaks (default: uci)"
    )
    parser.add_argument(
        "--variants",
        type=Path,
        default=VARIANTS_FILE,
        help="a variants file for an engine with a VariantPath option (default: %(default)s)",
    )
    parser.add_argument(
        "--games", help="the games to accept, comma-separated (default: all the engine plays)"
    )
    parser.add_argument(
        "--movetime", type=int, default=1000, help="ms a move in a game without a clock"
    )
    parser.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="an engine option to set (setoption), repeatable",
    )
    parser.add_argument(
        "--overhead",
        type=int,
        default=300,
        help="ms taken off the clocks the engine is given, for the way to the server"
        " (default %(default)s)",
    )
    parser.add_argument("--rated", action="store_true", help="accept rated challenges too")
    return parser


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    options = dict(option.split("=", 1) for option in args.option if "=" in option)
    process = EngineProcess(args.engine, args.protocol, args.variants, options)
    try:
        process.start()
    except (OSError, EngineFailed) as exc:
        print(f"the engine did not start: {exc}", file=sys.stderr)
        return 1
    try:
        playable = process.games()
        games = tuple(args.games.split(",")) if args.games else playable
        unknown = sorted(set(games) - set(playable))
        if unknown:
            print(f"{process.name} does not play {', '.join(unknown)}", file=sys.stderr)
            return 2
        settings = Settings(
            time_budget_s=args.movetime / 1000,
            games=games,
            max_games=args.max_games,
            rated=args.rated,
        )
        return serve(
            args,
            lambda: EnginePlayer(process, args.movetime, args.overhead),
            settings,
            BridgeRunner,
        )
    finally:
        process.close()


if __name__ == "__main__":
    sys.exit(main())
