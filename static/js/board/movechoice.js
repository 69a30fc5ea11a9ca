// One gesture on the board can stand for several legal moves: a stone of the player's choice
// to remove (yoté, wali: they click it), or a piece that may promote or not (the page's
// <dialog id="promotion">). The game page and the analysis board ask the same way.

import { parseMove } from "./position.js";

// The legal moves (their texts) that go from `origin` (a square, or a hand's piece) to `target`.
export function candidatesFor(legalMoves, origin, target) {
  return legalMoves.filter((text) => {
    const move = parseMove(text);
    return move && move.origin === origin && move.to === target;
  });
}

export class MoveChoice {
  // `play(text)`: the move chosen; `cancel()`: none was (the page draws itself again).
  constructor(dialog, { play, cancel }) {
    this.dialog = dialog;
    this.play = play;
    this.cancel = cancel;
    this.current = null; // {kind: "pick" | "promotion", candidates} while the player chooses
    dialog.addEventListener("close", () => this.answered());
  }

  // "pick" or "promotion" while the player chooses, else null.
  get kind() {
    return this.current ? this.current.kind : null;
  }

  // The moves one gesture stands for (candidatesFor): played when there is one, asked
  // about when there are several (ask); nothing when there is none.
  offer(candidates, target, board) {
    if (candidates.length === 1) {
      this.play(candidates[0]);
      return null;
    }
    return candidates.length ? this.ask(candidates, target, board) : null;
  }

  // Asks which of `candidates` (several moves of one gesture ending on `target`) is meant:
  // the stones to remove are offered on `board`, or the promotion dialog opens.
  ask(candidates, target, board) {
    const moves = candidates.map(parseMove);
    const pending = moves[0].from ? [moves[0].from, target] : [target];
    if (moves.some((m) => m.removed)) {
      this.current = { kind: "pick", candidates };
      board.set({ pick: moves.filter((m) => m.removed).map((m) => m.removed), pending });
    } else if (moves.some((m) => m.promotion)) {
      this.current = { kind: "promotion", candidates };
      board.set({ pending });
      this.dialog.returnValue = "";
      this.dialog.showModal();
    }
    return this.kind;
  }

  // The board's onPick: the stone clicked (null: elsewhere, which cancels).
  picked(square) {
    const choice = this.current;
    this.current = null;
    const chosen = choice && square && choice.candidates.find((c) => parseMove(c).removed === square);
    if (chosen) this.play(chosen);
    else this.cancel();
  }

  // Forgets the question (the position changed), closing the dialog if it is open.
  clear() {
    this.current = null;
    if (this.dialog.open) this.dialog.close();
  }

  answered() {
    const answer = this.dialog.returnValue;
    this.dialog.returnValue = "";
    if (this.kind !== "promotion") return; // cleared meanwhile
    const { candidates } = this.current;
    this.current = null;
    const promote = candidates.find((c) => parseMove(c).promotion);
    const stay = candidates.find((c) => !parseMove(c).promotion);
    if (answer === "promote") this.play(promote);
    else if (answer === "stay") this.play(stay);
    else this.cancel();
  }
}
