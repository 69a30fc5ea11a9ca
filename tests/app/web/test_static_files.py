"""The browser client's files (app/web/assets.py): a page names the files' version in every
address it loads, those answers are kept a year without asking again, any other address of a
file is revalidated, and an edited file is served (under a new version) within a second."""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from urllib.parse import urljoin

import pytest
from fastapi.testclient import TestClient

from app.http.identity import COOKIE
from app.web.assets import IMMUTABLE, ROOT, STATIC, StaticTree
from tests.app.web.test_pages import MODULE_REF, PAGE_REF


@pytest.fixture
def database_url(sqlite_url: str) -> str:
    """Files do not depend on the database: SQLite only (overrides conftest's pair)."""
    return sqlite_url


def loaded_by(client: TestClient, page: str) -> dict[str, bytes]:
    """Every address the served page loads, following its modules' imports as a browser
    resolves them (relative to the module's own address): each one's body."""
    todo = PAGE_REF.findall(client.get(page).text)
    found: dict[str, bytes] = {}
    while todo:
        url = todo.pop()
        if url in found:
            continue
        response = client.get(url)
        assert response.status_code == 200, url
        assert response.headers["cache-control"] == IMMUTABLE, url
        found[url] = response.content
        if url.endswith(".js"):
            todo += [urljoin(url, ref) for ref in MODULE_REF.findall(response.text)]
    return found


@pytest.mark.parametrize("page", ["/", "/game/x", "/rules/jungle", "/account", "/docs"])
def test_every_file_a_page_loads_is_kept_a_year_under_the_current_version(
    client: TestClient, page: str
) -> None:
    version = STATIC.current().version
    loaded = loaded_by(client, page)
    assert loaded, page
    for url, body in loaded.items():
        prefix = f"/static/_{version}/"
        assert url.startswith(prefix), url  # the imports kept the page's version
        assert body == (ROOT / url.removeprefix(prefix)).read_bytes(), url


def test_a_file_asked_again_by_its_etag_is_not_sent_again(client: TestClient) -> None:
    url = f"/static/_{STATIC.current().version}/js/pages/game.js"
    first = client.get(url)
    again = client.get(url, headers={"if-none-match": first.headers["etag"]})
    assert again.status_code == 304
    assert again.content == b""
    assert again.headers["cache-control"] == IMMUTABLE
    changed = client.get(url, headers={"if-none-match": '"another"'})
    assert changed.status_code == 200 and changed.content == first.content


def test_an_address_of_another_version_gets_the_current_file_revalidated(
    client: TestClient,
) -> None:
    """A page loaded before a deploy still gets working files, and keeps none of them."""
    response = client.get("/static/_000000000000/js/pages/game.js")
    assert response.status_code == 200
    assert response.headers["cache-control"] == "no-cache"
    assert response.content == (ROOT / "js/pages/game.js").read_bytes()


def test_head_gives_the_length_and_no_body(client: TestClient) -> None:
    response = client.head(f"/static/_{STATIC.current().version}/css/site.css")
    assert response.status_code == 200
    assert response.content == b""
    assert int(response.headers["content-length"]) == (ROOT / "css/site.css").stat().st_size
    assert response.headers["content-type"] == "text/css; charset=utf-8"


@pytest.mark.parametrize(
    "path",
    [
        "/static/js/nothere.js",
        "/static/_000000000000/js/nothere.js",
        "/static/js",  # a folder
        "/static/%2e%2e/app/main.py",  # outside the folder
        "/static/..%2fapp%2fmain.py",
    ],
)
def test_a_missing_file_is_404_with_the_error_shape(client: TestClient, path: str) -> None:
    response = client.get(path)
    assert response.status_code == 404
    assert response.json()["code"] == "not_found"


def test_only_get_and_head_are_answered(client: TestClient) -> None:
    response = client.post("/static/js/pages/game.js", headers={"origin": str(client.base_url)})
    assert response.status_code == 405
    assert response.headers["allow"] == "GET, HEAD"
    assert response.json()["code"] == "method.not_allowed"


def test_a_file_never_sets_a_cookie(client: TestClient) -> None:
    """A new visitor's identity comes with a page, never with a file a shared cache may
    keep and give to someone else."""
    page = client.get("/")
    assert COOKIE in page.headers.get("set-cookie", "")
    client.cookies.clear()
    for url in (
        "/static/js/pages/game.js",
        f"/static/_{STATIC.current().version}/js/pages/game.js",
    ):
        assert "set-cookie" not in client.get(url).headers, url


class FakeMonotonic:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def make_folder(path: Path) -> Path:
    (path / "js").mkdir(parents=True)
    (path / "js" / "a.js").write_text('import { b } from "./b.js";\n')
    (path / "js" / "b.js").write_text("export const b = 1;\n")
    (path / "page.html").write_text('<script type="module" src="/static/js/a.js"></script>\n')
    return path


def test_the_version_depends_on_the_content_alone(tmp_path: Path) -> None:
    """Two instances deployed apart (other modification times) name the same version, so
    a page from one loads its files from the other at that version."""
    one = make_folder(tmp_path / "one")
    two = tmp_path / "two"
    shutil.copytree(one, two)
    os.utime(two / "js" / "a.js", (1, 1))
    assert StaticTree(one).current().version == StaticTree(two).current().version
    (two / "js" / "b.js").write_text("export const b = 2;\n")
    assert StaticTree(one).current().version != StaticTree(two).current().version


def test_an_edited_file_is_served_under_a_new_version_within_a_second(tmp_path: Path) -> None:
    folder = make_folder(tmp_path)
    clock = FakeMonotonic()
    tree = StaticTree(folder, monotonic=clock)
    before = tree.current()
    assert f'src="/static/_{before.version}/js/a.js"' in before.pages["page.html"].decode()

    (folder / "js" / "b.js").write_text("export const b = 22;\n")
    clock.now += 0.5
    # What a version was computed from is what it serves, even with the disk changed.
    assert tree.current() is before
    assert tree.current().files["js/b.js"].body == b"export const b = 1;\n"

    clock.now += 0.5
    after = tree.current()
    assert after.version != before.version
    assert after.files["js/b.js"].body == b"export const b = 22;\n"
    assert f'src="/static/_{after.version}/js/a.js"' in after.pages["page.html"].decode()
    assert after.files["js/a.js"].etag == before.files["js/a.js"].etag  # a.js is the same


def test_dot_files_are_left_out(tmp_path: Path) -> None:
    folder = make_folder(tmp_path)
    version = StaticTree(folder).current().version
    (folder / "js" / ".b.js.swp").write_text("an editor's")
    (folder / ".cache").mkdir()
    (folder / ".cache" / "x.js").write_text("x")
    snapshot = StaticTree(folder).current()
    assert snapshot.version == version
    assert sorted(snapshot.files) == ["js/a.js", "js/b.js", "page.html"]


def test_a_page_is_its_parts_put_into_the_one_layout(tmp_path: Path) -> None:
    """static/layout.html: its note is not served, each marker line becomes the part's lines
    as they are, the title's marker the title, a missing part nothing, an include line the
    file under include/; a page without parts (docs.html) is served whole, and the layout is
    no page."""
    folder = make_folder(tmp_path)
    (folder / "layout.html").write_text(
        "<!-- A note. -->\n<!doctype html>\n<title><!-- part: title --></title>\n"
        '<link href="/static/site.css">\n  <!-- part: head -->\n<body>\n'
        "  <!-- part: header -->\n  <!-- part: body -->\n</body>\n"
    )
    (folder / "one.html").write_text(
        "<!-- part: title -->\nOne · Kodama\n<!-- part: head -->\n"
        '  <script src="/static/js/a.js"></script>\n<!-- part: body -->\n  <main>\n  </main>\n'
        "  <!-- include: dialog.html -->\n"
    )
    (folder / "include").mkdir()
    (folder / "include" / "dialog.html").write_text("  <dialog></dialog>\n")
    snapshot = StaticTree(folder).current()
    assert sorted(snapshot.pages) == ["one.html", "page.html"]
    assert snapshot.pages["one.html"].decode() == (
        "<!doctype html>\n<title>One · Kodama</title>\n"
        f'<link href="/static/_{snapshot.version}/site.css">\n'
        f'  <script src="/static/_{snapshot.version}/js/a.js"></script>\n<body>\n'
        "  <main>\n  </main>\n  <dialog></dialog>\n</body>\n"
    )
    assert snapshot.pages["page.html"] == (folder / "page.html").read_bytes().replace(
        b"/static/", f"/static/_{snapshot.version}/".encode()
    )
