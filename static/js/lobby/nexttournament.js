// The lobby's "next tournament" line: the next public arena or Swiss to start, or one
// running (GET /api/tournament/next), with its countdown (a running Swiss: its round), and a
// link to every tournament. Read again every REFRESH_MS while the page is in view.

import { api, request } from "../site/api.js";
import { onLanguage } from "../site/chrome.js";
import { html, renderChanged, setText } from "../lib/html.js";
import { t } from "../i18n/i18n.js";
import { countdown } from "../pages/tournament-time.js";
import { tournamentName } from "../lib/tournament-name.js";

const REFRESH_MS = 30_000;
const line = document.getElementById("next-tournament");
let next = null;
let variants = []; // for the game's name in the page's language
let readAt = 0;

function draw() {
  if (!line) return;
  const all = html`<a href="/tournaments" data-all-tournaments>${t("arena.all")}</a>`;
  if (!next) {
    renderChanged(line, all);
    return;
  }
  const gone = (Date.now() - readAt) / 1000;
  const swiss = next.system === "swiss";
  const time =
    next.secondsToStart !== undefined
      ? t("arena.startsAt", { time: countdown(next.secondsToStart - gone) })
      : swiss
        ? t("swiss.round", { round: next.round, rounds: next.nbRounds })
        : t("arena.endsAt", { time: countdown(next.secondsToFinish - gone) });
  const href = `/${swiss ? "swiss" : "tournament"}/${encodeURIComponent(next.id)}`;
  // Drawn every second: the links stay (a click on one is not lost), only the text in the
  // first, with its countdown, is written again.
  renderChanged(line, html`<a href="${href}" data-next-tournament="${next.id}"></a> · ${all}`);
  setText(line.querySelector("[data-next-tournament]"), t("arena.next", {
    name: tournamentName(next, variants),
    time,
  }));
}

async function refresh() {
  try {
    next = await request("/api/tournament/next");
    if (next && next.defaultName && !variants.length) variants = await api.variants();
    readAt = Date.now();
  } catch {
    next = null; // the lobby works without it
  }
  draw();
}

if (line) {
  refresh();
  setInterval(() => {
    if (!document.hidden) refresh();
  }, REFRESH_MS);
  setInterval(draw, 1000);
  onLanguage(draw);
}
