// Players' names as the page shows them: a player without an account is named by the
// server "Anonymous" and the first four characters of their id (app/http/identity.py,
// display_name); the word is the page's, so it is shown in the chosen language
// ("Anonyme 4F2A"). Account names (letters, digits, _ or -: no space) never match.

import { t } from "../i18n/i18n.js";

const ANONYMOUS = /^Anonymous ([0-9A-F]{4})$/;

export function shownName(name) {
  const match = typeof name === "string" ? ANONYMOUS.exec(name) : null;
  return match ? t("player.anonymousName", { tag: match[1] }) : name;
}
