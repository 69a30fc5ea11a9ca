// The lobby's "Your turn": the viewer's correspondence games where it is their move, the
// least time left first, with the time left (GET /api/account/playing, lichess's
// nowPlaying: correspondence games are those of speed "correspondence" with a deadline).

import { api } from "../site/api.js";
import { durationText } from "../game/clock.js";
import { onLanguage } from "../site/chrome.js";
import { html, renderChanged } from "../lib/html.js";
import { t } from "../i18n/i18n.js";

const REFRESH_MS = 30_000;
const section = document.getElementById("your-turn");
let games = [];

function draw() {
  section.hidden = games.length === 0;
  // Read again every REFRESH_MS: unchanged links stay (a click on one is not lost).
  renderChanged(
    document.getElementById("your-turn-list"),
    html`${games.map(
      (g) => html`<li class="your-turn-game" data-game="${g.gameId}">
        <a href="/game/${encodeURIComponent(g.gameId)}">${g.variant.name}</a>
        <span>${t("yourTurn.against", { name: g.opponent.username })}</span>
        <span class="note">${t("yourTurn.left", { time: durationText(g.secondsLeft * 1000) })}</span>
      </li>`,
    )}`,
  );
}

async function refresh() {
  try {
    const { nowPlaying } = await api.playing();
    games = nowPlaying.filter(
      (g) => g.isMyTurn && g.speed === "correspondence" && g.secondsLeft !== null,
    );
  } catch {
    return; // the next refresh tries again; the lobby shows the connection's state
  }
  draw();
}

if (section) {
  onLanguage(draw);
  refresh();
  setInterval(refresh, REFRESH_MS);
}
