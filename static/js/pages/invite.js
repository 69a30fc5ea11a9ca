// The invite page takes the free seat with a POST made by this script, never by the GET
// of the page itself: a link preview bot (chat apps fetch links to show a card) does not
// run JavaScript, so it can never take the seat meant for the person invited.

import { api } from "../site/api.js";
import { onLanguage, setupChrome } from "../site/chrome.js";
import { html, render } from "../lib/html.js";
import { errorText, t } from "../i18n/i18n.js";
import { goToGame } from "../site/site.js";

const token = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop() || "");
const message = document.getElementById("message");
let failure = null; // the error that stopped us, kept to say it again in another language

function showFailure() {
  const err = failure;
  message.removeAttribute("data-i18n");
  if (err.code === "invite.not_found") {
    render(message, html`${t("invite.invalid")} <a href="/">${t("invite.toLobby")}</a>`);
  } else if (err.code === "game.seat_taken") {
    // The error may name the game; then the link lets this visitor watch it.
    const body = err.body || {};
    const id = body.id || body.gameId;
    const watch = id
      ? html`<a href="/game/${encodeURIComponent(id)}">${t("invite.watch")}</a>`
      : html`<a href="/">${t("invite.findIt")}</a>`;
    render(message, html`${t("invite.taken")} ${watch}`);
  } else if (err.code === "game.rated_needs_account") {
    // A rated game's seat is an account's: say so, and where to log in or sign up.
    render(message, html`${errorText(err)} <a href="/account">${t("nav.account")}</a>`);
  } else {
    render(
      message,
      html`${t("invite.failed", { error: errorText(err) })} <a href="/">${t("invite.toLobby")}</a>`,
    );
  }
}

async function main() {
  setupChrome();
  document.title = t("title.invite");
  onLanguage(() => {
    document.title = t("title.invite");
    if (failure) showFailure();
  });
  try {
    const joined = await api.acceptInvite(token);
    goToGame(joined.id, { replace: true });
  } catch (err) {
    failure = err;
    showFailure();
  }
}

main();
