// Quick pairing: the grid of pools (each game with a few clocks) on the lobby page. One click
// on a tile puts you in that pool through the lobby socket (`pool`, docs/protocol.md); the
// tile then shows the time searched and a second click (or leaving the page) leaves it.
// When a round pairs you (`paired`), the page goes to the game.

import { request } from "../site/api.js";
import { html, renderChanged, setText } from "../lib/html.js";
import { errorText, t } from "../i18n/i18n.js";
import { goToGame } from "../site/site.js";
import { minutesText, variantName } from "../lib/variant.js";

function elapsed(ms) {
  const seconds = Math.max(0, Math.floor(ms / 1000));
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`;
}

export class PoolGrid {
  // el: the section; send(message) -> bool: the lobby socket's send; variants: /api/variants.
  constructor(el, { send, variants }) {
    this.el = el;
    this.send = send;
    this.variants = variants;
    this.pools = [];
    this.waiting = {}; // pool id -> players waiting, the socket's newest counts
    this.searching = null; // the pool id asked for
    this.since = 0; // when the server said it was searching (the page's clock)
    this.error = "";
    this.ticker = null;
    el.addEventListener("click", (event) => {
      const tile = event.target.closest("[data-pool]");
      if (tile) this.toggle(tile.dataset.pool);
    });
  }

  async load() {
    try {
      this.pools = await request("/api/pools");
    } catch (err) {
      this.error = errorText(err);
    }
    this.el.hidden = false;
    this.render();
  }

  // The players waiting per pool (everyone in it: anyone can meet anyone, a rated search
  // meeting a casual one after a few seconds), as the lobby socket tells them: at once
  // when they change.
  // (kept apart from the list, which may still be loading when the first counts arrive)
  counted(waiting) {
    this.waiting = waiting;
  }

  toggle(poolId) {
    this.error = "";
    if (this.searching === poolId) {
      this.send({ type: "unpool" });
      this.stopped();
    } else if (this.send({ type: "pool", pool: poolId })) {
      this.searching = poolId;
      this.since = 0;
    } else {
      this.error = t("pools.offline");
    }
    this.render();
  }

  // A lobby socket message: true if it was quick pairing's.
  handle(data) {
    if (data.type === "pools") {
      this.counted(data.waiting);
    } else if (data.type === "pooling" && data.pool === this.searching) {
      this.since = Date.now();
      clearInterval(this.ticker);
      this.ticker = setInterval(() => this.renderTimer(), 1000);
    } else if (data.type === "paired") {
      this.stopped();
      goToGame(data.game); // (its gameStart may have taken the page there first)
    } else if (data.type === "unpooled") {
      if (data.pool === this.searching) this.stopped();
    } else if (data.type === "error" && String(data.code).startsWith("pool.")) {
      this.stopped();
      this.error = errorText(data);
    } else if (data.type === "error" && this.searching && data.code === "request.invalid") {
      this.stopped();
      this.error = errorText(data);
    } else {
      return false;
    }
    this.render();
    return true;
  }

  // The socket's status: a new connection searches again (the old one's entry left with it).
  status(status) {
    if (status === "open" && this.searching) {
      this.since = 0;
      this.send({ type: "pool", pool: this.searching });
      this.render();
    }
  }

  stopped() {
    this.searching = null;
    this.since = 0;
    clearInterval(this.ticker);
    this.ticker = null;
  }

  nameOf(pool) {
    const variant = this.variants.find((v) => v.id === pool.variant);
    return variant ? variantName(variant) : pool.name;
  }

  renderTimer() {
    const timer = this.el.querySelector(".pool-timer");
    if (timer) setText(timer, this.since ? elapsed(Date.now() - this.since) : "");
  }

  render() {
    const tiles = this.pools.map((pool) => {
      const on = pool.id === this.searching;
      const label = t("pools.tile", {
        game: this.nameOf(pool),
        clock: `${minutesText(pool.minutes)}+${pool.increment}`,
      });
      return html`<button type="button" class="pool-tile${on ? " searching" : ""}"
        data-pool="${pool.id}" aria-pressed="${on ? "true" : "false"}" aria-label="${label}">
        <span class="pool-clock">${minutesText(pool.minutes)}+${pool.increment}</span>
        <span class="pool-game">${this.nameOf(pool)}</span>
        ${on
          ? html`<span class="pool-state">${t("pools.searching")}
              <span class="pool-timer"></span>
              <span class="pool-cancel">${t("pools.cancel")}</span></span>`
          : html`<span class="pool-waiting" data-waiting="${pool.id}"></span>`}
      </button>`;
    });
    // Drawn again at every count the socket tells (anyone's search, often as a player
    // clicks): the tiles stay while they say the same, a click on one not lost to them being
    // drawn again; the counts and the time searched are written into them.
    const grid = this.el.querySelector(".pool-grid");
    renderChanged(grid, html`${tiles}`);
    for (const pool of this.pools) {
      const count = grid.querySelector(`[data-waiting="${CSS.escape(pool.id)}"]`);
      if (count) setText(count, t("pools.waiting", { n: this.waiting[pool.id] ?? pool.waiting }));
    }
    this.renderTimer();
    const status = this.el.querySelector(".pool-status");
    status.textContent = this.error || (this.searching ? t("pools.searchingFor", {
      pool: this.tileName(this.searching),
    }) : "");
    status.classList.toggle("error", Boolean(this.error));
  }

  tileName(poolId) {
    const pool = this.pools.find((p) => p.id === poolId);
    return pool ? `${this.nameOf(pool)} ${minutesText(pool.minutes)}+${pool.increment}` : poolId;
  }
}
