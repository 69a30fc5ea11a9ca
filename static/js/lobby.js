// The lobby: create a game, see open public games (join) and live games (watch), live.

import { api } from "./api.js";
import { html, render } from "./html.js";
import { Socket } from "./socket.js";
import { clockText, describeRules } from "./variant.js";
import { connectionText } from "./words.js";

const $ = (id) => document.getElementById(id);
const form = $("create-form");
let variants = [];
let me = null;

function selectedVariant() {
  const id = form.elements.variant ? form.elements.variant.value : null;
  return variants.find((v) => v.id === id) || variants[0];
}

function renderVariants() {
  const chosen = new URLSearchParams(location.search).get("game") || variants[0].id;
  render(
    $("variants"),
    html`<legend>Game</legend>${variants.map(
      (v) => html`<label class="variant-choice">
        <input type="radio" name="variant" value="${v.id}" ${v.id === chosen ? html`checked` : ""}>
        <span class="variant-name">${v.name}</span>
        <span class="variant-size">${v.board.files}×${v.board.ranks}</span>
      </label>`,
    )}`,
  );
  if (!form.elements.variant.value) form.elements.variant[0].checked = true;
  renderOptions();
}

function renderOptions() {
  const variant = selectedVariant();
  const options = variant.options || [];
  render(
    $("options"),
    html`${options.map(
      (o) => html`<div class="option">
        <label for="option-${o.name}">${o.name}</label>
        <select id="option-${o.name}" data-option="${o.name}">
          ${o.values.map(
            (value) => html`<option value="${value}" ${value === o.default ? html`selected` : ""}>${value}${
              value === o.default ? " (default)" : ""
            }</option>`,
          )}
        </select>
        <p class="note">${o.description}</p>
      </div>`,
    )}`,
  );
}

function clockFieldsShown() {
  $("clock-fields").hidden = form.elements.clock.value !== "clock";
}

function showCreateError(message) {
  const el = $("create-error");
  el.textContent = message;
  el.hidden = !message;
}

async function create(event) {
  event.preventDefault();
  showCreateError("");
  const variant = selectedVariant();
  const rules = {};
  for (const select of $("options").querySelectorAll("select[data-option]")) {
    rules[select.dataset.option] = select.value;
  }
  let clock = null;
  if (form.elements.clock.value === "clock") {
    clock = {
      minutes: Number(form.elements.minutes.value),
      increment: Math.round(Number(form.elements.increment.value)),
    };
    if (!(clock.minutes > 0 && clock.minutes <= 180) || !(clock.increment >= 0 && clock.increment <= 180)) {
      showCreateError("Minutes must be above 0 and at most 180; the increment 0 to 180 seconds.");
      return;
    }
  }
  const button = $("create-button");
  button.disabled = true;
  try {
    const created = await api.create({
      variant: variant.id,
      rules,
      clock,
      color: form.elements.color.value,
      public: form.elements.public.checked,
    });
    // The game page shows the invite link (with a copy button) while the seat is free.
    location.href = `/game/${encodeURIComponent(created.id)}`;
  } catch (err) {
    showCreateError(err.message);
    button.disabled = false;
  }
}

function variantName(id) {
  const v = variants.find((x) => x.id === id);
  return v ? v.name : id;
}

function gameCell(item) {
  const v = variants.find((x) => x.id === item.variant);
  const rules = describeRules(v, item.rules);
  return html`<span class="variant-name">${variantName(item.variant)}</span>
    <span class="note">${clockText(item.clock)}${rules ? ` · ${rules}` : ""}</span>`;
}

function renderLists(data) {
  const open = data.open || [];
  const live = data.live || [];
  render(
    $("open-games"),
    open.length
      ? html`<ul class="game-list">${open.map(
          (g) => html`<li>
            <div>${gameCell(g)}<br><span class="who">${g.creator}</span>
              <span class="note">plays ${g.color === "random" ? "a random side" : g.color}</span></div>
            <button type="button" class="primary" data-join="${g.id}">${
              me && g.creator === me.name ? "Open" : "Join"
            }</button></li>`,
        )}</ul>`
      : html`<p class="note">No open games. Create one!</p>`,
  );
  render(
    $("live-games"),
    live.length
      ? html`<ul class="game-list">${live.map(
          (g) => html`<li>
            <div>${gameCell(g)}<br><span class="who">${g.first}</span>
              <span class="note">vs</span> <span class="who">${g.second}</span></div>
            <a class="button" href="/game/${encodeURIComponent(g.id)}">Watch</a></li>`,
        )}</ul>`
      : html`<p class="note">No games being played right now.</p>`,
  );
}

async function join(id, button) {
  button.disabled = true;
  try {
    const joined = await api.join(id);
    location.href = `/game/${encodeURIComponent(joined.id)}`;
  } catch (err) {
    button.disabled = false;
    alertInList(err.message);
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

async function main() {
  form.addEventListener("submit", create);
  form.addEventListener("change", (event) => {
    if (event.target.name === "variant") renderOptions();
    if (event.target.name === "clock") clockFieldsShown();
  });
  $("open-games").addEventListener("click", (event) => {
    const button = event.target.closest("[data-join]");
    if (button) join(button.dataset.join, button);
  });
  try {
    [variants, me] = await Promise.all([api.variants(), api.me()]);
  } catch (err) {
    showCreateError(`Cannot reach the server: ${err.message}`);
    return;
  }
  $("me").textContent = `You are ${me.name}`;
  renderVariants();
  clockFieldsShown();
  new Socket("/ws/lobby", {
    onMessage: (data) => {
      if (data.type === "lobby") renderLists(data);
    },
    onStatus: (status) => {
      const el = $("connection");
      el.textContent = connectionText(status);
      el.className = `connection ${status}`;
    },
  }).connect();
}

main();
