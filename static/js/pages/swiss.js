// A Swiss's page (/swiss/{id}): its terms, the round and the time to the next one, join /
// withdraw (and end, for its creator), the player's own game, the standings with their
// tiebreaks, every round's pairings and byes, and the TRF export. GET /api/swiss/{id} is
// read every REFRESH_MS; the countdown ticks every second between reads.

import { api, request } from "../site/api.js";
import { onLanguage, setupChrome } from "../site/chrome.js";
import { html, renderChanged } from "../lib/html.js";
import { errorText, t } from "../i18n/i18n.js";
import { variantName } from "../lib/variant.js";
import { tournamentName } from "../lib/tournament-name.js";
import { countdown } from "./tournament-time.js";

const $ = (id) => document.getElementById(id);
const REFRESH_MS = 2000;
const id = decodeURIComponent(location.pathname.split("/").pop());
const data = { swiss: null, variants: [], readAt: 0, me: null };

function showError(err) {
  $("message").textContent = errorText(err);
  $("message").hidden = false;
}

function tick() {
  const s = data.swiss;
  if (!s) return;
  const left = s.nextRound ? countdown(s.nextRound.in - (Date.now() - data.readAt) / 1000) : null;
  const counts = { round: s.round, rounds: s.nbRounds };
  $("status").textContent =
    s.status === "finished"
      ? t("swiss.over")
      : s.round === 0
        ? t("swiss.startsIn", { time: left || "…" })
        : left
          ? t("swiss.nextIn", { ...counts, time: left })
          : t("swiss.round", counts);
}

async function act(action) {
  // A private Swiss asks its password to join.
  const password = action === "join" && data.swiss.private ? prompt(t("arena.password")) : null;
  if (action === "join" && data.swiss.private && password === null) return;
  try {
    const body = password ? { password } : {};
    await request(`/api/swiss/${encodeURIComponent(id)}/${action}`, { method: "POST", body });
    $("message").hidden = true;
    await refresh();
  } catch (err) {
    showError(err);
  }
}

function actions() {
  const s = data.swiss;
  if (s.status === "finished" || !data.me) return html``;
  const buttons = [];
  if (!s.me || s.me.withdrawn) buttons.push(html`<button type="button" data-action="join">${t("swiss.join")}</button>`);
  else buttons.push(html`<button type="button" data-action="withdraw">${t("swiss.withdraw")}</button>`);
  if (data.me.id === s.createdBy) buttons.push(html`<button type="button" data-action="terminate">${t("swiss.terminate")}</button>`);
  return html`${buttons}`;
}

function mine() {
  const me = data.swiss.me;
  if (!me) return html``;
  if (me.gameId) {
    return html`<p class="arena-current"><a href="/game/${encodeURIComponent(me.gameId)}" data-my-game>${t("swiss.yourGame")}</a></p>`;
  }
  return me.withdrawn ? html`<p class="note">${t("swiss.withdrawn")}</p>` : html``;
}

function standings(rows) {
  return html`<table class="leaderboard"><thead><tr><th scope="col" class="num">${t("swiss.rank")}</th>
    <th scope="col">${t("swiss.player")}</th><th scope="col" class="num">${t("swiss.points")}</th>
    <th scope="col" class="num">${t("swiss.tieBreak")}</th><th scope="col" class="num">${t("swiss.buchholz")}</th></tr></thead>
    <tbody>${rows.map(
      (r) => html`<tr data-player="${r.username}"><td class="num">${r.rank}</td>
        <td><a href="/@/${encodeURIComponent(r.username)}">${r.username}</a> <span class="note">${r.rating}</span></td>
        <td class="num" data-points>${r.points}</td><td class="num">${r.tieBreak}</td><td class="num">${r.buchholz}</td></tr>`,
    )}</tbody></table>`;
}

function result(p) {
  if (p.status === "started") return "*";
  if (p.status === "void") return "–";
  return p.winner === "first" ? "1–0" : p.winner === "second" ? "0–1" : "½–½";
}

function rounds(pairings) {
  if (!pairings.length) return html`<p class="note">${t("swiss.none")}</p>`;
  const numbers = [...new Set(pairings.map((p) => p.round))].reverse();
  return html`${numbers.map(
    (n) => html`<h3>${t("swiss.round", { round: n, rounds: data.swiss.nbRounds })}</h3><ol class="arena-duels">${pairings
      .filter((p) => p.round === n)
      .map((p) =>
        p.board
          ? html`<li data-board="${n}-${p.board}"><a href="/game/${encodeURIComponent(p.gameId)}">${p.first} – ${p.second}</a>
              <span class="note">${result(p)}</span></li>`
          : html`<li data-bye="${n}">${p.first} <span class="note">${t("swiss.bye")}</span></li>`,
      )}</ol>`,
  )}`;
}

function draw() {
  const s = data.swiss;
  if (!s) return;
  const name = tournamentName(s, data.variants);
  document.title = t("title.swiss", { name });
  const variant = data.variants.find((v) => v.id === s.variant);
  $("name").textContent = name;
  $("terms").textContent = t("swiss.terms", {
    game: variantName(variant) || s.variant,
    clock: `${s.clock.limit / 60}+${s.clock.increment}`,
    rated: s.rated ? t("arena.ratedShort") : t("arena.casual"),
    n: s.nbPlayers,
    rounds: s.nbRounds,
  });
  $("trf").href = `/swiss/${encodeURIComponent(s.id)}.trf`;
  // Drawn at each reading (every REFRESH_MS): what says the same stays, a click on its
  // button or link not lost to it being drawn again.
  renderChanged($("actions"), actions());
  renderChanged($("mine"), mine());
  renderChanged($("standings"), standings(s.standings));
  renderChanged($("rounds"), rounds(s.rounds));
  tick();
}

async function refresh() {
  try {
    data.swiss = await request(`/api/swiss/${encodeURIComponent(id)}`);
    data.readAt = Date.now();
    draw();
  } catch (err) {
    showError(err);
  }
}

document.addEventListener("click", (event) => {
  const button = event.target.closest("button[data-action]");
  if (button) act(button.dataset.action);
});

async function load() {
  try {
    data.variants = await api.variants();
    data.me = await api.me();
  } catch (err) {
    showError(err);
  }
  await refresh();
  setInterval(() => {
    if (!document.hidden) refresh();
  }, REFRESH_MS);
  setInterval(tick, 1000);
}

setupChrome();
onLanguage(draw);
load();
