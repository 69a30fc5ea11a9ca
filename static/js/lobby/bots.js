// "Play the computer": one button per online bot account (GET /api/bot/online, NDJSON).
// A click challenges it with the lobby form's choices (lichess's challenge API, see
// docs/api.md), then asks every half second until the bot answers: accepted opens
// the game (the challenge id is the game id), declined shows its reason. A built-in
// opponent with no free seat (GET /api/builtin/seats, read every SEATS_MS while the page
// is in view and after a decline) shows disabled as busy.

import { api, request } from "../site/api.js";
import { html, render } from "../lib/html.js";
import { errorText, t } from "../i18n/i18n.js";
import { goToGame } from "../site/site.js";
import { challengeTime } from "./timecontrol.js";
import { variantName } from "../lib/variant.js";

const POLL_MS = 500;
const SEATS_MS = 5000;
// The lobby's sides in the challenge API's colours: white moves first.
const COLORS = { first: "white", second: "black", random: "random" };
// The server's own opponents, weakest first (app/builtin/service.py LEVELS): listed in
// that order with a line on how each plays; any other bot after them, by name.
const BUILTIN = ["kodama-random", "kodama-easy", "kodama-medium", "kodama-hard"];

function strengthOrder(a, b) {
  const rank = (bot) => (BUILTIN.includes(bot.username) ? BUILTIN.indexOf(bot.username) : BUILTIN.length);
  return rank(a) - rank(b) || a.username.localeCompare(b.username);
}

export class BotPanel {
  // choices(): the lobby form's {variant, rules, clock, color, rated} or null; selected(): its game.
  constructor(section, { variants, choices, selected }) {
    this.section = section;
    this.list = section.querySelector("#bot-list");
    this.status = section.querySelector("#bot-status");
    this.variants = variants;
    this.choices = choices;
    this.selected = selected;
    this.bots = [];
    this.free = {}; // built-in opponent -> its free seats (0: busy)
    this.seatsTimer = null;
    this.pending = null; // {id, name, timer} while a challenge waits for its answer
    this.message = null; // [key, values, isError] shown under the buttons
    this.list.addEventListener("click", (event) => {
      const button = event.target.closest("[data-bot]");
      if (button && !button.disabled) this.challenge(button.dataset.bot);
    });
    this.status.addEventListener("click", (event) => {
      if (event.target.closest("[data-bot-cancel]")) this.cancel();
    });
  }

  async load() {
    try {
      const lines = await api.botsOnline();
      this.bots = lines.filter(
        (b) => b && typeof b.username === "string" && b.bot && Array.isArray(b.bot.games),
      ).sort(strengthOrder);
    } catch {
      this.bots = []; // no bot service here (yet): the section stays hidden
    }
    this.render();
    if (this.bots.some((b) => BUILTIN.includes(b.username))) {
      document.addEventListener("visibilitychange", () => this.scheduleSeats());
      this.scheduleSeats();
    }
  }

  async loadSeats() {
    try {
      const rows = await request("/api/builtin/seats");
      const free = Object.fromEntries(rows.map((row) => [row.username, row.free]));
      if (JSON.stringify(free) === JSON.stringify(this.free)) return;
      this.free = free;
    } catch {
      return; // the next reading tries again; meanwhile the buttons stay as they were
    }
    this.render();
  }

  // Read the seats now and every SEATS_MS while the page is in view.
  scheduleSeats() {
    clearInterval(this.seatsTimer);
    this.seatsTimer = document.hidden ? null : setInterval(() => this.loadSeats(), SEATS_MS);
    if (!document.hidden) this.loadSeats();
  }

  busy(username) {
    return this.free[username] === 0;
  }

  gameName(id) {
    const variant = this.variants.find((v) => v.id === id);
    return variant ? variantName(variant) : id;
  }

  render() {
    this.section.hidden = this.bots.length === 0;
    if (!this.bots.length) return;
    const game = this.selected();
    render(
      this.list,
      html`${this.bots.map((b) => {
        const plays = game && b.bot.games.includes(game.id);
        const busy = this.busy(b.username);
        const games = b.bot.games.map((id) => this.gameName(id)).join(", ");
        let why = t("bots.play", { name: b.username });
        if (!plays) {
          why = t("bots.notThisGame", { name: b.username, game: game ? variantName(game) : "" });
        } else if (busy) {
          why = t("bots.busy", { name: b.username });
        }
        return html`<button type="button" class="bot" data-bot="${b.username}" title="${why}"
          ${busy ? html`data-busy` : ""} ${plays && !busy && !this.pending ? "" : html`disabled`}>
          <span class="bot-name"><span class="bot-title">${b.title || "BOT"}</span> ${b.username}</span>
          <span class="bot-games">${BUILTIN.includes(b.username)
            ? t(`bots.about.${b.username}`)
            : t("bots.plays", { games })}</span>${busy
            ? html`<span class="bot-games bot-busy">${t("bots.busyShort")}</span>`
            : ""}</button>`;
      })}`,
    );
    this.renderStatus();
  }

  say(key, values = {}, isError = false) {
    this.message = [key, values, isError];
    this.renderStatus();
  }

  renderStatus() {
    if (!this.message) {
      render(this.status, html``);
      return;
    }
    const [key, values, isError] = this.message;
    render(
      this.status,
      html`<p class="${isError ? "error" : "note"}">${t(key, values)}${this.pending
        ? html` <button type="button" data-bot-cancel>${t("bots.cancel")}</button>`
        : ""}</p>`,
    );
  }

  async challenge(username) {
    const chosen = this.choices();
    if (!chosen || this.pending) return;
    const body = {
      variant: chosen.variant.id,
      rules: chosen.rules,
      color: COLORS[chosen.color] || "random",
      rated: Boolean(chosen.rated), // the form's Rated box: an account's only
    };
    Object.assign(body, challengeTime(chosen));
    const pending = { id: null, name: username, timer: null };
    this.pending = pending;
    this.render();
    this.say("bots.sending", { name: username });
    try {
      const made = await api.challenge(username, body);
      if (this.pending !== pending) {
        // Cancelled while the challenge was on its way: withdraw it now that it has an id.
        api.challengeCancel(made.id).catch(() => {});
        return;
      }
      pending.id = made.id;
      this.follow(made);
    } catch (err) {
      if (this.pending === pending) this.finish("bots.failed", { error: errorText(err) }, true);
    }
  }

  // One answer about the challenge: go on waiting, or stop.
  follow(challenge) {
    const name = this.pending.name;
    const status = challenge.status;
    if (status === "accepted") {
      goToGame(challenge.id);
      return;
    }
    if (status === "declined") {
      this.loadSeats(); // "later": the seats were taken meanwhile
      const reason = challenge.declineReason;
      if (reason) this.finish("bots.declined", { name, reason }, true);
      else this.finish("bots.declinedNoReason", { name }, true);
      return;
    }
    if (status === "canceled") {
      this.finish("bots.canceled", {}, true);
      return;
    }
    this.say("bots.waiting", { name });
    this.pending.timer = setTimeout(() => this.poll(), POLL_MS);
  }

  async poll() {
    const pending = this.pending;
    if (!pending) return;
    try {
      const challenge = await api.challengeShow(pending.id);
      if (this.pending === pending) this.follow(challenge);
    } catch (err) {
      if (this.pending !== pending) return;
      if (err.code === "network.error") {
        pending.timer = setTimeout(() => this.poll(), POLL_MS * 4); // the server may be back soon
      } else {
        this.finish("bots.failed", { error: errorText(err) }, true);
      }
    }
  }

  async cancel() {
    const pending = this.pending;
    if (!pending) return;
    clearTimeout(pending.timer);
    this.finish("bots.canceled", {}, false);
    if (pending.id) {
      try {
        await api.challengeCancel(pending.id);
      } catch {
        /* already answered or gone: nothing left to cancel */
      }
    }
  }

  finish(key, values, isError) {
    if (this.pending) clearTimeout(this.pending.timer);
    this.pending = null;
    this.message = [key, values, isError];
    this.render();
  }
}
