"""Players' identity: a signed cookie holding a random player id, given on the first visit.

Playing needs no sign-up: the cookie is the identity (itsdangerous signs it, so nobody can
take another player's seat by editing it). Logging in to an account replaces it with one
holding the account's player id and username: ``[id, username]`` instead of ``id``, so that
every request knows the display name without a database read.

An account's player id is its lower-cased username (migration 0005; before it, a random id
like an anonymous player's). The id is therefore derived from the signed username: a cookie
issued before the migration, ``[old random id, username]``, still means that account.
"""

from __future__ import annotations

import secrets

from itsdangerous import BadSignature, URLSafeSerializer

from app.accounts.service import USERNAME, username_key
from app.domain.players import Identity

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
            stored_id, username = player_id
            if not USERNAME.fullmatch(username):
                return None
            account_id = username_key(username)
            # The id it was issued with: the account's own, or its random id of before 0005.
            if stored_id != account_id and len(stored_id) != 16:
                return None
            return Identity(account_id, username)
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
