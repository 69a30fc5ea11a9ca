// The board view (chessground's separation): it knows no rules. It draws a position
// string, highlights what the host says is reachable (`dests`, built from the server's
// legal moves) and reports intents: a move from an origin (a square, `C*` for a drop from
// hand, `*` for a placement) to a square, or the square picked among `pick`.
//
//   const board = new Board(el, { variant, orientation, rules, onMove, onPick });
//   board.set({ fen, lastMove, dests, selectable, pick, pending, orientation });

import { html, render } from "./html.js";
import { parsePosition, sideOf, squareName } from "./position.js";
import { pieceSvg } from "./pieces.js";
import { pieceName, pieceStrength, specialSquares } from "./variant.js";

export class Board {
  constructor(element, { variant, orientation = "first", rules = {}, onMove, onPick } = {}) {
    this.el = element;
    this.variant = variant;
    this.rules = rules;
    this.onMove = onMove || (() => {});
    this.onPick = onPick || (() => {});
    this.special = specialSquares(variant);
    this.state = {
      fen: variant.start,
      orientation,
      lastMove: [],
      removed: null,
      dests: {},
      selectable: null,
      pick: null,
      pending: [],
      pieceSet: "animals",
    };
    this.selected = null;
    this.position = parsePosition(variant, this.state.fen);
    this.el.classList.add("board-view", `family-${variant.family || variant.id}`, `variant-${variant.id}`);
    // The cell size follows the board's shape (site.css): hands and board share it.
    this.el.style.setProperty("--files", variant.board.files);
    this.el.style.setProperty("--ranks", variant.board.ranks);
    this.el.addEventListener("click", (event) => this.click(event));
    this.el.addEventListener("pointerdown", (event) => this.pointerDown(event));
    this.drag = null;
    this.render();
  }

  set(changes) {
    if ("fen" in changes && changes.fen !== this.state.fen) {
      this.position = parsePosition(this.variant, changes.fen);
      this.selected = null;
    }
    Object.assign(this.state, changes);
    if (this.selected && !this.state.dests[this.selected]) this.selected = null;
    this.render();
  }

  flip() {
    this.set({ orientation: this.state.orientation === "first" ? "second" : "first" });
  }

  get orientation() {
    return this.state.orientation;
  }

  // ---- intents ----------------------------------------------------------------------------
  click(event) {
    if (this.suppressClick) {
      // The click that ends a drag: the drop has been handled already.
      this.suppressClick = false;
      return;
    }
    const square = event.target.closest("[data-square]");
    const hand = event.target.closest("[data-hand]");
    if (square) this.clickSquare(square.dataset.square);
    else if (hand) this.clickHand(hand.dataset.side, hand.dataset.hand);
  }

  clickSquare(sq) {
    const { dests, pick } = this.state;
    if (pick) {
      this.onPick(pick.includes(sq) ? sq : null);
      return;
    }
    if (this.selected && (dests[this.selected] || []).includes(sq)) {
      const origin = this.selected;
      this.selected = null;
      this.render();
      this.onMove(origin, sq);
      return;
    }
    if (this.state.selectable && dests[sq]) {
      this.selected = this.selected === sq ? null : sq;
      this.render();
      return;
    }
    // An empty square that only a placement reaches: place at once, no need to pick the hand.
    if (!this.selected && this.state.selectable && (dests["*"] || []).includes(sq)) {
      this.onMove("*", sq);
      return;
    }
    if (this.selected) {
      this.selected = null;
      this.render();
    }
  }

  clickHand(side, letter) {
    if (this.state.pick) {
      this.onPick(null);
      return;
    }
    const key = this.variant.family === "stones" ? "*" : `${letter}*`;
    if (side !== this.state.selectable || !this.state.dests[key]) return;
    this.selected = this.selected === key ? null : key;
    this.render();
  }

  // ---- dragging (pointer events: mouse, pen and touch alike) ---------------------------------
  originKey(target) {
    const square = target.closest("[data-square]");
    const hand = target.closest("[data-hand]");
    const { selectable, dests, pick } = this.state;
    if (!selectable || pick) return null;
    if (square && dests[square.dataset.square]) return square.dataset.square;
    if (hand && hand.dataset.side === selectable) {
      const key = this.variant.family === "stones" ? "*" : `${hand.dataset.hand}*`;
      if (dests[key]) return key;
    }
    return null;
  }

  pointerDown(event) {
    if (event.button !== 0 && event.pointerType === "mouse") return;
    const key = this.originKey(event.target);
    if (!key) return;
    const from = event.target.closest("[data-square], [data-hand]");
    const piece = from.querySelector(".piece");
    if (!piece) return;
    const rect = from.getBoundingClientRect();
    this.drag = { key, x: event.clientX, y: event.clientY, started: false, piece, size: rect.width, ghost: null };
    const move = (e) => this.pointerMove(e);
    const up = (e) => {
      document.removeEventListener("pointermove", move);
      document.removeEventListener("pointerup", up);
      document.removeEventListener("pointercancel", up);
      this.pointerUp(e);
    };
    document.addEventListener("pointermove", move);
    document.addEventListener("pointerup", up);
    document.addEventListener("pointercancel", up);
  }

  pointerMove(event) {
    const d = this.drag;
    if (!d) return;
    if (!d.started) {
      if (Math.hypot(event.clientX - d.x, event.clientY - d.y) < 6) return;
      d.started = true;
      this.selected = d.key;
      const ghost = document.createElement("div");
      ghost.className = `drag-ghost ${[...this.el.classList].join(" ")}`;
      ghost.style.setProperty("--cell", `${d.size}px`);
      ghost.style.width = ghost.style.height = `${d.size}px`;
      ghost.innerHTML = d.piece.outerHTML; // markup this view wrote itself
      document.body.append(ghost);
      d.ghost = ghost;
      this.render();
      this.el.classList.add("dragging");
    }
    event.preventDefault();
    d.ghost.style.transform = `translate(${event.clientX - d.size / 2}px, ${event.clientY - d.size / 2}px)`;
    const over = document.elementFromPoint(event.clientX, event.clientY);
    const sq = over && over.closest && over.closest("[data-square]");
    for (const el of this.el.querySelectorAll(".sq.drag-over")) el.classList.remove("drag-over");
    if (sq && (this.state.dests[d.key] || []).includes(sq.dataset.square)) sq.classList.add("drag-over");
  }

  pointerUp(event) {
    const d = this.drag;
    this.drag = null;
    if (!d || !d.started) return;
    d.ghost.remove();
    this.el.classList.remove("dragging");
    this.suppressClick = true;
    setTimeout(() => (this.suppressClick = false), 0);
    const over = document.elementFromPoint(event.clientX, event.clientY);
    const sq = over && over.closest && over.closest("[data-square]");
    const target = sq && this.el.contains(sq) ? sq.dataset.square : null;
    if (target && (this.state.dests[d.key] || []).includes(target)) {
      this.selected = null;
      this.render();
      this.onMove(d.key, target);
      return;
    }
    // Dropped elsewhere: the piece stays selected, so a click can still finish the move.
    this.render();
  }

  // ---- drawing ----------------------------------------------------------------------------
  squaresInView() {
    const { files, ranks } = this.variant.board;
    const flipped = this.state.orientation === "second";
    const rows = [];
    for (let row = 0; row < ranks; row++) {
      const cells = [];
      for (let col = 0; col < files; col++) {
        const file = flipped ? files - 1 - col : col;
        const rank = flipped ? row : ranks - 1 - row;
        cells.push({ file, rank, name: squareName(file, rank), row, col });
      }
      rows.push(cells);
    }
    return rows;
  }

  pieceMarkup(token) {
    const side = sideOf(token);
    const family = this.variant.family;
    if (family === "stones") {
      return html`<span class="piece stone side-${side}" aria-hidden="true"></span>`;
    }
    const promoted = token.startsWith("+");
    const letter = token.replace("+", "").toUpperCase();
    // Shogi pieces point at the opponent: the far side's are drawn upside down.
    const turned = family === "shogi" && side !== this.state.orientation;
    const strength = pieceStrength(this.variant, token);
    const art = pieceSvg(this.variant, token, this.state.pieceSet);
    return html`<span
      class="piece side-${side}${promoted ? " promoted" : ""}${turned ? " turned" : ""}${
        String(art) ? " has-art" : ""}"
      aria-hidden="true"
      title="${pieceName(this.variant, token, this.rules)}"
      >${art}<span class="letter">${letter}</span>${strength !== null
        ? html`<span class="strength">${strength}</span>`
        : ""}</span
    >`;
  }

  cellMarkup(cell, lastRow) {
    const { name } = cell;
    const token = this.position.board.get(name);
    const st = this.state;
    const targets = this.selected ? st.dests[this.selected] || [] : [];
    const special = this.special.get(name);
    const classes = ["sq"];
    const words = [name];
    if (token) words.push(`${sideOf(token)} ${pieceName(this.variant, token, this.rules)}`);
    if (special) {
      classes.push(...special.classes);
      words.push(...special.words);
    }
    if (st.lastMove.includes(name)) classes.push("last");
    if (st.removed === name) classes.push("removed");
    if (st.pending.includes(name)) classes.push("pending");
    if (this.selected === name) {
      classes.push("selected");
      words.push("selected");
    }
    if (targets.includes(name)) {
      classes.push(token ? "dest capture" : "dest");
      words.push("can move here");
    }
    if (st.pick && st.pick.includes(name)) {
      classes.push("pick");
      words.push("can be removed");
    }
    if (st.selectable && st.dests[name]) classes.push("movable");
    const coords = [];
    if (cell.row === lastRow) coords.push(html`<span class="coord file">${name[0]}</span>`);
    if (cell.col === 0) coords.push(html`<span class="coord rank">${name.slice(1)}</span>`);
    return html`<button type="button" class="${classes.join(" ")}" data-square="${name}"
      aria-label="${words.join(", ")}">${coords}${token ? this.pieceMarkup(token) : ""}</button>`;
  }

  handMarkup(side, where) {
    const family = this.variant.family;
    if (family !== "shogi" && family !== "stones") return "";
    const st = this.state;
    const pieces = this.position.hands[side] || [];
    const order = this.variant.hand_order || ["S"];
    const items = order
      .map((letter) => pieces.find((p) => p.letter === letter))
      .filter((p) => p && (p.count > 0 || family === "stones"))
      .map((p) => {
        const key = family === "stones" ? "*" : `${p.letter}*`;
        const token = side === "first" ? p.letter : p.letter.toLowerCase();
        const usable = st.selectable === side && st.dests[key] && p.count > 0;
        const name = pieceName(this.variant, token, this.rules);
        const label = `${side}'s hand: ${p.count} ${name}${p.count === 1 ? "" : "s"}`;
        return html`<button type="button"
          class="hand-piece${usable ? " movable" : ""}${this.selected === key ? " selected" : ""}"
          data-hand="${p.letter}" data-side="${side}" aria-label="${label}"
          ${usable ? "" : html`aria-disabled="true"`}
          >${this.pieceMarkup(token)}<span class="count" data-n="${p.count}">${p.count}</span></button>`;
      });
    return html`<div class="hand hand-${where} side-${side}" aria-label="${side}'s hand">
      ${items}</div>`;
  }

  render() {
    const { ranks } = this.variant.board;
    const top = this.state.orientation === "first" ? "second" : "first";
    const rows = this.squaresInView();
    const cells = rows.flat().map((cell) => this.cellMarkup(cell, ranks - 1));
    render(
      this.el,
      html`${this.handMarkup(top, "top")}
        <div class="board${this.state.pick ? " picking" : ""}" role="group"
          aria-label="${this.variant.name} board, seen from ${this.state.orientation}'s side"
          >${cells}</div>
        ${this.handMarkup(this.state.orientation, "bottom")}`,
    );
  }
}
