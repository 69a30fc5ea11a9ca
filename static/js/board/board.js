// The board view (chessground's separation): it knows no rules. It draws a position
// string, highlights what the host says is reachable (`dests`, built from the server's
// legal moves) and reports intents: a move from an origin (a square, `C*` for a drop from
// hand, `*` for a placement) to a square, the square picked among `pick`, or a click that
// leads nowhere (`onRefuse(origin, square)`: the host may say why).
//
//   const board = new Board(el, { variant, orientation, onMove, onPick, onRefuse, hands, announce });
//   board.set({ fen, lastMove, dests, selectable, pick, pending, orientation, check });
//
// Mouse, touch (click-click or drag: board/drag.js) and keyboard (roving focus: arrows,
// Enter/Space, Escape) all end in the same intents. `diagram: true` draws a still picture
// (rules pages): no buttons, one image label, and `marks` to highlight squares. The squares,
// hands and pieces are drawn by board/markup.js.

import { html, render } from "../lib/html.js";
import { t } from "../i18n/i18n.js";
import { parsePosition, squareName } from "./position.js";
import { PieceDrag } from "./drag.js";
import { cellMarkup, handMarkup } from "./markup.js";
import { pieceName, playerWord, specialSquares, variantName } from "../lib/variant.js";

const ARROWS = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
let boards = 0;

export class Board {
  constructor(element, options = {}) {
    const { variant, orientation = "first", onMove, onPick, onRefuse, hands, diagram = false } = options;
    this.el = element;
    this.variant = variant;
    this.onMove = onMove || (() => {});
    this.onPick = onPick || (() => {});
    this.onRefuse = onRefuse || (() => {});
    this.announce = options.announce || (() => {});
    this.diagram = diagram;
    this.label = options.label || null;
    this.coords = options.coords !== false;
    this.showHands = options.showHands !== false;
    // Hands drawn in the host's containers (the player bars), else above and below the board.
    this.handSlots = hands || null;
    this.special = specialSquares(variant);
    this.id = ++boards;
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
      check: null,
      marks: {},
    };
    this.selected = null;
    this.focusSquare = null; // the square holding the board's one tab stop
    this.position = parsePosition(variant, this.state.fen);
    const looks = ["board-view", `family-${variant.family || variant.id}`, `variant-${variant.id}`];
    for (const el of this.containers()) {
      el.classList.add(...(el === this.el ? looks : []));
      // The cell size follows the board's shape (site.css): hands and board share it.
      el.style.setProperty("--files", variant.board.files);
      el.style.setProperty("--ranks", variant.board.ranks);
    }
    if (diagram) this.el.classList.add("diagram");
    this.dragging = new PieceDrag(this);
    if (!diagram) {
      for (const el of this.containers()) {
        el.addEventListener("click", (event) => this.click(event));
        el.addEventListener("pointerdown", (event) => this.dragging.pointerDown(event));
        el.addEventListener("keydown", (event) => this.keyDown(event));
        el.addEventListener("focusin", (event) => this.focusIn(event));
      }
    }
    this.render();
  }

  containers() {
    const slots = this.handSlots ? [this.handSlots.top, this.handSlots.bottom] : [];
    return [this.el, ...slots.filter(Boolean)];
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

  pieceLabel(token) {
    return pieceName(this.variant, token, this.state.pieceSet);
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
    this.focusSquare = sq;
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
      const token = this.position.board.get(sq);
      if (this.selected && token) {
        this.announce(t("board.pickedUp", { piece: this.pieceLabel(token), sq }));
      } else if (!this.selected) this.announce(t("board.cancelled"));
      return;
    }
    // An empty square that only a placement reaches: place at once, no need to pick the hand.
    if (!this.selected && this.state.selectable && (dests["*"] || []).includes(sq)) {
      this.onMove("*", sq);
      return;
    }
    const origin = this.selected;
    if (this.selected) {
      this.selected = null;
      this.render();
      this.announce(t("board.cancelled"));
    }
    if (this.state.selectable) this.onRefuse(origin, sq);
  }

  handKey(letter) {
    return this.variant.family === "stones" ? "*" : `${letter}*`;
  }

  clickHand(side, letter) {
    if (this.state.pick) {
      this.onPick(null);
      return;
    }
    const key = this.handKey(letter);
    if (side !== this.state.selectable || !this.state.dests[key]) return;
    this.selected = this.selected === key ? null : key;
    this.render();
    if (this.selected) {
      const token = side === "first" ? letter : letter.toLowerCase();
      this.announce(t("board.pickedHand", { piece: this.pieceLabel(token) }));
    } else this.announce(t("board.cancelled"));
  }

  cancel() {
    if (this.state.pick) {
      this.onPick(null);
      return true;
    }
    if (this.selected) {
      this.selected = null;
      this.render();
      this.announce(t("board.cancelled"));
      return true;
    }
    return false;
  }

  // ---- keyboard: one tab stop on the board, arrows move it, hands above and below ---------
  focusIn(event) {
    const square = event.target.closest && event.target.closest("[data-square]");
    if (!square || square.dataset.square === this.focusSquare) return;
    this.focusSquare = square.dataset.square;
    for (const el of this.el.querySelectorAll("[data-square]")) {
      el.tabIndex = el === square ? 0 : -1;
    }
  }

  keyDown(event) {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    if (event.key === "Escape") {
      if (this.cancel()) event.preventDefault();
      return;
    }
    const square = event.target.closest("[data-square]");
    const hand = event.target.closest("[data-hand]");
    let next = null;
    if (square) next = this.squareKey(square.dataset.square, event.key);
    else if (hand) next = this.handKeyNav(hand, event.key);
    if (next) {
      event.preventDefault();
      next.focus();
    }
  }

  squareKey(name, key) {
    const rows = this.squaresInView();
    const cells = rows.flat();
    const here = cells.find((c) => c.name === name);
    if (!here) return null;
    let row = here.row;
    let col = here.col;
    if (ARROWS[key]) {
      row += ARROWS[key][0];
      col += ARROWS[key][1];
    } else if (key === "Home") col = 0;
    else if (key === "End") col = rows[0].length - 1;
    else return null;
    if (row < 0) return this.handButton("top");
    if (row >= rows.length) return this.handButton("bottom");
    if (col < 0 || col >= rows[0].length) return null;
    return this.el.querySelector(`[data-square="${rows[row][col].name}"]`);
  }

  handKeyNav(hand, key) {
    const box = hand.closest(".hand");
    const items = [...box.querySelectorAll("[data-hand]")];
    const i = items.indexOf(hand);
    const top = box.classList.contains("hand-top");
    if (key === "ArrowLeft") return items[i - 1] || null;
    if (key === "ArrowRight") return items[i + 1] || null;
    if ((key === "ArrowDown" && top) || (key === "ArrowUp" && !top)) {
      return this.el.querySelector('[data-square][tabindex="0"]');
    }
    return null;
  }

  handButton(where) {
    const root = this.handSlots ? this.handSlots[where] : this.el;
    if (!root) return null;
    const items = [...root.querySelectorAll(`.hand-${where} [data-hand]`)];
    return items.find((el) => el.classList.contains("movable")) || items[0] || null;
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

  defaultFocus(rows) {
    const { selectable, dests } = this.state;
    const bottomFirst = rows.slice().reverse().flat();
    if (this.selected && !this.selected.includes("*")) return this.selected;
    const movable = selectable && bottomFirst.find((c) => dests[c.name]);
    return (movable || bottomFirst[0]).name;
  }

  render() {
    const { ranks } = this.variant.board;
    const st = this.state;
    const top = st.orientation === "first" ? "second" : "first";
    const rows = this.squaresInView();
    if (!this.diagram && !rows.flat().some((c) => c.name === this.focusSquare)) {
      this.focusSquare = null;
    }
    const focusName = this.focusSquare || this.defaultFocus(rows);
    const saved = this.focusSquare;
    this.focusSquare = focusName;
    const refocus = this.focusedKey();
    const cells = rows.flat().map((cell) => cellMarkup(this, cell, ranks - 1));
    this.focusSquare = saved;
    const help = `board-help-${this.id}`;
    const boardLabel = this.label || t("board.label", {
      game: variantName(this.variant),
      side: playerWord(st.orientation),
    });
    const grid = this.diagram
      ? html`<div class="board" role="img" aria-label="${boardLabel}">${cells}</div>`
      : html`<div class="board${st.pick ? " picking" : ""}" role="group" aria-label="${boardLabel}"
          aria-describedby="${help}">${cells}</div><p id="${help}" class="visually-hidden">${t("board.help")}</p>`;
    if (this.handSlots) {
      render(this.el, grid);
      if (this.handSlots.top) render(this.handSlots.top, html`${handMarkup(this, top, "top")}`);
      if (this.handSlots.bottom) {
        render(this.handSlots.bottom, html`${handMarkup(this, st.orientation, "bottom")}`);
      }
    } else {
      const hands = [handMarkup(this, top, "top"), handMarkup(this, st.orientation, "bottom")];
      render(this.el, html`${hands[0]}${grid}${hands[1]}`);
    }
    this.restoreFocus(refocus);
  }

  // What had the keyboard focus before a redraw, to give it back to the new element.
  focusedKey() {
    const active = document.activeElement;
    if (!active || !this.containers().some((el) => el.contains(active))) return null;
    if (active.dataset.square) return `[data-square="${active.dataset.square}"]`;
    if (active.dataset.hand) return `[data-hand="${active.dataset.hand}"][data-side="${active.dataset.side}"]`;
    return null;
  }

  restoreFocus(selector) {
    if (!selector) return;
    for (const root of this.containers()) {
      const el = root.querySelector(selector);
      if (el) {
        el.focus({ preventScroll: true });
        return;
      }
    }
    // The hand piece is gone (its last one was dropped): the board takes the focus.
    const square = this.el.querySelector('[data-square][tabindex="0"]');
    if (square) square.focus({ preventScroll: true });
  }
}
