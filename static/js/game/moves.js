// The move list: a row per turn pair, first's move then second's, each move a button that
// shows the position after it (review.js). Moves are written for people (notation.js) with
// the canonical text as the tooltip; the move whose position is shown is marked.
// Rows follow who actually moved (the server's movers): in wali a side that cannot place
// passes, and its cell stays empty instead of shifting every later move into the wrong column.

import { html, render } from "../lib/html.js";
import { t } from "../i18n/i18n.js";
import { readableMove } from "../board/notation.js";

// `shown`: the ply on the board (the move that made it is marked); `fens`: ply -> position.
export function renderMoves(element, { moves, movers = [], fens, variant, pieceSet, shown }) {
  const rows = [];
  let row = null;
  moves.forEach((move, i) => {
    const side = movers[i] || (i % 2 === 0 ? "first" : "second");
    if (!row || side === "first" || row.second !== undefined) {
      row = { first: undefined, second: undefined };
      rows.push(row);
    }
    row[side] = { move, ply: i + 1 };
  });
  const cell = (c) => {
    if (c === undefined) return html`<span class="skip" aria-label="${t("game.noMove")}">…</span>`;
    const { text, label } = readableMove(variant, fens.get(c.ply - 1) || null, c.move, pieceSet);
    const current = c.ply === shown;
    return html`<button type="button" class="mv${current ? " current" : ""}${
      c.ply === moves.length ? " last" : ""}" data-action="replay-to" data-ply="${c.ply}"
      data-move="${c.move}" title="${c.move}" aria-label="${t("moves.item", { n: c.ply, move: label })}"
      ${current ? html`aria-current="true"` : ""}>${text}</button>`;
  };
  const items = rows.map(
    (r, n) => html`<li><span class="n">${n + 1}.</span>${cell(r.first)}${
      r.second === undefined && r === rows[rows.length - 1] ? "" : cell(r.second)}</li>`,
  );
  const hadFocus = element.contains(document.activeElement);
  render(element, items.length ? html`${items}` : html`<li class="empty">${t("game.noMoves")}</li>`);
  const marked = element.querySelector(".mv.current");
  if (hadFocus && marked) marked.focus({ preventScroll: true });
  keepShownInSight(element);
  // The list's box follows the window's size (site.css): the shown move stays in sight.
  if (!resized.has(element)) {
    resized.add(element);
    new ResizeObserver(() => keepShownInSight(element)).observe(element);
  }
}

const resized = new WeakSet();

// Keep the shown move in sight (the newest while following the game live).
function keepShownInSight(element) {
  const marked = element.querySelector(".mv.current");
  if (!marked || marked.classList.contains("last")) element.scrollTop = element.scrollHeight;
  else if (marked.offsetTop < element.scrollTop
      || marked.offsetTop + marked.offsetHeight > element.scrollTop + element.clientHeight) {
    element.scrollTop = marked.offsetTop - element.clientHeight / 2;
  }
}
