// The board where moves are played, set up one way for the game page and the analysis board.
// Both pages hold the same markup (the .play section: #board, the player bars #player-top and
// #player-bottom with the hands #hand-top and #hand-bottom, the <dialog id="promotion">, the
// live region #announce) and a state object whose `board`, `pieceSet`, `choice` and
// `orientation` this module keeps. What differs stays with each page: when a move may be
// played, and where a chosen move goes (the server's game, or the analysis line).
//
//   state.choice = moveChoice({ play, cancel });
//   setUpBoard(state, variant, rules, onMove, onRefuse);  // a gesture; one leading nowhere
//   if (state.choice.offer(candidatesFor(legalMoves, origin, target), target, state.board) …
//   showPosition(state, { fen, last, dests, selectable, check, marks });

import { Board } from "./board.js";
import { MoveChoice } from "./movechoice.js";
import { defaultPieceSet } from "./pieces.js";
import { moveSquares, parseMove, parsePosition, sideOf } from "./position.js";
import { otherSide, royalLetter } from "../lib/variant.js";

const $ = (id) => document.getElementById(id);

// Read aloud by the page's live region; emptied first so that the same sentence twice is
// read twice.
export function announce(text) {
  const box = $("announce");
  box.textContent = "";
  setTimeout(() => {
    box.textContent = text;
  }, 30);
}

// The move meant by a gesture that stands for several (a stone to remove, a promotion):
// `play(text)` the one chosen, `cancel()` none was (the page draws itself again).
export function moveChoice({ play, cancel }) {
  return new MoveChoice($("promotion"), { play, cancel });
}

// A new board for `variant` under `rules`, seen from `state.orientation`, in the rules'
// default piece set. On fresh elements each time: a Board listens on its elements for good.
// `onRefuse(origin, square)`: a click that led nowhere (board.js), for the page to say why.
export function setUpBoard(state, variant, rules, onMove, onRefuse = null) {
  for (const id of ["board", "hand-top", "hand-bottom"]) {
    const fresh = document.createElement("div");
    fresh.id = id;
    if (id !== "board") fresh.className = "hand-slot";
    $(id).replaceWith(fresh);
  }
  // The board's shape sizes the hands beside it too (site.css).
  const play = document.querySelector(".play");
  play.style.setProperty("--files", variant.board.files);
  play.style.setProperty("--ranks", variant.board.ranks);
  state.pieceSet = defaultPieceSet(variant, rules);
  state.board = new Board($("board"), {
    variant,
    orientation: state.orientation,
    hands: { top: $("hand-top"), bottom: $("hand-bottom") },
    onMove,
    onPick: (square) => state.choice.picked(square),
    onRefuse,
    announce,
  });
  state.board.set({ pieceSet: state.pieceSet });
}

// Draws `fen` after the move `last` (its squares marked, and the stone it removed), the
// squares reachable from each origin (`dests`) for the side that may move (`selectable`).
export function showPosition(state, { fen, last, dests, selectable, check, marks = {} }) {
  const move = last ? parseMove(last) : null;
  state.board.set({
    fen,
    orientation: state.orientation,
    lastMove: moveSquares(last),
    removed: move ? move.removed : null,
    dests,
    selectable,
    pick: null,
    pending: [],
    check,
    marks,
  });
}

// The player bars and the side each shows: the viewer's side (the orientation) at the bottom.
export function playerBars(orientation) {
  return [[$("player-top"), otherSide(orientation)], [$("player-bottom"), orientation]];
}

// The square of the side to move's lion or king when the position ({fen, turn, check}: a
// game's state, or one of the analysis board's positions) is in check.
export function checkSquare(variant, { fen, turn, check }) {
  const letter = check && royalLetter(variant);
  if (!letter) return null;
  for (const [square, token] of parsePosition(variant, fen).board) {
    if (token.toUpperCase() === letter && sideOf(token) === turn) return square;
  }
  return null;
}
