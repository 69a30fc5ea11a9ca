// Reading the notation (docs/notation.md), not the rules: square names, the fields of a
// position string, and the squares a move text names. Nothing here knows what is legal.

export function squareName(file, rank) {
  return String.fromCharCode(97 + file) + String(rank + 1);
}

export function squareCoords(name) {
  return { file: name.charCodeAt(0) - 97, rank: Number(name.slice(1)) - 1 };
}

export function sideOf(token) {
  const letter = token[token.length - 1];
  return letter === letter.toUpperCase() ? "first" : "second";
}

// The board field: ranks from the highest down, digits for empty runs, `+X` or a letter.
export function parseBoard(field, files, ranks) {
  const board = new Map();
  const rows = field.split("/");
  rows.forEach((row, i) => {
    const rank = ranks - 1 - i;
    let file = 0;
    const tokens = row.match(/\d+|\+?[A-Za-z]/g) || [];
    for (const token of tokens) {
      if (/^\d+$/.test(token)) {
        file += Number(token);
      } else {
        board.set(squareName(file, rank), token);
        file += 1;
      }
    }
  });
  return board;
}

// Shogi hands: `-`, or counts and letters, first's (upper case) then second's: `2Cg`.
function parseShogiHands(field) {
  const hands = { first: [], second: [] };
  if (!field || field === "-") return hands;
  for (const [, digits, letter] of field.matchAll(/(\d*)([A-Za-z])/g)) {
    const side = letter === letter.toUpperCase() ? "first" : "second";
    hands[side].push({ letter: letter.toUpperCase(), count: digits ? Number(digits) : 1 });
  }
  return hands;
}

// -> {board: Map square -> token, turn, hands: {first: [{letter, count}], second: [...]}}
export function parsePosition(variant, fen) {
  const fields = fen.trim().split(/\s+/);
  const board = parseBoard(fields[0], variant.board.files, variant.board.ranks);
  const turn = fields[1] === "s" ? "second" : "first";
  let hands = { first: [], second: [] };
  if (variant.family === "shogi") {
    hands = parseShogiHands(fields[2]);
  } else if (variant.family === "stones") {
    // Fields 3 and 4: the stones each side still has to place.
    hands = {
      first: [{ letter: "S", count: Number(fields[2]) || 0 }],
      second: [{ letter: "S", count: Number(fields[3]) || 0 }],
    };
  }
  return { board, turn, hands };
}

// A move text, split: origin (a square, `C*` for a drop, `*` for a placement), target,
// promotion, removed square.
export function parseMove(text) {
  const m = /^(?:([A-Z])\*|(\*)|([a-z]\d+))([a-z]\d+)(\+)?(?:x([a-z]\d+))?$/.exec(text);
  if (!m) return null;
  const [, dropLetter, star, from, to, plus, removed] = m;
  return {
    origin: dropLetter ? `${dropLetter}*` : star ? "*" : from,
    from: from || null,
    to,
    promotion: Boolean(plus),
    removed: removed || null,
  };
}

// The squares to highlight as the last move.
export function moveSquares(text) {
  const move = text && parseMove(text);
  if (!move) return [];
  return move.from ? [move.from, move.to] : [move.to];
}

// {origin: [targets]} from the legal moves: what the board highlights.
export function destsOf(legalMoves) {
  const dests = {};
  for (const text of legalMoves) {
    const move = parseMove(text);
    if (!move) continue;
    const list = (dests[move.origin] ??= []);
    if (!list.includes(move.to)) list.push(move.to);
  }
  return dests;
}
