// Both clocks and the first-move deadline, counting down locally between server updates.
// The server's numbers hold at `serverTime`; the page counts from when it received them
// (performance.now()), so a wrong clock on this computer does not matter.

import { t } from "./i18n.js";
import { formatClock } from "./words.js";

export class Clocks {
  constructor(root) {
    this.root = root;
    this.base = null;
    setInterval(() => this.tick(), 100);
  }

  sync(game) {
    this.base = {
      at: performance.now(),
      clock: game.clock,
      running: Boolean(game.clock && game.clock.running && game.status === "started"),
      turn: game.turn,
      deadlineLeft: game.deadline && game.status === "started" ? game.deadline - game.serverTime : null,
    };
    this.tick();
  }

  left(side) {
    const b = this.base;
    if (!b || !b.clock) return null;
    const stored = b.clock[side];
    return b.running && b.turn === side ? stored - (performance.now() - b.at) : stored;
  }

  deadlineLeft() {
    const b = this.base;
    if (!b || b.deadlineLeft === null) return null;
    return Math.max(0, b.deadlineLeft - (performance.now() - b.at));
  }

  tick() {
    for (const el of this.root.querySelectorAll(".clock[data-side]")) {
      const left = this.left(el.dataset.side);
      if (left === null) {
        el.hidden = true;
        continue;
      }
      el.hidden = false;
      el.textContent = formatClock(left);
      const running = this.base.running && this.base.turn === el.dataset.side;
      el.classList.toggle("running", running);
      // Low: under 10 s, or under a tenth of the starting time.
      const low = left < 10_000 || (this.base.clock.initial && left < this.base.clock.initial / 10);
      el.classList.toggle("low", Boolean(low));
    }
    const deadline = this.deadlineLeft();
    for (const el of this.root.querySelectorAll(".deadline")) {
      el.textContent = deadline === null ? "" : t("status.deadline", { s: Math.ceil(deadline / 1000) });
    }
  }
}
