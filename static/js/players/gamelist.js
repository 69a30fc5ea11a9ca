// A list of games as lichess's export gives them (`/api/games/user/{username}` and
// `/api/me/games`, NDJSON): date, game, opponent, result and rating change for one player,
// with a link to each game's page (replay once it is over).

import { html } from "../lib/html.js";
import { getLang, t } from "../i18n/i18n.js";
import { diffClass, diffText, ratingText } from "./ratings.js";
import { variantName } from "../lib/variant.js";
import { shownName } from "../lib/names.js";

const COLOR_SIDES = ["white", "black"];
const NOT_PLAYED = ["aborted", "noStart"];

function dateText(ms) {
  return new Intl.DateTimeFormat(getLang(), { dateStyle: "medium" }).format(new Date(ms));
}

// The player's seat ("white"/"black" in the export), or null if they did not sit.
function seatOf(game, playerId) {
  return COLOR_SIDES.find((color) => {
    const seat = game.players[color];
    return seat && seat.user && seat.user.id === playerId;
  }) ?? null;
}

function resultOf(game, seat) {
  if (game.status === "created") return t("list.waiting");
  if (game.status === "started") return t("list.playing");
  if (NOT_PLAYED.includes(game.status)) return t("list.aborted");
  if (!game.winner) return t("list.draw");
  return game.winner === seat ? t("list.won") : t("list.lost");
}

// An opponent who has a rating in the game is an account (docs/api.md): a profile link.
function opponentCell(seat) {
  if (!seat || !seat.user) return html`—`;
  const user = seat.user;
  const title = user.title ? html`<span class="bot-title">${user.title}</span> ` : "";
  const rating = "rating" in seat ? html` <span class="rating">(${ratingText(seat.rating, seat.provisional)})</span>` : "";
  const name = "rating" in seat
    ? html`<a href="/@/${encodeURIComponent(user.name)}">${user.name}</a>`
    : html`${shownName(user.name)}`;
  return html`${title}${name}${rating}`;
}

function changeCell(mine) {
  if (!mine || !("ratingDiff" in mine)) return html`<td class="num">—</td>`;
  const after = mine.rating + mine.ratingDiff;
  return html`<td class="num"><span class="diff ${diffClass(mine.ratingDiff)}">${diffText(mine.ratingDiff)}</span>
    <span class="note">→ ${after}</span></td>`;
}

function row(game, playerId, variants) {
  const seat = seatOf(game, playerId);
  const other = seat === "white" ? "black" : "white";
  const opponent = game.players[other];
  const variant = variants.find((v) => v.id === game.variant);
  const name = variant ? variantName(variant) : game.variant;
  const date = dateText(game.createdAt);
  const over = game.status !== "created" && game.status !== "started";
  const against = opponent && opponent.user ? shownName(opponent.user.name) : "—";
  const label = t(over ? "list.replayOf" : "list.openOf", { date, name: against });
  return html`<tr data-game="${game.id}">
    <td>${date}</td>
    <td>${name} <span class="note">${t(game.rated ? "list.rated" : "list.casual")}</span></td>
    <td>${opponentCell(opponent)}</td>
    <td>${resultOf(game, seat)}</td>
    ${changeCell(seat ? game.players[seat] : null)}
    <td><a href="/game/${encodeURIComponent(game.id)}" aria-label="${label}">${t(over ? "list.replay" : "list.open")}</a></td>
  </tr>`;
}

// The table, or a sentence when there is no game.
export function gameList(games, playerId, variants, caption) {
  if (!games.length) return html`<p class="note">${t("list.none")}</p>`;
  return html`<table class="game-list">
    <caption class="visually-hidden">${caption}</caption>
    <thead><tr>
      <th scope="col">${t("list.date")}</th><th scope="col">${t("list.game")}</th>
      <th scope="col">${t("list.opponent")}</th><th scope="col">${t("list.result")}</th>
      <th scope="col" class="num">${t("list.change")}</th><th scope="col"><span class="visually-hidden">${t("list.replay")}</span></th>
    </tr></thead>
    <tbody>${games.map((game) => row(game, playerId, variants))}</tbody>
  </table>`;
}
