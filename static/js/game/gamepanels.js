// The game page's panels as markup, from the page's state (game.js draws them): a player's
// bar, the status line under the board, and the buttons a viewer has.

import { ClaimCountdown } from "./claimcountdown.js";
import { html } from "../lib/html.js";
import { t } from "../i18n/i18n.js";
import { nameLink } from "../lib/names.js";
import { ratingMark } from "../players/ratings.js";
import { takebackButtons, takebackNote } from "./takeback.js";
import { otherSide, sideWord } from "../lib/variant.js";
import { resultText, sideLabel } from "../i18n/words.js";

// The bar of the player of `side`: online dot, name, rating, "you", side, the turn mark.
export function playerBar(page, side) {
  const game = page.game;
  const players = game.players || {};
  let player = players[side];
  let sideName = sideWord(side);
  if (!player && game.status === "created" && !players.first && !players.second) {
    // Random colours: the sides are drawn when the opponent arrives.
    sideName = t("player.drawn");
    if (side === page.orientation) player = players.creator;
  }
  const name = player ? nameLink(player.name) : game.status === "created" ? t("player.waiting") : "—";
  const online = page.presence.online && page.presence.online[side];
  const here = online ? t("player.online") : t("player.offline");
  const you = Boolean(player && page.me && player.id === page.me.id);
  const turn = game.status === "started" && game.turn === side;
  return html`<span class="dot${online ? " online" : ""}" title="${here}" role="img"
      aria-label="${here}"></span>
    <span class="side-chip side-${side}" aria-hidden="true"></span>
    <span class="name">${name}</span>${player && "rating" in player
      ? ratingMark(player.rating, player.provisional) : ""}${you ? html`<span class="you">${t("player.you")}</span>` : ""}
    <span class="sidename">${sideName}</span>
    ${turn ? html`<span class="turn-mark" title="${t("player.toMove")}"
      ><span aria-hidden="true">◀</span><span class="words"> ${t("player.toMove")}</span></span>` : ""}`;
}

// The line under the board; `seat`: the viewer's (null: a spectator), `creator`: they made it.
export function statusLine(page, seat, creator) {
  const game = page.game;
  let line;
  if (game.status === "created") {
    line = creator
      ? html`${t("status.waitInvite")}`
      : html`${t("status.waitSecond")}`;
  } else if (game.result) {
    line = html`<strong>${resultText(game, { seat, variant: page.variant })}</strong>`;
  } else if (!page.review.live) {
    line = page.review.statusNote();
  } else if (page.choice.kind === "pick") {
    line = html`<strong>${t("status.pick")}</strong>`;
  } else {
    const turn = game.turn;
    const whose = seat === turn
      ? t("status.yourTurn")
      : seat ? t("status.opponentTurn") : t("status.toMove", { who: sideLabel(turn, game.players) });
    let offer = "";
    if (game.drawOffer) {
      offer = game.drawOffer === seat
        ? t("status.youOffered")
        : t("status.theyOffer", { who: sideLabel(game.drawOffer, game.players) });
    }
    const placing = seat === turn && game.legalMoves.some((text) => text.startsWith("*"));
    const hint = placing ? t("status.place") : "";
    const check = game.check && page.review.live ? html` · <strong class="check-note">${t("status.check")}</strong>` : "";
    const takeback = takebackNote(game, seat);
    line = html`${whose}${check}${hint}${offer}${takeback} <span class="deadline"></span>`;
  }
  return line;
}

// The buttons the viewer has now; `claims`: the page's ClaimCountdown.
export function actionButtons(page, seat, creator, claims) {
  const game = page.game;
  const buttons = [];
  const button = (action, label, extra = "") =>
    html`<button type="button" data-action="${action}" class="${extra}">${label}</button>`;
  if (game.status === "created" && creator) {
    buttons.push(button("cancel", t("action.cancel"), "danger"));
  } else if (game.status === "created" && game.public) {
    buttons.push(button("join", t("action.join"), "primary"));
  }
  if (game.status === "started" && seat) {
    const opponent = otherSide(seat);
    if (game.ply < 2) buttons.push(button("abort", t("action.abort")));
    buttons.push(
      page.confirmResign
        ? button("resign", t("action.reallyResign"), "danger")
        : button("resign", t("action.resign")),
    );
    if (game.drawOffer === opponent) {
      buttons.push(button("draw-accept", t("action.drawAccept"), "primary"));
      buttons.push(button("draw-decline", t("action.drawDecline")));
    } else if (game.drawOffer === seat) {
      buttons.push(html`<button type="button" disabled>${t("action.drawOffered")}</button>`);
    } else {
      buttons.push(button("draw-offer", t("action.drawOffer")));
    }
    buttons.push(...takebackButtons(game, seat, button));
    // No claims in a correspondence game: nobody has to stay connected (its days decide).
    if (ClaimCountdown.applies(game, page.presence, seat)) {
      buttons.push(...claims.buttons(game, page.presence, seat));
    }
  }
  buttons.push(button("flip", t("action.flip")));
  if (game.result) buttons.push(html`<a class="button primary" href="/">${t("action.newGame")}</a>`);
  return html`${buttons}`;
}
