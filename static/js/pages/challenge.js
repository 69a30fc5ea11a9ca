// The page of a challenge (/challenge/{id}, lichess's challenge page): the challenged player
// accepts or declines, the challenger waits or cancels, and whoever opens an open
// challenge's link takes a seat (?color=white|black: that one). The seat is taken by this
// script's POST, never by the page's GET: a link preview never sits down. Once accepted,
// everyone here goes to the game, whose id is the challenge's.

import { ApiError, api, request } from "../site/api.js";
import { onLanguage, setupChrome } from "../site/chrome.js";
import { html, render, renderChanged } from "../lib/html.js";
import { getLang, withLanguages } from "../i18n/i18n.js";
import { goToGame } from "../site/site.js";
import { challengeTerms } from "../site/challengenotice.js";

const WORDS = withLanguages("challenge", {
  en: {
    heading: "Challenge",
    open: "Open challenge: the first two people to open its link play each other.",
    from: (a, b) => `${a} challenges ${b}`,
    accept: "Accept",
    decline: "Decline",
    cancel: "Cancel the challenge",
    waitingAnswer: "Waiting for the answer…",
    waitingOpponent: "You have a seat. Waiting for an opponent to open the link…",
    notYours: "This challenge is for another player.",
    declined: (reason) => `Declined: ${reason}`,
    canceled: "This challenge was cancelled.",
    expired: "This challenge expired: nobody answered it in time.",
    missing: "There is no such challenge.",
    failed: (error) => `Something went wrong: ${error}`,
    needsAccount: "This challenge is rated: only accounts can play it. Log in or sign up:",
    account: "Account",
    lobby: "Go to the lobby",
  },
  fr: {
    heading: "Défi",
    open: "Défi ouvert : les deux premières personnes qui ouvrent son lien jouent l'une contre l'autre.",
    from: (a, b) => `${a} défie ${b}`,
    accept: "Accepter",
    decline: "Refuser",
    cancel: "Annuler le défi",
    waitingAnswer: "En attente de la réponse…",
    waitingOpponent: "Vous avez une place. En attente d'un adversaire qui ouvre le lien…",
    notYours: "Ce défi est destiné à un autre joueur.",
    declined: (reason) => `Refusé : ${reason}`,
    canceled: "Ce défi a été annulé.",
    expired: "Ce défi a expiré : personne n'y a répondu à temps.",
    missing: "Ce défi n'existe pas.",
    failed: (error) => `Une erreur est survenue : ${error}`,
    needsAccount: "Ce défi est classé : seuls les comptes peuvent le jouer. Connectez-vous ou inscrivez-vous :",
    account: "Compte",
    lobby: "Aller au salon",
  },
});
const POLL_MS = 1500;

const id = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop() || "");
const color = new URLSearchParams(location.search).get("color");
const $ = (name) => document.getElementById(name);
const path = (tail = "") => `/api/challenge/${encodeURIComponent(id)}${tail}`;
let me = null;
let challenge = null;
let failure = null;
let timer = null;

function words() {
  return WORDS[getLang()] || WORDS.en;
}

function terms(c) {
  const w = words();
  const who = c.open ? w.open : w.from(c.challenger ? c.challenger.name : "?", c.destUser.name);
  return html`${challengeTerms(c)} — ${who}`;
}

function draw() {
  const w = words();
  // An open challenge's name (lichess's label) is its heading; plain text, never markup.
  $("heading").textContent = challenge && challenge.name ? challenge.name : w.heading;
  document.title = `${w.heading} · Kodama`;
  const lobby = html`<a href="/">${w.lobby}</a>`;
  if (failure && failure.code === "challenge.rated_needs_account") {
    if (challenge) render($("terms"), terms(challenge));
    render($("message"), html`${w.needsAccount} <a href="/account">${w.account}</a>`);
    render($("actions"), html``);
    return;
  }
  if (failure) {
    const text = failure.code === "challenge.not_found" ? w.missing : w.failed(failure.message);
    render($("message"), html`${text} ${lobby}`);
    render($("actions"), html``);
    return;
  }
  if (!challenge) return;
  render($("terms"), terms(challenge));
  const c = challenge;
  let message = "";
  let actions = html``;
  if (c.status === "declined") message = w.declined(c.declineReason);
  else if (c.status === "canceled") message = w.canceled;
  else if (c.status === "expired") message = w.expired;
  else if (c.open) message = w.waitingOpponent;
  else if (me && c.destUser && me.id === c.destUser.id) {
    actions = html`<button type="button" class="primary" data-do="accept">${w.accept}</button>
      <button type="button" data-do="decline">${w.decline}</button>`;
  } else if (me && c.challenger && me.id === c.challenger.id) {
    message = w.waitingAnswer;
    actions = html`<button type="button" class="danger" data-do="cancel">${w.cancel}</button>`;
  } else message = w.notYours;
  const over = ["declined", "canceled", "expired"].includes(c.status);
  render($("message"), over ? html`${message} ${lobby}` : html`${message}`);
  // Drawn at each reading (every POLL_MS while it waits): the buttons stay, a click on one
  // not lost to them being drawn again.
  renderChanged($("actions"), actions);
}

function show(next) {
  challenge = next;
  if (challenge.status === "accepted") {
    goToGame(challenge.gameId || challenge.id, { replace: true });
    return;
  }
  draw();
  clearTimeout(timer);
  if (challenge.status === "created") timer = setTimeout(poll, POLL_MS);
}

async function poll() {
  try {
    show(await request(path("/show")));
  } catch (err) {
    if (err instanceof ApiError && err.code === "network.error") timer = setTimeout(poll, POLL_MS * 2);
    else fail(err);
  }
}

function fail(err) {
  failure = err;
  clearTimeout(timer);
  draw();
}

async function act(what) {
  try {
    if (what === "accept") show((await request(path("/accept"), { method: "POST" })).challenge);
    else {
      await request(path(`/${what}`), { method: "POST" });
      await poll();
    }
  } catch (err) {
    fail(err);
  }
}

async function main() {
  setupChrome();
  onLanguage(draw);
  $("actions").addEventListener("click", (event) => {
    const button = event.target.closest("button[data-do]");
    if (button) act(button.dataset.do);
  });
  try {
    me = await api.me();
    const found = await request(path("/show"));
    challenge = found; // its terms stay shown if taking a seat is refused
    if (found.open && found.status === "created") {
      const seat = color === "white" || color === "black" ? `?color=${color}` : "";
      show((await request(path(`/accept${seat}`), { method: "POST" })).challenge);
    } else show(found);
  } catch (err) {
    fail(err);
  }
}

main();
