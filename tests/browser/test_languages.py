"""Every language of one file (static/js/i18n/lang/, docs/i18n.md), in Chromium: every page at
desktop and phone size has no English left (its text compared with the same page in English,
and with English's dictionary words), no axe-core violation and no text overflowing its box;
a whole game of each of the five games is played in that language; the choice is kept across
pages and visits; the fonts the platform offers draw every character (no missing glyph);
and the site's own tournament, named by the server, reads in the language on every page.
The phone's page sweep is in test_languages_pages.py, the whole games in
test_languages_games.py: each module runs on one worker, and these are the longest.

A language runs here once its file is there (the Chinese file is written beside Japanese)."""

from __future__ import annotations

import json
import re
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.apt import install_once
from tests.browser.test_accessibility import BOTS, SIZES, violations
from tests.server import Server, running

LANG_DIR = Path(__file__).resolve().parents[2] / "static" / "js" / "i18n" / "lang"
LOCALES = {"ja": "ja-JP", "zh": "zh-CN"}
SHIPPED = [lang for lang in LOCALES if (LANG_DIR / f"{lang}.js").exists()]
VARIANTS = ["dobutsu", "gorogoro", "jungle", "yote", "wali"]


def cjk_fonts() -> str:
    """The CJK fonts fontconfig knows (Debian's fonts-noto-cjk, as CI installs it)."""

    def found() -> str | None:
        done = subprocess.run(
            ["fc-list", ":lang=ja", "family"], capture_output=True, text=True, check=False
        )
        return done.stdout.strip() or None

    return install_once("fonts-noto-cjk", found)


@pytest.fixture(scope="module", autouse=True)
def fonts() -> str:
    # Before the module's Chromium starts: it reads the fonts once.
    return cjk_fonts()


# The page's own modules: its scripts are served under the site's version (app/web/assets.py),
# and a module imported from another address would be another instance.
JS = "document.querySelector('script[type=module][src*=\"/js/\"]').src.replace(/js\\/.*$/, 'js/')"


def own(script: str) -> str:
    """``script`` with __I18N__ and __RULES__ standing for the page's own modules."""
    for name, module in (("__I18N__", "i18n/i18n.js"), ("__RULES__", "i18n/rules-text.js")):
        script = script.replace(name, f"(await import({JS} + '{module}'))")
    return script


# ---- what a page shows ------------------------------------------------------------------
# Every visible text node and every visible element's label, title and placeholder; the
# language switch names each language in itself, on purpose.
SHOWN_JS = """() => {
  const visible = (el) => el && el.getClientRects().length > 0
    && getComputedStyle(el).visibility !== 'hidden' && !el.closest('.lang-switch');
  const out = [document.title];
  const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walk.nextNode(); n; n = walk.nextNode()) {
    const text = n.textContent.replace(/\\s+/g, ' ').trim();
    // Code is code (an API's scope names: bot:play), not words.
    const parent = n.parentElement;
    if (!text || !visible(parent) || parent.closest('script, style, noscript, code')) continue;
    out.push(text);
  }
  for (const el of document.querySelectorAll('[aria-label], [title], [placeholder], [alt]')) {
    if (!visible(el)) continue;
    for (const name of ['aria-label', 'title', 'placeholder', 'alt']) {
      const value = (el.getAttribute(name) || '').trim();
      if (value) out.push(value);
    }
  }
  return out;
}"""

# English's own words (4 letters or more) that the language's dictionaries never use.
ENGLISH_WORDS_JS = own(
    """async (lang) => {
  const { DICTIONARIES: d } = __I18N__;
  const words = (dict) => new Set((Object.values(dict).join(' ').toLowerCase()
    .replace(/\\{\\w+\\}/g, ' ').match(/[a-z']{4,}/g)) || []);
  const mine = new Set([...words(d.ui[lang]), ...words(d.game[lang])]);
  return [...new Set([...words(d.ui.en), ...words(d.game.en)])].filter((w) => !mine.has(w));
}"""
)

# Text that does not fit its box: each text node's lines drawn outside the element that holds
# it (spilling, or cut off); a name cut with an ellipsis on purpose excepted. And the page's
# width, and the header's height on a phone.
OVERFLOW_JS = """() => {
  const found = [];
  const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walk.nextNode(); n; n = walk.nextNode()) {
    const el = n.parentElement;
    if (!n.textContent.trim() || !el || el.closest('script, style, noscript')) continue;
    let box = el;  // the nearest box that is not inline: the one the text must fit
    while (box.parentElement && getComputedStyle(box).display === 'inline') box = box.parentElement;
    const style = getComputedStyle(box);
    const outer = box.getBoundingClientRect();
    if (outer.width <= 2 || outer.height <= 2) continue; // for screen readers only
    if (style.textOverflow === 'ellipsis' || style.color === 'rgba(0, 0, 0, 0)') continue;
    if (['auto', 'scroll'].includes(style.overflowX)) continue;
    const range = document.createRange();
    range.selectNodeContents(n);
    for (const r of range.getClientRects()) {
      if (r.width && (r.left < outer.left - 1 || r.right > outer.right + 1)) {
        const text = n.textContent.trim().slice(0, 40);
        found.push(`${box.tagName.toLowerCase()}.${box.className}: ${text}`);
        break;
      }
    }
  }
  const width = document.documentElement.clientWidth;
  const wide = document.documentElement.scrollWidth;
  if (wide > width) found.push(`page ${wide} > ${width}`);
  const header = document.querySelector('header.site');
  if (header && header.getBoundingClientRect().height > 110) found.push('header: 3 rows');
  return found;
}"""


def shown(page: Any) -> list[str]:
    texts: list[str] = page.evaluate(SHOWN_JS)
    return texts


def untranslated(english: list[str], mine: list[str], data: list[str]) -> list[str]:
    """The texts shown alike in English and here that hold a Latin word: English left over,
    unless it is data (a player's name, the site's name)."""
    same = set(english) & set(mine)
    latin = re.compile(r"[A-Za-z]{3,}")
    # An id (a game's, a puzzle's: "uGRgJ", "O75tVZD5") is one token, its case mixed.
    an_id = re.compile(r"^(?=\S*[a-z][A-Z]|\S*\d)[A-Za-z0-9_-]{4,16}$")
    return sorted(
        t for t in same if latin.search(t) and not an_id.match(t) and not any(d in t for d in data)
    )


def english_words(page: Any, lang: str, data: list[str]) -> list[str]:
    """English dictionary words left on the page (the French test's check, for any
    language), each with the text it is in."""
    english = set(page.evaluate(ENGLISH_WORDS_JS, lang))
    found = []
    for text in shown(page):
        rest = text.lower()
        for item in sorted(data, key=len, reverse=True):  # kodama-easy before Kodama
            rest = rest.replace(item.lower(), " ")
        found += [f"{w}: {text}" for w in re.findall(r"[a-z']{4,}", rest) if w in english]
    return sorted(set(found))


def tournament_names(page: Any) -> list[str]:
    names = []
    for path, key in (("/api/tournament", "fullName"), ("/api/swiss", "name")):
        answer = page.request.get(path)
        if answer.ok:
            names += [t[key] for rows in answer.json().values() for t in rows if key in t]
    return names


def ready(page: Any) -> None:
    # The machine is shared: a page's requests may take a while to settle.
    page.wait_for_load_state("networkidle", timeout=30_000)
    page.wait_for_function("() => document.documentElement.lang && document.body.innerText.trim()")


def fake_bots(page: Any) -> None:
    page.route(
        "**/api/bot/online",
        lambda route: route.fulfill(
            content_type="application/x-ndjson",
            body="".join(json.dumps(bot) + "\n" for bot in BOTS),
        ),
    )


def pages_to_visit(server: Server, page: Any, username: str) -> list[str]:
    """Every page of the site, each with something on it."""
    made = page.request.post("/api/games", data={"variant": "jungle", "color": "first"})
    assert made.ok, made.text()
    challenge = httpx.post(
        f"{server.base}/api/challenge/open", json={"variant": "wali"}, timeout=10
    ).json()
    arena = page.request.post(
        "/api/tournament",
        data={
            "name": "こだま杯",
            "variant": "dobutsu",
            "clockTime": 3,
            "clockIncrement": 2,
            "minutes": 60,
            "waitMinutes": 30,
        },
    )
    assert arena.ok, arena.text()
    swiss = page.request.post(
        "/api/swiss/new/kodama",
        data={"name": "こだま杯", "clock": {"limit": 180, "increment": 2}, "nbRounds": 3},
    )
    assert swiss.ok, swiss.text()
    urls = [
        "/",
        "/rules",
        *[f"/rules/{v}" for v in VARIANTS],
        "/account",
        f"/@/{username}",
        "/leaderboard",
        "/games",
        "/tv",
        "/tournaments",
        f"/tournament/{arena.json()['id']}",
        f"/swiss/{swiss.json()['id']}",
        "/analysis",
        f"/game/{made.json()['id']}",
        challenge["url"].removeprefix(server.base),
        "/invite/no-such-invite",
        "/mod",
        "/no-such-page",
    ]
    # Pages being added to the site are visited as soon as the server serves them.
    for extra in ("/training", "/training/daily"):
        if page.request.get(extra).ok:
            urls.append(extra)
    return urls


# The page sweeps are the suite's longest tests (a minute or more each), and a browser
# module runs on one worker: the phone's sweep is in test_languages_pages.py, so that two
# workers share them. Each visits a page once in English and then in every shipped language.
SWEPT_HERE = ["desktop"]


@pytest.mark.parametrize("size", SWEPT_HERE)
def test_every_page_reads_in_every_language_with_nothing_overflowing(
    account, new_context, server: Server, output_dir: Path, size: str
) -> None:
    check_every_page(account, new_context, server, output_dir, size)


def check_every_page(account, new_context, server: Server, output_dir: Path, size: str) -> None:
    """Every page at this size in each shipped language: no English left (compared with the
    English page, read once for all the languages, and with English's words), the language
    set, nothing overflowing, axe-core clean."""
    english, username = account(f"sweep{size[0]}", **{**SIZES[size], "locale": "en-GB"})
    state = english.context.storage_state()

    def pages(**more: Any) -> dict[str, Any]:
        return {
            lang: new_context(**more, **{**SIZES[size], "locale": LOCALES[lang]}).new_page()
            for lang in SHIPPED
        }

    mine = pages(storage_state=state)  # the same account, reading its own language
    anonymous_english = new_context(**{**SIZES[size], "locale": "en-GB"}).new_page()
    anonymous = pages()
    for page in (english, *mine.values()):
        fake_bots(page)
    # Data and names: the player's, the site's, the bots' and their BOT title, an engine's,
    # and the tournaments' (their creators' words; the scheduled ones', the server's setting).
    data = [username, "Kodama", "kodama-easy", "kodama-random", "BOT", "Fairy-Stockfish"]
    data += tournament_names(english)
    problems: dict[str, Any] = {}
    visits = [(url, english, mine) for url in pages_to_visit(server, english, username)]
    visits.append(("/account", anonymous_english, anonymous))
    for url, there, readers in visits:
        there.goto(url)
        ready(there)
        english_texts = shown(there)
        for lang, here in readers.items():
            here.goto(url)
            ready(here)
            name = f"{lang} {url} ({'anonymous' if readers is anonymous else username})"
            found = {
                "lang": here.evaluate("() => document.documentElement.lang"),
                "untranslated": untranslated(english_texts, shown(here), data),
                "english words": english_words(here, lang, data),
                "overflow": here.evaluate(OVERFLOW_JS),
                "axe": violations(here),
            }
            if found["lang"] == lang:
                del found["lang"]
            found = {key: value for key, value in found.items() if value}
            if found:
                problems[name] = found
            slug = re.sub(r"[^a-z0-9]+", "-", url.lower()).strip("-") or "lobby"
            here.screenshot(path=output_dir / f"lang-{lang}-{size}-{slug}.png", full_page=True)
    assert problems == {}, json.dumps(problems, ensure_ascii=False, indent=1)


# ---- the choice, kept -------------------------------------------------------------------
@pytest.mark.parametrize("lang", SHIPPED)
def test_the_browsers_language_on_a_first_visit_then_the_switch_kept(
    new_context, server: Server, lang: str
) -> None:
    # First visit: the browser's languages choose.
    first = new_context(locale=LOCALES[lang]).new_page()
    first.goto("/")
    first.wait_for_function(f"() => document.documentElement.lang === '{lang}'")
    # A browser in English: the switch, on a phone too, then every page and the next visit.
    context = new_context(locale="en-GB", **SIZES["phone"])
    page = context.new_page()
    page.goto("/rules")
    page.wait_for_function("() => document.documentElement.lang === 'en'")
    button = page.locator(f'header.site .lang-switch [data-lang="{lang}"]')
    assert button.is_visible() and button.get_attribute("aria-label") == page.evaluate(
        own(f"async () => __I18N__.LANG_NAMES['{lang}']")
    )
    button.tap()
    page.wait_for_function(f"() => document.documentElement.lang === '{lang}'")
    assert button.get_attribute("aria-pressed") == "true"
    for url in ("/", "/leaderboard", "/rules/jungle", "/account"):
        page.goto(url)
        page.wait_for_function(f"() => document.documentElement.lang === '{lang}'")
    later = context.new_page()  # another visit, same browser
    later.goto("/tournaments")
    later.wait_for_function(f"() => document.documentElement.lang === '{lang}'")
    # The server is told too (the e-mails): the cookie.
    cookies = {c["name"]: c["value"] for c in context.cookies(server.base)}
    assert cookies.get("kodama_lang") == lang


# ---- the pages' own dictionaries and the fonts ---------------------------------------------
PAGE_WORDS_JS = own(
    """async (lang) => {
  const { PAGE_WORDS } = __I18N__;
  const shape = (v) => typeof v === 'object' ? Object.keys(v).sort().join() : typeof v;
  const wrong = [];
  for (const [name, words] of Object.entries(PAGE_WORDS)) {
    const en = words.en, mine = words[lang] || {};
    for (const key of new Set([...Object.keys(en), ...Object.keys(mine)])) {
      if (!(key in mine) || !(key in en) || shape(en[key]) !== shape(mine[key])) {
        wrong.push(`${name}.${key}`);
      }
    }
  }
  return { names: Object.keys(PAGE_WORDS), wrong };
}"""
)

# Each character drawn in the page's font, compared with a character no font has: the same
# picture (or nothing drawn) is a missing glyph.
GLYPHS_JS = own(
    """async (lang) => {
  const { DICTIONARIES: d, PAGE_WORDS } = __I18N__;
  const { RULES_TEXT } = __RULES__;
  const texts = [...Object.values(d.ui[lang]), ...Object.values(d.game[lang])];
  for (const game of Object.values(RULES_TEXT[lang])) {
    texts.push(String(game.intro), ...Object.values(game.captions || {}),
      ...Object.values(game.pieces || {}));
    for (const s of game.sections) texts.push(s.title, String(s.body));
  }
  for (const words of Object.values(PAGE_WORDS)) {
    for (const v of Object.values(words[lang] || {})) texts.push(typeof v === 'string' ? v : '');
  }
  const chars = [...new Set([...texts.join('').replace(/<[^>]*>/g, '')])]
    .filter((c) => c.codePointAt(0) > 0x7f && c.trim());
  const canvas = document.createElement('canvas');
  canvas.width = canvas.height = 48;
  const ctx = canvas.getContext('2d');
  ctx.font = `32px ${getComputedStyle(document.body).fontFamily}`;
  const draw = (c) => {
    ctx.clearRect(0, 0, 48, 48);
    ctx.fillText(c, 4, 38);
    return ctx.getImageData(0, 0, 48, 48).data.join('');
  };
  const none = draw('\\u{10FFFD}');
  const blank = draw(' ');
  return { count: chars.length, missing: chars.filter((c) => [none, blank].includes(draw(c))) };
}"""
)


@pytest.mark.parametrize("lang", SHIPPED)
def test_every_character_has_a_glyph_and_every_page_word_a_translation(
    account, server: Server, lang: str
) -> None:
    page, _ = account(f"{lang}g", locale=LOCALES[lang])
    page.goto("/account")  # account.js, accountcontrol.js and the challenge notice
    ready(page)
    on_account = page.evaluate(PAGE_WORDS_JS, lang)
    challenge = httpx.post(
        f"{server.base}/api/challenge/open", json={"variant": "yote"}, timeout=10
    ).json()
    page.goto(challenge["url"])  # challenge.js
    ready(page)
    on_challenge = page.evaluate(PAGE_WORDS_JS, lang)
    names = {*on_account["names"], *on_challenge["names"]}
    assert names == {"account", "accountControl", "challenge", "challengeNotice"}
    assert on_account["wrong"] == on_challenge["wrong"] == []
    glyphs = page.evaluate(GLYPHS_JS, lang)
    assert glyphs["count"] > 500  # the language's own script, not a few symbols
    assert glyphs["missing"] == []


# The site's own hourly arena of Gorogoro shōgi, named by the server (no "name"): the only
# tournament of this server, so the lobby's line shows it.
HOURLY_GOROGORO = {"every": "hourly", "at": ":00", "variant": "gorogoro", "clock": "3+2",
                   "minutes": 57}  # fmt: skip
GAME_NAMES = {"ja": "ごろごろどうぶつしょうぎ", "zh": "咕噜咕噜动物将棋"}


@pytest.fixture(scope="module")
def scheduled_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with running(
        tmp_path_factory.mktemp("scheduled"),
        "scheduled-names-Qm4Xv8Tz2Lp6Rw9Kc3Nd7Hf",
        KODAMA_TOURNAMENT_SCHEDULE=json.dumps([HOURLY_GOROGORO]),
    ) as srv:
        yield srv


@pytest.mark.parametrize("lang", SHIPPED)
def test_the_sites_tournament_is_named_in_the_language(
    scheduled_server: Server, browser: Any, lang: str
) -> None:
    # The server first: its database is made (asyncio.run) before Chromium's loop runs.
    context = browser.new_context(base_url=scheduled_server.base, locale=LOCALES[lang])
    try:
        context.set_default_timeout(10_000)
        page = context.new_page()
        page.goto("/")
        line = page.locator("#next-tournament [data-next-tournament]")
        line.wait_for()
        page.wait_for_function(f"() => document.documentElement.lang === '{lang}'")
        text = line.inner_text()
        assert GAME_NAMES[lang] in text and not re.search(r"[A-Za-z]", text), text
        # The arena's own page and the list say it alike.
        name = text.split("：", 1)[1].rsplit("、" if lang == "ja" else "，", 1)[0]
        page.goto("/tournaments")
        page.locator(f"[data-tournament] a:text-is('{name}')").first.wait_for()
        line_link = page.locator("[data-tournament] a").first
        line_link.click()
        page.wait_for_function(
            "(name) => document.getElementById('name')?.textContent === name", arg=name
        )
    finally:
        context.close()
