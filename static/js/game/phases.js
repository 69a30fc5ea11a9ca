// What teaches the stone games (yoté, wali) while they are played, as words and marks: the
// phase line (which phase it is and its rule, said to the viewer), the squares a stone may go
// on when placing is all a player may do, why a click on the board led nowhere, and what the
// game did by itself (a pass, the end of placement, a stone removed because it was the only
// choice). phasehint.js draws them on a page.
//
// Only position strings and move texts are read (board/position.js), with the game's table
// entry (`variant.stones`: how stones move, and whether while hands still hold some); what
// is legal stays the server's (`legalMoves`).

import { html } from "../lib/html.js";
import { t, tn } from "../i18n/i18n.js";
import { parseMove, parsePosition, sideOf, squareCoords } from "../board/position.js";
import { otherSide, playerWord } from "../lib/variant.js";

// Whether a game has words for `key` (a rule or a reason may have none).
function known(key) {
  return t(key) !== key;
}

function handCount(position, side) {
  const stones = position.hands[side][0];
  return stones ? stones.count : 0;
}

function stonesOf(position, side) {
  return [...position.board.values()].filter((token) => sideOf(token) === side).length;
}

// "placement" (no stone moves while a hand holds stones: wali; or stones never move),
// "mixed" (`side` may place or step: yoté with stones in hand), "movement"; null for the
// games without stones.
export function stonePhase(variant, fen, side = null) {
  if (!variant || variant.family !== "stones" || !variant.stones) return null;
  const { steps, move_while_placing: moveWhilePlacing } = variant.stones;
  if (!steps.length) return "placement";
  const position = parsePosition(variant, fen);
  const placing = handCount(position, "first") || handCount(position, "second");
  if (!moveWhilePlacing) return placing ? "placement" : "movement";
  return handCount(position, side || position.turn) ? "mixed" : "movement";
}

// `marks` (the board's {square: [marks]}) with "place" on every square a stone may be placed
// on when placing is all `legalMoves` (the player's, or none) allow.
export function placementMarks(marks, legalMoves) {
  const moves = (legalMoves || []).map(parseMove);
  if (!moves.length || !moves.every((move) => move && move.origin === "*")) return marks;
  const marked = { ...marks };
  for (const { to } of moves) marked[to] = [...(marked[to] || []), "place"];
  return marked;
}

// The words (a key) saying why a click on the empty `square`, with a placement picked up
// (`origin` "*") or nothing, leads nowhere while placements are legal elsewhere; null when
// the game has none to say.
export function refusal(variant, fen, legalMoves, origin, square) {
  if (origin && origin !== "*") return null;
  const phase = stonePhase(variant, fen);
  if (!phase || parsePosition(variant, fen).board.has(square)) return null;
  const placements = (legalMoves || []).map(parseMove).filter((move) => move && move.origin === "*");
  if (!placements.length || placements.some((move) => move.to === square)) return null;
  const key = `teach.refused.${variant.id}.${phase}`;
  return known(key) ? key : null;
}

// Said about `side` to the viewer in `seat` (null: a spectator): the key's .you, .opponent
// or .side form. A function, so that the words follow the language switch.
function about(key, side, seat, values = {}, n = null) {
  const form = `${key}.${seat === side ? "you" : seat ? "opponent" : "side"}`;
  const all = { who: playerWord(side), ...values };
  return () => (n === null ? t(form, all) : tn(form, n, all));
}

// A step of two squares along a rank or a file: a yoté jump (it takes the stone passed over).
function isJump(move) {
  if (!move.from) return false;
  const a = squareCoords(move.from);
  const b = squareCoords(move.to);
  return (a.file === b.file && Math.abs(a.rank - b.rank) === 2)
    || (a.rank === b.rank && Math.abs(a.file - b.file) === 2);
}

// What the game did by itself with the move `text` of `mover` from `before` to `after`, for
// the viewer in `seat`: a list of functions giving sentences.
export function moveNotes(variant, before, text, mover, after, seat) {
  const move = parseMove(text);
  const phase = stonePhase(variant, before);
  if (!move || !phase) return [];
  const was = parsePosition(variant, before);
  const now = parsePosition(variant, after);
  const other = otherSide(mover);
  const notes = [];
  if (move.origin === "*") {
    if (phase === "placement" && stonePhase(variant, after) === "movement") {
      const over = `teach.note.${variant.id}.placementOver`;
      if (known(over)) notes.push(() => t(over));
      // The stones still in hand when neither side can place are set aside (rules/wali.md).
      for (const side of [mover, other]) {
        const left = handCount(was, side) - (side === mover ? 1 : 0);
        if (left > 0) notes.push(about("teach.note.setAside", side, seat, {}, left));
      }
    } else if (phase === "placement" && now.turn === mover) {
      // Why a side passes is the game's own: wali's three in a row.
      const pass = `teach.note.${variant.id}.pass`;
      if (known(`${pass}.side`)) notes.push(about(pass, other, seat));
    }
    return notes;
  }
  const jumped = variant.stones.jumps.length && isJump(move) ? 1 : 0;
  // The removal was the mover's choice among the opponent's stones left on the board.
  if (move.removed && stonesOf(was, other) - jumped === 1) {
    notes.push(about("teach.note.onlyOne", other, seat, { sq: move.removed }));
  }
  if (jumped && !move.removed && !stonesOf(now, other) && handCount(now, other)) {
    notes.push(about("teach.note.noneLeft", other, seat));
  }
  return notes;
}

// The phase line's markup for the position `fen`, seen by the viewer in `seat`; `playing`:
// they are to move on it, `picking`: choosing the stone to remove. Empty for other games.
export function phaseLine(variant, fen, { seat = null, playing = false, picking = false } = {}) {
  const own = stonePhase(variant, fen, seat);
  if (!own) return "";
  const phase = picking ? "capture" : own;
  const position = parsePosition(variant, fen);
  let count = "";
  if (phase === "placement" || phase === "mixed") {
    const first = handCount(position, "first");
    const second = handCount(position, "second");
    if (!seat) count = t("teach.hands", { first, second });
    else if (handCount(position, seat)) count = tn("teach.yourHand", handCount(position, seat));
  }
  const rule = `teach.rule.${variant.id}.${phase}`;
  const said = playing && known(`${rule}.play`) ? t(`${rule}.play`) : known(rule) ? t(rule) : "";
  return html`<strong>${t(`teach.phase.${phase}`)}</strong>${count ? ` — ${count}` : ""}.${
    said ? ` ${said}` : ""}`;
}
