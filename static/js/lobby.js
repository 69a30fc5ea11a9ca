// The lobby: choose a game (its board, a line about it, its rules), create a game, see
// open public games (join) and live games (watch), live; or play a computer opponent.

import { api } from "./api.js";
import { Board } from "./board.js";
import { BotPanel } from "./bots.js";
import { onLanguage, setupChrome } from "./chrome.js";
import { html, render } from "./html.js";
import { errorText, t } from "./i18n.js";
import { nextLists } from "./lobbylists.js";
import { PoolGrid } from "./pools.js";
import { goToGame } from "./site.js";
import { Socket } from "./socket.js";
import { readTimeControl, showTimeFields } from "./timecontrol.js";
import {
  clockText, describeRules, optionAbout, optionLabel, optionValueLabel, variantBlurb,
  variantName,
} from "./variant.js";
import { connectionText } from "./words.js";

const $ = (id) => document.getElementById(id);
const form = $("create-form");
let variants = [];
let me = null;
let lists = null; // {v, open, live}: the whole lists, then each change applied
let connection = "connecting";
let bots = null;
let pools = null;

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
  const variant = selectedVariant();
  const options = variant.options || [];
  const kept = {};
  for (const select of $("options").querySelectorAll("select[data-option]")) {
    kept[select.dataset.option] = select.value;
  }
  render(
    $("options"),
    html`${options.length ? html`<h2 class="small-heading">${t("lobby.options")}</h2>` : ""}${options.map(
      (o) => html`<div class="option">
        <label for="option-${o.name}">${optionLabel(variant, o)}</label>
        <select id="option-${o.name}" data-option="${o.name}" aria-describedby="about-${o.name}">
          ${o.values.map(
            (value) => html`<option value="${value}" ${
              value === (o.values.includes(kept[o.name]) ? kept[o.name] : o.default) ? html`selected` : ""}>${optionValueLabel(variant, o, value)}${
              value === o.default ? ` ${t("lobby.default")}` : ""
            }</option>`,
          )}
        </select>
        <p class="note" id="about-${o.name}">${optionAbout(variant, o)}</p>
      </div>`,
    )}`,
  );
}

function clockFieldsShown() {
  showTimeFields(form);
}

function showCreateError(message) {
  const el = $("create-error");
  el.textContent = message;
  el.hidden = !message;
}

// What the form says: {variant, rules, clock: {minutes, increment[, byoyomi, periods]} |
// null, days, color, public}, or null after showing why it cannot be used.
function choices() {
  showCreateError("");
  const variant = selectedVariant();
  const rules = {};
  for (const select of $("options").querySelectorAll("select[data-option]")) {
    rules[select.dataset.option] = select.value;
  }
  const time = readTimeControl(form);
  if (!time) {
    showCreateError(t("lobby.clockError"));
    return null;
  }
  return {
    variant,
    rules,
    ...time,
    color: form.elements.color.value,
    public: form.elements.public.checked,
  };
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

function nameOf(id) {
  const v = variants.find((x) => x.id === id);
  return v ? variantName(v) : id;
}

function gameCell(item) {
  const v = variants.find((x) => x.id === item.variant);
  const rules = describeRules(v, item.rules);
  return html`<span class="variant-name">${nameOf(item.variant)}</span>
    <span class="note">${clockText(item.clock, item.days)}${rules ? ` · ${rules}` : ""}</span>`;
}

const PLAYS = { random: "lobby.playsRandom", first: "lobby.playsFirst", second: "lobby.playsSecond" };

function renderLists() {
  if (!lists) return;
  const open = lists.open || [];
  const live = lists.live || [];
  render(
    $("open-games"),
    open.length
      ? html`<ul class="game-list">${open.map(
          (g) => html`<li>
            <div>${gameCell(g)}<br><span class="who">${g.creator}</span>
              <span class="note">${t(PLAYS[g.color] || "lobby.playsRandom")}</span></div>
            <button type="button" class="primary" data-join="${g.id}">${
              me && (g.creatorId ? g.creatorId === me.id : g.creator === me.name)
                ? t("lobby.openOwn") : t("lobby.join")
            }</button></li>`,
        )}</ul>`
      : html`<p class="note">${t("lobby.noOpen")}</p>`,
  );
  render(
    $("live-games"),
    live.length
      ? html`<ul class="game-list">${live.map(
          (g) => html`<li>
            <div>${gameCell(g)}<br><span class="who">${g.first}</span>
              <span class="note">${t("lobby.vs")}</span> <span class="who">${g.second}</span></div>
            <a class="button" href="/game/${encodeURIComponent(g.id)}">${t("lobby.watch")}</a></li>`,
        )}</ul>`
      : html`<p class="note">${t("lobby.noLive")}</p>`,
  );
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
  if (me) $("me").textContent = t("lobby.you", { name: me.name });
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
  });
  try {
    [variants, me] = await Promise.all([api.variants(), api.me()]);
  } catch (err) {
    showCreateError(t("lobby.cannotReach", { error: errorText(err) }));
    return;
  }
  $("me").textContent = t("lobby.you", { name: me.name });
  renderVariants();
  clockFieldsShown();
  bots = new BotPanel($("bots"), { variants, choices, selected: selectedVariant });
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
