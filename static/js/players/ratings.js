// Ratings as players read them: "1742?" while provisional, a change "1500 → 1742? (+242)".
// Pure: numbers in, text or `html` out (the game page, profiles, lists and the leaderboard
// share them).

import { html } from "../lib/html.js";
import { t } from "../i18n/i18n.js";

// "+242", "-12", "0".
export function diffText(diff) {
  return diff > 0 ? `+${diff}` : String(diff);
}

// "1742?" while provisional, "1742" once settled.
export function ratingText(rating, provisional) {
  return `${rating}${provisional ? "?" : ""}`;
}

// The same, with the "?" explained to whoever hovers or reads it aloud.
export function ratingMark(rating, provisional) {
  return html`<span class="rating">${rating}${provisional
    ? html`<abbr title="${t("rating.provisional")}">?</abbr>` : ""}</span>`;
}

// A game's change of one player's rating (protocol.md, the `ratings` message): `provisional`
// is the new rating's.
export function changeText(change) {
  return `${change.before} → ${ratingText(change.after, change.provisional)} (${diffText(change.diff)})`;
}

export function diffClass(diff) {
  return diff > 0 ? "up" : diff < 0 ? "down" : "same";
}

// The end-of-game lines: each player's change, "alice: 1500 → 1742? (+242)" (`game.ratings`
// of the state, or a `ratings` message's), first player first; nothing before the change.
export function changeLines(game) {
  if (!game.ratings) return [];
  return ["first", "second"]
    .filter((side) => game.ratings[side])
    .map((side) => ({
      side,
      diff: game.ratings[side].diff,
      text: t("rating.change", {
        name: (game.players && game.players[side] && game.players[side].name) || side,
        change: changeText(game.ratings[side]),
      }),
    }));
}

export function changeList(game) {
  const lines = changeLines(game);
  if (!lines.length) return html``;
  return html`<h2 class="small-heading">${t("rating.changes")}</h2>
    <ul class="rating-changes">${lines.map(
      (line) => html`<li data-side="${line.side}" class="diff-${diffClass(line.diff)}">${line.text}</li>`,
    )}</ul>`;
}
