// Sentences for statuses and results, in the chosen language (i18n.js).

import { t } from "./i18n.js";

const REASONS = [
  "checkmate", "capture", "try", "den", "no_pieces", "no_moves", "repetition",
  "repetition_tiebreak", "no_progress", "agreement",
];

export function sideLabel(side, players) {
  const player = players && players[side];
  return player ? `${player.name} (${side})` : side;
}

// "Anonymous AB12 (first) wins: den", "Draw: threefold repetition", "Aborted"...
export function resultText(game) {
  const result = game.result;
  if (!result) return "";
  const { winner, reason, status } = result;
  const loser = winner === "first" ? "second" : winner === "second" ? "first" : null;
  const players = game.players;
  if (status === "aborted") {
    return reason === "canceled" ? t("result.canceled") : t("result.aborted");
  }
  if (status === "noStart") return t("result.noStart");
  let why;
  if (reason === "resign") why = t("result.resigned", { who: sideLabel(loser, players) });
  else if (reason === "outoftime") why = t("result.outoftime", { who: sideLabel(loser, players) });
  else if (reason === "opponent_gone") {
    why = loser ? t("result.left", { who: sideLabel(loser, players) }) : t("result.opponentLeft");
  } else if (reason === "try" && !winner) why = t("reason.both_try");
  else why = REASONS.includes(reason) ? t(`reason.${reason}`) : reason || status;
  if (!winner) return t("result.draw", { why });
  return t("result.wins", { who: sideLabel(winner, players), why });
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
