// The move notation the viewer reads (the game page, the analysis board, the downloaded
// record): the standard one (docs/notation.md) or, for the two shōgi games, the Japanese one
// (▲B2ひよこ, ▲３四ひよこ). Remembered in this browser (board/notation.js).

import { html } from "../lib/html.js";
import { t } from "../i18n/i18n.js";
import { NOTATIONS, hasJapaneseNotation, storedNotation } from "../board/notation.js";

// The select, for a game that has a Japanese notation; nothing for the others.
export function notationPicker(variant) {
  if (!hasJapaneseNotation(variant)) return html``;
  const current = storedNotation();
  return html`<label>${t("pref.notation")} <select data-pref="notation">${NOTATIONS.map(
    (n) => html`<option value="${n}" ${n === current ? html`selected` : ""}>${t(`notation.${n}`)}</option>`,
  )}</select></label>`;
}

// The record's address: its moves' Japanese forms beside them when that is the choice.
export function recordHref(variant, gameId) {
  const japanese = hasJapaneseNotation(variant) && storedNotation() === "japanese";
  return `/game/export/${encodeURIComponent(gameId)}${japanese ? "?notation=japanese" : ""}`;
}
