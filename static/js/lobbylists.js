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
