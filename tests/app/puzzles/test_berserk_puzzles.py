"""berserk's ``puzzles`` client (the lichess Python client, unmodified) against a real
server: the daily puzzle, a puzzle by id and the next one, as a guest and with a token
(docs/api.md, "Puzzles")."""

from __future__ import annotations

from pathlib import Path

import berserk
import pytest

from tests.server import account_token, running


def test_berserk_reads_the_daily_puzzle_one_by_id_and_the_next(tmp_path: Path) -> None:
    with running(tmp_path, "puzzles-berserk-Pz4Lm8Qx2Vc7Bn1Kd9Rw3Ty6") as server:
        guest = berserk.Client(base_url=server.base)
        daily = guest.puzzles.get_daily()
        assert daily["game"]["perf"]["key"] == "dobutsu"
        puzzle = daily["puzzle"]
        assert {"id", "rating", "plays", "solution", "themes", "initialPly"} <= set(puzzle)
        assert len(daily["game"]["pgn"].split(" ")) == puzzle["initialPly"] + 1
        again = guest.puzzles.get(puzzle["id"])
        assert again["puzzle"] == puzzle
        nxt = guest.puzzles.get_next(difficulty="easiest")
        assert nxt["puzzle"]["rating"] < 1500
        with pytest.raises(berserk.exceptions.ResponseError) as refused:
            guest.puzzles.get("zzzzz")
        assert refused.value.status_code == 404
        token = account_token(server, "solver", "board:play")
        solver = berserk.Client(session=berserk.TokenSession(token), base_url=server.base)
        themed = solver.puzzles.get_next(angle="short")
        assert "short" in themed["puzzle"]["themes"]
        assert len(themed["puzzle"]["solution"]) == 3
