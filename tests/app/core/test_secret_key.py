"""No insecure secret key. The key signs every player's and account's cookie, so a published
placeholder (an example key anyone can read) or a short key lets anyone forge them; the server
refuses to start with one unless KODAMA_INSECURE_DEV_SECRET is set. The generated key of the
embedded default is random, never a constant.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import httpx
import pytest

from app.core.config import (
    KNOWN_PLACEHOLDER_SECRETS,
    MIN_SECRET_LENGTH,
    InsecureSecretError,
    Settings,
)
from app.games import Identity
from app.http.identity import COOKIE, Identities
from app.main import create_app
from tests.postgres import free_port
from tests.server import ROOT, running

PLACEHOLDER = "change-me-to-a-long-random-secret"  # a published example key
REAL_KEY = "real-3Vn8Qw2Zx7Lk1Jd5Hs9Tb4Rm6Pc0Yf"
PASSWORD = "victim's long password"


def settings(tmp_path: Path, **values: Any) -> Settings:
    return Settings(data_dir=tmp_path, _env_file=None, **values)  # type: ignore[call-arg]


# ---- the rule ---------------------------------------------------------------------------------
def test_the_compose_placeholder_is_a_known_one():
    assert PLACEHOLDER in KNOWN_PLACEHOLDER_SECRETS


@pytest.mark.parametrize("key", [PLACEHOLDER, PLACEHOLDER.upper(), f" {PLACEHOLDER} "])
def test_a_published_placeholder_is_refused(tmp_path: Path, key: str):
    with pytest.raises(InsecureSecretError, match="placeholder"):
        settings(tmp_path, secret_key=key).resolved_secret_key()


def test_a_key_shorter_than_32_characters_is_refused(tmp_path: Path):
    assert MIN_SECRET_LENGTH == 32
    with pytest.raises(InsecureSecretError, match="31 characters"):
        settings(tmp_path, secret_key="abcde" * 6 + "a").resolved_secret_key()
    assert settings(tmp_path, secret_key="abcde" * 6 + "ab").resolved_secret_key() == (
        "abcde" * 6 + "ab"
    )


@pytest.mark.parametrize(
    "key",
    [" " * 40, "short-key" + " " * 30, "short\t\n key " * 3],
    ids=["blank", "padded", "spread"],
)
def test_a_short_key_padded_with_whitespace_is_refused(tmp_path: Path, key: str):
    # Whitespace counts for nothing: the key must have 32 other characters.
    assert len(key) >= MIN_SECRET_LENGTH
    with pytest.raises(InsecureSecretError, match=r"characters \(whitespace aside\)"):
        settings(tmp_path, secret_key=key).resolved_secret_key()


@pytest.mark.parametrize("key", ["k" * 40, "abab" * 10, "0123" * 10])
def test_a_long_key_of_a_few_characters_repeated_is_refused(tmp_path: Path, key: str):
    with pytest.raises(InsecureSecretError, match="different characters"):
        settings(tmp_path, secret_key=key).resolved_secret_key()
    assert settings(tmp_path, secret_key="01234" * 8).resolved_secret_key() == "01234" * 8


def test_the_development_switch_lets_an_insecure_key_through(tmp_path: Path):
    for key in (PLACEHOLDER, "dev"):
        chosen = settings(tmp_path, secret_key=key, insecure_dev_secret=True)
        assert chosen.resolved_secret_key() == key


def test_the_generated_key_is_random_long_and_accepted(tmp_path: Path):
    first = settings(tmp_path / "a").resolved_secret_key()
    second = settings(tmp_path / "b").resolved_secret_key()
    assert first != second
    assert len(first) >= MIN_SECRET_LENGTH and len(second) >= MIN_SECRET_LENGTH


def test_the_generated_key_file_is_private_from_its_creation(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    # Under the usual umask (022) a file written first and restricted afterwards is readable
    # by every local user until the chmod: the key must never be.
    monkeypatch.setattr(Path, "chmod", lambda *_args, **_kwargs: None)
    previous = os.umask(0o022)
    try:
        key = settings(tmp_path).resolved_secret_key()
    finally:
        os.umask(previous)
    path = tmp_path / "secret_key"
    assert path.stat().st_mode & 0o777 == 0o600
    assert path.read_text() == key
    assert [p.name for p in tmp_path.iterdir()] == ["secret_key"]  # no temporary file left


def test_two_starts_at_once_on_a_new_data_dir_keep_one_key(tmp_path: Path):
    # The second finds the key file made between its check and its write: it keeps that key.
    first = settings(tmp_path)
    real_exists = Path.exists
    made: list[str] = []

    def exists_before_the_other_start(path: Path) -> bool:
        if path.name == "secret_key" and not made:
            made.append("")  # the other start sees the real file system
            made[0] = settings(tmp_path).resolved_secret_key()
            return False  # what this start saw just before
        return real_exists(path)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(Path, "exists", exists_before_the_other_start)
        assert first.resolved_secret_key() == made[0]
    assert (tmp_path / "secret_key").read_text() == made[0]


def test_an_app_built_with_an_insecure_key_is_refused_too(tmp_path: Path):
    # `uvicorn app.main:create_app --factory`, bypassing `python -m app serve`.
    with pytest.raises(InsecureSecretError):
        create_app(settings(tmp_path, secret_key=PLACEHOLDER))


# ---- a real server ----------------------------------------------------------------------------
def serve(tmp_path: Path, **env: str) -> subprocess.CompletedProcess[str]:
    """``python -m app serve`` run to its end (it is expected not to start)."""
    environment = {**os.environ, "KODAMA_DATA_DIR": str(tmp_path), **env}
    for name in ("DATABASE_URL", "KODAMA_INSECURE_DEV_SECRET"):
        if name not in env:
            environment.pop(name, None)
    return subprocess.run(
        [sys.executable, "-m", "app", "serve", "--port", str(free_port())],
        cwd=ROOT,
        env=environment,
        capture_output=True,
        check=False,
        text=True,
        timeout=60,
    )


@pytest.mark.parametrize(
    "key",
    [PLACEHOLDER, "short-secret", "short-secret" + " " * 30],
    ids=["placeholder", "short", "padded"],
)
def test_a_server_with_an_insecure_key_refuses_to_start(tmp_path: Path, key: str):
    finished = serve(tmp_path, SECRET_KEY=key)
    assert finished.returncode == 3, finished.stderr
    assert "cannot start" in finished.stderr and "SECRET_KEY" in finished.stderr
    assert "KODAMA_INSECURE_DEV_SECRET" in finished.stderr  # the way out is named
    assert "Uvicorn running" not in finished.stderr
    assert not (tmp_path / "kodama.sqlite3").exists()  # refused before touching anything


def register(base: str, username: str) -> dict[str, Any]:
    response = httpx.post(
        f"{base}/api/account/register", json={"username": username, "password": PASSWORD}
    )
    assert response.status_code == 201, response.text
    created: dict[str, Any] = response.json()
    return created


def as_victim(base: str, cookie: str) -> tuple[httpx.Response, httpx.Response]:
    """With this cookie: read the account's tokens, and mint one."""
    headers = {"cookie": f"{COOKIE}={cookie}", "origin": base}
    read = httpx.get(f"{base}/api/account/tokens", headers=headers)
    mint = httpx.post(
        f"{base}/api/token", json={"description": "stolen", "scopes": []}, headers=headers
    )
    return read, mint


def test_with_the_development_switch_the_placeholder_serves_and_is_forgeable(tmp_path: Path):
    # The attack, where it still works (development only): a cookie signed with the
    # published placeholder reads and mints the victim's tokens.
    with running(tmp_path, PLACEHOLDER, KODAMA_INSECURE_DEV_SECRET="1") as srv:
        victim = register(srv.base, "victim")
        forged = Identities(PLACEHOLDER).account_cookie(victim["id"], "victim")
        read, mint = as_victim(srv.base, forged)
        assert read.status_code == 200, read.text
        assert mint.status_code == 201, mint.text
    assert "KODAMA_INSECURE_DEV_SECRET is on" in srv.log.read_text()


def test_a_cookie_forged_with_the_placeholder_is_refused_by_a_server_with_a_real_key(
    tmp_path: Path,
):
    with running(tmp_path, REAL_KEY) as srv:
        victim = register(srv.base, "victim")
        forged = Identities(PLACEHOLDER).account_cookie(victim["id"], "victim")
        read, mint = as_victim(srv.base, forged)
        assert read.status_code == 401 and read.json()["code"] == "account.required"
        assert mint.status_code == 401 and mint.json()["code"] == "account.required"
        # An anonymous player's forged cookie is not that player either.
        anonymous = httpx.get(f"{srv.base}/api/me").json()
        forged = Identities(PLACEHOLDER).cookie(Identity(anonymous["id"], anonymous["name"]))
        me = httpx.get(f"{srv.base}/api/me", headers={"cookie": f"{COOKIE}={forged}"})
        assert me.json()["id"] != anonymous["id"]
        # The victim's own login still works: the real key signs the real cookies.
        login = httpx.post(
            f"{srv.base}/api/account/login", json={"username": "victim", "password": PASSWORD}
        )
        own = login.cookies[COOKIE]
        read, _ = as_victim(srv.base, own)
        assert read.status_code == 200, read.text
