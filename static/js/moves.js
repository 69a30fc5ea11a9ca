// The move list: numbered pairs, the last move marked.

import { html, render } from "./html.js";

export function renderMoves(element, moves) {
  const rows = [];
  for (let i = 0; i < moves.length; i += 2) {
    const last = moves.length - 1;
    rows.push(html`<li><span class="n">${i / 2 + 1}.</span>
      <span class="mv${i === last ? " last" : ""}">${moves[i]}</span>
      <span class="mv${i + 1 === last ? " last" : ""}">${moves[i + 1] ?? ""}</span></li>`);
  }
  render(element, rows.length ? html`${rows}` : html`<li class="empty">No moves yet</li>`);
  element.scrollTop = element.scrollHeight;
}
