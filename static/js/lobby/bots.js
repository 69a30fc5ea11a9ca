// "Play the computer": one button per online bot account (GET /api/bot/online, NDJSON).
// A click challenges it with the lobby form's choices (lichess's challenge API, see
// docs/api.md), then asks every half second until the bot answers: accepted opens
// the game (the challenge id is the game id), declined shows its reason. A built-in
// opponent with no free seat (GET /api/builtin/seats, read every SEATS_MS while the page
// is in view and after a decline) shows disabled as busy. The strongest opponent the site
// has for the chosen game (perfect play from the solved table for Dōbutsu, Fairy-Stockfish
// where it plays, else the hard level) is marked in the list, its line saying what it is
// and its rating from the site's games (the same seats reading): in place of its usual line,
// so that the lobby's first screen holds as much as before (docs/decisions/game-page-fit.md).

import { api, request } from "../site/api.js";
import { html, renderChanged } from "../lib/html.js";
import { errorText, t, tn } from "../i18n/i18n.js";
import { goToGame } from "../site/site.js";
import { challengeTime } from "./timecontrol.js";
import { variantName } from "../lib/variant.js";

const POLL_MS = 500;
const SEATS_MS = 5000;
// The lobby's sides in the challenge API's colours: white moves first.
const COLORS = { first: "white", second: "black", random: "random" };
// The server's own opponents, weakest first (app/builtin/service.py LEVELS, then
// Fairy-Stockfish and perfect play): listed in that order with a line on how each plays;
// any other bot after them, by name.
const BUILTIN = [
  "kodama-random",
  "kodama-easy",
  "kodama-medium",
  "kodama-hard",
  "kodama-fairy",
  "kodama-perfect",
];
// The strongest first: the one offered as the strongest is the first online that plays the
// chosen game under its rules.
const STRONGEST = ["kodama-perfect", "kodama-fairy", "kodama-hard"];
const PERFECT = "kodama-perfect";
const FAIRY = "kodama-fairy";

function strengthOrder(a, b) {
  const rank = (bot) => (BUILTIN.includes(bot.username) ? BUILTIN.indexOf(bot.username) : BUILTIN.length);
  return rank(a) - rank(b) || a.username.localeCompare(b.username);
}

export class BotPanel {
  // choices(): the lobby form's {variant, rules, clock, color, rated} or null; selected(): its
  // game; rules(): its rule options, {name: value}.
  constructor(section, { variants, choices, selected, rules }) {
    this.section = section;
    this.list = section.querySelector("#bot-list");
    this.status = section.querySelector("#bot-status");
    this.variants = variants;
    this.choices = choices;
    this.selected = selected;
    this.rules = rules;
    this.bots = [];
    this.free = {}; // built-in opponent -> its free seats (0: busy)
    this.seatRows = {}; // built-in opponent -> its GET /api/builtin/seats row (perfs, rulesets)
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
      const seatRows = Object.fromEntries(rows.map((row) => [row.username, row]));
      if (JSON.stringify(seatRows) === JSON.stringify(this.seatRows)) return;
      this.free = free;
      this.seatRows = seatRows;
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

  // Perfect play has no table for the chosen rules (the server lists the rulesets it has).
  noTable(username) {
    const rulesets = this.seatRows[username] && this.seatRows[username].rulesets;
    if (username !== PERFECT || !Array.isArray(rulesets)) return false;
    return !rulesets.includes(this.rules().ruleset || "dobutsu");
  }

  // Fairy-Stockfish knows its games with their default rules only (bots/bridge.py).
  offRules(username, game) {
    if (username !== FAIRY || !game) return false;
    const rules = this.rules();
    return (game.options || []).some((o) => o.name in rules && rules[o.name] !== o.default);
  }

  // Its rating in the game from the site's rated games: [short, in full].
  rating(username, game) {
    const perfs = this.seatRows[username].perfs || {};
    const perf = perfs[game.id];
    const name = variantName(game);
    if (!perf) return [t("bots.unratedShort"), t("bots.unrated", { game: name })];
    const rating = `${perf.rating}${perf.prov ? "?" : ""}`;
    return [
      t("bots.ratingShort", { rating }),
      tn("bots.rating", perf.games, { rating, game: name }),
    ];
  }

  // The strongest online opponent of the server's own for the game under the chosen rules
  // (one the seats list: its rating is known), or null.
  strongestFor(game) {
    if (!game) return null;
    const found = STRONGEST.map((name) => this.bots.find((b) => b.username === name)).find(
      (b) =>
        b &&
        this.seatRows[b.username] &&
        b.bot.games.includes(game.id) &&
        !this.noTable(b.username) &&
        !this.offRules(b.username, game),
    );
    return found ? found.username : null;
  }

  // The strongest's line: what it is and its rating, the same in words for screen readers.
  strongestLine(username, game) {
    const [short, full] = this.rating(username, game);
    return html`<span class="bot-games bot-kind"><span aria-hidden="true">★</span> ${t(`bots.kind.${username}`)} · ${short}</span>
      <span class="visually-hidden">${t("bots.strongest", { game: variantName(game) })}.
        ${full}.</span>`;
  }

  gameName(id) {
    const variant = this.variants.find((v) => v.id === id);
    return variant ? variantName(variant) : id;
  }

  render() {
    this.section.hidden = this.bots.length === 0;
    if (!this.bots.length) return;
    const game = this.selected();
    const strongest = this.strongestFor(game);
    // Drawn again on every seats reading that changed (a count of free seats the buttons do
    // not show, often): unchanged buttons stay, a click on one is not lost.
    renderChanged(
      this.list,
      html`${this.bots.map((b) => {
        const noTable = game && b.bot.games.includes(game.id) && this.noTable(b.username);
        const plays = game && b.bot.games.includes(game.id) && !noTable;
        const busy = this.busy(b.username);
        const games = b.bot.games.map((id) => this.gameName(id)).join(", ");
        let why = t("bots.play", { name: b.username });
        if (noTable) {
          why = t("bots.noTable", { name: b.username });
        } else if (!plays) {
          why = t("bots.notThisGame", { name: b.username, game: game ? variantName(game) : "" });
        } else if (busy) {
          why = t("bots.busy", { name: b.username });
        }
        const best = b.username === strongest;
        if (best) why = `${why}. ${t("bots.about." + b.username)}`;
        return html`<button type="button" class="bot ${best ? "bot-strongest" : ""}"
          data-bot="${b.username}" title="${why}" ${best ? html`data-strongest` : ""}
          ${busy ? html`data-busy` : ""} ${plays && !busy && !this.pending ? "" : html`disabled`}>
          <span class="bot-name"><span class="bot-title">${b.title || "BOT"}</span> ${b.username}</span>
          ${best
            ? this.strongestLine(b.username, game)
            : html`<span class="bot-games">${BUILTIN.includes(b.username)
              ? t(`bots.about.${b.username}`)
              : t("bots.plays", { games })}</span>`}${busy
            ? html`<span class="bot-games bot-busy">${t("bots.busyShort")}</span>`
            : ""}${noTable
            ? html`<span class="bot-games bot-busy">${t("bots.noTableShort")}</span>`
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
      renderChanged(this.status, html``);
      return;
    }
    const [key, values, isError] = this.message;
    // Said again at each answer while waiting (every POLL_MS): its Cancel button stays.
    renderChanged(
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
