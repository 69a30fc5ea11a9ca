// The analysis board's move list (every move a button that shows the position after it) and
// the record's tags, drawn from the line and the server's positions.

import { html, render } from "./html.js";
import { t } from "./i18n.js";

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
