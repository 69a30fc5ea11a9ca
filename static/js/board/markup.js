// How the board view (board/board.js) draws one square, one hand and one piece: the markup,
// its classes (the marks: selected, dest, last…) and the words a screen reader says for
// each. It reads the board's state and knows no rules.

import { html } from "../lib/html.js";
import { t } from "../i18n/i18n.js";
import { sideOf } from "./position.js";
import { pieceSvg } from "./pieces.js";
import { pieceStrength, playerWord } from "../lib/variant.js";

const MARKS = [
  "selected", "dest", "capture", "last", "removed", "jumped", "line", "pick", "check", "pending",
  "blocked", "premove", "place",
];

export function pieceMarkup(board, token) {
  const side = sideOf(token);
  const family = board.variant.family;
  if (family === "stones") {
    return html`<span class="piece stone side-${side}" aria-hidden="true"></span>`;
  }
  const promoted = token.startsWith("+");
  const letter = token.replace("+", "").toUpperCase();
  // Pieces face their owner, as over a real board: the far side's are turned round,
  // picture, letter and movement dots alike.
  const turned = side !== board.state.orientation;
  const strength = pieceStrength(board.variant, token);
  const art = pieceSvg(board.variant, token, board.state.pieceSet, turned);
  return html`<span
    class="piece side-${side}${promoted ? " promoted" : ""}${turned ? " turned" : ""}${
      String(art) ? " has-art" : ""}"
    aria-hidden="true"
    title="${board.pieceLabel(token)}"
    >${art}<span class="letter">${letter}</span>${strength !== null
      ? html`<span class="strength">${strength}</span>`
      : ""}</span
  >`;
}

export function cellMarkup(board, cell, lastRow) {
  const { name } = cell;
  const token = board.position.board.get(name);
  const st = board.state;
  const targets = board.selected ? st.dests[board.selected] || [] : [];
  const special = board.special.get(name);
  const classes = ["sq"];
  const words = [];
  if (token) {
    words.push(t("board.piece", {
      sq: name,
      owner: playerWord(sideOf(token)),
      piece: board.pieceLabel(token).toLowerCase(),
    }));
  } else words.push(name);
  if (special) {
    classes.push(...special.classes);
    words.push(...special.words.map((w) => w()));
  }
  const marks = new Set((st.marks && st.marks[name]) || []);
  if (st.lastMove.includes(name)) marks.add("last");
  if (st.removed === name) marks.add("removed");
  if (st.pending.includes(name)) marks.add("pending");
  if (board.selected === name) marks.add("selected");
  if (targets.includes(name)) marks.add("dest");
  if (st.pick && st.pick.includes(name)) marks.add("pick");
  if (st.check === name) marks.add("check");
  for (const mark of MARKS) if (marks.has(mark)) classes.push(mark);
  if (marks.has("dest") && token) classes.push("capture");
  if (marks.has("check")) words.push(t("board.check"));
  if (marks.has("last")) words.push(t("board.lastMove"));
  if (marks.has("jumped")) words.push(t("board.jumped"));
  if (marks.has("line")) words.push(t("board.line"));
  if (marks.has("selected")) words.push(t("board.selected"));
  if (marks.has("dest")) words.push(t("board.dest"));
  else if (marks.has("place")) words.push(t("board.place"));
  if (marks.has("pick")) words.push(t("board.pick"));
  if (marks.has("premove")) words.push(t("board.premove"));
  if (st.selectable && st.dests[name]) classes.push("movable");
  const coords = [];
  if (board.coords && cell.row === lastRow) coords.push(html`<span class="coord file">${name[0]}</span>`);
  if (board.coords && cell.col === 0) coords.push(html`<span class="coord rank">${name.slice(1)}</span>`);
  const piece = token ? pieceMarkup(board, token) : "";
  if (board.diagram) {
    return html`<span class="${classes.join(" ")}" data-square="${name}">${coords}${piece}</span>`;
  }
  const tabindex = name === board.focusSquare ? "0" : "-1";
  return html`<button type="button" class="${classes.join(" ")}" data-square="${name}"
    tabindex="${tabindex}" aria-label="${words.join(", ")}">${coords}${piece}</button>`;
}

export function handMarkup(board, side, where) {
  const family = board.variant.family;
  if (!board.showHands || (family !== "shogi" && family !== "stones")) return "";
  const st = board.state;
  const pieces = board.position.hands[side] || [];
  const order = board.variant.hand_order || ["S"];
  const owner = playerWord(side);
  const items = order
    .map((letter) => pieces.find((p) => p.letter === letter))
    .filter((p) => p && (p.count > 0 || family === "stones"))
    .map((p) => {
      const key = board.handKey(p.letter);
      const token = side === "first" ? p.letter : p.letter.toLowerCase();
      const usable = st.selectable === side && st.dests[key] && p.count > 0;
      const label = t("board.handPiece", { owner, piece: board.pieceLabel(token).toLowerCase(), n: p.count });
      const inner = html`${pieceMarkup(board, token)}<span class="count" data-n="${p.count}">${p.count}</span>`;
      if (board.diagram) {
        const marked = ((st.marks && st.marks[key]) || []).includes("selected") && side === "first";
        return html`<span class="hand-piece${marked ? " selected" : ""}" data-hand="${p.letter}"
          data-side="${side}">${inner}</span>`;
      }
      return html`<button type="button"
        class="hand-piece${usable ? " movable" : ""}${board.selected === key ? " selected" : ""}"
        data-hand="${p.letter}" data-side="${side}" aria-label="${label}"
        ${usable ? "" : html`aria-disabled="true"`}>${inner}</button>`;
    });
  return html`<div class="hand hand-${where} side-${side}" role="group"
    aria-label="${t("board.hand", { owner })}">${items}</div>`;
}
