// What a game's describe() says about how to draw it: piece names, special squares, sides,
// rule options, in the chosen language. Looks only, no rules.

import { gameWord, getLang, t, tn } from "../i18n/i18n.js";

export function otherSide(side) {
  return side === "first" ? "second" : "first";
}

// "first player" / "premier joueur" (capital: "First player").
export function playerWord(side, capital = false) {
  const key = side === "second" ? "second" : "first";
  return t(capital ? `player.${key[0].toUpperCase()}${key.slice(1)}` : `player.${key}`);
}

export function sideWord(side) {
  return t(side === "second" ? "side.second" : "side.first");
}

// The game's name in the page's language, from its table entry (`names`).
export function variantName(variant) {
  if (!variant) return "";
  const names = variant.names || {};
  return names[getLang()] || names.en || variant.name;
}

export function variantBlurb(variant) {
  return variant ? gameWord(`blurb.${variant.id}`, "") : "";
}

// The names set a picture set goes with: the yokai pictures with the yokai names, the
// animal pictures with the animal names (a game without the set: its other names).
function namesKey(variant, pieceSet) {
  const sets = variant.piece_sets || [];
  if (sets.includes(pieceSet)) return pieceSet;
  return sets.find((s) => s !== "yokai") || sets[0];
}

function capitalize(word) {
  return word ? word[0].toUpperCase() + word.slice(1) : word;
}

export function pieceInfo(variant, token) {
  const upper = token.toUpperCase();
  return (variant.pieces || []).find((p) => p.letter === upper);
}

// "Chick", "Promoted silver", "Lion", "Stone"... for a board token (`C`, `+s`, `l`, `S`),
// in the names that go with the pictures shown.
export function pieceName(variant, token, pieceSet = "animals") {
  if (variant.family === "stones") return capitalize(gameWord("piece.stone", "stone"));
  const piece = pieceInfo(variant, token);
  const upper = token.toUpperCase();
  if (!piece) return upper;
  if (piece.names) {
    const key = namesKey(variant, pieceSet);
    const english = piece.names[key] || Object.values(piece.names)[0];
    return gameWord(`piece.${variant.id}.${key}.${piece.letter}`, english);
  }
  return capitalize(gameWord(`piece.${variant.id}.${piece.letter}`, piece.name || upper));
}

// Jungle shows each animal's strength next to its letter.
export function pieceStrength(variant, token) {
  const piece = pieceInfo(variant, token);
  return piece && typeof piece.rank === "number" ? piece.rank : null;
}

// The side's royal piece letter (lion, king), from describe(): null if the game has none.
export function royalLetter(variant) {
  const piece = (variant.pieces || []).find((p) => p.royal);
  return piece ? piece.letter : null;
}

// square -> {classes: [css classes], words: [words for screen readers]}
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
      add(sq, `zone-${side}`, () => t("board.zone", { owner: playerWord(side) }));
    }
    for (const sq of (special.traps && special.traps[side]) || []) {
      add(sq, `trap trap-${side}`, () => t("board.trap", { owner: playerWord(side) }));
    }
    const den = special.dens && special.dens[side];
    if (den) add(den, `den den-${side}`, () => t("board.den", { owner: playerWord(side) }));
  }
  for (const sq of special.water || []) add(sq, "water", () => t("board.water"));
  return squares;
}

// A rule option's label, a value's label and the option's explanation.
export function optionLabel(variant, option) {
  return gameWord(`option.${option.name}`, option.name);
}

export function optionValueLabel(variant, option, value) {
  return gameWord(`option.${option.name}.${value}`, value);
}

export function optionAbout(variant, option) {
  return gameWord(`option.${option.name}.about`, option.description);
}

export function describeRules(variant, rules) {
  // Only what differs from the defaults is worth showing in a list.
  const parts = [];
  for (const option of (variant && variant.options) || []) {
    const value = rules && rules[option.name];
    if (value !== undefined && value !== option.default) {
      parts.push(`${optionLabel(variant, option)}: ${optionValueLabel(variant, option, value)}`);
    }
  }
  return parts.join(", ");
}

// A time control in a few characters: "5+3" (Fischer), "5+3×30s" (byo-yomi: 3 periods of
// 30 s), "3 days per move" (correspondence: `days`), or "no clock".
// Minutes as lichess shows them: "5", "¼", "1½"; other fractions in seconds ("20 s").
const QUARTERS = { 0.25: "¼", 0.5: "½", 0.75: "¾" };

export function minutesText(minutes) {
  const whole = Math.floor(minutes);
  const part = QUARTERS[minutes - whole];
  if (minutes === whole) return String(minutes);
  if (part) return `${whole || ""}${part}`;
  return `${Math.round(minutes * 60)} s`;
}

export function clockText(clock, days = null) {
  if (days) return tn("time.days", days);
  if (!clock) return t("time.noClock");
  const shown = minutesText(clock.initial / 60000);
  if (clock.byoyomi) return `${shown}+${clock.periods}×${Math.round(clock.byoyomi / 1000)}s`;
  return `${shown}+${Math.round(clock.increment / 1000)}`;
}
