// The lobby's lists as the lobby socket sends them: whole once (`lobby`), then as changes
// (`lobbyDiff`, docs/protocol.md). Applying a diff gives exactly the server's new list.

// A list after `diff` ({removed: [id], added: [{at, game}], updated: [game]}).
export function applyDiff(list, diff) {
  const removed = new Set(diff.removed);
  const updated = new Map(diff.updated.map((game) => [game.id, game]));
  const result = list
    .filter((game) => !removed.has(game.id))
    .map((game) => updated.get(game.id) || game);
  for (const { at, game } of diff.added) result.splice(at, 0, game);
  return result;
}

// The lists after a lobby message, or null when a change was missed (then ask again).
export function nextLists(lists, message) {
  if (message.type === "lobby") return { v: message.v, open: message.open, live: message.live };
  if (message.type !== "lobbyDiff") return lists;
  if (!lists || message.v !== lists.v + 1) return null;
  return {
    v: message.v,
    open: applyDiff(lists.open, message.open),
    live: applyDiff(lists.live, message.live),
  };
}

// ---- what the viewer sees of an entry ------------------------------------------------------
// An anonymous player counts as 1500 against a seek's rating range (docs/decisions/seek-rating-range.md).
export const ANONYMOUS_RATING = 1500;
const HIDDEN_KEY = "kodama.lobby.hiddenGames";

// What an open entry offers the viewer: "own" (theirs: cancel), "join", or "outOfRange"
// (its range excludes the viewer's rating in that game: shown disabled, with why).
export function seekOffer(entry, meId, ratingOf) {
  if (entry.creatorId === meId) return "own";
  const range = entry.ratingRange;
  if (range) {
    const rating = ratingOf(entry.variant);
    if (rating < range[0] || rating > range[1]) return "outOfRange";
  }
  return "join";
}

// Whether a live entry is one of the viewer's own games (Resume, not Watch).
export function isOwnGame(entry, meId) {
  return Boolean(meId) && (entry.firstId === meId || entry.secondId === meId);
}

// The games the viewer chose not to see (kept in this browser).
export function hiddenGames() {
  try {
    const stored = JSON.parse(localStorage.getItem(HIDDEN_KEY) || "[]");
    return new Set(Array.isArray(stored) ? stored : []);
  } catch {
    return new Set();
  }
}

export function keepHiddenGames(hidden) {
  try {
    localStorage.setItem(HIDDEN_KEY, JSON.stringify([...hidden]));
  } catch {
    // storage refused (private mode): the filter holds for this page only
  }
}

// The form's range ("low-high" as POST /api/games takes it), "" for none, or null if the
// two numbers do not make one.
export function rangeText(low, high) {
  if (low === "" && high === "") return "";
  const lo = low === "" ? 0 : Number(low);
  const hi = high === "" ? 9999 : Number(high);
  if (!Number.isInteger(lo) || !Number.isInteger(hi) || lo < 0 || hi > 9999 || lo > hi) return null;
  return `${lo}-${hi}`;
}
