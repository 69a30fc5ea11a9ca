// The move list: a row per turn pair, first's move then second's, the last move marked.
// Rows follow who actually moved (the server's movers): in wali a side that cannot place
// passes, and its cell stays empty instead of shifting every later move into the wrong column.

import { html, render } from "./html.js";
import { t } from "./i18n.js";

export function renderMoves(element, moves, movers = []) {
  const last = moves.length - 1;
  const rows = [];
  let row = null;
  moves.forEach((move, i) => {
    const side = movers[i] || (i % 2 === 0 ? "first" : "second");
    if (!row || side === "first" || row.second !== undefined) {
      row = { first: undefined, second: undefined };
      rows.push(row);
    }
    row[side] = { move, last: i === last };
  });
  const cell = (c) =>
    c === undefined
      ? html`<span class="skip" aria-label="${t("game.noMove")}">…</span>`
      : html`<span class="mv${c.last ? " last" : ""}">${c.move}</span>`;
  const items = rows.map(
    (r, n) => html`<li><span class="n">${n + 1}.</span>${cell(r.first)}${
      r.second === undefined && r === rows[rows.length - 1] ? "" : cell(r.second)}</li>`,
  );
  render(element, items.length ? html`${items}` : html`<li class="empty">${t("game.noMoves")}</li>`);
  element.scrollTop = element.scrollHeight;
}
