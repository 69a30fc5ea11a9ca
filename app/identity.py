"""Players' identity: a signed cookie holding a random player id, given on the first visit.

Playing needs no sign-up: the cookie is the identity (itsdangerous signs it, so nobody can
take another player's seat by editing it). Logging in to an account replaces it with one
holding the account's player id and username: ``[id, username]`` instead of ``id``, so that
every request knows the display name without a database read.
"""

from __future__ import annotations

import secrets

from itsdangerous import BadSignature, URLSafeSerializer

from .services.games import Identity

COOKIE = "kodama_player"
MAX_AGE = 400 * 24 * 3600  # browsers cap cookie lifetimes at 400 days


class Identities:
    def __init__(self, secret_key: str) -> None:
        self._signer = URLSafeSerializer(secret_key, salt="kodama.player")

    @staticmethod
    def new() -> Identity:
        player_id = secrets.token_hex(8)
        return Identity(player_id, display_name(player_id))

    def read(self, cookie: str | None) -> Identity | None:
        if not cookie:
            return None
        try:
            player_id = self._signer.loads(cookie)
        except BadSignature:
            return None
        if (
            isinstance(player_id, list)
            and len(player_id) == 2
            and all(isinstance(part, str) for part in player_id)
        ):
            player_id, username = player_id
            return Identity(player_id, username) if len(player_id) == 16 else None
        if not isinstance(player_id, str) or len(player_id) != 16:
            return None
        return Identity(player_id, display_name(player_id))

    def cookie(self, who: Identity) -> str:
        return str(self._signer.dumps(who.id))

    def account_cookie(self, player_id: str, username: str) -> str:
        """The cookie of a browser logged in to this account."""
        return str(self._signer.dumps([player_id, username]))


def display_name(player_id: str) -> str:
    return f"Anonymous {player_id[:4].upper()}"
