// Takebacks on the game page (protocol.md, `takeback`): a player of a casual game proposes
// once both sides have moved; the opponent accepts or declines; the proposer may withdraw.
// Never offered in a rated game (the server refuses it too: `takeback.rated`).

import { html } from "../lib/html.js";
import { t } from "../i18n/i18n.js";
import { otherSide } from "../lib/variant.js";
import { sideLabel } from "../i18n/words.js";

// Whether `seat` may propose now: a casual game going on in which both sides have moved
// (the movers, not the ply: a wali side may have passed).
export function takebackOpen(game, seat) {
  if (!seat || game.status !== "started" || game.rated) return false;
  const movers = game.movers || [];
  return movers.includes("first") && movers.includes("second");
}

// The buttons for the actions box; `button(action, label, classes)` draws one.
export function takebackButtons(game, seat, button) {
  if (!takebackOpen(game, seat)) return [];
  if (game.takebackOffer === otherSide(seat)) {
    return [
      button("takeback-accept", t("takeback.accept"), "primary"),
      button("takeback-decline", t("takeback.decline")),
    ];
  }
  if (game.takebackOffer === seat) {
    return [
      html`<button type="button" disabled>${t("takeback.proposed")}</button>`,
      button("takeback-decline", t("takeback.withdraw")),
    ];
  }
  return [button("takeback-offer", t("takeback.offer"))];
}

// The status line's part about a standing proposal ("" when there is none).
export function takebackNote(game, seat) {
  const offer = game.takebackOffer;
  if (!offer || game.status !== "started") return "";
  if (offer === seat) return t("takeback.youProposed");
  return t("takeback.theyPropose", { who: sideLabel(offer, game.players) });
}

// The socket message for a button's action, or null for another button.
export function takebackMessage(action) {
  const answer = { "takeback-offer": "offer", "takeback-accept": "accept", "takeback-decline": "decline" }[action];
  return answer ? { type: "takeback", action: answer } : null;
}
