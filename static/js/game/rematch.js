// A finished game's rematch (docs/protocol.md, "rematch"): the players offer, accept,
// decline or withdraw one from the panel; once accepted, every page that watched the old
// game (players and spectators) moves to the new one.

import { html, renderChanged } from "../lib/html.js";
import { t } from "../i18n/i18n.js";
import { goToGame } from "../site/site.js";
import { sideLabel } from "../i18n/words.js";

const other = (side) => (side === "first" ? "second" : "first");

// The panel's buttons send the `rematch` message through `act` (game.js's).
export function setupRematch(box, act) {
  box.addEventListener("click", (event) => {
    const button = event.target.closest("[data-rematch]");
    if (button) act({ type: "rematch", action: button.dataset.rematch });
  });
}

// A state arrived: if the rematch was accepted while this page showed the game (it had no
// rematch before), the page follows it. A page opened later on the old game shows a link.
export function followRematch(before, game) {
  if (before && before.id === game.id && !before.rematch && game.rematch) {
    goToGame(game.rematch);
  }
}

export function renderRematch(box, game, seat) {
  const shown = game && game.result && game.startedAt != null;
  const offer = shown ? game.rematchOffer : null;
  let content = null;
  if (!shown) {
    content = null;
  } else if (game.rematch) {
    const href = `/game/${encodeURIComponent(game.rematch)}`;
    content = html`<a class="button primary" href="${href}">${t("rematch.go")}</a>`;
  } else if (!seat) {
    content = offer
      ? html`<p class="note">${t("rematch.theyOffer", { who: sideLabel(offer, game.players) })}</p>`
      : null;
  } else if (offer === other(seat)) {
    content = html`<p class="note">${t("rematch.theyOffer", { who: sideLabel(offer, game.players) })}</p>
      <button type="button" class="primary" data-rematch="accept">${t("rematch.accept")}</button>
      <button type="button" data-rematch="decline">${t("rematch.decline")}</button>`;
  } else if (offer === seat) {
    content = html`<p class="note">${t("rematch.offered")}</p>
      <button type="button" data-rematch="decline">${t("rematch.withdraw")}</button>`;
  } else {
    content = html`<button type="button" class="primary" data-rematch="offer">${t("rematch.offer")}</button>`;
  }
  box.hidden = content === null;
  // (drawn at every message of the game's socket: its buttons stay while they say the same)
  renderChanged(box, content === null ? html`` : content);
}
