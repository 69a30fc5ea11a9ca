// The tournaments page (/tournaments): the arenas upcoming, running and finished
// (GET /api/tournament), read again every REFRESH_MS, and the creation form (POST
// /api/tournament, an account's): the new arena's page opens once it is made.

import { api, request } from "../site/api.js";
import { onLanguage, setupChrome } from "../site/chrome.js";
import { html, render } from "../lib/html.js";
import { errorText, t } from "../i18n/i18n.js";
import { variantName } from "../lib/variant.js";
import { countdown } from "./tournament-time.js";

const $ = (id) => document.getElementById(id);
const REFRESH_MS = 5000;
const data = { lists: { created: [], started: [], finished: [] }, variants: [] };

function line(tour) {
  const variant = data.variants.find((v) => v.id === tour.variant);
  const clock = `${tour.clock.limit / 60}+${tour.clock.increment}`;
  const when =
    tour.status === 10
      ? t("arena.startsAt", { time: countdown(tour.secondsToStart) })
      : tour.status === 20
        ? t("arena.endsAt", { time: countdown(tour.secondsToFinish) })
        : t("arena.over");
  return html`<li data-tournament="${tour.id}"><a href="/tournament/${encodeURIComponent(tour.id)}">${tour.fullName}</a>
    <span class="note">${variantName(variant) || tour.variant} · ${clock} ·
      ${tour.rated ? t("arena.ratedShort") : t("arena.casual")} · ${t("arena.players", { n: tour.nbPlayers })} · ${when}</span></li>`;
}

function section(key, title) {
  const rows = data.lists[key] || [];
  return html`<section class="panel" data-list="${key}"><h2>${t(title)}</h2>
    ${rows.length ? html`<ul class="arena-list">${rows.map(line)}</ul>` : html`<p class="note">${t("arena.none")}</p>`}</section>`;
}

function draw() {
  document.title = t("title.tournaments");
  render(
    $("lists"),
    html`${section("started", "arena.running")}${section("created", "arena.upcoming")}${section("finished", "arena.finished")}`,
  );
}

function showError(err) {
  $("message").textContent = errorText(err);
  $("message").hidden = false;
}

async function refresh() {
  try {
    data.lists = await request("/api/tournament");
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
onLanguage(draw);
load();
