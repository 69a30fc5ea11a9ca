// Both clocks and the deadlines, counting down locally between server updates.
// The server's numbers hold at `serverTime`; the page counts from when it received them
// (performance.now()), so a wrong clock on this computer does not matter.
// Byo-yomi: the main time runs out first, then the periods one by one (a move made within a
// period keeps it: the server says so with its next state). Correspondence: the side to
// move's deadline, in days and hours.

import { setText } from "../lib/html.js";
import { t } from "../i18n/i18n.js";
import { formatClock } from "../i18n/words.js";

const DAY = 86_400_000;

// A byo-yomi clock after `elapsed` ms: main time first, then the period running (`period`:
// what is left of the current one, null while there is main time), then whole periods.
export function spend(state, byoyomi, elapsed) {
  let { main, periods, period } = state;
  if (!byoyomi) return { main: Math.max(0, main - elapsed), periods: null, period: null };
  if (period === null) {
    if (elapsed < main) return { main: main - elapsed, periods, period: null };
    elapsed -= main;
    period = byoyomi;
  }
  if (elapsed < period) return { main: 0, periods, period: period - elapsed };
  elapsed -= period;
  periods -= 1 + Math.floor(elapsed / byoyomi);
  if (periods <= 0) return { main: 0, periods: 0, period: 0 };
  return { main: 0, periods, period: byoyomi - (elapsed % byoyomi) };
}

// How long until a correspondence deadline: "2 d 4 h", or hours:minutes:seconds.
export function durationText(ms) {
  const left = Math.max(0, ms);
  if (left < DAY) return formatClock(left);
  return t("time.daysHours", { d: Math.floor(left / DAY), h: Math.floor((left % DAY) / 3_600_000) });
}

// How long until a time counting down from `ms` shows another text in formatClock: tenths
// under 10 s, whole seconds (rounded up) above; null under 0.1 s, which shows "0.0" to the end.
export function untilTextChanges(ms) {
  if (ms < 100) return null;
  return ms <= 10_000 ? (ms % 100) + 1 : ((ms - 1) % 1000) + 1;
}

export class Clocks {
  constructor(root) {
    this.root = root;
    this.base = null;
    this.timer = null;
  }

  sync(game) {
    this.base = {
      at: performance.now(),
      clock: game.clock,
      running: Boolean(game.clock && game.clock.running && game.status === "started"),
      turn: game.turn,
      days: game.daysPerTurn || null,
      deadlineLeft: game.deadline && game.status === "started" ? game.deadline - game.serverTime : null,
    };
    this.tick();
  }

  // The side's clock now: {main, periods, period}, or null without a clock.
  now(side) {
    const b = this.base;
    if (!b || !b.clock) return null;
    const c = b.clock;
    const stored = {
      main: c[side],
      periods: c.byoyomi ? c[`${side}Periods`] : null,
      period: c.byoyomi ? c[`${side}Period`] : null,
    };
    const elapsed = b.running && b.turn === side ? performance.now() - b.at : 0;
    return spend(stored, c.byoyomi, elapsed);
  }

  deadlineLeft() {
    const b = this.base;
    if (!b || b.deadlineLeft === null) return null;
    return Math.max(0, b.deadlineLeft - (performance.now() - b.at));
  }

  // Written now, then again when a shown number next changes: only what changed is written
  // (html.js setText), and a page whose clocks stand and that shows no deadline runs no
  // timer at all (a finished game, an untimed one before its first moves).
  tick() {
    const wakes = [];
    for (const el of this.root.querySelectorAll(".clock[data-side]")) {
      const now = this.now(el.dataset.side);
      if (now === null) {
        if (!el.hidden) el.hidden = true;
        continue;
      }
      if (el.hidden) el.hidden = false;
      const c = this.base.clock;
      let left = now.main;
      if (c.byoyomi) {
        // "4:32 + 3×30s" while there is main time, then the period counting down: "0:24 · 3×30s".
        const periods = `${now.periods}×${Math.round(c.byoyomi / 1000)}s`;
        setText(el, now.period === null
          ? `${formatClock(now.main)} + ${periods}`
          : `${formatClock(now.period)} · ${periods}`);
        if (el.dataset.periods !== String(now.periods)) el.dataset.periods = String(now.periods);
        left = now.period === null ? now.main : now.period + (now.periods - 1) * c.byoyomi;
      } else {
        setText(el, formatClock(now.main));
      }
      const running = this.base.running && this.base.turn === el.dataset.side;
      el.classList.toggle("running", running);
      // Low: under 10 s, or under a tenth of the starting time.
      const low = left < 10_000 || (c.initial && left < c.initial / 10 && !c.byoyomi);
      el.classList.toggle("low", Boolean(low));
      if (running) {
        const shown = now.period === null ? now.main : now.period;
        // In byo-yomi the end of the time shown is a change too: a period starts, or the
        // last one ends ("0×").
        const ends = c.byoyomi && shown > 0 ? shown + 1 : null;
        wakes.push(untilTextChanges(shown) ?? ends);
        if (!low && c.initial && !c.byoyomi) wakes.push(left - c.initial / 10 + 1);
      }
    }
    const deadline = this.deadlineLeft();
    for (const el of this.root.querySelectorAll(".deadline")) {
      if (deadline === null) setText(el, "");
      else if (this.base.days) setText(el, t("status.moveWithin", { time: durationText(deadline) }));
      else setText(el, t("status.deadline", { s: Math.ceil(deadline / 1000) }));
    }
    // Correspondence shows the time as a clock does; a move deadline in whole seconds.
    if (deadline !== null) {
      wakes.push(this.base.days ? untilTextChanges(deadline) : ((deadline - 1) % 1000) + 1);
    }
    this.wakeIn(wakes.filter((ms) => ms !== null && ms > 0));
  }

  wakeIn(waits) {
    clearTimeout(this.timer);
    this.timer = waits.length ? setTimeout(() => this.tick(), Math.min(...waits)) : null;
  }
}
