// Players' names as the page shows them: a player without an account is named by the
// server "Anonymous" and the first four characters of their id (app/http/identity.py,
// display_name); the word is the page's, so it is shown in the chosen language
// ("Anonyme 4F2A"). Account names (letters, digits, _ or -: no space) never match.
// An account's name links to its profile (/@/name) wherever a page shows it; an anonymous
// player has no profile, so their name is plain text.

import { html } from "./html.js";
import { t } from "../i18n/i18n.js";

const ANONYMOUS = /^Anonymous ([0-9A-F]{4})$/;

export function shownName(name) {
  const match = typeof name === "string" ? ANONYMOUS.exec(name) : null;
  return match ? t("player.anonymousName", { tag: match[1] }) : name;
}

const ACCOUNT = /^[A-Za-z0-9_-]+$/;

export function isAccountName(name) {
  return typeof name === "string" && ACCOUNT.test(name);
}

// The name as markup: a link to the profile for an account, else the shown name.
export function nameLink(name) {
  if (!isAccountName(name)) return shownName(name);
  return html`<a class="player-link" href="/@/${encodeURIComponent(name)}">${name}</a>`;
}
