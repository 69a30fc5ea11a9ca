// The game page's panels drawn from its state (pages/game.js keeps the state, plays the moves
// and calls these on each change): the title, the players' bars and clocks, the status line,
// rating changes, the buttons, the invite link, the move list and the viewer's preferences.
// The markup of the bars, the status and the buttons is gamepanels.js's.

import { PIECE_SETS } from "../board/pieces.js";
import { playerBars } from "../board/setup.js";
import { html, render, renderChanged } from "../lib/html.js";
import { clockText, describeRules, variantName } from "../lib/variant.js";
import { t, tn } from "../i18n/i18n.js";
import { changeList } from "../players/ratings.js";
import { inviteLink } from "../site/ui.js";
import { ClaimCountdown } from "./claimcountdown.js";
import { Clocks } from "./clock.js";
import { actionButtons, playerBar, statusLine } from "./gamepanels.js";
import { renderMoves } from "./moves.js";
import { notationPicker } from "./notationpref.js";
import { renderRematch } from "./rematch.js";
import { isMuted } from "./sound.js";
import { renderTakeaway } from "./takeaway.js";

const $ = (id) => document.getElementById(id);

// ---- who is who ---------------------------------------------------------------------------
export function seatOf(game, me) {
  if (!me || !game.players) return null;
  for (const side of ["first", "second"]) {
    if (game.players[side] && game.players[side].id === me.id) return side;
  }
  return null;
}

export function mySeat(page) {
  return seatOf(page.game, page.me);
}

export function myTurn(page) {
  const g = page.game;
  return g.status === "started" && mySeat(page) === g.turn;
}

export function isCreator(page) {
  const g = page.game;
  return Boolean(page.me && g.players && g.players.creator && g.players.creator.id === page.me.id);
}

// ---- the panels ---------------------------------------------------------------------------
// Drawn again at every message of the game's socket (a move, a state, who is online): the
// panels with buttons and links drawn only when they say something else, so that a click on
// one is not lost to it being drawn again (the press on the old button, the release on the
// new) nor its focus.
export class GameView {
  constructor(page) {
    this.page = page;
    this.clocks = new Clocks(document.body);
    this.claims = new ClaimCountdown(() => this.actions());
  }

  // Every panel but the board, with the position `shown` (review.js) in the move list.
  draw(shown) {
    const page = this.page;
    const game = page.game;
    this.clocks.sync(game);
    this.claims.sync(game);
    this.tabTitle();
    this.players();
    this.status();
    this.ratings();
    this.actions();
    this.invite();
    renderTakeaway($("takeaway"), game, page.variant);
    renderMoves($("moves"), {
      moves: game.moves,
      movers: game.movers,
      fens: page.fens,
      variant: page.variant,
      pieceSet: page.pieceSet,
      shown,
    });
    page.review.renderControls($("replay"));
  }

  // "Your turn" leads the tab's title while it is: seen from another tab.
  tabTitle() {
    const page = this.page;
    const name = `${variantName(page.variant)} · Kodama`;
    document.title = myTurn(page) ? `${t("title.yourTurn")} · ${name}` : name;
  }

  title() {
    const page = this.page;
    const game = page.game;
    const name = variantName(page.variant);
    this.tabTitle();
    const rules = describeRules(page.variant, game.rules);
    render(
      $("title"),
      html`${name}<small>${clockText(game.clock, game.daysPerTurn)}${rules ? ` · ${rules}` : ""}${
        game.public ? "" : ` · ${t("game.private")}`
      }</small>`,
    );
    renderChanged(
      $("rules-link"),
      html`<a href="/rules/${encodeURIComponent(page.variant.id)}" data-rules-link>${t("game.rules", { game: name })}</a>`,
    );
    this.prefs();
  }

  players() {
    const page = this.page;
    if (!page.game) return;
    for (const [bar, side] of playerBars(page.orientation)) {
      bar.dataset.side = side;
      renderChanged(bar.querySelector(".who"), playerBar(page, side));
      bar.querySelector(".clock").dataset.side = side;
    }
    $("watchers").textContent = tn("player.spectators", page.presence.spectators || 0);
    this.clocks.tick();
  }

  // (its deadline's text is the clocks' to write: tick() writes it after)
  status() {
    renderChanged($("status"), statusLine(this.page, mySeat(this.page), isCreator(this.page)));
    this.clocks.tick();
  }

  // Each player's rating change, once a rated game's end has made it.
  ratings() {
    render($("rating-changes"), changeList(this.page.game));
  }

  actions() {
    const page = this.page;
    const game = page.game;
    if (!game) return;
    const seat = mySeat(page);
    // (a claim's seconds, in its disabled button, are ClaimCountdown's to write each tick)
    renderChanged($("actions"), actionButtons(page, seat, isCreator(page), this.claims));
    renderRematch($("rematch"), game, seat);
    if (ClaimCountdown.applies(game, page.presence, seat)) {
      render($("claim-note"), html`${this.claims.note(game, page.presence, seat)}`);
    } else {
      $("claim-note").textContent = "";
    }
  }

  invite() {
    const box = $("invite");
    if (!this.page.invite) {
      box.hidden = true;
      render(box, html``);
      return;
    }
    const link = inviteLink(this.page.invite);
    box.hidden = false;
    renderChanged(
      box,
      html`<label for="invite-link">${t("invite.label")}</label>
      <div class="copy-row">
        <input id="invite-link" type="text" readonly value="${link}">
        <button type="button" data-action="copy-invite" class="primary">${t("invite.copy")}</button>
      </div>`,
    );
  }

  // Looks chosen by the viewer, remembered in this browser.
  prefs() {
    const page = this.page;
    const shogi = page.variant && page.variant.family === "shogi";
    // (a box or list the viewer changed shows it already: game.js keeps the change, so the
    // text drawn next says it too)
    renderChanged(
      $("prefs"),
      html`<label class="check-inline"><input type="checkbox" data-pref="sound" ${
        isMuted() ? "" : html`checked`}> ${t("pref.sound")}</label>${shogi
        ? html`<label>${t("pref.pieces")} <select id="piece-set" data-pref="piece-set">${PIECE_SETS.map(
            (set) => html`<option value="${set}" ${set === page.pieceSet ? html`selected` : ""}>${t(`set.${set}`)}</option>`,
          )}</select></label>`
        : ""}${notationPicker(page.variant)}`,
    );
  }
}
