// "My games" (/games): the games of whoever this browser plays as, an anonymous player
// too (GET /api/me/games), newest first, ongoing ones included, each linked to its page.

import { api, requestLines } from "../site/api.js";
import { onLanguage, setupChrome } from "../site/chrome.js";
import { gameList } from "../players/gamelist.js";
import { html, render } from "../lib/html.js";
import { errorText, t } from "../i18n/i18n.js";

const $ = (id) => document.getElementById(id);
const MAX = 100;

const data = { me: null, games: null, variants: [] };

function draw() {
  document.title = t("title.games");
  if (!data.me) return;
  const me = data.me;
  render(
    $("about"),
    html`<p>${t("games.intro", { name: me.name })}</p>${me.username
      ? html`<p><a href="/@/${encodeURIComponent(me.username)}">${t("games.profile")}</a></p>`
      : html`<p class="note">${t("games.anonymous")}</p>`}`,
  );
  if (data.games) render($("list"), gameList(data.games, me.id, data.variants, t("games.heading")));
}

async function load() {
  try {
    [data.me, data.variants] = await Promise.all([api.me(), api.variants()]);
    data.games = await requestLines(`/api/me/games?max=${MAX}`);
  } catch (err) {
    $("message").textContent = t("list.cannotLoad", { error: errorText(err) });
    $("message").hidden = false;
  }
  draw();
}

setupChrome();
onLanguage(draw);
load();
