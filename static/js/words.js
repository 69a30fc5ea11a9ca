// Sentences for statuses and results (i18n comes later: keep every word here).

const REASONS = {
  checkmate: "checkmate",
  capture: "the royal piece was captured",
  try: "try: the royal piece reached the far rank",
  den: "a piece entered the den",
  no_pieces: "no pieces left",
  no_moves: "no legal move left",
  repetition: "threefold repetition",
  repetition_tiebreak: "repetition (tiebreak)",
  no_progress: "no progress",
  agreement: "agreement",
};

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
    return reason === "canceled" ? "Cancelled by its creator" : "Game aborted";
  }
  if (status === "noStart") return "Aborted: the first move was not made in time";
  let why;
  if (reason === "resign") why = `${sideLabel(loser, players)} resigned`;
  else if (reason === "outoftime") why = `${sideLabel(loser, players)} ran out of time`;
  else if (reason === "opponent_gone") {
    why = loser ? `${sideLabel(loser, players)} left the game` : "the opponent left the game";
  } else if (reason === "try" && !winner) why = "both royal pieces made a try";
  else why = REASONS[reason] || reason || status;
  if (!winner) return `Draw: ${why}`;
  return `${sideLabel(winner, players)} wins: ${why}`;
}

export function connectionText(status) {
  return (
    {
      connecting: "connecting…",
      open: "connected",
      closed: "reconnecting…",
      gone: "no such game",
    }[status] || status
  );
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
