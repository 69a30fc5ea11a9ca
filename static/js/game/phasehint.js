// The stone games' phase line and notes drawn on a page (the words and marks: phases.js):
// PhaseHint above any page's status line, GamePhaseHint reading the game page's state.

import { html, render } from "../lib/html.js";
import { t } from "../i18n/i18n.js";
import { announce } from "../board/setup.js";
import { moveNotes, phaseLine, placementMarks, refusal } from "./phases.js";

// The phase line and its notes, drawn in a box created before the page's status line (only
// the stone games need it). The notes are about one position (`at`: a ply and its position
// string), the one after the move they explain or where a click was refused; they go when
// another is shown.
export class PhaseHint {
  constructor(status) {
    this.el = document.createElement("div");
    this.el.id = "phase";
    this.el.className = "phase-line";
    this.el.hidden = true;
    status.before(this.el);
    this.notes = [];
    this.at = null;
  }

  // The position `fen` at `ply` shown to the viewer in `seat` (phaseLine's options); `over`:
  // the game has ended (the status line says how), so no phase.
  draw({ variant, fen, ply, seat = null, playing = false, picking = false, over = false }) {
    const now = over || !fen ? "" : phaseLine(variant, fen, { seat, playing, picking });
    const notes = this.at === `${ply} ${fen}` ? this.notes : [];
    this.el.hidden = !String(now) && !notes.length;
    render(
      this.el,
      html`${String(now) ? html`<p class="phase-now">${now}</p>` : ""}${notes.length
        ? html`<p class="phase-note">${notes.map((say) => say()).join(" ")}</p>`
        : ""}`,
    );
  }

  // The move `text` of `mover` led from `before` to `after` at `ply`: its notes for the viewer
  // in `seat` are kept; what to read aloud after the move ("" when nothing).
  moved({ variant, before, text, mover, after, ply, seat = null }) {
    this.notes = moveNotes(variant, before, text, mover, after, seat);
    this.at = `${ply} ${after}`;
    return this.notes.map((say) => say()).join(" ");
  }

  // A click on `square` (with `origin` picked up, or none) led nowhere on the position `fen`
  // at `ply` with `legalMoves`: the reason is kept and read aloud when the game has one.
  // Whether it had (the caller draws again).
  refused({ variant, fen, ply, legalMoves, origin, square }) {
    const key = refusal(variant, fen, legalMoves, origin, square);
    if (!key) return false;
    this.notes = [() => t(key)];
    this.at = `${ply} ${fen}`;
    announce(t(key));
    return true;
  }

  forget() {
    this.notes = [];
    this.at = null;
  }
}

// The game page's (pages/game.js) PhaseHint, reading its state `page`: the viewer's seat,
// the live position or the one reviewed. `seat(page)`, `myTurn(page)`: gameview.js's.
export class GamePhaseHint extends PhaseHint {
  constructor(status, { seat, myTurn }) {
    super(status);
    this.seat = seat;
    this.myTurn = myTurn;
  }

  draw(page) {
    const game = page.game;
    const live = page.review.live;
    const ply = live ? game.ply : page.review.shown();
    super.draw({
      variant: page.variant,
      fen: live ? game.fen : page.fens.get(ply),
      ply,
      seat: this.seat(page),
      playing: live && this.myTurn(page),
      picking: live && page.choice.kind === "pick",
      over: game.status !== "started",
    });
  }

  // The move just came (page.game is after it).
  moved(page, before, text, mover) {
    const game = page.game;
    const after = { before, text, mover, after: game.fen, ply: game.ply, seat: this.seat(page) };
    return super.moved({ variant: page.variant, ...after });
  }

  // The board's onRefuse, for the player to move on the live position.
  refused(page, origin, square) {
    const game = page.game;
    if (!page.review.live || !this.myTurn(page) || page.awaiting) return;
    const where = { fen: game.fen, ply: game.ply, legalMoves: game.legalMoves };
    if (super.refused({ variant: page.variant, ...where, origin, square })) this.draw(page);
  }

  // The board's marks for the live position: placement squares added on the player's turn.
  marks(page, marks) {
    const playing = page.review.live && this.myTurn(page) && !page.awaiting;
    return playing ? placementMarks(marks, page.game.legalMoves) : marks;
  }
}
