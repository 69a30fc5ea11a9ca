"""The code's layout rules, checked on the source: modules stay small; a feature's routes,
sockets and pages never import another feature's; app/ has no import cycle; every package of
app/ says what it is; and app/ reads the time and waits only through the injected clock
(app/core/time.py).

Each rule is a function of a source tree, so that each is also checked on a small tree that
breaks it: a guard that cannot fail guards nothing."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
MAX_LINES = 400
# Modules that may pass MAX_LINES, with why. The server and the bots have none; these are the
# rules engine's, each one idea that is verified whole against independent oracles.
LONG_MODULES: dict[str, str] = {
    "engine/core.py": "the engine's one interface: the hooks every game implements, positions, "
    "results and the typed errors, read together by whoever adds a game",
    "engine/games/shogi.py": "one move generator driven by rules records, for both shogi games",
    "engine/games/jungle.py": "one game's rules: its squares, traps, dens, rivers and jumps",
}
# A module whose name starts or ends with one of these is a route module: an entry point of
# its feature (HTTP routes, a WebSocket, pages). What features share lives elsewhere.
ROUTE_MODULE = re.compile(r"^(routes|socket|pages)|(routes|socket|pages)$")
# Where app/ may wait or read the time without the injected clock, and why.
CLOCK_FREE: dict[str, str] = {
    "app/core/time.py": "the clock itself: SystemClock is the one place the real time is read",
    "app/realtime/hub.py": "reconnecting to PostgreSQL: a back-off in real time, as a network "
    "outage lasts in real time (a test's ManualClock would never reconnect)",
    "app/realtime/lease.py": "retrying the advisory lock's connection: a network back-off",
    "app/web/assets.py": "static/ looked at again at most once a second: one tree per process, "
    "shared by every app instance and its clock, paced by the file system, not by games",
}


# ---- the source, as modules and their imports ------------------------------------------------
def modules(root: Path, top: str) -> dict[str, Path]:
    """Dotted module name -> file, for every module under ``root/top``."""
    found: dict[str, Path] = {}
    for path in sorted((root / top).rglob("*.py")):
        parts = list(path.relative_to(root).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


def imports(path: Path, known: dict[str, Path], top: str) -> Iterator[tuple[str, int]]:
    """The modules of ``known`` that ``path`` imports, with the line: absolute imports
    anywhere in it (inside functions and ``if TYPE_CHECKING:`` too)."""
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name in known:
                    yield alias.name, node.lineno
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            if node.module != top and not node.module.startswith(top + "."):
                continue
            for alias in node.names:
                name = f"{node.module}.{alias.name}"  # a submodule, or a name in the module
                target = name if name in known else node.module
                if target in known:
                    yield target, node.lineno


def import_graph(root: Path, top: str = "app") -> dict[str, set[str]]:
    known = modules(root, top)
    return {
        name: {target for target, _ in imports(path, known, top) if target != name}
        for name, path in known.items()
    }


# ---- the rules: each returns what breaks it ---------------------------------------------------
def long_modules(root: Path, tops: tuple[str, ...] = ("app", "engine", "bots")) -> list[str]:
    found = []
    for top in tops:
        for path in sorted((root / top).rglob("*.py")):
            where = path.relative_to(root).as_posix()
            lines = len(path.read_text().splitlines())
            if lines > MAX_LINES and where not in LONG_MODULES:
                found.append(f"{where}: {lines} lines")
    return found


def feature_of(module: str) -> str | None:
    """``app.games.socket`` -> ``games``; None for a module of app/ itself (app.main)."""
    parts = module.split(".")
    return parts[1] if len(parts) > 2 else None


def is_route_module(module: str) -> bool:
    name = module.rpartition(".")[2]
    return feature_of(module) is not None and bool(ROUTE_MODULE.search(name))


def routes_across_features(root: Path) -> list[str]:
    known = modules(root, "app")
    found = []
    for name, path in known.items():
        if not is_route_module(name):
            continue
        for target, line in sorted(set(imports(path, known, "app"))):
            if is_route_module(target) and feature_of(target) != feature_of(name):
                found.append(f"{name} (line {line}) imports {target}")
    return found


def import_cycle(root: Path) -> list[str] | None:
    """One import cycle among the modules of app/ (its modules in order, the first again at
    the end), or None."""
    graph = import_graph(root)
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def visit(module: str) -> list[str] | None:
        state[module] = 1
        path.append(module)
        for target in sorted(graph[module]):
            if state.get(target) == 1:
                return [*path[path.index(target) :], target]
            if target not in state and (cycle := visit(target)) is not None:
                return cycle
        path.pop()
        state[module] = 2
        return None

    for module in sorted(graph):
        if module not in state and (cycle := visit(module)) is not None:
            return cycle
    return None


def package_faults(root: Path) -> list[str]:
    app = root / "app"
    found = [f"app/{gone} exists" for gone in ("services", "api") if (app / gone).exists()]
    for package in sorted(p for p in app.iterdir() if p.is_dir() and any(p.glob("*.py"))):
        init = package / "__init__.py"
        if not init.exists():
            found.append(f"app/{package.name}/ has no __init__.py")
        elif not (ast.get_docstring(ast.parse(init.read_text())) or "").strip():
            found.append(f"app/{package.name}/__init__.py has no docstring saying what it is")
    return found


def _clock_bypass(node: ast.AST) -> str | None:
    """What ``node`` reads or waits on besides the injected clock, if it does."""
    if (
        isinstance(node, ast.Attribute)
        and isinstance(node.value, ast.Name)
        and node.value.id == "time"
        and node.attr in ("time", "monotonic", "time_ns")
    ):
        return f"time.{node.attr}"
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
        func = node.func
        if isinstance(func.value, ast.Name) and func.value.id == "asyncio":
            # asyncio.sleep(0) only lets the loop run others: no time passes.
            zero = [a for a in node.args if isinstance(a, ast.Constant) and a.value == 0]
            if func.attr == "sleep" and not zero:
                return "asyncio.sleep"
    if isinstance(node, ast.ImportFrom) and node.module in ("time", "asyncio"):
        names = {a.name for a in node.names} & {"time", "monotonic", "time_ns", "sleep"}
        if names:
            return f"from {node.module} import {', '.join(sorted(names))}"
    return None


def clock_bypasses(root: Path) -> list[str]:
    found = []
    for path in sorted((root / "app").rglob("*.py")):
        where = path.relative_to(root).as_posix()
        if where in CLOCK_FREE:
            continue
        for node in ast.walk(ast.parse(path.read_text(), where)):
            if (what := _clock_bypass(node)) is not None:
                found.append(f"{where}:{getattr(node, 'lineno', '?')}: {what}")
    return found


# ---- the project keeps them -------------------------------------------------------------------
def test_no_module_is_longer_than_400_lines():
    assert long_modules(ROOT) == []


def test_the_long_module_exceptions_are_still_long():
    for where in LONG_MODULES:
        assert len((ROOT / where).read_text().splitlines()) > MAX_LINES, where


def test_routes_sockets_and_pages_never_import_another_features():
    assert routes_across_features(ROOT) == []


def test_app_has_no_import_cycle():
    cycle = import_cycle(ROOT)
    assert cycle is None, "import cycle: " + " -> ".join(cycle or [])


def test_every_package_of_app_says_what_it_is_and_none_is_a_layer():
    assert package_faults(ROOT) == []


def test_app_reads_the_time_and_waits_only_through_the_injected_clock():
    assert clock_bypasses(ROOT) == []


def test_the_clock_exceptions_still_need_to_be():
    for where in CLOCK_FREE:
        tree = ast.parse((ROOT / where).read_text())
        assert any(_clock_bypass(node) for node in ast.walk(tree)), where


# ---- each rule fails on a tree that breaks it -------------------------------------------------
def _tree(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return root


GOOD = {
    "app/__init__.py": "",
    "app/games/__init__.py": '"""Games."""\n',
    "app/games/routes.py": "from app.games import service\n",
    "app/games/service.py": "import asyncio\n\n\nasync def f():\n    await asyncio.sleep(0)\n",
    "app/lobby/__init__.py": '"""The lobby."""\n',
    "app/lobby/sockets.py": "from app.games.service import f\n",
    "engine/__init__.py": "",
    "bots/__init__.py": "",
}


def test_a_good_tree_breaks_no_rule(tmp_path: Path):
    root = _tree(tmp_path, GOOD)
    assert long_modules(root) == []
    assert routes_across_features(root) == []
    assert import_cycle(root) is None
    assert package_faults(root) == []
    assert clock_bypasses(root) == []


def test_a_long_module_is_found(tmp_path: Path):
    root = _tree(tmp_path, {**GOOD, "app/games/big.py": "x = 1\n" * (MAX_LINES + 1)})
    assert long_modules(root) == [f"app/games/big.py: {MAX_LINES + 1} lines"]


@pytest.mark.parametrize(
    "line",
    ["from app.games import routes", "import app.games.routes", "from app.games.routes import x"],
)
def test_a_socket_importing_another_features_routes_is_found(tmp_path: Path, line: str):
    root = _tree(tmp_path, {**GOOD, "app/lobby/sockets.py": line + "\n"})
    assert routes_across_features(root) == ["app.lobby.sockets (line 1) imports app.games.routes"]


def test_a_cycle_through_a_function_or_type_checking_import_is_found(tmp_path: Path):
    root = _tree(
        tmp_path,
        {
            **GOOD,
            "app/games/service.py": "def f():\n    from app.lobby import seeks\n",
            "app/lobby/seeks.py": "from typing import TYPE_CHECKING\n\nif TYPE_CHECKING:\n"
            "    from app.games.service import f\n",
        },
    )
    assert import_cycle(root) == ["app.games.service", "app.lobby.seeks", "app.games.service"]


@pytest.mark.parametrize(
    ("files", "fault"),
    [
        ({"app/services/__init__.py": '"""x"""\n'}, "app/services exists"),
        ({"app/api/x.py": ""}, "app/api exists"),
        ({"app/chat/service.py": ""}, "app/chat/ has no __init__.py"),
        ({"app/chat/__init__.py": "", "app/chat/service.py": ""}, "app/chat/__init__.py has no"),
    ],
)
def test_a_layer_package_or_a_package_without_docstring_is_found(
    tmp_path: Path, files: dict[str, str], fault: str
):
    faults = package_faults(_tree(tmp_path, {**GOOD, **files}))
    assert any(f.startswith(fault) for f in faults), faults


@pytest.mark.parametrize(
    "code",
    [
        "import time\nx = time.monotonic()\n",
        "import time\nx = time.time()\n",
        "import asyncio\n\n\nasync def f(s):\n    await asyncio.sleep(s)\n",
        "from asyncio import sleep\n",
        "import time\nCLOCK = time.monotonic\n",
    ],
)
def test_a_read_of_the_real_time_is_found(tmp_path: Path, code: str):
    root = _tree(tmp_path, {**GOOD, "app/games/service.py": code})
    assert len(clock_bypasses(root)) == 1
