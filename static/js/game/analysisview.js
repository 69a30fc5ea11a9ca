// The analysis board drawn from its state (analysis.js): the title, the players, the status,
// the replay buttons, the move list (every move a button that shows the position after it)
// and the record's tags.

import { html, render } from "../lib/html.js";
import { t } from "../i18n/i18n.js";
import { playerBars } from "../board/setup.js";
import { describeRules, playerWord, sideWord, variantName } from "../lib/variant.js";
import { resultText } from "../i18n/words.js";

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
    line = html`<strong>${resultText({ result: { ...pos.result, status: "variantEnd" }, players })}</strong>`;
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

// A row per turn pair, first's move then second's; rows follow who moved (positions[i].turn
// made move i + 1), so a side passed in wali leaves its cell empty.
export function renderLine(element, moves, positions, ply) {
  const rows = [];
  let row = null;
  moves.forEach((move, i) => {
    const side = (positions[i] && positions[i].turn) || (i % 2 === 0 ? "first" : "second");
    if (!row || side === "first" || row.second !== undefined) {
      row = { first: undefined, second: undefined };
      rows.push(row);
    }
    row[side] = { move, ply: i + 1 };
  });
  const cell = (c) =>
    c === undefined
      ? html`<span class="skip" aria-label="${t("game.noMove")}">…</span>`
      : html`<button type="button" class="mv${c.ply === ply ? " current" : ""}" data-ply="${c.ply}"
          aria-label="${t("analysis.goTo", { n: c.ply, move: c.move })}"
          ${c.ply === ply ? html`aria-current="step"` : ""}>${c.move}</button>`;
  const items = rows.map(
    (r, n) => html`<li><span class="n">${n + 1}.</span>${cell(r.first)}${
      r.second === undefined && r === rows[rows.length - 1] ? "" : cell(r.second)}</li>`,
  );
  render(element, items.length ? html`${items}` : html`<li class="empty">${t("game.noMoves")}</li>`);
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
