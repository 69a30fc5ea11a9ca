"""What a stored password costs to hash (KODAMA_ARGON2_*): RFC 9106's low-memory profile
unless set, the app's hasher uses the settings, an impossible setting is refused, and a
server set below the profile says so when it starts."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from argon2 import PasswordHasher, extract_parameters
from pydantic import ValidationError

from app.core.config import Settings
from tests.app.accounts_and_streams import services_of
from tests.server import CHEAP_HASHING, running

SECRET = "password-cost-tests-Vb3kQ9xLm2Tz7RwP5nYc"
WEAKER = "stored passwords are hashed with less than RFC 9106's low-memory profile"


def test_the_default_cost_is_rfc_9106_low_memory() -> None:
    settings = Settings()
    default = PasswordHasher()  # argon2-cffi's default is that profile
    assert (
        (settings.argon2_time_cost, settings.argon2_memory_kib, settings.argon2_parallelism)
        == (
            default.time_cost,
            default.memory_cost,
            default.parallelism,
        )
        == (3, 65_536, 4)
    )
    assert not settings.weaker_password_hashing


def test_the_app_hashes_passwords_at_the_settings_cost(make_client: Any) -> None:
    default = services_of(make_client()).accounts.hasher
    assert (default.time_cost, default.memory_cost, default.parallelism) == (3, 65_536, 4)
    cheap = services_of(
        make_client(argon2_time_cost=1, argon2_memory_kib=16, argon2_parallelism=2)
    ).accounts.hasher
    stored = extract_parameters(cheap.hash("correct horse battery"))
    assert (stored.time_cost, stored.memory_cost, stored.parallelism) == (1, 16, 2)


@pytest.mark.parametrize(
    "setting",
    [
        {"argon2_time_cost": 0},
        {"argon2_memory_kib": 7},
        {"argon2_parallelism": 0},
        {"argon2_memory_kib": 31, "argon2_parallelism": 4},  # argon2: 8 KiB a lane at least
    ],
)
def test_an_impossible_cost_is_refused(setting: dict[str, int]) -> None:
    with pytest.raises(ValidationError, match="argon2"):
        Settings(**setting)  # type: ignore[arg-type]


def test_a_server_below_the_profile_says_so_when_it_starts(tmp_path: Path) -> None:
    (tmp_path / "cheap").mkdir()
    (tmp_path / "default").mkdir()
    with running(tmp_path / "cheap", SECRET) as cheap:  # the tests' servers: the least cost
        assert cheap.env["KODAMA_ARGON2_MEMORY_KIB"] == CHEAP_HASHING["KODAMA_ARGON2_MEMORY_KIB"]
    assert WEAKER in cheap.log.read_text()
    default = {
        "KODAMA_ARGON2_TIME_COST": "3",
        "KODAMA_ARGON2_MEMORY_KIB": "65536",
        "KODAMA_ARGON2_PARALLELISM": "4",
    }
    with running(tmp_path / "default", SECRET, **default) as strong:
        pass
    assert WEAKER not in strong.log.read_text()
