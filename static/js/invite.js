// The invite page takes the free seat with a POST made by this script, never by the GET
// of the page itself: a link preview bot (chat apps fetch links to show a card) does not
// run JavaScript, so it can never take the seat meant for the person invited.

import { api } from "./api.js";
import { html, render } from "./html.js";

const token = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop() || "");
const message = document.getElementById("message");

async function main() {
  try {
    const joined = await api.acceptInvite(token);
    location.replace(`/game/${encodeURIComponent(joined.id)}`);
  } catch (err) {
    if (err.code === "invite.not_found") {
      render(
        message,
        html`This invite link is not valid: it may be mistyped, or the game was removed.
          <a href="/">Go to the lobby</a>`,
      );
    } else if (err.code === "game.seat_taken") {
      // The error may name the game; then the link lets this visitor watch it.
      const body = err.body || {};
      const id = body.id || body.gameId;
      const watch = id
        ? html`<a href="/game/${encodeURIComponent(id)}">Watch the game</a>`
        : html`<a href="/">Find it among the live games in the lobby</a>`;
      render(message, html`Someone else has already taken this seat. ${watch}`);
    } else {
      render(message, html`Could not join the game: ${err.message}. <a href="/">Go to the lobby</a>`);
    }
  }
}

main();
