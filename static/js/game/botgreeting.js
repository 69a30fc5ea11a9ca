// A built-in bot's greeting, its one line in the players' chat ("Hello! I am kodama-easy, …",
// bots/builtin.py), shown in the reader's language: each player reads it in their own. Only
// the server's own accounts have a bots.about entry ("kodama" names are reserved for them).

import { t } from "../i18n/i18n.js";

export function shownText(line) {
  const about = `bots.about.${line.username}`;
  const greets = line.room === "player" && line.text.startsWith(`Hello! I am ${line.username},`);
  if (!greets || t(about) === about) return line.text;
  return t("bots.greeting", { name: line.username, about: t(about) });
}
