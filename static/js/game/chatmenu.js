// What one may do about the writer of a chat line, from the line itself (chat.js puts this on
// other people's lines; docs/decisions/blocking-and-chat-safety.md):
//
// - Mute, in one click (the line's own button): their lines are hidden on this browser's
//   pages, in every game, until unmuted (chat.js keeps the list in localStorage);
// - a small menu (a <details>) for an account looking at another account's line:
//   Block (POST /api/rel/block: the server stops sending their lines to this account, in
//   every game and on every device, and keeps the two apart) and Report (the moderators'
//   dialog, site/report.js, with the line). A further action on a line goes in `items`.
//
// Glyphs are drawn by the stylesheet (chat.css): a line's text, as read, stays the line's.

import { t } from "../i18n/i18n.js";
import { openReport } from "../site/report.js";

function button(className, label, onClick) {
  const b = document.createElement("button");
  b.type = "button";
  b.className = className;
  b.title = label;
  b.setAttribute("aria-label", label);
  b.addEventListener("click", onClick);
  return b;
}

function item(text, onClick) {
  const b = document.createElement("button");
  b.type = "button";
  b.className = "link-button chat-menu-item";
  b.textContent = text;
  b.addEventListener("click", (event) => {
    event.target.closest("details").open = false;
    onClick();
  });
  return b;
}

// line: {id, userId, username, text}; canAct: the viewer is an account and so is the writer;
// onMute(line), onBlock(line); gameId: the page's game (a report names it).
export function lineActions(line, { canAct, onMute, onBlock, gameId }) {
  const box = document.createElement("span");
  box.className = "chat-actions";
  box.append(button("chat-mute link-button", t("chat.muteName", { name: line.username }), () => onMute(line)));
  if (!canAct) return box;
  const items = [
    item(t("chat.block", { name: line.username }), () => onBlock(line)),
    item(t("chat.reportLine", { name: line.username }), () =>
      openReport({ username: line.username, gameId, chatLine: { id: line.id, text: line.text } })),
  ];
  const menu = document.createElement("details");
  menu.className = "chat-menu";
  const summary = document.createElement("summary");
  summary.title = t("chat.menu", { name: line.username });
  summary.setAttribute("aria-label", t("chat.menu", { name: line.username }));
  const list = document.createElement("span");
  list.className = "chat-menu-items";
  list.setAttribute("role", "group");
  list.append(...items);
  menu.append(summary, list);
  box.append(menu);
  return box;
}
