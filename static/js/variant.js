// What a game's describe() says about how to draw it: piece names, special squares, sides.
// Looks only, no rules.

export const SIDE_WORD = { first: "first", second: "second" };

export function otherSide(side) {
  return side === "first" ? "second" : "first";
}

// The piece set whose names to show: the one the chosen ruleset names, else the first.
function pieceSet(variant, rules) {
  const sets = variant.piece_sets || [];
  const wanted = rules && rules.ruleset;
  return sets.includes(wanted) ? wanted : sets[0];
}

function capitalize(word) {
  return word ? word[0].toUpperCase() + word.slice(1) : word;
}

// "Chick", "Promoted silver", "Lion", "stone"... for a board token (`C`, `+s`, `l`, `S`).
export function pieceName(variant, token, rules) {
  const upper = token.toUpperCase();
  if (variant.family === "stones") return "stone";
  const piece = (variant.pieces || []).find((p) => p.letter === upper);
  if (!piece) return upper;
  if (piece.names) return piece.names[pieceSet(variant, rules)] || Object.values(piece.names)[0];
  return capitalize(piece.name || upper);
}

// Jungle shows each animal's strength next to its letter.
export function pieceStrength(variant, token) {
  const piece = (variant.pieces || []).find((p) => p.letter === token.toUpperCase());
  return piece && typeof piece.rank === "number" ? piece.rank : null;
}

// square -> [css classes, words for screen readers]
export function specialSquares(variant) {
  const squares = new Map();
  const add = (square, cls, words) => {
    const entry = squares.get(square) || { classes: [], words: [] };
    entry.classes.push(cls);
    if (words) entry.words.push(words);
    squares.set(square, entry);
  };
  const special = variant.squares || {};
  for (const side of ["first", "second"]) {
    for (const sq of (special.promotion_zone && special.promotion_zone[side]) || []) {
      add(sq, `zone-${side}`, null);
    }
    for (const sq of (special.traps && special.traps[side]) || []) {
      add(sq, `trap trap-${side}`, `${side}'s trap`);
    }
    const den = special.dens && special.dens[side];
    if (den) add(den, `den den-${side}`, `${side}'s den`);
  }
  for (const sq of special.water || []) add(sq, "water", "water");
  return squares;
}

export function describeRules(variant, rules) {
  // Only what differs from the defaults is worth showing in a list.
  const parts = [];
  for (const option of (variant && variant.options) || []) {
    const value = rules && rules[option.name];
    if (value !== undefined && value !== option.default) parts.push(`${option.name}: ${value}`);
  }
  return parts.join(", ");
}

export function clockText(clock) {
  if (!clock) return "no clock";
  const minutes = clock.initial / 60000;
  const shown = Number.isInteger(minutes) ? String(minutes) : minutes.toFixed(2).replace(/0+$/, "");
  return `${shown}+${Math.round(clock.increment / 1000)}`;
}
