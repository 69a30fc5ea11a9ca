// "Claim victory" / "Claim draw" while the opponent is away: shown at once, disabled with a
// countdown until the server allows the claim. It opens at the presence message's
// `goneSince` plus the state's `claimGrace` for that side (docs/protocol.md), counted on
// the server's clock: from the state's `serverTime`, as the clocks are (clock.js).

import { html, setText } from "../lib/html.js";
import { t } from "../i18n/i18n.js";

export class ClaimCountdown {
  // onOpen(): called once when a claim becomes allowed (the host draws its buttons again).
  constructor(onOpen) {
    this.onOpen = onOpen;
    this.base = null; // {serverTime, at}: the server's clock at a moment of this page's
    this.opensAt = null; // the server time the claim opens at, or null (no claim to make)
    this.timer = null;
  }

  // A state or move message arrived (its serverTime is the server's clock now).
  sync(game) {
    this.base = { serverTime: game.serverTime, at: performance.now() };
  }

  serverNow() {
    return this.base.serverTime + (performance.now() - this.base.at);
  }

  // Whether claims apply: the viewer plays a live, non-correspondence game whose opponent
  // is offline (presence says so).
  static applies(game, presence, seat) {
    if (!seat || game.status !== "started" || game.daysPerTurn || !presence.online) return false;
    const opponent = seat === "first" ? "second" : "first";
    return presence.online[opponent] === false;
  }

  // ms until the claim against `opponent` opens (0: now), or null when unknown.
  leftMs(game, presence, opponent) {
    const since = presence.goneSince ? presence.goneSince[opponent] : null;
    const grace = game.claimGrace ? game.claimGrace[opponent] : null;
    if (since == null || grace == null || !this.base) return null;
    return Math.max(0, since + grace - this.serverNow());
  }

  // The two buttons, disabled with the seconds left until the claim opens.
  buttons(game, presence, seat) {
    const opponent = seat === "first" ? "second" : "first";
    const left = this.leftMs(game, presence, opponent);
    this.opensAt = left === null ? null : this.serverNow() + left;
    this.schedule();
    const waiting = left === null || left > 0;
    const seconds = left === null ? null : Math.ceil(left / 1000);
    const wait = waiting && seconds !== null
      ? html` <span class="claim-left" data-claim-left>${t("claim.in", { s: seconds })}</span>`
      : "";
    const button = (action, label) => html`<button type="button" data-action="${action}"
      ${waiting ? html`disabled` : ""}>${label}${wait}</button>`;
    return [button("claim-victory", t("action.claimVictory")), button("claim-draw", t("action.claimDraw"))];
  }

  // The note under the buttons.
  note(game, presence, seat) {
    const opponent = seat === "first" ? "second" : "first";
    const left = this.leftMs(game, presence, opponent);
    return left === 0 ? t("claim.open") : t("claim.note");
  }

  // Counting down: the seconds shown each quarter second; the host told when it opens.
  schedule() {
    clearInterval(this.timer);
    this.timer = null;
    if (this.opensAt === null) return;
    this.timer = setInterval(() => this.tick(), 250);
  }

  tick() {
    const spans = document.querySelectorAll("[data-claim-left]");
    if (this.opensAt === null || spans.length === 0) {
      clearInterval(this.timer);
      this.timer = null;
      return;
    }
    const left = Math.max(0, this.opensAt - this.serverNow());
    if (left === 0) {
      clearInterval(this.timer);
      this.timer = null;
      this.onOpen();
      return;
    }
    for (const span of spans) setText(span, t("claim.in", { s: Math.ceil(left / 1000) }));
  }
}
