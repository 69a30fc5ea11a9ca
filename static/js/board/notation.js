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
// `notation`: the viewer's choice (storedNotation), Japanese for the two shōgi games.
export function readableMove(variant, beforeFen, canonical, pieceSet, notation = storedNotation()) {
  const japanese = notation === "japanese" ? japaneseMove(variant, beforeFen, canonical) : null;
  if (japanese) return { text: japanese, label: japanese };
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

// ---- Japanese notation (docs/notation.md, "Japanese notation") ------------------------------
// The two shōgi games as Japanese players read them, whatever the page's language: the mover
// (▲ first, △ second), the square reached, the piece. Dōbutsu as its books print it: columns
// A–C from the first player's left, rows 1–4 from the far side (▲B2ひよこ). Gorogoro on
// shogi's squares: files 1–5 from the first player's right, ranks 一–六 from the far side, the
// piece's name in ごろごろどうぶつしょうぎ, then 打 (a drop), 成 or 不成 (where it could
// promote): ▲３四ひよこ, △２二ねこ成.
export const NOTATIONS = ["standard", "japanese"];
const NOTATION_KEY = "kodama.notation";
const JAPANESE = {
  dobutsu: { shogi: false, names: { L: "ライオン", E: "ゾウ", G: "キリン", C: "ひよこ", H: "ニワトリ" } },
  gorogoro: {
    shogi: true,
    names: { K: "ライオン", G: "いぬ", S: "ねこ", P: "ひよこ", "+S": "パワーアップねこ", "+P": "ニワトリ" },
  },
};
const FILE_DIGITS = "０１２３４５６７８９";
const RANK_KANJI = ["", "一", "二", "三", "四", "五", "六", "七", "八", "九"];

export function hasJapaneseNotation(variant) {
  return Boolean(variant && JAPANESE[variant.id]);
}

export function storedNotation() {
  try {
    return localStorage.getItem(NOTATION_KEY) === "japanese" ? "japanese" : "standard";
  } catch {
    return "standard";
  }
}

export function storeNotation(value) {
  try {
    localStorage.setItem(NOTATION_KEY, NOTATIONS.includes(value) ? value : "standard");
  } catch {
    /* private mode: chosen for this page only */
  }
}

// -> the move in Japanese notation, or null (another game, or no position before it).
export function japaneseMove(variant, beforeFen, canonical) {
  const style = JAPANESE[variant.id];
  const move = parseMove(canonical);
  if (!style || !move || !beforeFen) return null;
  const [field, turn] = beforeFen.split(" ");
  const { files, ranks } = variant.board;
  let key = move.origin[0];
  let side = turn === "s" ? "second" : "first";
  if (move.from) {
    const token = parseBoard(field, files, ranks).get(move.from);
    if (!token) return null;
    key = token.toUpperCase();
    side = token === key ? "first" : "second";
  }
  const { file, rank } = squareCoords(move.to);
  const mark = side === "first" ? "▲" : "△";
  const name = style.names[key] || key;
  if (!style.shogi) return `${mark}${"ABCDEFGHI"[file]}${ranks - rank}${name}${move.from ? "" : "打"}`;
  const square = `${FILE_DIGITS[files - file]}${RANK_KANJI[ranks - rank]}`;
  let suffix = move.from ? "" : "打";
  if (move.promotion) suffix = "成";
  else if (move.from && canPromote(variant, key, side, move)) suffix = "不成";
  return `${mark}${square}${name}${suffix}`;
}

function canPromote(variant, key, side, move) {
  const piece = (variant.pieces || []).find((p) => p.letter === key);
  const zone = ((variant.squares || {}).promotion_zone || {})[side] || [];
  return Boolean(piece && piece.promotes_to) && (zone.includes(move.from) || zone.includes(move.to));
}
