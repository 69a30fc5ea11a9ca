"""nginx in front of real server processes, with the repository's config (deploy/nginx/).

Debian's ``nginx`` package is used, installed with apt when missing (as tests/postgres.py
does for PostgreSQL), under a file lock: helpers and test runs may ask at the same time."""

from __future__ import annotations

import contextlib
import fcntl
import os
import re
import shutil
import subprocess
import time
from pathlib import Path

from tests.postgres import PortTaken, free_port, start_on_a_free_port, wait_for_port

ROOT = Path(__file__).resolve().parents[1]
TEMPLATE = ROOT / "deploy" / "nginx" / "kodama.conf"
NGINX = Path("/usr/sbin/nginx")
INSTALL_LOCK = Path("/tmp/kodama-tests-apt.lock")
UPSTREAM_HEADER = "X-Test-Upstream"
# nginx's words when its port is taken: "bind() to 127.0.0.1:… failed (98: Address already in use)".
NGINX_PORT_IN_USE = "Address already in use"


def ensure_nginx() -> Path:
    """The nginx binary, installing Debian's package if needed (root only)."""
    if NGINX.exists():
        return NGINX
    if os.geteuid() != 0 or shutil.which("apt-get") is None:
        raise RuntimeError("nginx not found and cannot be installed here: apt-get install nginx")
    with INSTALL_LOCK.open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # one apt-get at a time
        if not NGINX.exists():
            env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
            apt = ["apt-get", "-o", "DPkg::Lock::Timeout=300"]
            subprocess.run([*apt, "update", "-q"], check=True, env=env, capture_output=True)
            subprocess.run(
                [*apt, "install", "-y", "-q", "--no-install-recommends", "nginx"],
                check=True,
                env=env,
                capture_output=True,
            )
    if not NGINX.exists():
        raise RuntimeError(f"apt-get installed nginx but {NGINX} is still missing")
    return NGINX


def config(upstreams: list[int], port: int, folder: Path) -> str:
    """A whole nginx.conf running the repository's file, its upstreams these local ports."""
    servers = "".join(f"server 127.0.0.1:{p} max_fails=1 fail_timeout=30s; " for p in upstreams)
    site = TEMPLATE.read_text(encoding="utf-8")
    site, count = re.subn(r"server app:8000;", servers, site)
    assert count == 2, "the template's two upstreams list app:8000"
    site, count = re.subn(r"listen 80;", f"listen 127.0.0.1:{port};", site)
    assert count == 1
    user = "user root;\n" if os.geteuid() == 0 else ""
    temp = "\n".join(
        f"    {kind}_temp_path {folder / kind};" for kind in ("client_body", "proxy", "fastcgi")
    )
    return (
        f"{user}daemon off;\nworker_processes 1;\npid {folder / 'nginx.pid'};\n"
        f"error_log {folder / 'error.log'} info;\nevents {{ worker_connections 1024; }}\n"
        f"http {{\n    access_log {folder / 'access.log'};\n{temp}\n"
        # Which instance answered (for the tests; the repository's file does not say it).
        f"    add_header {UPSTREAM_HEADER} $upstream_addr always;\n"
        f"    uwsgi_temp_path {folder / 'uwsgi'};\n    scgi_temp_path {folder / 'scgi'};\n"
        f"{site}\n}}\n"
    )


class Nginx:
    def __init__(self, upstreams: list[int], folder: Path) -> None:
        self.binary = ensure_nginx()
        self.port = free_port()
        self.upstreams = upstreams
        self.folder = folder
        folder.mkdir(parents=True, exist_ok=True)
        self.conf = folder / "nginx.conf"
        self.conf.write_text(config(upstreams, self.port, folder), encoding="utf-8")
        self.proc: subprocess.Popen[bytes] | None = None

    def check(self) -> None:
        """``nginx -t``: the config is valid."""
        subprocess.run(
            [str(self.binary), "-t", "-q", "-p", str(self.folder), "-c", str(self.conf)],
            check=True,
            capture_output=True,
        )

    def start(self) -> None:
        start_on_a_free_port(self._start_once, self._repick)

    def _repick(self) -> None:
        self.port = free_port()
        self.conf.write_text(config(self.upstreams, self.port, self.folder), encoding="utf-8")

    def _start_once(self) -> None:
        self.check()
        out_path = self.folder / "nginx.out"
        with out_path.open("ab") as out:
            start = out.tell()
            self.proc = subprocess.Popen(
                [str(self.binary), "-p", str(self.folder), "-c", str(self.conf)],
                stdout=out,
                stderr=subprocess.STDOUT,
            )
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                said = out_path.read_bytes()[start:].decode(errors="replace")
                if NGINX_PORT_IN_USE in said:
                    raise PortTaken(self.port)
                raise RuntimeError(f"nginx exited ({self.proc.returncode}):\n{said}")
            with contextlib.suppress(TimeoutError):
                wait_for_port(self.port, timeout=0.5, pid=self.proc.pid)  # its own listener
                return
        raise TimeoutError(f"nginx is not listening on port {self.port} after 30 s")

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()  # SIGTERM: nginx's fast shutdown
            try:
                self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=10)

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"
