// Premove: one move queued by a player while the opponent is to move, sent as soon as the
// opponent's move arrives if it is legal then (the server's `legalMoves` decide), else
// dropped quietly. Cancelled by a click on the board or Escape.
//
// What may be queued is what the board allows, not the rules (the opponent's move is not
// known yet): each own piece's steps as the game describes them (`/api/variants`), whoever
// stands on the target now (a capture may empty it); drops and placements on empty squares.

import { parsePosition, sideOf, squareCoords, squareName } from "./position.js";
import { pieceInfo } from "../lib/variant.js";

const ORTHOGONAL = [[0, 1], [0, -1], [1, 0], [-1, 0]];

function onBoard(variant, file, rank) {
  const { files, ranks } = variant.board;
  return file >= 0 && file < files && rank >= 0 && rank < ranks;
}

function emptySquares(variant, board) {
  const empty = [];
  for (let rank = 0; rank < variant.board.ranks; rank++) {
    for (let file = 0; file < variant.board.files; file++) {
      const name = squareName(file, rank);
      if (!board.has(name)) empty.push(name);
    }
  }
  return empty;
}

// The squares `steps` ([file, rank] offsets, as seen by first) reach from `square`.
function reached(variant, square, steps, side) {
  const { file, rank } = squareCoords(square);
  const sign = side === "first" ? 1 : -1;
  return steps
    .map(([df, dr]) => [file + sign * df, rank + sign * dr])
    .filter(([f, r]) => onBoard(variant, f, r))
    .map(([f, r]) => squareName(f, r));
}

// Jungle: a step into the water is a swim (the rat), a jump over it (lion, tiger: to the
// first square past the water), or nothing; no piece enters its own den.
function jungleTargets(variant, square, piece, side) {
  const water = new Set((variant.squares && variant.squares.water) || []);
  const den = variant.squares && variant.squares.dens && variant.squares.dens[side];
  const targets = [];
  const { file, rank } = squareCoords(square);
  for (const [df, dr] of ORTHOGONAL) {
    let f = file + df;
    let r = rank + dr;
    if (!onBoard(variant, f, r)) continue;
    if (water.has(squareName(f, r)) && !piece.swims) {
      if (!piece.jumps_lakes) continue;
      while (onBoard(variant, f, r) && water.has(squareName(f, r))) {
        f += df;
        r += dr;
      }
      if (!onBoard(variant, f, r)) continue;
    }
    const name = squareName(f, r);
    if (name !== den) targets.push(name);
  }
  return targets;
}

// {origin: [targets]} of `side` on the position `fen`, for the board to highlight.
export function premoveDests(variant, fen, side) {
  const { board, hands } = parsePosition(variant, fen);
  const dests = {};
  const add = (origin, targets) => {
    if (targets.length) dests[origin] = targets;
  };
  const own = [...board].filter(([, token]) => sideOf(token) === side);
  if (variant.family === "stones") {
    const inHand = (hands[side][0] || { count: 0 }).count;
    const otherHand = (hands[side === "first" ? "second" : "first"][0] || { count: 0 }).count;
    if (inHand > 0) add("*", emptySquares(variant, board));
    // The game's table entry says how its stones move (`stones`): their steps and jumps, and
    // whether they move while a hand still holds stones (yote) or only after (wali).
    const stones = variant.stones || { steps: [], jumps: [] };
    if (!stones.move_while_placing && (inHand > 0 || otherHand > 0)) return dests;
    const steps = [...stones.steps, ...stones.jumps];
    for (const [square] of own) add(square, reached(variant, square, steps, side));
    return dests;
  }
  for (const [square, token] of own) {
    const piece = pieceInfo(variant, token);
    if (!piece) continue;
    if (piece.moves) add(square, reached(variant, square, piece.moves, side));
    else add(square, jungleTargets(variant, square, piece, side));
  }
  const empty = emptySquares(variant, board);
  for (const { letter, count } of hands[side] || []) {
    if (count > 0) add(`${letter}*`, empty);
  }
  return dests;
}

// What to do with the queued premove once it is the player's turn: {send: text} (one
// legal move; a promotion is taken when there is the choice, as lichess's premoves
// promote), {choose: true} (several: the stone to remove is the player's choice), or
// null (no legal move from there to there: dropped).
export function resolvePremove(queued, legalMoves, parseMove) {
  if (!queued) return null;
  let candidates = legalMoves.filter((text) => {
    const move = parseMove(text);
    return move && move.origin === queued.origin && move.to === queued.to;
  });
  if (candidates.some((text) => parseMove(text).promotion)) {
    candidates = candidates.filter((text) => parseMove(text).promotion);
  }
  if (candidates.length === 0) return null;
  if (candidates.length === 1) return { send: candidates[0] };
  return { choose: true };
}

export class Premove {
  constructor() {
    this.queued = null; // {origin, to}
  }

  set(origin, to) {
    this.queued = { origin, to };
    // The click that ends a drag comes after the drop that queued the move: not a cancel.
    this.fresh = true;
    setTimeout(() => {
      this.fresh = false;
    }, 0);
  }

  clear() {
    const had = this.queued !== null;
    this.queued = null;
    return had;
  }

  // The board's marks for the queued move: its origin square (not a hand) and target.
  marks() {
    const marks = {};
    if (!this.queued) return marks;
    for (const square of [this.queued.origin, this.queued.to]) {
      if (!square.includes("*")) marks[square] = ["premove"];
    }
    return marks;
  }

  // "b2-b3", "C*b3", "*c3": said when it is queued.
  text() {
    const q = this.queued;
    if (!q) return "";
    return q.origin.includes("*") ? `${q.origin}${q.to}` : `${q.origin}-${q.to}`;
  }
}

// A click on the board or its hands, or Escape, while a premove is queued cancels it (the
// click does nothing else). Capture phase: before the board reads the click.
export function listenForCancel(area, premove, cancelled) {
  area.addEventListener(
    "click",
    (event) => {
      if (!premove.queued || premove.fresh || !event.target.closest("[data-square], [data-hand]")) return;
      event.stopPropagation();
      event.preventDefault();
      premove.clear();
      cancelled();
    },
    true,
  );
  document.addEventListener("keydown", (event) => {
    if (event.key !== "Escape" || !premove.queued) return;
    premove.clear();
    cancelled();
  });
}
