"""Dockerfile and docker-compose.yml: no Docker engine runs here, so they are read as text and
checked against the project (the README's install command, the app's command line and
settings, the routes the health check calls)."""

from __future__ import annotations

import json
import re
import secrets
import shlex
from pathlib import Path
from typing import Any

import pytest
import yaml
from pydantic import AliasChoices
from sqlalchemy.engine import make_url

from app.core.config import KNOWN_PLACEHOLDER_SECRETS, Settings
from app.games.routes import router as games_router

ROOT = Path(__file__).resolve().parent.parent
# What `pip install -e .` needs, and what the app reads beside its package at run time.
NEEDED = ("pyproject.toml", "README.md", "engine", "app", "bots", "migrations", "static")
NGINX_CONF = ROOT / "deploy" / "nginx" / "kodama.conf"


def nginx_block(head: str) -> str:
    """The body of the block ``head { ... }`` of the nginx config (no nested blocks)."""
    text = NGINX_CONF.read_text(encoding="utf-8")
    match = re.search(re.escape(head) + r"\s*\{([^}]*)\}", text)
    assert match is not None, f"no {head!r} block in {NGINX_CONF}"
    return match.group(1)


def dockerfile() -> list[tuple[str, str]]:
    """(INSTRUCTION, arguments) per instruction, continuation lines joined."""
    instructions: list[tuple[str, str]] = []
    pending = ""
    for raw in (ROOT / "Dockerfile").read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if not pending and (not line or line.startswith("#")):
            continue
        if line.endswith("\\"):
            pending += line[:-1] + " "
            continue
        line = pending + line
        pending = ""
        keyword, _, args = line.partition(" ")
        instructions.append((keyword.upper(), args.strip()))
    assert not pending, "the Dockerfile ends inside a continued line"
    return instructions


def args_of(name: str) -> list[str]:
    return [args for keyword, args in dockerfile() if keyword == name]


def exec_form(text: str) -> list[str]:
    words = json.loads(text)
    assert isinstance(words, list) and all(isinstance(w, str) for w in words), text
    return words


def compose() -> dict[str, Any]:
    data = yaml.safe_load((ROOT / "docker-compose.yml").read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return data


def environment(service: dict[str, Any]) -> dict[str, str]:
    env = service.get("environment") or {}
    if isinstance(env, list):
        env = dict(item.split("=", 1) for item in env)
    return {str(k): str(v) for k, v in env.items()}


def interpolated(value: str, host: dict[str, str] | None = None) -> str:
    """Compose's interpolation with the host's variables ``host``: ${NAME:-default} /
    ${NAME-default} is the host's value or the default; ${NAME:?message} / ${NAME?message}
    the host's value, and compose refuses to start without it (here: ``ComposeRefuses``)."""
    host = host or {}

    def one(match: re.Match[str]) -> str:
        name, operator, word = match.group(1), match.group(2), match.group(3)
        if host.get(name):
            return host[name]
        if operator.endswith("?"):
            raise ComposeRefuses(f"{name}: {word}")
        return word

    return re.sub(r"\$\{([A-Za-z_][A-Za-z0-9_]*)(:?[-?])([^}]*)\}", one, value)


class ComposeRefuses(Exception):
    """A required variable (${NAME:?message}) is not set on the host."""


def readme_install_args() -> list[str]:
    """The arguments of the pip install in the README's command that starts the server."""
    for line in (ROOT / "README.md").read_text(encoding="utf-8").splitlines():
        if "app serve" in line and "pip install" in line:
            command = line.split("pip install", 1)[1].split("&&", 1)[0]
            return shlex.split(command)
    raise AssertionError("no 'pip install ... && ... app serve' line in the README")


def settings_env_names() -> set[str]:
    """Every environment variable Settings reads (names are case-insensitive)."""
    prefix = str(Settings.model_config.get("env_prefix", ""))
    names: set[str] = set()
    for name, info in Settings.model_fields.items():
        alias = info.validation_alias
        if isinstance(alias, AliasChoices):
            names.update(str(choice).upper() for choice in alias.choices)
        elif isinstance(alias, str):
            names.add(alias.upper())
        else:
            names.add(f"{prefix}{name}".upper())
    return names


# ---- Dockerfile ---------------------------------------------------------------------------
def test_dockerfile_builds_from_python_311_slim() -> None:
    first_keyword, first_args = dockerfile()[0]
    assert first_keyword == "FROM"
    assert first_args.split()[0] == "python:3.11-slim"


def test_dockerfile_installs_the_package_as_the_readme_does() -> None:
    expected = readme_install_args()
    assert "-e" in expected and "." in expected and not any("dev" in a for a in expected)
    installs = [
        shlex.split(a.split("pip install", 1)[1]) for a in args_of("RUN") if "pip install" in a
    ]
    assert len(installs) == 1, installs
    assert installs[0][: len(expected)] == expected


def test_dockerfile_copies_what_the_package_needs_before_installing() -> None:
    copied: set[str] = set()
    for keyword, args in dockerfile():
        if keyword == "COPY":
            sources = [w for w in shlex.split(args) if not w.startswith("--")][:-1]
            copied.update(s.rstrip("/") for s in sources)
        if keyword == "RUN" and "pip install" in args:
            break
    assert "." in copied or set(NEEDED) <= copied, sorted(set(NEEDED) - copied)
    for path in NEEDED:
        assert (ROOT / path).exists(), path


def test_dockerignore_keeps_what_the_image_needs() -> None:
    ignored = {
        line.strip().rstrip("/")
        for line in (ROOT / ".dockerignore").read_text(encoding="utf-8").splitlines()
        if line.strip() and not line.startswith("#")
    }
    assert {".git", ".venv", ".env"} <= ignored
    assert not ignored & set(NEEDED)


def test_dockerfile_runs_the_server_as_a_non_root_user() -> None:
    keywords = [k for k, _ in dockerfile()]
    users = args_of("USER")
    assert users and users[-1].split(":")[0] not in ("root", "0")
    assert keywords.index("USER") < keywords.index("CMD")


def test_dockerfile_serves_on_the_exposed_port() -> None:
    (cmd,) = args_of("CMD")
    words = exec_form(cmd)
    assert words[:4] == ["python", "-m", "app", "serve"]
    assert words[words.index("--host") + 1] == "0.0.0.0"
    port = words[words.index("--port") + 1]
    assert args_of("EXPOSE") == [port]


def test_the_healthcheck_calls_an_existing_route_on_the_served_port() -> None:
    (check,) = args_of("HEALTHCHECK")
    options, _, command = check.partition("CMD ")
    assert "--interval" in options
    words = exec_form(command)
    assert words[:2] == ["python", "-c"]  # no curl in the slim image
    url = re.search(r"http://[^'\"]+", words[2])
    assert url is not None
    port = exec_form(args_of("CMD")[0])[-1]
    assert url.group(0) == f"http://127.0.0.1:{port}/api/me"
    assert "/api/me" in {getattr(route, "path", None) for route in games_router.routes}


# ---- docker-compose.yml -------------------------------------------------------------------
def test_compose_has_postgres_15_with_a_volume_and_a_healthcheck() -> None:
    data = compose()
    db = data["services"]["db"]
    assert str(db["image"]).startswith("postgres:15")
    volume = db["volumes"][0].split(":")
    assert volume[1] == "/var/lib/postgresql/data"
    assert volume[0] in (data.get("volumes") or {})
    test = " ".join(db["healthcheck"]["test"])
    user = environment(db)["POSTGRES_USER"]
    assert "pg_isready" in test and f"-U {user}" in test


def test_compose_app_is_this_image_started_after_the_database_is_healthy() -> None:
    app = compose()["services"]["app"]
    build = app["build"]
    assert (build if isinstance(build, str) else build["context"]) == "."
    assert app["depends_on"]["db"]["condition"] == "service_healthy"
    assert "command" not in app  # the image's CMD: serve, which migrates first


def test_compose_app_can_be_scaled_behind_the_proxy() -> None:
    app = compose()["services"]["app"]
    (exposed,) = args_of("EXPOSE")
    # `docker compose up --scale app=3`: no fixed host port nor name to clash.
    assert "ports" not in app and "container_name" not in app
    assert [str(p) for p in app["expose"]] == [exposed]


def test_compose_proxy_publishes_the_port_and_runs_the_repositorys_nginx_config() -> None:
    proxy = compose()["services"]["proxy"]
    assert str(proxy["image"]).startswith("nginx")
    assert "8000:80" in [str(p) for p in proxy["ports"]]
    source, target, *_ = proxy["volumes"][0].split(":")
    assert (ROOT / source).resolve() == NGINX_CONF
    assert target.startswith("/etc/nginx/conf.d/")
    (exposed,) = args_of("EXPOSE")
    for upstream in ("kodama", "kodama_games"):
        assert re.findall(r"server\s+([^;\s]+)", nginx_block(f"upstream {upstream}")) == [
            f"app:{exposed}"
        ]


def test_the_app_trusts_forwarded_headers_from_the_proxy_only() -> None:
    data = compose()
    env = environment(data["services"]["app"])
    proxy_address = data["services"]["proxy"]["networks"]["kodama"]["ipv4_address"]
    assert env["FORWARDED_ALLOW_IPS"] == proxy_address  # never "*"
    conf = NGINX_CONF.read_text(encoding="utf-8")
    # What app/http/origin.py reads: the Host and scheme of the site, and the hop nginx adds
    # (uvicorn's rule: the last address not a trusted proxy's).
    assert "proxy_set_header Host $http_host;" in conf
    assert "proxy_set_header X-Forwarded-Proto $scheme;" in conf
    assert "proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;" in conf


def test_nginx_routes_a_games_socket_and_streams_by_a_hash_of_its_id() -> None:
    assert "hash $game_id consistent;" in nginx_block("upstream kodama_games")
    conf = NGINX_CONF.read_text(encoding="utf-8")
    hashed = {
        pattern: body
        for pattern, body in re.findall(r"location ~ (\S+) \{([^}]*)\}", conf)
        if "kodama_games" in body
    }
    for prefix in ("/ws/game/", "/api/bot/game/stream/", "/api/board/game/stream/"):
        path = prefix + "Ab3_x-9Z"
        (pattern,) = [p for p in hashed if re.fullmatch(p.replace("?<", "?P<"), path)]
        match = re.fullmatch(pattern.replace("?<", "?P<"), path)
        assert match is not None and match["game_id"] == "Ab3_x-9Z"
        assert "proxy_read_timeout 1h;" in hashed[pattern]  # streams and sockets stay open
    assert not any(re.fullmatch(p.replace("?<", "?P<"), "/api/games") for p in hashed)
    # WebSockets pass through, NDJSON lines are not held back.
    assert "proxy_set_header Upgrade $http_upgrade;" in conf
    assert "proxy_set_header Connection $connection_upgrade;" in conf
    assert "proxy_buffering off;" in conf


def test_nginx_lets_through_every_body_the_app_accepts() -> None:
    (limit,) = re.findall(r"client_max_body_size (\d+)k;", NGINX_CONF.read_text())
    assert int(limit) * 1024 > Settings().max_body_bytes


def test_compose_sets_only_variables_the_settings_read() -> None:
    env = environment(compose()["services"]["app"])
    unknown = {name for name in env if name.upper() not in settings_env_names()}
    assert not unknown, f"Settings does not read {sorted(unknown)}"


def test_compose_database_url_is_asyncpg_on_the_db_service() -> None:
    data = compose()
    db = environment(data["services"]["db"])
    url = make_url(environment(data["services"]["app"])["DATABASE_URL"])
    assert url.drivername == "postgresql+asyncpg"
    assert (url.username, url.password, url.database) == (
        db["POSTGRES_USER"],
        db["POSTGRES_PASSWORD"],
        db["POSTGRES_DB"],
    )
    assert url.host == "db" and url.port in (None, 5432)


def test_compose_environment_is_valid_for_the_settings(monkeypatch: pytest.MonkeyPatch) -> None:
    env = environment(compose()["services"]["app"])
    host = {"SECRET_KEY": secrets.token_urlsafe(32)}  # what the deployer sets
    for name in settings_env_names():
        monkeypatch.delenv(name, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, interpolated(value, host))
    settings = Settings(_env_file=None)  # type: ignore[call-arg]
    assert settings.database_url == env["DATABASE_URL"]
    assert not settings.is_sqlite
    assert settings.secret_key == host["SECRET_KEY"]
    assert settings.resolved_secret_key() == host["SECRET_KEY"]  # the server accepts it
    assert settings.notify in ("auto", "on")  # events cross instances by LISTEN/NOTIFY


def test_compose_refuses_to_start_without_a_secret_key_and_ships_none() -> None:
    env = environment(compose()["services"]["app"])
    assert re.fullmatch(r"\$\{SECRET_KEY:\?[^}]+\}", env["SECRET_KEY"]), env["SECRET_KEY"]
    with pytest.raises(ComposeRefuses, match="SECRET_KEY"):
        interpolated(env["SECRET_KEY"])
    # No example key anywhere in the file that someone could leave in place.
    text = (ROOT / "docker-compose.yml").read_text(encoding="utf-8")
    assert not any(key in text for key in KNOWN_PLACEHOLDER_SECRETS)
