// The account page: the games this player has played (won, lost, drawn), register, log
// in/out, API tokens (create, shown once; list; revoke) and the irreversible upgrade to a BOT
// account; the owner's control of the account (password, e-mail, data, closing) is
// accountcontrol.js's. Every call is the public REST API.

import { request } from "../site/api.js";
import { html, render } from "../lib/html.js";
import { onLanguage, setupChrome } from "../site/chrome.js";
import { getLang, withLanguages } from "../i18n/i18n.js";
import { copyText } from "../site/ui.js";
import { shownName } from "../lib/names.js";
import { controlWord, setupControl, showEmail } from "./accountcontrol.js";

const $ = (id) => document.getElementById(id);

const WORDS = withLanguages("account", {
  en: {
    title: "Account",
    games: "Games",
    record: "{all} played: {win} won, {loss} lost, {draw} drawn.",
    playingNow: "{playing} on now.",
    why: "An account is optional: anyone can play without one. With an account, you keep your name on any browser, and a program (a bot) can play with an API token.",
    login: "Log in",
    register: "Create an account",
    username: "Username",
    password: "Password",
    password2: "Password again",
    usernameRule: "2 to 20 letters, digits, _ or -.",
    passwordRule: "At least 8 characters.",
    logout: "Log out",
    loggedIn: "Logged in as",
    tokens: "API tokens",
    tokensWhy: "A program sends a token as \"Authorization: Bearer …\" to act for this account. Give it only the scopes it needs.",
    description: "Description",
    scopes: "Scopes",
    "scope.bot:play": "play as a bot",
    "scope.board:play": "play games through a program",
    "scope.challenge:read": "see challenges",
    "scope.challenge:write": "send and answer challenges",
    createToken: "Create a token",
    shownOnce: "Copy this token now: it is shown only once.",
    copy: "Copy",
    copied: "Copied",
    noTokens: "No token yet.",
    noScope: "no scope",
    created: "created {date}",
    lastUsed: "last used {date}",
    neverUsed: "never used",
    revoke: "Revoke",
    revokeConfirm: "Revoke the token \"{name}\"? Programs using it will stop working.",
    bot: "Bot account",
    isBot: "This account is a BOT: it plays through the bot API and is shown as BOT.",
    botWhy: "Make this account a bot to play through the bot API (lichess-style). Only an account that has not played any game can become a bot.",
    irreversible: "I understand that this cannot be undone.",
    upgrade: "Upgrade to BOT",
    upgradeConfirm: "Make {name} a BOT account? This cannot be undone.",
    mismatch: "The two passwords differ.",
    "account.username_taken": "This username is taken.",
    "account.username_invalid": "A username has 2 to 20 letters, digits, _ or -.",
    "account.username_reserved": "Names beginning with kodama are the server's own.",
    "account.password_weak": "This password is too weak: at least 8 characters, not the username.",
    "auth.bad_credentials": "Wrong username or password.",
    "bot.already_played": "This account has played a game: it cannot become a bot.",
    "bot.already_bot": "This account is already a bot.",
    ratelimit: "Too many attempts: try again in {seconds} s.",
  },
  fr: {
    title: "Compte",
    games: "Parties",
    record: "{all} jouées : {win} gagnées, {loss} perdues, {draw} nulles.",
    playingNow: "{playing} en cours.",
    why: "Un compte est facultatif : tout le monde peut jouer sans. Avec un compte, vous gardez votre nom sur tout navigateur, et un programme (un bot) peut jouer avec un jeton d'API.",
    login: "Se connecter",
    register: "Créer un compte",
    username: "Nom d'utilisateur",
    password: "Mot de passe",
    password2: "Mot de passe (encore)",
    usernameRule: "2 à 20 lettres, chiffres, _ ou -.",
    passwordRule: "Au moins 8 caractères.",
    logout: "Se déconnecter",
    loggedIn: "Connecté en tant que",
    tokens: "Jetons d'API",
    tokensWhy: "Un programme envoie un jeton en « Authorization: Bearer … » pour agir au nom de ce compte. Ne lui donnez que les droits nécessaires.",
    description: "Description",
    scopes: "Droits",
    "scope.bot:play": "jouer en tant que bot",
    "scope.board:play": "jouer des parties via un programme",
    "scope.challenge:read": "voir les défis",
    "scope.challenge:write": "lancer des défis et y répondre",
    createToken: "Créer un jeton",
    shownOnce: "Copiez ce jeton maintenant : il n'est affiché qu'une fois.",
    copy: "Copier",
    copied: "Copié",
    noTokens: "Aucun jeton pour l'instant.",
    noScope: "aucun droit",
    created: "créé le {date}",
    lastUsed: "utilisé le {date}",
    neverUsed: "jamais utilisé",
    revoke: "Révoquer",
    revokeConfirm: "Révoquer le jeton « {name} » ? Les programmes qui l'utilisent cesseront de fonctionner.",
    bot: "Compte bot",
    isBot: "Ce compte est un BOT : il joue via l'API des bots et est affiché comme BOT.",
    botWhy: "Faites de ce compte un bot pour jouer via l'API des bots (comme sur lichess). Seul un compte qui n'a joué aucune partie peut devenir un bot.",
    irreversible: "Je comprends que c'est irréversible.",
    upgrade: "Passer en BOT",
    upgradeConfirm: "Faire de {name} un compte BOT ? C'est irréversible.",
    mismatch: "Les deux mots de passe diffèrent.",
    "account.username_taken": "Ce nom d'utilisateur est pris.",
    "account.username_invalid": "Un nom d'utilisateur a 2 à 20 lettres, chiffres, _ ou -.",
    "account.username_reserved": "Les noms commençant par kodama sont réservés au serveur.",
    "account.password_weak": "Mot de passe trop faible : au moins 8 caractères, différent du nom.",
    "auth.bad_credentials": "Nom d'utilisateur ou mot de passe incorrect.",
    "bot.already_played": "Ce compte a déjà joué une partie : il ne peut plus devenir un bot.",
    "bot.already_bot": "Ce compte est déjà un bot.",
    ratelimit: "Trop d'essais : réessayez dans {seconds} s.",
  },
});

function w(key, values = {}) {
  const text = WORDS[getLang()][key] ?? WORDS.en[key] ?? key;
  return text.replace(/\{(\w+)\}/g, (_, name) => String(values[name] ?? ""));
}

// An error in the page's language when its code is known, else the server's sentence.
function errorText(err) {
  if (err.code === "ratelimit") return w("ratelimit", (err.body && err.body.ratelimit) || {});
  return WORDS.en[err.code] ? w(err.code) : (controlWord(err.code) ?? err.message);
}

function dateText(ms) {
  return new Date(ms).toLocaleString(getLang());
}

let account = null; // GET /api/account, or null when not logged in
let me = null; // GET /api/me
let tokens = []; // GET /api/account/tokens (logged in)
let loads = 0; // loads started: only the latest one's answers are shown

function say(text) {
  $("message").textContent = text;
  $("message").hidden = !text;
}

// This page's own words (data-t); the shared header translates itself (chrome.js).
function translate() {
  for (const el of document.querySelectorAll("[data-t]")) {
    el.textContent = controlWord(el.dataset.t) ?? w(el.dataset.t);
  }
  document.title = `${w("title")} · Kodama`;
}

// Reads who this browser is, then shows it. Loads may overlap (a click while one is under
// way): an earlier load that answers last would show a stale account, so it is dropped.
async function load() {
  const mine = ++loads;
  let read;
  try {
    const readMe = await request("/api/me");
    const readAccount = readMe.username ? await request("/api/account") : null;
    const readTokens = readAccount ? (await request("/api/account/tokens")).tokens : [];
    read = [readMe, readAccount, readTokens];
  } catch (err) {
    if (mine === loads) throw err;
    return; // a later load answers for the page (its refusal, too, would be stale)
  }
  if (mine !== loads) return;
  [me, account, tokens] = read;
  show();
  await control.onLoaded(account);
}

// Draws what the last load read, in the page's language (a language change redraws only).
function show() {
  if (me === null) return;
  $("signed-out").hidden = account !== null;
  $("signed-in").hidden = account === null;
  $("me").textContent = shownName(me.name);
  renderRecord(me.count);
  if (account) {
    const title = account.title ? html` <span class="bot-title">${account.title}</span>` : "";
    render($("who"), html`${w("loggedIn")} <strong>${account.username}</strong>${title}`);
    renderBot();
    renderTokens();
  }
}

function renderTokens() {
  if (!tokens.length) {
    render($("token-list"), html`<p class="note">${w("noTokens")}</p>`);
    return;
  }
  render(
    $("token-list"),
    html`<ul class="token-list">${tokens.map(
      (tk) => html`<li>
        <div>
          <strong>${tk.description || "—"}</strong>
          <div class="note">${tk.scopes.length ? tk.scopes.join(", ") : w("noScope")} ·
            ${w("created", { date: dateText(tk.createdAt) })} ·
            ${tk.lastUsedAt ? w("lastUsed", { date: dateText(tk.lastUsedAt) }) : w("neverUsed")}</div>
        </div>
        <button type="button" class="danger" data-revoke="${tk.id}" data-name="${tk.description}">${w("revoke")}</button>
      </li>`,
    )}</ul>`,
  );
}

// The finished games of whoever this browser plays as (anonymous players too).
function renderRecord(count) {
  const playing = count.playing ? ` ${w("playingNow", count)}` : "";
  $("record").textContent = `${w("record", count)}${playing}`;
}

function renderBot() {
  if (account.title === "BOT") {
    render($("bot-part"), html`<p>${w("isBot")}</p>`);
    return;
  }
  render(
    $("bot-part"),
    html`<p class="note">${w("botWhy")}</p>
      <label class="check"><input type="checkbox" id="bot-sure"> ${w("irreversible")}</label>
      <div class="actions"><button type="button" class="danger" id="upgrade" disabled>${w("upgrade")}</button></div>`,
  );
}

// Runs an action; a refusal is shown (in the page's language), never thrown away.
async function attempt(action) {
  say("");
  try {
    await action();
  } catch (err) {
    say(errorText(err));
  }
}

function credentials(form) {
  return { username: form.elements.username.value.trim(), password: form.elements.password.value };
}

$("login-form").addEventListener("submit", (event) => {
  event.preventDefault();
  attempt(async () => {
    await request("/api/account/login", { method: "POST", body: credentials(event.target) });
    event.target.reset();
    await load();
  });
});

$("register-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const form = event.target;
  if (form.elements.password.value !== form.elements.password2.value) {
    say(w("mismatch"));
    return;
  }
  attempt(async () => {
    const body = credentials(form);
    await request("/api/account/register", { method: "POST", body });
    await request("/api/account/login", { method: "POST", body });
    form.reset();
    await load();
  });
});

$("logout").addEventListener("click", () => {
  attempt(async () => {
    await request("/api/account/logout", { method: "POST" });
    $("new-token").hidden = true;
    $("new-token-text").value = "";
    await load();
  });
});

$("token-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const form = event.target;
  const scopes = [...form.querySelectorAll('input[name="scopes"]:checked')].map((i) => i.value);
  attempt(async () => {
    const created = await request("/api/token", {
      method: "POST",
      body: { description: form.elements.description.value.trim(), scopes },
    });
    form.reset();
    $("new-token-text").value = created.token;
    $("new-token").hidden = false;
    $("copy-token").textContent = w("copy");
    await load();
  });
});

$("copy-token").addEventListener("click", async () => {
  if (await copyText($("new-token-text").value, $("new-token-text"))) {
    $("copy-token").textContent = w("copied");
  }
});

$("token-list").addEventListener("click", (event) => {
  const button = event.target.closest("[data-revoke]");
  if (!button || !confirm(w("revokeConfirm", { name: button.dataset.name }))) return;
  attempt(async () => {
    const id = encodeURIComponent(button.dataset.revoke);
    await request(`/api/account/tokens/${id}`, { method: "DELETE" });
    await load();
  });
});

$("bot-part").addEventListener("change", (event) => {
  if (event.target.id === "bot-sure") $("upgrade").disabled = !event.target.checked;
});

$("bot-part").addEventListener("click", (event) => {
  if (event.target.id !== "upgrade" || !$("bot-sure").checked) return;
  if (!confirm(w("upgradeConfirm", { name: account.username }))) return;
  attempt(async () => {
    await request("/api/bot/account/upgrade", { method: "POST" });
    await load();
  });
});

const control = {
  attempt,
  say,
  load,
  mismatch: () => w("mismatch"),
  account: () => account,
  onLoaded: async () => {},
};
setupControl(control);

setupChrome();
onLanguage(() => {
  translate();
  if (!$("new-token").hidden) $("copy-token").textContent = w("copy");
  show();
  showEmail();
});
translate();
attempt(load);
