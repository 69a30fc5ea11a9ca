// The tournaments page (/tournaments): the arenas and the Swiss events upcoming, running
// and finished (GET /api/tournament, GET /api/swiss), read again every REFRESH_MS, and the
// creation forms, an account's: an arena's (POST /api/tournament) and a Swiss's
// (swiss-create.js); the new event's page opens once it is made.

import { api, request } from "../site/api.js";
import { onLanguage, setupChrome } from "../site/chrome.js";
import { html, render, renderChanged, setText } from "../lib/html.js";
import { errorText, t } from "../i18n/i18n.js";
import { variantName } from "../lib/variant.js";
import { tournamentName } from "../lib/tournament-name.js";
import { countdown } from "./tournament-time.js";
import { drawSwissForm, setupSwissForm } from "./swiss-create.js";

const $ = (id) => document.getElementById(id);
const REFRESH_MS = 5000;
const data = { lists: { created: [], started: [], finished: [] }, swiss: { created: [], started: [], finished: [] }, variants: [] };

// When an event starts or ends, or its round (written into its line's [data-when]).
function when(item) {
  if (item.system === "swiss") {
    return item.status === "created"
      ? t("arena.startsAt", { time: countdown(item.secondsToStart) })
      : item.status === "started"
        ? t("swiss.round", { round: item.round, rounds: item.nbRounds })
        : t("arena.over");
  }
  return item.status === 10
    ? t("arena.startsAt", { time: countdown(item.secondsToStart) })
    : item.status === 20
      ? t("arena.endsAt", { time: countdown(item.secondsToFinish) })
      : t("arena.over");
}

function swissLine(swiss) {
  const variant = data.variants.find((v) => v.id === swiss.variant);
  const clock = `${swiss.clock.limit / 60}+${swiss.clock.increment}`;
  return html`<li data-swiss="${swiss.id}"><a href="/swiss/${encodeURIComponent(swiss.id)}">${tournamentName(swiss, data.variants)}</a>
    <span class="note">${t("swiss.system")} · ${variantName(variant) || swiss.variant} · ${clock} ·
      ${swiss.rated ? t("arena.ratedShort") : t("arena.casual")} · ${t("arena.players", { n: swiss.nbPlayers })} ·
      ${t("swiss.nbRoundsShort", { n: swiss.nbRounds })} · <span data-when></span></span></li>`;
}

// An event's start, as both lists give it (an arena's in ms, a Swiss's in ISO 8601).
function startOf(item) {
  return typeof item.startsAt === "number" ? item.startsAt : Date.parse(item.startsAt);
}

// Both kinds in one list: by start, the latest first among the finished.
function merged(key) {
  const rows = [...(data.lists[key] || []), ...(data.swiss[key] || [])];
  const order = key === "finished" ? -1 : 1;
  return rows.sort((a, b) => order * (startOf(a) - startOf(b)));
}

function line(tour) {
  if (tour.system === "swiss") return swissLine(tour);
  const variant = data.variants.find((v) => v.id === tour.variant);
  const clock = `${tour.clock.limit / 60}+${tour.clock.increment}`;
  return html`<li data-tournament="${tour.id}"><a href="/tournament/${encodeURIComponent(tour.id)}">${tournamentName(tour, data.variants)}</a>
    <span class="note">${t("arena.system")} · ${variantName(variant) || tour.variant} · ${clock} ·
      ${tour.rated ? t("arena.ratedShort") : t("arena.casual")} · ${t("arena.players", { n: tour.nbPlayers })} · <span data-when></span></span></li>`;
}

function section(key, title, rows) {
  return html`<section class="panel" data-list="${key}"><h2>${t(title)}</h2>
    ${rows.length ? html`<ul class="arena-list">${rows.map(line)}</ul>` : html`<p class="note">${t("arena.none")}</p>`}</section>`;
}

const SECTIONS = [["started", "arena.running"], ["created", "arena.upcoming"], ["finished", "arena.finished"]];

function draw() {
  document.title = t("title.tournaments");
  // Read again every REFRESH_MS: the lines stay as long as they say the same (a click on a
  // link is not lost to a list drawn again); the times, new at each reading, written in.
  const rows = SECTIONS.map(([key]) => merged(key));
  renderChanged($("lists"), html`${SECTIONS.map(([key, title], i) => section(key, title, rows[i]))}`);
  const items = rows.flat(); // in the order their lines are drawn
  $("lists").querySelectorAll("[data-when]").forEach((el, i) => setText(el, when(items[i])));
}

function showError(err) {
  $("message").textContent = errorText(err);
  $("message").hidden = false;
}

async function refresh() {
  try {
    const [arenas, swiss] = await Promise.all([request("/api/tournament"), request("/api/swiss")]);
    data.lists = arenas;
    data.swiss = swiss;
    draw();
  } catch (err) {
    showError(err);
  }
}

function formBody(form) {
  const f = new FormData(form);
  const number = (name) => (f.get(name) === "" ? null : Number(f.get(name)));
  const body = {
    name: f.get("name") || null,
    variant: f.get("variant"),
    clockTime: number("clockTime"),
    clockIncrement: number("clockIncrement"),
    minutes: number("minutes"),
    waitMinutes: number("waitMinutes"),
    rated: f.get("rated") === "on",
    berserkable: f.get("berserkable") === "on",
    streakable: f.get("streakable") === "on",
    password: f.get("password") || null,
  };
  if (number("minRating") !== null) body["conditions.minRating.rating"] = number("minRating");
  if (number("maxRating") !== null) body["conditions.maxRating.rating"] = number("maxRating");
  return body;
}

async function create(event) {
  event.preventDefault();
  try {
    const made = await request("/api/tournament", { method: "POST", body: formBody(event.target) });
    location.assign(`/tournament/${encodeURIComponent(made.id)}`);
  } catch (err) {
    if (err.status === 401 || err.status === 403) $("account-only").hidden = false;
    showError(err);
  }
}

async function load() {
  try {
    data.variants = await api.variants();
    render($("variant"), html`${data.variants.map((v) => html`<option value="${v.id}">${variantName(v)}</option>`)}`);
    setupSwissForm(data.variants);
  } catch (err) {
    showError(err);
  }
  await refresh();
  setInterval(() => {
    if (!document.hidden) refresh();
  }, REFRESH_MS);
}

$("create").addEventListener("submit", create);
setupChrome();
onLanguage(() => {
  draw();
  if (data.variants.length) drawSwissForm();
});
load();
