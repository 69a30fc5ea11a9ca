"""Stored tables: a reduced problem's, written and read back, every entry consistent with
its moves. The built table (minutes to build, more than the suite has) is checked the same
way by bench/tablebase_check.py: the start's value, a million stored positions consistent,
a hundred thousand moved as the engine does."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from app import __main__ as cli
from app.core.time import ManualClock
from app.tablebase import build as build_module
from app.tablebase import store
from app.tablebase.build import build, start_code
from app.tablebase.encoding import END_DRAW, RULESETS, codes_of_keys
from app.tablebase.solve import solve
from tests.app.tablebase.consistency import inconsistent


def reduced_table(tmp_path: Path, ruleset: str, start: str) -> store.Table:
    build(ruleset, tmp_path, lambda _: None, ManualClock(), start=start)
    return store.Table(tmp_path / ruleset)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_the_table_gives_every_reachable_position_the_solvers_value(tmp_path, ruleset):
    start = "1l1/3/3/1L1 f EC"
    table = reduced_table(tmp_path / "table", ruleset, start)
    first = np.array([start_code(ruleset, start)], dtype=np.uint64)
    codes, values = solve(first, ruleset, tmp_path / "work", ManualClock(), every=True).sorted()
    values[values == END_DRAW] = 0
    assert table.stored_many(codes).tolist() == values.tolist()
    assert [table.stored(int(c)) for c in codes[::50]] == values[::50].tolist()
    if ruleset == "yokai":
        # Most positions' values are known from the position alone, and not stored.
        assert len(table) < len(codes) / 3
        assert table.figures["stored_positions"] == len(table)
    else:
        assert len(table) == len(codes)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_stored_table_is_consistent_and_reads_back(tmp_path, ruleset):
    table = reduced_table(tmp_path, ruleset, "1l1/3/3/1L1 f C")
    index, stored_keys = table.sample(len(table))
    codes = codes_of_keys(stored_keys)
    assert len(codes) == len(table) == table.figures["stored_positions"]
    assert inconsistent(table, codes, ruleset) == []
    values = table.values_at(index)
    assert [table.stored(int(c)) for c in codes[:300]] == values[:300].tolist()
    counts = table.figures
    assert counts["wins"] + counts["draws"] + counts["losses"] == counts["positions"]
    # A position of the full game is not in this small table.
    assert table.value(start_code(ruleset)) is None


def test_the_check_finds_a_wrong_value(tmp_path):
    table = reduced_table(tmp_path, "dobutsu", "1l1/3/3/1L1 f E")
    index, stored_keys = table.sample(len(table))
    codes = codes_of_keys(stored_keys)
    values = table.values_at(index).astype(np.uint16)
    folder = tmp_path / "dobutsu"
    for wrong in (lambda v: v + 2, lambda v: 0 if v else 3):
        changed = values.copy()
        at = int(np.flatnonzero(values)[len(values) // 3])
        changed[at] = wrong(int(values[at]))
        written, palette = store.encode(changed)
        assert palette is not None
        np.save(folder / "values.npy", written)
        np.save(folder / "palette.npy", palette)
        assert inconsistent(store.Table(folder), codes, "dobutsu") != []
    written, palette = store.encode(values)
    assert palette is not None
    np.save(folder / "values.npy", written)
    np.save(folder / "palette.npy", palette)
    assert inconsistent(store.Table(folder), codes, "dobutsu") == []


def test_values_are_written_one_byte_each_through_a_palette_where_they_fit():
    values = np.array([0, 5, 344, 5, 2, 0, 347], dtype=np.uint16)
    written, palette = store.encode(values)
    assert written.dtype == np.uint8 and palette is not None
    assert palette[written].tolist() == values.tolist()
    many = np.arange(300, dtype=np.uint16)
    written, palette = store.encode(many)
    assert palette is None and written.tolist() == many.tolist()


def test_the_build_prints_and_stores_its_figures(tmp_path):
    lines: list[str] = []
    found = build("yokai", tmp_path, lines.append, ManualClock(), start="1l1/3/3/1L1 f E")
    folder = tmp_path / "yokai"
    table = store.Table(folder)
    assert table.figures == {"format": store.FORMAT, **found}
    assert found["stored_positions"] == len(table) < found["positions"]
    assert found["build"]["table_bytes"] == sum(
        f.stat().st_size for f in folder.iterdir() if f.suffix == ".npy"
    )
    printed = "\n".join(lines)
    assert f"ruleset yokai: {found['positions']:,} positions reachable" in printed
    wins, draws, losses = (found[k] for k in ("wins", "draws", "losses"))
    assert wins + draws + losses == found["positions"]
    assert f"wins {wins:,}, draws {draws:,}, losses {losses:,} for the side to move" in printed
    value = table.value(start_code("yokai", "1l1/3/3/1L1 f E"))
    assert value is not None and value.category == found["start"]["category"] == "win"
    assert f"the first player wins in {value.plies} plies" in printed


def test_the_command_line_builds_the_ruleset_asked_for(monkeypatch, tmp_path):
    asked: list[tuple[str, Path]] = []
    monkeypatch.setattr(build_module, "build", lambda ruleset, out: asked.append((ruleset, out)))
    cli.main(["tablebase", "build", "--ruleset", "yokai", "--out", str(tmp_path)])
    cli.main(["tablebase", "build", "--out", str(tmp_path / "other")])
    assert asked == [("yokai", tmp_path), ("dobutsu", tmp_path / "other")]
