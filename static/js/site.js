// Every page follows its player to a new game: the lobby and game sockets, and the site
// socket of the other pages, say `gameStart` when a game of this identity starts
// (docs/protocol.md); the page then goes to it at once. The game page it lands on plays the
// start sound and shows "Your turn" in the tab title when it is.

import { Socket } from "./socket.js";

const ARRIVED_KEY = "kodama.arrived";

// Goes to the game unless this page shows it already; true if it goes.
export function goToGame(game) {
  const path = `/game/${encodeURIComponent(game.id)}`;
  if (location.pathname === path) return false;
  try {
    sessionStorage.setItem(ARRIVED_KEY, game.id);
  } catch {
    /* private mode: the game page still opens, without the start sound */
  }
  location.assign(path);
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
      if (data.type === "gameStart") goToGame(data.game);
    },
  });
  socket.connect();
  return socket;
}
