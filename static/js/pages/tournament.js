// An arena's page (/tournament/{id}): its terms, a countdown to its start and to its end,
// join / pause / leave (a password asked for a private one), the player's own game (with the
// berserk button before their first move) and their games, the live standings, the top games
// to watch, and the podium once it is over. GET /api/tournament/{id} is read every
// REFRESH_MS; the countdown ticks every second between reads.

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
const data = { tour: null, variants: [], readAt: 0, me: null, berserked: new Set() };

function showError(err) {
  $("message").textContent = errorText(err);
  $("message").hidden = false;
}

function secondsLeft() {
  const tour = data.tour;
  const gone = (Date.now() - data.readAt) / 1000;
  if (tour.status === 10) return tour.secondsToStart - gone;
  if (tour.status === 20) return tour.secondsToFinish - gone;
  return 0;
}

function tick() {
  const tour = data.tour;
  if (!tour) return;
  const time = countdown(secondsLeft());
  $("countdown").textContent =
    tour.status === 10 ? t("arena.startsAt", { time }) : tour.status === 20 ? t("arena.endsAt", { time }) : t("arena.over");
}

async function act(path, body) {
  try {
    await request(path, { method: "POST", body });
    $("message").hidden = true;
    await refresh();
  } catch (err) {
    showError(err);
  }
}

function join() {
  const tour = data.tour;
  const password = tour.private ? prompt(t("arena.password")) : null;
  if (tour.private && password === null) return;
  act(`/api/tournament/${encodeURIComponent(id)}/join`, password ? { password } : {});
}

function actions() {
  const tour = data.tour;
  const me = tour.me;
  const buttons = [];
  if (tour.status !== 30) {
    if (!me || me.withdraw) buttons.push(html`<button type="button" data-action="join">${t("arena.join")}</button>`);
    else buttons.push(html`<button type="button" data-action="withdraw">${tour.status === 10 ? t("arena.leave") : t("arena.withdraw")}</button>`);
    if (data.me && data.me.id === tour.createdBy) buttons.push(html`<button type="button" data-action="terminate">${t("arena.terminate")}</button>`);
  }
  return html`${buttons}`;
}

function mine() {
  const me = data.tour.me;
  if (!me) return html``;
  const current = me.gameId
    ? html`<p class="arena-current"><a href="/game/${encodeURIComponent(me.gameId)}" data-my-game>${t("arena.yourGame")}</a>
        ${data.tour.berserkable && !data.berserked.has(me.gameId)
          ? html` <button type="button" data-action="berserk" data-game="${me.gameId}">${t("arena.berserk")}</button>`
          : ""}</p>`
    : data.tour.status === 20 && !me.withdraw
      ? html`<p class="note">${t("arena.waiting")}</p>`
      : "";
  const games = me.games.length
    ? html`<h2>${t("arena.myGames")}</h2><ul class="arena-games">${me.games.map(
        (g) => html`<li data-game="${g.id}"><a href="/game/${encodeURIComponent(g.id)}">${g.opponent}</a>
          <span class="note">${g.result || ""}${g.berserk ? " · berserk" : ""}</span></li>`,
      )}</ul>`
    : "";
  return html`${current}${games}`;
}

function row(p) {
  const fire = p.sheet.fire ? " 🔥" : "";
  return html`<tr data-player="${p.name}"><td class="num">${p.rank}</td>
    <td><a href="/@/${encodeURIComponent(p.name)}">${p.name}</a> <span class="note">${p.rating}</span></td>
    <td class="arena-sheet">${p.sheet.scores.split("").reverse().join(" ")}${fire}</td>
    <td class="num" data-score>${p.score}</td></tr>`;
}

function standings(players) {
  return html`<table class="leaderboard"><thead><tr><th scope="col" class="num">${t("arena.rank")}</th>
    <th scope="col">${t("arena.player")}</th><th scope="col">${t("arena.sheet")}</th>
    <th scope="col" class="num">${t("arena.score")}</th></tr></thead><tbody>${players.map(row)}</tbody></table>`;
}

function draw() {
  const tour = data.tour;
  if (!tour) return;
  const name = tournamentName(tour, data.variants);
  document.title = t("title.tournament", { name });
  const variant = data.variants.find((v) => v.id === tour.variant);
  $("name").textContent = name;
  $("terms").textContent = `${variantName(variant) || tour.variant} · ${tour.clock.limit / 60}+${tour.clock.increment} · ${
    tour.rated ? t("arena.ratedShort") : t("arena.casual")
  } · ${t("arena.players", { n: tour.nbPlayers })}`;
  // Drawn at each reading (every REFRESH_MS): what says the same stays, a click on its
  // button or link not lost to it being drawn again.
  renderChanged($("actions"), actions());
  renderChanged($("mine"), mine());
  renderChanged($("standings"), standings(tour.standing.players));
  renderChanged(
    $("duels"),
    tour.duels.length
      ? html`<ul class="arena-duels">${tour.duels.map(
          (d) => html`<li data-duel="${d.id}"><a href="/game/${encodeURIComponent(d.id)}">${d.p[0].n} – ${d.p[1].n}</a>
            <span class="note">#${d.p[0].k} · #${d.p[1].k}</span></li>`,
        )}</ul>`
      : html`<p class="note">${t("arena.none")}</p>`,
  );
  $("podium").hidden = !tour.podium;
  if (tour.podium) renderChanged($("podium"), html`<h2>${t("arena.podium")}</h2>${standings(tour.podium)}`);
  tick();
}

async function refresh() {
  try {
    data.tour = await request(`/api/tournament/${encodeURIComponent(id)}`);
    data.readAt = Date.now();
    draw();
  } catch (err) {
    showError(err);
  }
}

document.addEventListener("click", (event) => {
  const button = event.target.closest("button[data-action]");
  if (!button) return;
  const action = button.dataset.action;
  if (action === "join") join();
  else if (action === "berserk") {
    data.berserked.add(button.dataset.game);
    act(`/api/board/game/${encodeURIComponent(button.dataset.game)}/berserk`);
  } else act(`/api/tournament/${encodeURIComponent(id)}/${action}`);
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
