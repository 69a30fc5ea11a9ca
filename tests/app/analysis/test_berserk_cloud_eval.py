"""berserk's ``client.analysis.get_cloud_evaluation``, unmodified, against a real server: each
of the five games' positions evaluated in lichess's shape (a Dōbutsu position of the built
table exactly), and a refusal raised as berserk raises lichess's."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import berserk
import pytest

import engine
from tests.app.analysis.test_evaluate import FORCED, REDUCED
from tests.app.tablebase.test_table import reduced_table
from tests.server import running


def test_berserk_reads_every_games_evaluation(tmp_path: Path) -> None:
    reduced_table(tmp_path / "tables", "dobutsu", REDUCED)
    settings = {
        "KODAMA_ANALYSIS_EVAL_NODES": "5000",
        "KODAMA_ANALYSIS_EVAL_SECONDS": "600",
        "KODAMA_TABLEBASE_PATH": str(tmp_path / "tables"),
    }
    with running(tmp_path, "cloud-eval-berserk-7Hq2LmXv9RtYp4Zs8WcKd1Nf", **settings) as server:
        client: Any = berserk.Client(base_url=server.base)
        for variant in engine.game_ids():
            game = engine.get_game(variant)
            start = game.to_text(game.start())
            found = client.analysis.get_cloud_evaluation(start, num_variations=2, variant=variant)
            assert found["fen"] == start and found["depth"] >= 1 and len(found["pvs"]) == 2
            assert all(("cp" in pv) != ("mate" in pv) for pv in found["pvs"])
            # A short forced win: mate in two of the winner's moves, from first's view.
            fen = FORCED[variant]
            won = client.analysis.get_cloud_evaluation(fen, variant=variant)
            side = game.side_to_move(game.from_text(fen))
            assert won["pvs"][0]["mate"] == (2 if side == "first" else -2)
            assert len(won["pvs"][0]["moves"].split(" ")) == 3
        exact = client.analysis.get_cloud_evaluation(REDUCED, num_variations=3, variant="dobutsu")
        assert exact["source"] == "table" and exact["knodes"] == 0 and len(exact["pvs"]) == 3
        with pytest.raises(berserk.exceptions.ResponseError) as refused:
            client.analysis.get_cloud_evaluation(FORCED["dobutsu"])  # berserk's "standard"
        assert refused.value.status_code == 400
        assert refused.value.cause["code"] == "game.unknown"
