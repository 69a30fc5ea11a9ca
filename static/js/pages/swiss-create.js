// The tournaments page's Swiss creation form (an account's): the game and its rule options,
// the clock, the number of rounds, the time between them, the start (in the visitor's own
// time), rated or casual, rating limits, a password for a private event. It posts to POST /api/swiss/new/{teamId} (Kodama has no teams:
// the id is the site's), then opens the new Swiss's page; a refusal is worded in the
// page's language from its stable code (error.swiss.invalid_*).

import { request } from "../site/api.js";
import { html, render } from "../lib/html.js";
import { errorText, t } from "../i18n/i18n.js";
import { chosenOptions, renderRuleOptions } from "../lib/ruleoptions.js";
import { variantName } from "../lib/variant.js";

const $ = (id) => document.getElementById(id);
const TEAM = "kodama";
// The time between a round's last game and the next round, in seconds, as lichess offers
// it: "" is the automatic choice (by the clock), 0 the next round at once.
const INTERVALS = ["", 0, 10, 30, 60, 120, 300, 600, 3600, 86400, 604800];
const START_AHEAD_MS = 10 * 60_000; // the form's first start: lichess's default

let variants = [];

function intervalText(seconds) {
  if (seconds === "") return t("swiss.intervalAuto");
  if (seconds === 0) return t("swiss.intervalNone");
  if (seconds < 60) return t("swiss.intervalSeconds", { n: seconds });
  if (seconds < 3600) return t("swiss.intervalMinutes", { n: seconds / 60 });
  if (seconds < 86400) return t("swiss.intervalHours", { n: seconds / 3600 });
  return seconds === 86400 ? t("swiss.intervalDay") : t("swiss.intervalWeek");
}

// A datetime-local field's value: the visitor's own date and time, to the minute.
function localValue(ms) {
  const d = new Date(ms);
  const two = (n) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())}T${two(d.getHours())}:${two(d.getMinutes())}`;
}

function selectedVariant() {
  return variants.find((v) => v.id === $("swiss-variant").value) || variants[0];
}

function renderOptions() {
  const variant = selectedVariant();
  if (variant) renderRuleOptions($("swiss-options"), variant, "swiss-");
}

function renderIntervals() {
  const select = $("swiss-interval");
  const kept = select.value;
  render(
    select,
    html`${INTERVALS.map((s) => html`<option value="${s}" ${String(s) === kept ? html`selected` : ""}>${intervalText(s)}</option>`)}`,
  );
}

function renderVariants() {
  const select = $("swiss-variant");
  const kept = select.value;
  render(
    select,
    html`${variants.map((v) => html`<option value="${v.id}" ${v.id === kept ? html`selected` : ""}>${variantName(v)}</option>`)}`,
  );
}

// The form's words again in the page's language (its choices kept).
export function drawSwissForm() {
  renderVariants();
  renderIntervals();
  renderOptions();
}

function body(form) {
  const f = new FormData(form);
  const rules = chosenOptions($("swiss-options"));
  const interval = f.get("roundInterval");
  const number = (name) => (f.get(name) === "" ? null : Number(f.get(name)));
  const conditions = {};
  if (number("minRating") !== null) conditions["conditions.minRating.rating"] = number("minRating");
  if (number("maxRating") !== null) conditions["conditions.maxRating.rating"] = number("maxRating");
  return {
    ...conditions,
    password: f.get("password") || null,
    name: f.get("name") || null,
    variant: f.get("variant"),
    rules,
    "clock.limit": Math.round(Number(f.get("clockMinutes")) * 60),
    "clock.increment": Number(f.get("clockIncrement")),
    nbRounds: Number(f.get("nbRounds")),
    roundInterval: interval === "" ? null : Number(interval),
    startsAt: new Date(f.get("startsAt")).getTime(),
    rated: f.get("rated") === "on",
  };
}

function showError(err) {
  $("swiss-error").textContent = errorText(err);
  $("swiss-error").hidden = false;
}

async function create(event) {
  event.preventDefault();
  $("swiss-error").hidden = true;
  try {
    const made = await request(`/api/swiss/new/${TEAM}`, { method: "POST", body: body(event.target) });
    location.assign(`/swiss/${encodeURIComponent(made.id)}`);
  } catch (err) {
    if (err.status === 401 || err.status === 403) $("account-only").hidden = false;
    showError(err);
  }
}

// The form, once the games are known (GET /api/variants).
export function setupSwissForm(games) {
  variants = games;
  $("swiss-variant").addEventListener("change", renderOptions);
  $("swiss-create").elements.startsAt.value = localValue(Date.now() + START_AHEAD_MS);
  $("swiss-create").addEventListener("submit", create);
  drawSwissForm();
}
