// Moves written for people (docs/notation.md, "Readable moves"): the piece that moved, then
// its squares, from the position before the move and the canonical text (which stays the
// tooltip). Notation only: nothing here knows what is legal.
//
//   dōbutsu, gorogoro  L b4-b3   C*c2   S c3xc4+   (the letter drawn on the piece)
//   jungle             Tiger b3-b7   Rat a4xa5     (the animal's name, in the page's language)
//   yoté               c3   c3-c4   c3xc5 xd2      (placement, step, jump then the removal)
//   wali               c3   c3-c4   c3-c4 xd5      (placement, step, step that made a line)

import { parseBoard, parseMove, squareCoords } from "./position.js";
import { pieceName } from "../lib/variant.js";

// A yote jump crosses one square: two squares apart along a file or a rank.
function isJump(from, to) {
  const a = squareCoords(from);
  const b = squareCoords(to);
  return (a.file === b.file && Math.abs(a.rank - b.rank) === 2)
    || (a.rank === b.rank && Math.abs(a.file - b.file) === 2);
}

// -> {text, label}: `text` to show, `label` the same with the piece's full name (read aloud).
// Without the position before the move (`beforeFen` null) the canonical text is all there is.
export function readableMove(variant, beforeFen, canonical, pieceSet) {
  const move = parseMove(canonical);
  if (!move || !beforeFen) return { text: canonical, label: canonical };
  const { files, ranks } = variant.board;
  const board = parseBoard(beforeFen.split(" ")[0], files, ranks);
  const removal = move.removed ? ` x${move.removed}` : "";
  if (variant.family === "stones") {
    if (!move.from) return { text: `${move.to}${removal}`, label: `${move.to}${removal}` };
    const sep = variant.id === "yote" && isJump(move.from, move.to) ? "x" : "-";
    const text = `${move.from}${sep}${move.to}${removal}`;
    return { text, label: text };
  }
  if (!move.from) {
    // A drop: the letter of the text is the piece (upper case whatever the side).
    const letter = move.origin[0];
    const squares = `*${move.to}`;
    return { text: `${letter}${squares}`, label: `${pieceName(variant, letter, pieceSet)} ${squares}` };
  }
  const token = board.get(move.from);
  if (!token) return { text: canonical, label: canonical };
  const squares = `${move.from}${board.has(move.to) ? "x" : "-"}${move.to}${move.promotion ? "+" : ""}`;
  const name = pieceName(variant, token, pieceSet);
  if (variant.family === "shogi") {
    return { text: `${token.toUpperCase()} ${squares}`, label: `${name} ${squares}` };
  }
  return { text: `${name} ${squares}`, label: `${name} ${squares}` };
}
