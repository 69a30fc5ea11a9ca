"""What the site's pages hear of challenges (docs/protocol.md, "Challenges on every page"):
of the lines a challenge puts on both players' event streams (``ChallengeService.announce``),
the challenged player's pages hear a new challenge and its cancellation, and the
challenger's pages hear a decline. A rematch offer is the game page's own business
(app/rematch), and an open challenge names nobody to tell."""

from __future__ import annotations

from typing import Any

# Each line's type, and which end of the challenge hears it: its destination or its challenger.
TOLD = {"challenge": "destUser", "challengeCanceled": "destUser", "challengeDeclined": "challenger"}


def notice(line: dict[str, Any], player_id: str) -> dict[str, Any] | None:
    """The message for the pages of ``player_id`` of this event-stream line, or None."""
    end = TOLD.get(line.get("type", ""))
    challenge = line.get("challenge")
    if end is None or not isinstance(challenge, dict) or "rematchOf" in challenge:
        return None
    user = challenge.get(end)
    if not isinstance(user, dict) or user.get("id") != player_id:
        return None
    return {"type": line["type"], "challenge": challenge}
