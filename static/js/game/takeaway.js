// A finished game's record to take away (the game page): "Download the record" saves
// GET /game/export/{id} as kodama-<game>-<id>.txt (with the moves' Japanese forms when that is
// the viewer's notation), "Analyse" opens it on the analysis board.

import { html, renderChanged } from "../lib/html.js";
import { t } from "../i18n/i18n.js";
import { recordHref } from "./notationpref.js";

export function renderTakeaway(box, game, variant = null) {
  if (!game || !game.result) {
    box.hidden = true;
    renderChanged(box, html``);
    return;
  }
  const id = encodeURIComponent(game.id);
  box.hidden = false;
  // (drawn at every update of the game page: its links stay while they say the same)
  renderChanged(
    box,
    html`<a class="button" href="${recordHref(variant, game.id)}" download="kodama-${game.variant}-${game.id}.txt"
        data-record="download">${t("record.download")}</a>
      <a class="button" href="/analysis?game=${id}" data-record="analyse">${t("record.analyse")}</a>`,
  );
}
