// Moves written for people (docs/notation.md, "Readable moves"): the piece that moved, then
// its squares, from the position before the move and the canonical text (which stays the
// tooltip). Notation only: nothing here knows what is legal. The style is the game's
// `notation` (engine/variants.py):
//
//   letter   L b4-b3   C*c2   S c3xc4+   (the letter drawn on the piece: dōbutsu, gorogoro)
//   name     Tiger b3-b7   Rat a4xa5     (the piece's name, in the page's language: jungle)
//   squares  c3   c3-c4   c3xc5 xd2      (placement, step, jump then the removal: yoté;
//            c3-c4 xd5                    a step that made a line, then the removal: wali)

import { parseBoard, parseMove, squareCoords } from "./position.js";
import { pieceName } from "../lib/variant.js";

// A jump (yote's capture): the move's offset is one of the jumps of the game's stones.
function isJump(variant, from, to) {
  const a = squareCoords(from);
  const b = squareCoords(to);
  const jumps = (variant.stones && variant.stones.jumps) || [];
  return jumps.some(([df, dr]) => b.file - a.file === df && b.rank - a.rank === dr);
}

// -> {text, label}: `text` to show, `label` the same with the piece's full name (read aloud).
// Without the position before the move (`beforeFen` null) the canonical text is all there is.
export function readableMove(variant, beforeFen, canonical, pieceSet) {
  const move = parseMove(canonical);
  if (!move || !beforeFen) return { text: canonical, label: canonical };
  const { files, ranks } = variant.board;
  const board = parseBoard(beforeFen.split(" ")[0], files, ranks);
  const removal = move.removed ? ` x${move.removed}` : "";
  // How the game writes a move is its table entry's `notation`.
  if (variant.notation === "squares") {
    if (!move.from) return { text: `${move.to}${removal}`, label: `${move.to}${removal}` };
    const sep = isJump(variant, move.from, move.to) ? "x" : "-";
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
  if (variant.notation === "letter") {
    return { text: `${token.toUpperCase()} ${squares}`, label: `${name} ${squares}` };
  }
  return { text: `${name} ${squares}`, label: `${name} ${squares}` };
}
