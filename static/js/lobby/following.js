// The lobby's "Following" list: the players the viewer follows who are online (a page or an
// event stream open) or playing (GET /api/rel/following/live), each with a link to watch
// their game, or to their profile to challenge them. Shown to an account that follows
// someone; read again every REFRESH_MS while the page is in view, and when it comes back
// into view (docs/decisions/relations.md).

import { ApiError, request } from "../site/api.js";
import { onLanguage } from "../site/chrome.js";
import { html, render } from "../lib/html.js";
import { t } from "../i18n/i18n.js";

const REFRESH_MS = 20_000;
const section = document.getElementById("following");
let users = [];
let shown = false; // the viewer is an account following someone
let timer = null;
let last = null; // the last answer, as text
let guest = false; // a 401: not an account, nothing to read again

function profile(user) {
  return `/@/${encodeURIComponent(user.username)}`;
}

function entry(user) {
  const name = user.username;
  const state = user.playing ? t("following.playing") : t("following.online");
  const dot = html`<span class="dot${user.online ? " online" : ""}" role="img"
    aria-label="${user.online ? t("relation.online") : t("relation.offline")}"></span>`;
  const action = user.playing
    ? html`<a class="following-watch" data-watch href="/game/${encodeURIComponent(user.playingId)}"
        aria-label="${t("following.watchOf", { name })}">${t("following.watch")}</a>`
    : html`<a class="following-challenge" data-challenge href="${profile(user)}"
        aria-label="${t("following.challengeOf", { name })}">${t("following.challenge")}</a>`;
  return html`<li class="following-user" data-user="${user.id}"
    data-online="${String(user.online)}" data-playing="${user.playingId || ""}">
    ${dot}<a class="following-name" href="${profile(user)}">${name}</a>
    <span class="following-state note">${state}</span> ${action}</li>`;
}

function draw() {
  section.hidden = !shown;
  if (!shown) return;
  render(
    section,
    html`<h2 id="following-title">${t("following.title")}</h2>
      ${users.length
        ? html`<ul class="following-list">${users.map(entry)}</ul>`
        : html`<p class="note">${t("following.none")}</p>`}`,
  );
}

async function refresh() {
  try {
    const live = await request("/api/rel/following/live");
    const text = JSON.stringify(live);
    if (text === last) return; // unchanged: the list (and a link's focus) stays as it is
    last = text;
    shown = live.count > 0;
    users = live.users;
  } catch (err) {
    // A guest follows no one; anything else: the next refresh tries again.
    if (!(err instanceof ApiError && err.status === 401)) return;
    guest = true;
    shown = false;
  }
  draw();
}

// Read every REFRESH_MS while the list is shown and the page in view.
function schedule() {
  clearInterval(timer);
  timer = shown && !document.hidden ? setInterval(refresh, REFRESH_MS) : null;
}

if (section) {
  onLanguage(draw);
  document.addEventListener("visibilitychange", () => {
    if (document.hidden) schedule();
    else if (!guest) refresh().then(schedule);
  });
  refresh().then(schedule);
}
