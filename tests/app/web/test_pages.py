"""The browser pages: served with the right types, every file they load is there, the ES
modules parse, and the two pure modules (escaping, move texts) do what the board relies on."""

from __future__ import annotations

import json
import posixpath
import re
import shutil
import subprocess
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

import engine
from tests.app.conftest import served_page

STATIC = Path(__file__).resolve().parents[3] / "static"
NODE = shutil.which("node")
needs_node = pytest.mark.skipif(NODE is None, reason="node is not installed")

PAGES = {
    "/": "index.html",
    "/game/x": "game.html",
    "/invite/x": "invite.html",
    "/account": "account.html",
    "/challenge/x": "challenge.html",
    "/rules": "rules.html",
    **{f"/rules/{game}": "rules.html" for game in engine.game_ids()},
    "/docs": "docs.html",  # the API's Swagger UI (app/http/docs.py)
    "/leaderboard": "leaderboard.html",
    "/games": "games.html",
    "/analysis": "analysis.html",
    **dict.fromkeys(("/tv", "/tv/dobutsu"), "tv.html"),
    "/tournaments": "tournaments.html",
    **dict.fromkeys(("/training", "/training/daily", "/training/x"), "puzzle.html"),
}
# Pages served only for some addresses or callers (the profile of an account, the page of an
# address that does not exist, the moderators' page): their files are checked with the
# others'; their routes in tests/app/web/test_player_pages.py, test_not_found.py and
# tests/app/moderation/test_actions.py; an arena's page in tests/app/tournaments/test_pages.py,
# a Swiss's in tests/app/tournaments/test_swiss.py.
MORE_PAGES = ["profile.html", "404.html", "mod.html", "tournament.html", "swiss.html"]
TYPES = {".js": "javascript", ".css": "text/css", ".svg": "image/svg+xml"}
# What a page loads: <script src>, <link href>; what a module imports: from "./x.js" or
# "../board/x.js" (relative to the module's own address).
PAGE_REF = re.compile(r"""(?:src|href)="(/static/[^"]+)\"""")
MODULE_REF = re.compile(r"""(?:from|import)\s*["'](\.\.?/[^"']+)["']""")
# Every module, by its path under static/js ("board/board.js").
MODULES = sorted(p.relative_to(STATIC / "js").as_posix() for p in (STATIC / "js").rglob("*.js"))


@pytest.fixture
def database_url(sqlite_url: str) -> str:
    """The pages do not depend on the database: SQLite only (overrides conftest's pair)."""
    return sqlite_url


def referenced_files() -> set[str]:
    """Every /static/ URL the pages load, following the modules' imports."""
    found: set[str] = set()
    names = [*PAGES.values(), *MORE_PAGES, "layout.html"]  # the head every page shares
    todo = [ref for name in names for ref in PAGE_REF.findall(read(STATIC / name))]
    while todo:
        url = todo.pop()
        if url in found:
            continue
        found.add(url)
        if url.endswith(".js"):
            folder = url.rsplit("/", 1)[0]
            path = STATIC / url.removeprefix("/static/")
            todo += [
                posixpath.normpath(f"{folder}/{ref}") for ref in MODULE_REF.findall(read(path))
            ]
    return found


def read(path: Path) -> str:
    return path.read_text(encoding="utf-8")


def test_static_files_are_revalidated_by_their_etag(client: TestClient) -> None:
    """A deploy never leaves old modules running: the browser asks again each time (cheaply,
    by ETag: 304 while the file is the same)."""
    first = client.get("/static/js/pages/game.js")
    assert first.status_code == 200
    assert first.headers["cache-control"] == "no-cache"
    again = client.get("/static/js/pages/game.js", headers={"if-none-match": first.headers["etag"]})
    assert again.status_code == 304
    assert again.headers["cache-control"] == "no-cache"


@pytest.mark.parametrize("url", list(PAGES))
def test_pages_are_served_as_html(client: TestClient, url: str) -> None:
    """The page's file, each /static/ address in it naming the files' current version
    (app/web/assets.py), never kept by the browser without asking."""
    response = client.get(url)
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/html")
    assert response.headers["cache-control"] == "no-cache"
    # Served in the visitor's language (the next test), but the API's reference, in English.
    assert response.headers.get("vary") == (None if url == "/docs" else "Cookie, Accept-Language")
    assert response.text == served_page(PAGES[url])
    assert '<script type="module"' in response.text


# One address per way a page is served: the site's pages, the rules, a feature's router, a
# 404 profile and the 404 page (every page of PAGES varies alike: the test above).
@pytest.mark.parametrize("url", ["/", "/rules/dobutsu", "/tournaments", "/@/nobody", "/no-such"])
def test_a_page_is_served_in_the_language_it_will_be_read_in(client: TestClient, url: str) -> None:
    """``<html lang>`` before any script runs: the language chosen with the switch (its
    cookie), else the browser's first one the site has, else English; the rest of the page is
    the same, and caches are told that it varies with both."""
    headers = {"Accept": "text/html"}  # an unknown address answers the 404 page to a browser

    def served(**more: str) -> tuple[str, str]:
        response = client.get(url, headers={**headers, **more})
        assert response.headers["vary"] == "Cookie, Accept-Language"
        root = re.search(r"<html[^>]*>", response.text)
        assert root is not None
        return root.group(0), response.text.replace(root.group(0), "<html>")

    english, rest = served()
    assert english == '<html lang="en">'
    assert served(**{"Accept-Language": "ja-JP,ja;q=0.9,en;q=0.8"}) == ('<html lang="ja">', rest)
    assert served(**{"Accept-Language": "de-DE, zh;q=0.5"})[0] == '<html lang="zh">'
    assert served(**{"Accept-Language": "de-DE"})[0] == '<html lang="en">'
    client.cookies.set("kodama_lang", "fr")
    try:
        assert served(**{"Accept-Language": "ja"})[0] == '<html lang="fr">'
        client.cookies.set("kodama_lang", "xx")  # not a language of the site: the browser's
        assert served(**{"Accept-Language": "ja"})[0] == '<html lang="ja">'
    finally:
        client.cookies.delete("kodama_lang")


def test_the_api_reference_page_stays_english(client: TestClient) -> None:
    """Swagger UI writes English whatever the visitor reads: its page says so."""
    response = client.get("/docs", headers={"Accept-Language": "ja"})
    assert '<html lang="en">' in response.text


# ---- one head for every page (static/layout.html, composed by app/web/assets.py) -----------
LAYOUT = STATIC / "layout.html"
WHOLE_PAGES = {"docs.html"}  # Swagger UI: neither the site's header nor its stylesheet
PART_LINE = re.compile(r"^<!-- part: ([a-z]+) -->\n", re.MULTILINE)
SLOT = re.compile(r"[ \t]*<!-- part: ([a-z]+) -->\n?")
# What the layout alone holds: a page's file that has any of these repeats the shared head.
SHARED = [
    "<!doctype",
    "<head>",
    "<meta charset",
    'name="viewport"',
    'rel="icon"',
    "css/site.css",
    '<header class="site">',
    'class="site-nav"',
    'data-i18n="nav.rules"',
    "lang-switch",
    "<body>",
]
VOID = {"meta", "link", "input", "br", "img", "hr", "source", "col", "wbr", "area", "base"}


def page_files() -> list[str]:
    return sorted(p.name for p in STATIC.glob("*.html") if p != LAYOUT)


def parts_of(name: str) -> dict[str, str]:
    """The page's parts, each include line replaced by the file it names (include/)."""
    text = re.sub(
        r"^[ \t]*<!-- include: ([a-z0-9-]+\.html) -->\n",
        lambda found: read(STATIC / "include" / found.group(1)),
        read(STATIC / name),
        flags=re.MULTILINE,
    )
    pieces = PART_LINE.split(text)
    return dict(zip(pieces[1::2], pieces[2::2], strict=True))


class Nesting(HTMLParser):
    """Every element closed in the order opened; the count of each tag."""

    def __init__(self) -> None:
        super().__init__()
        self.open: list[str] = []
        self.seen: dict[str, int] = {}

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.seen[tag] = self.seen.get(tag, 0) + 1
        if tag not in VOID:
            self.open.append(tag)

    def handle_endtag(self, tag: str) -> None:
        assert self.open and self.open[-1] == tag, (tag, self.open)
        self.open.pop()


def test_no_page_file_repeats_the_head_every_page_shares() -> None:
    """A page's file holds only its own parts, each one the layout has a place for; the one
    page kept whole is Swagger UI's."""
    slots = set(SLOT.findall(read(LAYOUT)))
    assert slots == {"title", "head", "header", "body"}
    assert [name for name in page_files() if not PART_LINE.search(read(STATIC / name))] == sorted(
        WHOLE_PAGES
    )
    for name in sorted(set(page_files()) - WHOLE_PAGES):
        text = read(STATIC / name)
        assert text.startswith("<!-- part: title -->\n"), name
        assert set(parts_of(name)) <= slots and "body" in parts_of(name), name
        assert [shared for shared in SHARED if shared in text] == [], name


@pytest.mark.parametrize("name", sorted(set(PAGES.values()) - WHOLE_PAGES) + MORE_PAGES)
def test_every_page_is_served_with_the_one_head(client: TestClient, name: str) -> None:
    """The served page is the layout from its doctype, each of its own lines once and in
    order, with the page's parts in their places: one title (the page's), one head, one
    site header, its elements all closed in order."""
    served = re.sub(r"/static/_[0-9a-f]{12}/", "/static/", served_page(name))
    layout = read(LAYOUT)
    fixed = SLOT.split(layout[layout.index("<!doctype html>") :])[::2]
    assert served.startswith(fixed[0]) and served.endswith(fixed[-1])
    at = 0
    for lines in fixed:
        assert served.count(lines) == 1, lines
        at = served.index(lines, at) + len(lines)
    parts = parts_of(name)
    assert f"<title>{parts['title'].strip()}</title>" in served
    assert all(parts[part] in served for part in parts if part != "title")
    nesting = Nesting()
    nesting.feed(served)
    assert nesting.open == []
    for tag in ("html", "head", "title", "body", "header", "nav", "main"):
        assert nesting.seen.get(tag) == 1, (name, tag)


@pytest.mark.parametrize("url", ["/rules/chess", "/rules/Dobutsu", "/rules/dobutsu/x"])
def test_rules_pages_exist_only_for_the_five_games(client: TestClient, url: str) -> None:
    response = client.get(url)
    assert response.status_code == 404
    assert response.json()["code"] == "not_found"


def test_every_file_the_pages_load_is_served_with_its_type(client: TestClient) -> None:
    files = referenced_files()
    assert "/static/js/board/board.js" in files and "/static/css/site.css" in files
    for url in sorted(files):
        response = client.get(url)
        assert response.status_code == 200, url
        assert TYPES[Path(url).suffix] in response.headers["content-type"], url


def test_every_module_is_used_by_a_page() -> None:
    modules = {f"/static/js/{name}" for name in MODULES}
    assert modules <= referenced_files()


@needs_node
@pytest.mark.parametrize("name", MODULES)
def test_module_parses(name: str) -> None:
    # From stdin with --input-type=module: `node --check file.js` may accept broken modules.
    done = subprocess.run(
        [str(NODE), "--input-type=module", "--check"],
        input=read(STATIC / "js" / name),
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr


def run_module(script: str) -> object:
    """Run an ES module snippet that imports from static/js and prints one JSON value."""
    done = subprocess.run(
        [str(NODE), "--input-type=module", "-e", script],
        cwd=STATIC / "js",
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


@needs_node
def test_html_template_escapes_every_value_but_html_results() -> None:
    url = (STATIC / "js" / "lib" / "html.js").as_uri()
    out = run_module(
        f"""import {{ html }} from {json.dumps(url)};
        const name = '<img src=x onerror="alert(1)">&\\'';
        const inner = html`<b>${{name}}</b>`;
        console.log(JSON.stringify([
          String(html`<p title="${{name}}">${{name}}</p>`),
          String(html`<div>${{inner}}${{[name, inner]}}${{null}}${{false}}${{0}}</div>`),
        ]));"""
    )
    escaped = "&lt;img src=x onerror=&quot;alert(1)&quot;&gt;&amp;&#39;"
    assert out == [
        f'<p title="{escaped}">{escaped}</p>',
        f"<div><b>{escaped}</b>{escaped}<b>{escaped}</b>0</div>",
    ]


@needs_node
def test_move_texts_and_positions_are_read_as_the_notation_says() -> None:
    url = (STATIC / "js" / "board" / "position.js").as_uri()
    out = run_module(
        f"""import {{ destsOf, parseMove, parsePosition, moveSquares }} from {json.dumps(url)};
        const shogi = {{ family: "shogi", board: {{ files: 5, ranks: 6 }} }};
        const stones = {{ family: "stones", board: {{ files: 6, ranks: 5 }} }};
        const p = parsePosition(shogi, "sgkgs/5/1+pp2/1PPP1/5/SGK1S s 2Gp -6CMJHfG");
        const s = parsePosition(stones, "S2s2/6/6/6/6 f 11 10 - - 0");
        console.log(JSON.stringify({{
          moves: ["b3b4+", "C*a3", "*c3", "c3c5xd2", "a1a2", "bad"].map(parseMove),
          dests: destsOf(["b1a2", "b1c2", "C*a2", "*f5", "c3c5xd2", "c3c5xe4", "b3b4", "b3b4+"]),
          board: [...p.board.entries()].filter(([sq]) => sq.endsWith("4")),
          hands: p.hands, turn: p.turn, stones: s.hands, a5: s.board.get("a5"),
          last: [moveSquares("c3c5xd2"), moveSquares("G*b2"), moveSquares(undefined)],
        }}));"""
    )
    assert isinstance(out, dict)
    assert out["moves"] == [
        {"origin": "b3", "from": "b3", "to": "b4", "promotion": True, "removed": None},
        {"origin": "C*", "from": None, "to": "a3", "promotion": False, "removed": None},
        {"origin": "*", "from": None, "to": "c3", "promotion": False, "removed": None},
        {"origin": "c3", "from": "c3", "to": "c5", "promotion": False, "removed": "d2"},
        {"origin": "a1", "from": "a1", "to": "a2", "promotion": False, "removed": None},
        None,
    ]
    assert out["dests"] == {
        "b1": ["a2", "c2"],
        "C*": ["a2"],
        "*": ["f5"],
        "c3": ["c5"],
        "b3": ["b4"],
    }
    assert out["board"] == [["b4", "+p"], ["c4", "p"]]
    assert out["hands"] == {
        "first": [{"letter": "G", "count": 2}],
        "second": [{"letter": "P", "count": 1}],
    }
    assert out["turn"] == "second"
    assert out["stones"] == {
        "first": [{"letter": "S", "count": 11}],
        "second": [{"letter": "S", "count": 10}],
    }
    assert out["a5"] == "S"
    assert out["last"] == [["c3", "c5"], ["b2"], []]


# ---- the rules pages' text and diagrams --------------------------------------------------
def rules_data() -> dict[str, Any]:
    url = (STATIC / "js" / "i18n" / "rules-text.js").as_uri()
    out = run_module(
        f"""import {{ POSITIONS, RULES_TEXT }} from {json.dumps(url)};
        const shape = (lang) => Object.fromEntries(Object.entries(RULES_TEXT[lang]).map(
          ([id, g]) => [id, {{
            sections: g.sections.map((s) => ({{ show: s.show || [], body: String(s.body) }})),
            captions: Object.keys(g.captions || {{}}).sort(),
            pieces: Object.keys(g.pieces || {{}}).sort(),
          }}]));
        const out = {{ positions: POSITIONS, en: shape("en"), fr: shape("fr") }};
        console.log(JSON.stringify(out));"""
    )
    assert isinstance(out, dict)
    return out


@needs_node
def test_rules_text_says_the_same_in_both_languages() -> None:
    data = rules_data()
    en, fr, positions = data["en"], data["fr"], data["positions"]
    assert sorted(en) == sorted(fr) == sorted(engine.game_ids())
    for game in engine.game_ids():
        described = engine.get_game(game).describe()
        shown = [s["show"] for s in en[game]["sections"]]
        # The same sections with the same diagrams, in the same order, in both languages.
        assert shown == [s["show"] for s in fr[game]["sections"]], game
        assert all(s["body"].strip() for s in en[game]["sections"] + fr[game]["sections"])
        named = sorted({what for row in shown for what in row} - {"start", "pieces", "ranks"})
        # Every example position is drawn, captioned in both languages and defined once.
        assert en[game]["captions"] == fr[game]["captions"] == named, game
        assert sorted(positions.get(game, {})) == named, game
        if described.get("family") == "shogi":
            letters = sorted(p["letter"] for p in described["pieces"])
            assert en[game]["pieces"] == fr[game]["pieces"] == letters, game


def engine_text(game: str, spec: dict[str, Any], side: str) -> str:
    """A rules diagram's position as the engine's position string."""
    described = engine.get_game(game).describe()
    files, ranks = described["board"]["files"], described["board"]["ranks"]
    pieces: dict[str, str] = spec.get("pieces", {})
    hands: dict[str, dict[str, int]] = spec.get("hands", {})
    rows = []
    for rank in range(ranks, 0, -1):
        row, empty = "", 0
        for file in range(files):
            token = pieces.get(f"{chr(97 + file)}{rank}")
            if token is None:
                empty += 1
                continue
            row += (str(empty) if empty else "") + token
            empty = 0
        rows.append(row + (str(empty) if empty else ""))
    board = "/".join(rows)
    turn = side[0]
    if described.get("family") == "shogi":
        hand = "".join(
            f"{n if n > 1 else ''}{letter if owner == 'first' else letter.lower()}"
            for owner in ("first", "second")
            for letter, n in hands.get(owner, {}).items()
        )
        return f"{board} {turn} {hand or '-'}"
    if game == "jungle":
        return f"{board} {turn} 0 -"
    stones = [hands.get(owner, {}).get("S", 12) for owner in ("first", "second")]
    tail = "- - 0" if game == "yote" else "0"
    return f"{board} {turn} {stones[0]} {stones[1]} {tail}"


MOVE_TEXT = re.compile(r"^(?:([A-Z])\*|(\*)|([a-z]\d+))([a-z]\d+)")


def reachable(rules: Any, pos: Any, origins: list[str]) -> set[str]:
    """The squares legal moves from ``origins`` (squares, `C*`, `*`) reach."""
    reach = set()
    for text in rules.legal_moves(pos):
        m = MOVE_TEXT.match(text)
        assert m, text
        drop, star, origin, to = m.groups()
        if (f"{drop}*" if drop else "*" if star else origin) in origins:
            reach.add(to)
    return reach


@needs_node
def test_rules_diagrams_agree_with_the_engine() -> None:
    """What a diagram marks as reachable is legal, what it crosses out is not, and a
    square it shows in check is in check."""
    checked = 0
    for game, named in rules_data()["positions"].items():
        rules = engine.get_game(game)
        for name, spec in named.items():
            marks: dict[str, list[str]] = spec.get("marks", {})
            for square, marked in marks.items():
                if "check" in marked:
                    owner = "first" if spec["pieces"][square].isupper() else "second"
                    assert rules.in_check(rules.from_text(engine_text(game, spec, owner)))
                    checked += 1
            origins = [sq for sq, m in marks.items() if "selected" in m]
            blocked = {sq for sq, m in marks.items() if "blocked" in m}
            if not origins and blocked:
                origins = ["*"]  # crossed-out squares of a wali placement diagram
            if not origins:
                continue
            token = spec["pieces"].get(origins[0], "S" if origins[0] == "*" else origins[0][0])
            side = "second" if token.islower() else "first"
            reach = reachable(rules, rules.from_text(engine_text(game, spec, side)), origins)
            dests = {sq for sq, m in marks.items() if "dest" in m}
            assert dests <= reach, (game, name, sorted(dests - reach))
            assert not blocked & reach, (game, name, sorted(blocked & reach))
            checked += 1
    assert checked >= 14
