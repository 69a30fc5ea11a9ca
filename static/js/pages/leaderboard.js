// The leaderboard (/leaderboard): the top 50 of each game from GET /api/player/top/50/{game},
// each player linked to their profile. Who is listed is the server's rule (docs/api.md):
// accounts with at least 10 rated games in the game and a rating no longer provisional.

import { api, request } from "../site/api.js";
import { onLanguage, setupChrome } from "../site/chrome.js";
import { html, render } from "../lib/html.js";
import { errorText, t } from "../i18n/i18n.js";
import { diffClass, diffText } from "../players/ratings.js";
import { variantName } from "../lib/variant.js";

const $ = (id) => document.getElementById(id);
const TOP = 50;

const data = { variants: [], boards: {} };

function board(variant) {
  const game = variantName(variant);
  const users = data.boards[variant.id] || [];
  const body = users.length
    ? html`<table class="leaderboard">
        <caption class="visually-hidden">${t("leaderboard.caption", { game })}</caption>
        <thead><tr><th scope="col" class="num">${t("leaderboard.rank")}</th><th scope="col">${t("leaderboard.player")}</th>
          <th scope="col" class="num">${t("leaderboard.rating")}</th><th scope="col" class="num">${t("leaderboard.progress")}</th></tr></thead>
        <tbody>${users.map((user, i) => {
          const perf = user.perfs[variant.id];
          const title = user.title ? html`<span class="bot-title">${user.title}</span> ` : "";
          return html`<tr data-user="${user.id}"><td class="num">${i + 1}</td>
            <td>${title}<a href="/@/${encodeURIComponent(user.username)}">${user.username}</a></td>
            <td class="num" data-rating>${perf.rating}</td>
            <td class="num"><span class="diff ${diffClass(perf.progress)}">${diffText(perf.progress)}</span></td></tr>`;
        })}</tbody>
      </table>`
    : html`<p class="note">${t("leaderboard.empty")}</p>`;
  return html`<section class="panel" aria-labelledby="top-${variant.id}" data-board="${variant.id}">
    <h2 id="top-${variant.id}">${game}</h2>${body}</section>`;
}

function draw() {
  document.title = t("title.leaderboard");
  render($("boards"), html`${data.variants.map(board)}`);
}

async function load() {
  try {
    data.variants = await api.variants();
    const answers = await Promise.all(
      data.variants.map((v) => request(`/api/player/top/${TOP}/${encodeURIComponent(v.id)}`)),
    );
    data.variants.forEach((v, i) => {
      data.boards[v.id] = answers[i].users;
    });
  } catch (err) {
    $("message").textContent = errorText(err);
    $("message").hidden = false;
  }
  draw();
}

setupChrome();
onLanguage(draw);
load();
