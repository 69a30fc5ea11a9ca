// The lobby: choose a game (its board, a line about it, its rules), create a game (an
// account's rated or casual, with a rating range), see open public games (join, or cancel
// one's own) and live games (watch, or resume one's own), live and filtered by game; or play
// a computer opponent.

import { api, request } from "../site/api.js";
import { Board } from "../board/board.js";
import { BotPanel } from "../lobby/bots.js";
import { onLanguage, setupChrome } from "../site/chrome.js";
import { html, render } from "../lib/html.js";
import { errorText, t } from "../i18n/i18n.js";
import { ANONYMOUS_RATING, hiddenGames, keepHiddenGames, nextLists, rangeText } from "../lobby/lobbylists.js";
import { renderFilter, renderLive, renderOpen } from "../lobby/lobbyview.js";
import { PoolGrid } from "../lobby/pools.js";
import { goToGame } from "../site/site.js";
import { Socket } from "../site/socket.js";
import { offerRated, readTimeControl, showTimeFields } from "../lobby/timecontrol.js";
import { chosenOptions, renderRuleOptions } from "../lib/ruleoptions.js";
import { variantBlurb, variantName } from "../lib/variant.js";
import { connectionText } from "../i18n/words.js";
import { shownName } from "../lib/names.js";

const $ = (id) => document.getElementById(id);
const form = $("create-form");
let variants = [];
let me = null;
let lists = null; // {v, open, live}: the whole lists, then each change applied
let connection = "connecting";
let bots = null;
let pools = null;
let myPerfs = null; // an account's perfs (GET /api/user/{username}), by game
const hidden = hiddenGames(); // the games the filter hides

function selectedVariant() {
  const id = form.elements.variant ? form.elements.variant.value : null;
  return variants.find((v) => v.id === id) || variants[0];
}

function renderVariants() {
  const chosen = selectedVariant() ? selectedVariant().id : null;
  const wanted = chosen || new URLSearchParams(location.search).get("game") || variants[0].id;
  render(
    $("variants"),
    html`<legend>${t("lobby.game")}</legend>${variants.map((v) => {
      const name = variantName(v);
      return html`<div class="variant-card" data-variant="${v.id}">
        <input type="radio" name="variant" id="variant-${v.id}" value="${v.id}"
          aria-describedby="blurb-${v.id}" ${v.id === wanted ? html`checked` : ""}>
        <label for="variant-${v.id}"><span class="variant-name">${name}</span>
          <span class="variant-size">${v.board.files}×${v.board.ranks}</span></label>
        <a class="rules-link" href="/rules/${encodeURIComponent(v.id)}"
          aria-label="${t("lobby.rulesOf", { game: name })}">${t("lobby.rules")}</a>
        <span class="variant-blurb" id="blurb-${v.id}">${variantBlurb(v)}</span>
        <div class="mini-board" aria-hidden="true"></div>
      </div>`;
    })}`,
  );
  if (!form.elements.variant.value) form.elements.variant[0].checked = true;
  // The start position, drawn by the same board the game page uses.
  for (const card of $("variants").querySelectorAll(".variant-card")) {
    const variant = variants.find((v) => v.id === card.dataset.variant);
    new Board(card.querySelector(".mini-board"), {
      variant,
      diagram: true,
      coords: false,
      showHands: false,
      label: t("lobby.boardOf", { game: variantName(variant) }),
    });
  }
  renderOptions();
}

function renderOptions() {
  renderRuleOptions($("options"), selectedVariant(), "", html`<h2 class="small-heading">${t("lobby.options")}</h2>`);
}

function clockFieldsShown() {
  showTimeFields(form);
}

function showCreateError(message) {
  const el = $("create-error");
  el.textContent = message;
  el.hidden = !message;
}

// The rule options chosen for the selected game: {name: value}.
function chosenRules() {
  return chosenOptions($("options"));
}

// What the form says: {variant, rules, clock: {minutes, increment[, byoyomi, periods]} |
// null, days, color, public}, or null after showing why it cannot be used.
function choices() {
  showCreateError("");
  const variant = selectedVariant();
  const rules = chosenRules();
  const time = readTimeControl(form);
  if (!time) {
    showCreateError(t("lobby.clockError"));
    return null;
  }
  const chosen = {
    variant,
    rules,
    ...time,
    color: form.elements.color.value,
    public: form.elements.public.checked,
    rated: form.elements.rated.checked, // any clock; an account's only (offerRated)
  };
  if (me && me.username && chosen.public) {
    const range = rangeText(form.elements.rangeLow.value, form.elements.rangeHigh.value);
    if (range === null) {
      showCreateError(t("lobby.rangeError"));
      return null;
    }
    if (range) chosen.ratingRange = range;
  }
  return chosen;
}

async function create(event) {
  event.preventDefault();
  const chosen = choices();
  if (!chosen) return;
  const button = $("create-button");
  button.disabled = true;
  try {
    const created = await api.create({ ...chosen, variant: chosen.variant.id });
    // The game page shows the invite link (with a copy button) while the seat is free.
    location.href = `/game/${encodeURIComponent(created.id)}`;
  } catch (err) {
    showCreateError(errorText(err));
    button.disabled = false;
  }
}

// The viewer's rating in a game: an account's (its perfs, 1500 before a rated game), an
// anonymous player's counting as 1500 (docs/decisions/seek-rating-range.md).
function ratingOf(variant) {
  const perf = myPerfs && myPerfs[variant];
  return perf ? perf.rating : ANONYMOUS_RATING;
}

function renderLists() {
  renderFilter($("game-filter"), variants, hidden);
  if (!lists) return;
  const ctx = { variants, meId: me && me.id, ratingOf, hidden };
  renderOpen($("open-games"), lists.open || [], ctx);
  renderLive($("live-games"), lists.live || [], ctx);
}

async function cancel(id, button) {
  button.disabled = true;
  try {
    await api.cancel(id); // the lobby socket removes it from the list
  } catch (err) {
    button.disabled = false;
    alertInList(errorText(err));
  }
}

async function join(id, button) {
  button.disabled = true;
  try {
    const joined = await api.join(id);
    goToGame(joined.id);
  } catch (err) {
    button.disabled = false;
    alertInList(errorText(err));
  }
}

function alertInList(message) {
  const p = document.createElement("p");
  p.className = "error";
  p.setAttribute("role", "alert");
  p.textContent = message;
  $("open-games").prepend(p);
  setTimeout(() => p.remove(), 4000);
}

function showConnection(status) {
  connection = status;
  const el = $("connection");
  el.textContent = connectionText(status);
  el.className = `connection ${status}`;
}

function redraw() {
  document.title = t("title.lobby");
  showConnection(connection);
  if (me) $("me").textContent = t("lobby.you", { name: shownName(me.name) });
  if (!variants.length) return;
  renderVariants();
  renderLists();
  if (bots) bots.render();
  if (pools) pools.render();
}

async function main() {
  setupChrome({ ownSocket: true });
  onLanguage(redraw);
  document.title = t("title.lobby");
  form.addEventListener("submit", create);
  form.addEventListener("change", (event) => {
    if (event.target.name === "variant") {
      renderOptions();
      if (bots) bots.render();
    }
    if (event.target.name === "clock") clockFieldsShown();
    if (event.target.dataset.option && bots) bots.render(); // perfect play's tables are per ruleset
  });
  $("variants").addEventListener("click", (event) => {
    // The whole card picks its game (its picture too), not only the radio and its label.
    const card = event.target.closest(".variant-card");
    if (!card || event.target.closest("a, input, label")) return;
    const radio = card.querySelector("input[type=radio]");
    radio.checked = true;
    radio.dispatchEvent(new Event("change", { bubbles: true }));
  });
  $("open-games").addEventListener("click", (event) => {
    const button = event.target.closest("[data-join]");
    if (button) join(button.dataset.join, button);
    const own = event.target.closest("[data-cancel]");
    if (own) cancel(own.dataset.cancel, own);
  });
  $("game-filter").addEventListener("change", (event) => {
    const box = event.target.closest("[data-filter]");
    if (!box) return;
    if (box.checked) hidden.delete(box.dataset.filter);
    else hidden.add(box.dataset.filter);
    keepHiddenGames(hidden);
    renderLists();
  });
  try {
    [variants, me] = await Promise.all([api.variants(), api.me()]);
  } catch (err) {
    showCreateError(t("lobby.cannotReach", { error: errorText(err) }));
    return;
  }
  $("me").textContent = t("lobby.you", { name: shownName(me.name) });
  offerRated(form, me);
  if (me.username) {
    $("range-fields").hidden = false; // a range is for accounts' seeks
    try {
      myPerfs = (await request(`/api/user/${encodeURIComponent(me.username)}`)).perfs || {};
    } catch {
      myPerfs = {}; // counted as 1500 everywhere: the server still checks the range
    }
  }
  renderVariants();
  renderLists();
  clockFieldsShown();
  bots = new BotPanel($("bots"), {
    variants,
    choices,
    selected: selectedVariant,
    rules: chosenRules,
  });
  bots.load();
  const socket = new Socket("/ws/lobby", {
    onMessage: (data) => {
      if (data.type === "gameStart") {
        goToGame(data.game.id); // a game of this player started (their seek was joined)
        return;
      }
      if (pools.handle(data)) return;
      const next = nextLists(lists, data);
      if (next === null) {
        // A change was missed: a new connection starts again from the whole lists.
        lists = null;
        socket.reconnectNow();
      } else if (next !== lists) {
        lists = next;
        renderLists();
      }
    },
    onStatus: (status) => {
      showConnection(status);
      pools.status(status);
    },
  });
  pools = new PoolGrid($("pools"), { send: (message) => socket.send(message), variants });
  pools.load();
  socket.connect();
}

main();
