// The lobby's Open and Live lists as the viewer sees them: each entry's game, rule options,
// clock, rated/casual, creator and rating, range; the viewer's own seeks (cancel) and games
// (Resume); seeks outside the viewer's rating disabled with why; the filter by game.

import { html, renderChanged } from "../lib/html.js";
import { t } from "../i18n/i18n.js";
import { isOwnGame, seekOffer } from "./lobbylists.js";
import { nameLink } from "../lib/names.js";
import { clockText, describeRules, variantName } from "../lib/variant.js";

const PLAYS = { random: "lobby.playsRandom", first: "lobby.playsFirst", second: "lobby.playsSecond" };

function gameCell(variants, item) {
  const v = variants.find((x) => x.id === item.variant);
  const rules = describeRules(v, item.rules);
  const mode = t(item.rated ? "lobby.rated" : "lobby.casual");
  return html`<span class="variant-name">${v ? variantName(v) : item.variant}</span>
    <span class="note">${clockText(item.clock, item.days)} · ${mode}${rules ? ` · ${rules}` : ""}</span>`;
}

function creatorCell(g) {
  if (!g.creatorRating) {
    return html`<span class="who">${t("lobby.anonymous")}</span>`;
  }
  const { rating, provisional } = g.creatorRating;
  return html`<span class="who">${nameLink(g.creator)}</span>
    <span class="rating">(${rating}${provisional ? "?" : ""})</span>`;
}

function rangeCell(g) {
  if (!g.ratingRange) return "";
  return html` <span class="note range">${t("lobby.range", { low: g.ratingRange[0], high: g.ratingRange[1] })}</span>`;
}

function openAction(g, offer, ratingOf) {
  if (offer === "own") {
    return html`<span class="mine">${t("lobby.yours")}</span>
      <button type="button" data-cancel="${g.id}">${t("lobby.cancel")}</button>`;
  }
  if (offer === "outOfRange") {
    const why = `lobby-why-${g.id}`;
    return html`<button type="button" class="primary" disabled aria-describedby="${why}">${t("lobby.join")}</button>
      <span class="note" id="${why}">${t("lobby.outOfRange", { rating: ratingOf(g.variant) })}</span>`;
  }
  return html`<button type="button" class="primary" data-join="${g.id}">${t("lobby.join")}</button>`;
}

// The three are drawn at every change of either list (the lobby socket's), but only when
// they say something else: a click on a Join button, a link or a box is not lost to it, and
// a Join or Cancel button pages/lobby.js disabled while its request is out stays disabled.

// ctx: {variants, meId, ratingOf(variant) -> number, hidden: Set of game ids not shown}
export function renderOpen(el, open, ctx) {
  const shown = open.filter((g) => !ctx.hidden.has(g.variant));
  renderChanged(
    el,
    shown.length
      ? html`<ul class="game-list">${shown.map((g) => {
          const offer = seekOffer(g, ctx.meId, ctx.ratingOf);
          return html`<li class="${offer === "own" ? "own" : ""}" data-game="${g.id}">
            <div>${gameCell(ctx.variants, g)}<br>${creatorCell(g)}
              <span class="note">${t(PLAYS[g.color] || "lobby.playsRandom")}</span>${rangeCell(g)}</div>
            <div class="actions">${openAction(g, offer, ctx.ratingOf)}</div></li>`;
        })}</ul>`
      : html`<p class="note">${t("lobby.noOpen")}</p>`,
  );
}

export function renderLive(el, live, ctx) {
  const shown = live.filter((g) => !ctx.hidden.has(g.variant));
  renderChanged(
    el,
    shown.length
      ? html`<ul class="game-list">${shown.map((g) => {
          const own = isOwnGame(g, ctx.meId);
          return html`<li class="${own ? "own" : ""}">
            <div>${gameCell(ctx.variants, g)}<br><span class="who">${nameLink(g.first)}</span>
              <span class="note">${t("lobby.vs")}</span> <span class="who">${nameLink(g.second)}</span></div>
            <a class="button${own ? " primary" : ""}" href="/game/${encodeURIComponent(g.id)}">${
              t(own ? "lobby.resume" : "lobby.watch")}</a></li>`;
        })}</ul>`
      : html`<p class="note">${t("lobby.noLive")}</p>`,
  );
}

// One checkbox per game; unchecked ones are hidden from both lists.
export function renderFilter(el, variants, hidden) {
  renderChanged(
    el,
    html`<legend>${t("lobby.filter")}</legend>${variants.map(
      (v) => html`<label class="check"><input type="checkbox" data-filter="${v.id}"
        ${hidden.has(v.id) ? "" : html`checked`}> ${variantName(v)}</label>`,
    )}`,
  );
}
