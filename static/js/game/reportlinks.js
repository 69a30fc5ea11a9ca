// The game page's "Report" item (near the chat): for a viewer signed in to an account, one
// button per other player of the game who has an account; it opens the report dialog
// (site/report.js) about that player, naming this game.

import { html, renderChanged } from "../lib/html.js";
import { isAccountName } from "../lib/names.js";
import { t } from "../i18n/i18n.js";
import { openReport } from "../site/report.js";

export class ReportLinks {
  constructor(box) {
    this.box = box;
    this.game = null;
    this.me = null;
    box.addEventListener("click", (event) => {
      const button = event.target.closest("[data-report-player]");
      if (button && this.game) openReport({ username: button.dataset.reportPlayer, gameId: this.game.id });
    });
  }

  setGame(game, me) {
    this.game = game;
    this.me = me;
    this.draw();
  }

  draw() {
    const players = (this.game && this.game.players) || {};
    const me = this.me;
    const others = ["first", "second"]
      .map((s) => players[s])
      .filter((p) => p && isAccountName(p.name) && (!me || p.id !== me.id));
    const shown = Boolean(me && isAccountName(me.name) && others.length);
    this.box.hidden = !shown;
    if (!shown) return;
    // (drawn at every state of the game: its buttons stay while they say the same)
    renderChanged(
      this.box,
      html`${t("report.players")} ${others.map(
        (p) => html`<button type="button" class="link-button" data-report-player="${p.name}"
          aria-label="${t("report.player", { name: p.name })}">${t("report.button")} ${p.name}</button> `,
      )}`,
    );
  }
}
