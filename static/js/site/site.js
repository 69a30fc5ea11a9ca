// Every page follows its player to a new game: the lobby and game sockets, and the site
// socket of the other pages, say `gameStart` when a game of this identity starts
// (docs/protocol.md); the page then goes to it at once. The game page it lands on plays the
// start sound and shows "Your turn" in the tab title when it is.

import { Socket } from "./socket.js";

const ARRIVED_KEY = "kodama.arrived";

let leavingFor = null; // the game this page is on its way to

// Goes to the game `id` unless this page shows it or is on its way there already: pages that
// go to a game they just joined or accepted call this too, as their gameStart may come first.
// `replace`: the page is not kept in the history (an invitation, a challenge).
export function goToGame(id, { replace = false } = {}) {
  const path = `/game/${encodeURIComponent(id)}`;
  if (location.pathname === path || leavingFor === id) return false;
  leavingFor = id;
  try {
    sessionStorage.setItem(ARRIVED_KEY, id);
  } catch {
    /* private mode: the game page still opens, without the start sound */
  }
  if (replace) location.replace(path);
  else location.assign(path);
  return true;
}

// Whether this page was brought to `gameId` by its start (asked once: the answer is then
// forgotten, so that a reload is silent).
export function broughtTo(gameId) {
  try {
    if (sessionStorage.getItem(ARRIVED_KEY) !== gameId) return false;
    sessionStorage.removeItem(ARRIVED_KEY);
    return true;
  } catch {
    return false;
  }
}

// The socket of a page that has neither the lobby's nor a game's.
export function openSiteSocket() {
  const socket = new Socket("/ws/site", {
    onMessage: (data) => {
      if (data.type === "gameStart") goToGame(data.game.id);
    },
  });
  socket.connect();
  return socket;
}
