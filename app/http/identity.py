"""Players' identity: a signed cookie holding a random player id, given on the first visit.

Playing needs no sign-up: the cookie is the identity (itsdangerous signs it, so nobody can
take another player's seat by editing it). Logging in to an account replaces it with one
holding the account's player id and username: ``[id, username]`` instead of ``id``, so that
every request knows the display name without a database read. A third element, when not 0,
is the account's session generation (app/accounts/sessions.py): a cookie of an older
generation is a session that has ended.

An account's player id is its lower-cased username (migration 0005; before it, a random id
like an anonymous player's). The id is therefore derived from the signed username: a cookie
issued before the migration, ``[old random id, username]``, still means that account.
"""

from __future__ import annotations

import secrets
from typing import TYPE_CHECKING

from itsdangerous import BadSignature, URLSafeSerializer

from app.accounts.service import USERNAME, username_key
from app.domain.players import Identity

if TYPE_CHECKING:
    from app.accounts.sessions import SessionGens

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
        """The cookie's identity, its session not checked (``read_checked`` does)."""
        found = self.read_session(cookie)
        return None if found is None else found[0]

    async def read_checked(self, cookie: str | None, gens: SessionGens) -> Identity | None:
        """The cookie's identity; None for an account's session that has ended."""
        found = self.read_session(cookie)
        if found is None:
            return None
        who, gen = found
        if gen is not None and not await gens.current(who.id, gen):
            return None
        return who

    def read_session(self, cookie: str | None) -> tuple[Identity, int | None] | None:
        """The cookie's identity and, for an account, its session generation."""
        if not cookie:
            return None
        try:
            player_id = self._signer.loads(cookie)
        except BadSignature:
            return None
        if isinstance(player_id, list) and len(player_id) in (2, 3):
            stored_id, username, *rest = player_id
            gen = rest[0] if rest else 0
            if not (
                isinstance(stored_id, str)
                and isinstance(username, str)
                and USERNAME.fullmatch(username)
                and type(gen) is int
            ):
                return None
            account_id = username_key(username)
            # The id it was issued with: the account's own, or its random id of before 0005.
            if stored_id != account_id and len(stored_id) != 16:
                return None
            return Identity(account_id, username), gen
        if not isinstance(player_id, str) or len(player_id) != 16:
            return None
        return Identity(player_id, display_name(player_id)), None

    def cookie(self, who: Identity) -> str:
        return str(self._signer.dumps(who.id))

    def account_cookie(self, player_id: str, username: str, gen: int = 0) -> str:
        """The cookie of a browser logged in to this account, in session generation ``gen``."""
        return str(self._signer.dumps([player_id, username, gen] if gen else [player_id, username]))


def display_name(player_id: str) -> str:
    return f"Anonymous {player_id[:4].upper()}"
