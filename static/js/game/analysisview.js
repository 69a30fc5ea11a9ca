// The analysis board drawn from its state (analysis.js): the title, the players, the status,
// the replay buttons, the move tree (every move a button that shows the position after it,
// variations in parentheses) and the record's tags.

import { html, render } from "../lib/html.js";
import { t } from "../i18n/i18n.js";
import { playerBars } from "../board/setup.js";
import { describeRules, playerWord, sideWord, variantName } from "../lib/variant.js";
import { resultText } from "../i18n/words.js";
import { readableMove } from "../board/notation.js";
import { moverOf } from "./movetree.js";

// The record's name for the side (its White or Black tag), null if it has none.
function taggedName(state, side) {
  const name = state.tags[side === "first" ? "White" : "Black"];
  return name && name !== "?" ? name : null;
}

function playerName(state, side) {
  return taggedName(state, side) || playerWord(side, true);
}

// "ann (first)" for a named player, else "First player".
function playerLabel(state, side) {
  const name = taggedName(state, side);
  return name ? `${name} (${sideWord(side)})` : playerWord(side, true);
}

export function renderPlayers(state) {
  const pos = state.positions[state.ply];
  for (const [bar, side] of playerBars(state.orientation)) {
    const toMove = !pos.result && pos.turn === side;
    render(
      bar.querySelector(".who"),
      html`<span class="side-chip side-${side}" aria-hidden="true"></span>
        <span class="name">${playerName(state, side)}</span>
        ${taggedName(state, side) ? html`<span class="sidename">${sideWord(side)}</span>` : ""}
        ${toMove ? html`<span class="turn-mark"><span aria-hidden="true">◀</span><span class="words"> ${t("player.toMove")}</span></span>` : ""}`,
    );
  }
}

export function renderStatus(state) {
  const pos = state.positions[state.ply];
  const where = t("analysis.where", { ply: state.ply, total: state.moves.length });
  let line;
  if (pos.result) {
    const players = {};
    for (const side of ["first", "second"]) if (taggedName(state, side)) players[side] = { name: taggedName(state, side) };
    line = html`<strong>${resultText({ result: { ...pos.result, status: "variantEnd" }, players }, { variant: state.variant })}</strong>`;
  } else if (state.choice.kind === "pick") {
    line = html`<strong>${t("status.pick")}</strong>`;
  } else {
    const check = pos.check ? html` · <strong class="check-note">${t("status.check")}</strong>` : "";
    line = html`${t("status.toMove", { who: playerLabel(state, pos.turn) })}${check}`;
  }
  render(document.getElementById("status"), html`${line} <span class="note">· ${where}</span>`);
}

export function renderTitle(state) {
  const rules = describeRules(state.variant, state.rules);
  render(
    document.getElementById("title"),
    html`${t("analysis.heading")}<small>${variantName(state.variant)}${rules ? ` · ${rules}` : ""}</small>`,
  );
  document.title = `${t("analysis.heading")} · ${variantName(state.variant)} · Kodama`;
}

export function renderReplay(state) {
  const last = state.moves.length;
  const button = (action, label, text, disabled) =>
    html`<button type="button" data-action="${action}" aria-label="${label}" title="${label}"
      ${disabled ? html`disabled` : ""}>${text}</button>`;
  render(
    document.getElementById("replay"),
    html`${button("first", t("replay.first"), "«", state.ply === 0)}${button(
      "prev", t("replay.prev"), "◀", state.ply === 0)}<span class="replay-ply">${state.ply} / ${last}</span>${button(
      "next", t("replay.next"), "▶", state.ply >= last)}${button("last", t("replay.last"), "»", state.ply >= last)}`,
  );
}

// The move tree (movetree.js) as lichess writes it: the main line a row per turn pair,
// first's move then second's, written as the game page writes moves (board/notation.js);
// after a move that has alternatives, each alternative on its own row in parentheses, its
// own alternatives nested inline. Every move is a button showing the position after it; the
// one shown is marked. Rows follow who moved (a side passed in wali leaves its cell empty).
export function renderTree(element, state) {
  const { tree } = state;
  const shown = state.line[state.ply];
  const button = (node) => {
    const { text, label } = readableMove(state.variant, node.parent.pos.fen, node.move, state.pieceSet);
    const current = node === shown;
    return html`<button type="button" class="mv${current ? " current" : ""}" data-node="${node.id}"
      data-ply="${node.depth}" data-move="${node.move}" title="${node.move}"
      aria-label="${t("analysis.goTo", { n: node.depth, move: label })}"
      ${current ? html`aria-current="step"` : ""}>${text}</button>`;
  };
  const alternatives = (node) => (node.parent.children[0] === node ? node.parent.children.slice(1) : []);
  // A variation from `start`, inline: "3. C*b2 G c1-c2 (3… L b1-a2) 4. …".
  const variation = (start) => {
    const parts = [];
    let numbered = true;
    for (let node = start; node; node = node.children[0]) {
      const side = moverOf(node);
      if (side === "first") parts.push(html`<span class="n">${node.n}.</span>`);
      else if (numbered) parts.push(html`<span class="n">${node.n}…</span>`);
      parts.push(button(node));
      numbered = false;
      const others = node === start ? [] : alternatives(node);
      for (const other of others) parts.push(html`<span class="sub">(${variation(other)})</span>`);
      if (others.length) numbered = true;
    }
    return html`${parts.map((part, i) => (i ? html` ${part}` : part))}`;
  };
  const items = [];
  let row = null;
  const closeRow = () => {
    if (row) items.push(row);
    row = null;
  };
  const filler = html`<span class="skip" aria-hidden="true">…</span>`;
  const pass = html`<span class="skip" aria-label="${t("game.noMove")}">…</span>`;
  for (const node of tree.mainLine().slice(1)) {
    const side = moverOf(node);
    if (row && (side === "first" || row.second !== undefined)) closeRow();
    if (!row) {
      // A row that goes on after variations starts "…" where its first move was.
      const split = side === "second" && Boolean(items.length && items[items.length - 1].variation);
      row = { n: node.n, first: undefined, second: undefined, split };
    }
    row[side] = node;
    const others = alternatives(node);
    if (others.length) {
      // The row stops at the move that has alternatives; the main line goes on after them.
      row.cut = side === "first";
      closeRow();
      for (const other of others) items.push({ variation: other });
    }
  }
  closeRow();
  const shownItems = items.map((item, i) => {
    if (item.variation) return html`<li class="variation">(${variation(item.variation)})</li>`;
    const first = item.first ? button(item.first) : item.split ? filler : pass;
    const last = i === items.length - 1;
    const second = item.second ? button(item.second) : item.cut ? filler : last ? "" : pass;
    return html`<li><span class="n">${item.n}.</span>${first}${second}</li>`;
  });
  render(element, shownItems.length ? html`${shownItems}` : html`<li class="empty">${t("game.noMoves")}</li>`);
  const current = element.querySelector(".mv.current");
  if (current) current.scrollIntoView({ block: "nearest" });
}

// The tags people read (who, when, where, the result); the rest stays in the record.
const SHOWN = ["Event", "Date", "White", "Black", "Result", "Reason", "TimeControl", "Site"];

export function renderTags(tags) {
  const shown = SHOWN.filter((name) => tags[name] !== undefined && tags[name] !== "" && tags[name] !== "?");
  if (!shown.length) return html``;
  return html`${shown.map((name) => {
    const value = tags[name];
    const link = name === "Site" && /^https?:\/\//.test(value);
    return html`<div><dt>${t(`analysis.tag.${name}`)}</dt><dd>${link ? html`<a href="${value}">${value}</a>` : value}</dd></div>`;
  })}`;
}
