// Dragging a piece of the board view (board/board.js) with pointer events: mouse, pen and
// touch alike. A piece the host made movable (`dests`) follows the pointer as a ghost once
// it has moved a few pixels; dropped on a square, it ends in the board's intents (`onMove`,
// or `onRefuse` for a square it cannot reach), as a click-click move does.

export class PieceDrag {
  constructor(board) {
    this.board = board;
    this.drag = null;
  }

  // The square or hand whose piece may be dragged (its `dests` key), or null.
  originKey(target) {
    const board = this.board;
    const square = target.closest("[data-square]");
    const hand = target.closest("[data-hand]");
    const { selectable, dests, pick } = board.state;
    if (!selectable || pick) return null;
    if (square && dests[square.dataset.square]) return square.dataset.square;
    if (hand && hand.dataset.side === selectable) {
      const key = board.handKey(hand.dataset.hand);
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
    const cell = this.board.el.querySelector(".sq");
    const size = (cell || from).getBoundingClientRect().width;
    this.drag = { key, x: event.clientX, y: event.clientY, started: false, piece, size, ghost: null };
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
    const board = this.board;
    const d = this.drag;
    if (!d) return;
    if (!d.started) {
      if (Math.hypot(event.clientX - d.x, event.clientY - d.y) < 6) return;
      d.started = true;
      board.selected = d.key;
      const ghost = document.createElement("div");
      ghost.className = `drag-ghost ${[...board.el.classList].join(" ")}`;
      ghost.style.setProperty("--cell", `${d.size}px`);
      ghost.style.width = ghost.style.height = `${d.size}px`;
      ghost.innerHTML = d.piece.outerHTML; // markup the board view wrote itself
      document.body.append(ghost);
      d.ghost = ghost;
      board.render();
      board.el.classList.add("dragging");
    }
    event.preventDefault();
    d.ghost.style.transform = `translate(${event.clientX - d.size / 2}px, ${event.clientY - d.size / 2}px)`;
    const over = document.elementFromPoint(event.clientX, event.clientY);
    const sq = over && over.closest && over.closest("[data-square]");
    for (const el of board.el.querySelectorAll(".sq.drag-over")) el.classList.remove("drag-over");
    if (sq && (board.state.dests[d.key] || []).includes(sq.dataset.square)) sq.classList.add("drag-over");
  }

  pointerUp(event) {
    const board = this.board;
    const d = this.drag;
    this.drag = null;
    if (!d || !d.started) return;
    d.ghost.remove();
    board.el.classList.remove("dragging");
    board.suppressClick = true;
    setTimeout(() => (board.suppressClick = false), 0);
    const over = document.elementFromPoint(event.clientX, event.clientY);
    const sq = over && over.closest && over.closest("[data-square]");
    const target = sq && board.el.contains(sq) ? sq.dataset.square : null;
    if (target && (board.state.dests[d.key] || []).includes(target)) {
      board.selected = null;
      board.focusSquare = target;
      board.render();
      board.onMove(d.key, target);
      return;
    }
    // Dropped elsewhere: the piece stays selected, so a click can still finish the move.
    board.render();
    if (target) board.onRefuse(d.key, target);
  }
}
