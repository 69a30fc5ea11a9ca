// Sentences for statuses, results and moves read aloud, in the chosen language (i18n.js).

import { t } from "./i18n.js";
import { parseBoard, parseMove, squareCoords, squareName } from "../board/position.js";
import { otherSide, pieceName, playerWord, royalLetter, sideWord } from "../lib/variant.js";
import { shownName } from "../lib/names.js";

const REASONS = [
  "checkmate", "capture", "try", "den", "no_pieces", "no_moves", "repetition",
  "repetition_tiebreak", "no_progress", "agreement",
];

export function sideLabel(side, players) {
  const player = players && players[side];
  return player ? `${shownName(player.name)} (${sideWord(side)})` : playerWord(side);
}

// The end in words, from where the viewer sits (docs/decisions/result-wording.md): to a
// player "You won: your lion reached their back row" / "You lost on time"; to a spectator
// (`seat` null or absent) "ann (first) won — bo (second) resigned"; "Draw by repetition" to
// everyone; "Aborted"... `variant` names the royal piece (the lion, the king).
const ENDINGS = [
  "checkmate", "capture", "try", "den", "no_pieces", "no_moves", "repetition_tiebreak",
  "resign", "outoftime", "opponent_gone",
];
const DRAWS = ["repetition", "agreement", "no_progress", "try", "opponent_gone"];

function reasonWords(reason, status) {
  return REASONS.includes(reason) ? t(`reason.${reason}`) : reason || status;
}

function royalWord(variant) {
  const letter = variant ? royalLetter(variant) : null;
  return letter ? pieceName(variant, letter).toLowerCase() : t("outcome.royal");
}

export function resultText(game, { seat = null, variant = null } = {}) {
  const result = game.result;
  if (!result) return "";
  const { winner, reason, status } = result;
  if (status === "aborted") {
    if (reason === "canceled") return t("result.canceled");
    if (reason === "expired") return t("result.expired");
    return t("result.aborted");
  }
  if (status === "noStart") return t("result.noStart");
  const why = reasonWords(reason, status);
  if (!winner) {
    return t(DRAWS.includes(reason) ? `outcome.draw.${reason}` : "outcome.draw.other", { why });
  }
  const view = seat === winner ? "won" : seat ? "lost" : "seen";
  const key = ENDINGS.includes(reason) ? reason : "other";
  return t(`outcome.${view}.${key}`, {
    why,
    royal: royalWord(variant),
    winner: sideLabel(winner, game.players),
    loser: sideLabel(otherSide(winner), game.players),
  });
}

export function connectionText(status) {
  return ["connecting", "open", "closed", "gone"].includes(status) ? t(`conn.${status}`) : status;
}

export function formatClock(ms) {
  const left = Math.max(0, ms);
  if (left < 10_000) return (Math.floor(left / 100) / 10).toFixed(1);
  const total = Math.ceil(left / 1000);
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = String(total % 60).padStart(2, "0");
  return hours ? `${hours}:${String(minutes).padStart(2, "0")}:${seconds}` : `${minutes}:${seconds}`;
}

// A move read aloud for the live region, from the position before it and the move text
// (notation only): "Second player: giraffe a4 to a3, takes the chick".
export function moveSentence(variant, beforeFen, text, mover, pieceSet) {
  const move = parseMove(text);
  if (!move) return text;
  const { files, ranks } = variant.board;
  const board = parseBoard(beforeFen.split(" ")[0], files, ranks);
  const who = playerWord(mover, true);
  const name = (token) => pieceName(variant, token, pieceSet).toLowerCase();
  const parts = [];
  if (move.origin === "*") {
    parts.push(t("say.place", { who, to: move.to }));
  } else if (!move.from) {
    parts.push(t("say.drop", { who, piece: name(move.origin[0]), to: move.to }));
  } else {
    const token = board.get(move.from) || "";
    parts.push(t("say.move", { who, piece: token ? name(token) : "", from: move.from, to: move.to }));
    const taken = board.get(move.to);
    if (taken) parts.push(t("say.takes", { piece: name(taken) }));
    if (variant.family === "stones") {
      // A yote jump: the stone between the two squares is taken.
      const a = squareCoords(move.from);
      const b = squareCoords(move.to);
      if (Math.abs(a.file - b.file) + Math.abs(a.rank - b.rank) === 2 && (a.file === b.file || a.rank === b.rank)) {
        parts.push(t("say.takesStone", { sq: squareName((a.file + b.file) / 2, (a.rank + b.rank) / 2) }));
      }
    }
    if (move.promotion) parts.push(t("say.promotes"));
  }
  if (move.removed) parts.push(t("say.removes", { sq: move.removed }));
  return parts.join(t("say.sep")); // each language's own comma: "、" in Japanese
}
