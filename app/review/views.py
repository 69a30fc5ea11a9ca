"""A review as it is given: the game page's and ``/api/game/{id}/analysis``'s JSON, and
lichess's export shapes (``analysis`` per ply in the game's JSON, ``players.*.analysis``,
``[%eval …]`` comments in the text record)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from app.review.judge import NAMES, THRESHOLDS, PositionValue, win_percent
from app.review.service import Review

COLOR = {"first": "white", "second": "black"}


def eval_json(value: PositionValue) -> dict[str, int]:
    """lichess's ``{"eval": cp}`` or ``{"mate": n}`` (first player's view); ``{}`` where the
    rules ended the game (no evaluation there: the result says it)."""
    if "end" in value:
        return {}
    if value.get("mate") is not None:
        return {"mate": int(value["mate"])}
    return {"eval": int(value["cp"])}


def review_json(review: Review | None, variant: str) -> dict[str, Any]:
    """The review for the game page and ``GET``/``POST /api/game/{id}/analysis``."""
    if review is None:
        return {"status": "none"}
    data: dict[str, Any] = {
        "status": review.status,
        "position": review.position,
        "progress": {"done": review.plies_done, "total": review.plies + 1},
    }
    result = review.result
    if result is None:
        return data
    data["thresholds"] = dict(THRESHOLDS)
    plies = []
    for ply in result["plies"]:
        out: dict[str, Any] = {
            "ply": ply["ply"],
            "move": ply["move"],
            "side": ply["side"],
            "win": round(win_percent(variant, ply["value"]), 1),
            **eval_json(ply["value"]),
        }
        if "end" in ply["value"]:
            out["end"] = ply["value"]["end"]
        if ply["value"].get("source") == "table":
            out["exact"] = True
        for key in ("mark", "best", "line"):
            if key in ply:
                out[key] = ply[key]
        if "mark" in ply and "exact" in ply:
            out["outcome"] = ply["exact"]
        plies.append(out)
    data["start"] = {"win": round(win_percent(variant, result["start"]), 1)}
    data["plies"] = plies
    data["players"] = result["players"]
    return data


def _comment(ply: dict[str, Any]) -> str:
    name, best = NAMES[ply["mark"]], ply["best"]
    if "exact" in ply:
        lost = "win" if ply["exact"]["before"] == "win" else "draw"
        return f"{name}. The {lost} was thrown away: {best} kept it."
    return f"{name}. {best} was best."


def analysis_json(result: dict[str, Any]) -> list[dict[str, Any]]:
    """lichess's ``analysis``: one entry per ply, the position after it, and on a marked
    ply the better move, its line and the judgment."""
    entries = []
    for ply in result["plies"]:
        entry: dict[str, Any] = eval_json(ply["value"])
        if "mark" in ply:
            entry["best"] = ply["best"]
            entry["variation"] = " ".join(ply["line"])
            entry["judgment"] = {"name": NAMES[ply["mark"]], "comment": _comment(ply)}
        entries.append(entry)
    return entries


def players_analysis(result: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """lichess's ``players.white.analysis`` and ``players.black.analysis``."""
    return {COLOR[side]: dict(found) for side, found in result["players"].items()}


def _eval_text(value: PositionValue) -> str | None:
    if "end" in value:
        return None
    if value.get("mate") is not None:
        return f"[%eval #{int(value['mate'])}]"
    return f"[%eval {int(value['cp']) / 100:.2f}]"


def _exact_text(value: PositionValue) -> str | None:
    if value.get("source") != "table":
        return None
    if value.get("mate") is None:
        return "Table: a draw."
    winner = "first" if value["mate"] > 0 else "second"
    return f"Table: {winner} wins in {value['plies']} plies."


def record_comments(result: dict[str, Any]) -> Sequence[str | None]:
    """Each move's comment in the text record: ``[%eval …]`` as lichess writes it (in
    hundredths of the evaluation's units, or ``#n`` moves to the end), the exact value where
    the Dōbutsu table gave it, and the judgment of a marked move."""
    comments: list[str | None] = []
    for ply in result["plies"]:
        value = ply["value"]
        words = [w for w in (_eval_text(value), _exact_text(value)) if w]
        if "mark" in ply:
            words.append(_comment(ply))
        comments.append(" ".join(words) or None)
    return comments
