// Reviewing moves, during the game and after it: which ply the board shows (null = the
// live position, following the game), the buttons that step through the positions, the
// keys (← → Home End) and the "back to live" button. The positions themselves come from the
// server (the state's `positions`, each `move` message's `fen`): no rules here.
//
// A move arriving does not move a review: only a viewer at the live position follows it.
// While a review is shown the page looks it (review.css: the body's `reviewing` class dims
// the live clocks) and the status says so, with the way back (`statusNote`), so nobody
// waits for a move on an old position.

import { html, renderChanged } from "../lib/html.js";
import { t } from "../i18n/i18n.js";

export class Review {
  // `game()` -> the game shown; `changed()` redraws the page after the view changed.
  constructor({ game, changed }) {
    this.game = game;
    this.changed = changed;
    this.view = null;
    this.missed = 0; // moves played since the review started (shown on the live button)
  }

  get live() {
    return this.view === null;
  }

  shown() {
    const game = this.game();
    return this.view === null ? game.ply : this.view;
  }

  go(ply) {
    const game = this.game();
    if (!game) return;
    const target = Math.max(0, Math.min(ply, game.ply));
    this.view = target >= game.ply ? null : target;
    if (this.view === null) this.missed = 0;
    this.changed();
  }

  step(where) {
    const game = this.game();
    if (!game) return;
    const shown = this.shown();
    const target = { first: 0, prev: shown - 1, next: shown + 1, last: game.ply }[where];
    if (target !== undefined) this.go(target);
  }

  // A move arrived (the live position moved on).
  moved() {
    if (this.view !== null) this.missed += 1;
  }

  // A full state replaced the game: a takeback may have shortened it under the view.
  replaced() {
    const game = this.game();
    if (this.view !== null && this.view >= game.ply) {
      this.view = null;
      this.missed = 0;
    }
  }

  // The status line while an earlier position of a live game is shown.
  statusNote() {
    const shown = this.shown();
    const where = shown === 0 ? t("review.start") : t("review.status", { ply: shown });
    return html`<span class="review-note">${where}<button type="button" class="review-back"
      data-action="replay-live">${t("review.back")}</button></span>`;
  }

  // The buttons (hidden before the first move).
  renderControls(box) {
    const game = this.game();
    box.ownerDocument.body.classList.toggle("reviewing", Boolean(game && this.view !== null));
    if (!game || game.ply < 1) {
      box.hidden = true;
      renderChanged(box, html``);
      return;
    }
    const shown = this.shown();
    const button = (action, label, text, disabled) =>
      html`<button type="button" data-action="${action}" aria-label="${label}" title="${label}"
        ${disabled ? html`disabled` : ""}>${text}</button>`;
    const ongoing = game.status === "started";
    let live = "";
    if (this.view !== null) {
      const label = this.missed
        ? t("replay.liveMissed", { n: this.missed })
        : ongoing ? t("replay.live") : t("replay.end");
      live = html`<button type="button" data-action="replay-live" class="primary live-button"
        title="${t("replay.liveKey")}">${label}</button>`;
    } else if (ongoing) {
      live = html`<span class="live-mark">${t("replay.liveNow")}</span>`;
    }
    box.hidden = false;
    // (drawn at every update of the game page: its buttons stay while they say the same)
    renderChanged(
      box,
      html`${button("replay-first", t("replay.first"), "«", shown <= 0)}${button(
        "replay-prev", t("replay.prev"), "◀", shown <= 0)}<span class="replay-ply" aria-live="polite"
        >${shown} / ${game.ply}</span>${button("replay-next", t("replay.next"), "▶", shown >= game.ply)}${button(
        "replay-last", t("replay.last"), "»", shown >= game.ply)}${live}`,
    );
  }
}

const KEYS = { ArrowLeft: "prev", ArrowRight: "next", Home: "first", End: "last" };

// ← → Home End anywhere on the page but where those keys already mean something: text
// fields, the board's squares and hands (they move the focus there), an open dialog.
export function listenForKeys(review) {
  document.addEventListener("keydown", (event) => {
    if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
    const where = KEYS[event.key];
    if (!where || !review.game()) return;
    const target = event.target;
    if (target.closest && target.closest("input, select, textarea, dialog, [data-square], [data-hand]")) {
      return;
    }
    event.preventDefault();
    review.step(where);
  });
}
