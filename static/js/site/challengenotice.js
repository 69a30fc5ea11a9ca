// Challenges on every page (docs/protocol.md, "Challenges on every page"): whichever socket
// the page has (lobby, game or site socket) says `challenge` when someone challenges this
// player, `challengeCanceled` when they withdraw it and `challengeDeclined` when the
// challenged player said no to one of ours. A challenge shows as a box in the corner with
// Accept and Decline, at once; the challenges already waiting are read when the socket opens.
// Accepting goes to the game; the challenger's pages go there on its `gameStart`.

import { request } from "./api.js";
import { html, render, renderChanged } from "../lib/html.js";
import { getLang, withLanguages } from "../i18n/i18n.js";
import { onLanguage } from "./chrome.js";
import { goToGame } from "./site.js";

const WORDS = withLanguages("challengeNotice", {
  en: {
    region: "Challenges",
    challenges: (name) => `${name} challenges you`,
    declined: (name, reason) => `${name} declined your challenge: ${reason}`,
    accept: "Accept",
    decline: "Decline",
    close: "Close",
    rated: "rated",
    casual: "casual",
    unlimited: "no clock",
    days: (n) => (n === 1 ? "1 day per move" : `${n} days per move`),
    // The side of the challenged player, from the challenger's colour (white: first).
    youPlay: { white: "you play second", black: "you play first", random: "sides drawn at random" },
    failed: (error) => `Something went wrong: ${error}`,
  },
  fr: {
    region: "Défis",
    challenges: (name) => `${name} vous défie`,
    declined: (name, reason) => `${name} a refusé votre défi : ${reason}`,
    accept: "Accepter",
    decline: "Refuser",
    close: "Fermer",
    rated: "classée",
    casual: "amicale",
    unlimited: "sans pendule",
    days: (n) => (n === 1 ? "1 jour par coup" : `${n} jours par coup`),
    youPlay: { white: "vous jouez en second", black: "vous jouez en premier", random: "places tirées au sort" },
    failed: (error) => `Une erreur est survenue : ${error}`,
  },
});

export function challengeWords() {
  return WORDS[getLang()] || WORDS.en;
}

// "Dōbutsu shōgi · 5+3 · rated": a challenge's game, clock and stake.
export function challengeTerms(c) {
  const w = challengeWords();
  const tc = c.timeControl || {};
  let clock = w.unlimited;
  if (tc.type === "clock") clock = tc.show;
  else if (tc.type === "correspondence") clock = w.days(tc.daysPerTurn);
  return `${c.variant.name} · ${clock} · ${c.rated ? w.rated : w.casual}`;
}

function userText(user) {
  if (!user) return "?";
  return user.rating ? `${user.name} (${user.rating}${user.provisional ? "?" : ""})` : user.name;
}

// What the box shows, by challenge id: {kind: "in" | "declined", challenge, error}.
const shown = new Map();
let box = null;

function container() {
  if (!box) {
    box = document.createElement("section");
    box.className = "challenge-notices";
    box.setAttribute("aria-live", "polite");
    box.addEventListener("click", (event) => {
      const button = event.target.closest("button[data-challenge]");
      if (button) act(button.dataset.do, button.dataset.challenge, button);
    });
    document.body.append(box);
    onLanguage(draw);
  }
  box.setAttribute("aria-label", challengeWords().region);
  return box;
}

// Drawn again as each socket opens and as challenges come and go: unchanged, the box stays
// (a click on Accept is not lost to it being drawn again); `anew` after an answer, whose
// button act() disabled.
function draw(anew = false) {
  const w = challengeWords();
  const items = [...shown.values()];
  const el = container();
  el.hidden = !items.length;
  (anew ? render : renderChanged)(
    el,
    html`${items.map(({ kind, challenge: c, error }) => {
      const id = c.id;
      if (kind === "declined") {
        return html`<div class="challenge-notice" data-notice="${id}" role="status">
          <p>${w.declined(c.destUser ? c.destUser.name : "?", c.declineReason || "")}</p>
          <p class="note">${challengeTerms(c)}</p>
          <button type="button" data-do="close" data-challenge="${id}">${w.close}</button></div>`;
      }
      return html`<div class="challenge-notice" data-notice="${id}" role="alert">
        <p><strong>${w.challenges(userText(c.challenger))}</strong></p>
        <p class="note">${challengeTerms(c)} · ${w.youPlay[c.color] || w.youPlay.random}</p>
        ${error ? html`<p class="error">${w.failed(error)}</p>` : ""}
        <button type="button" class="primary" data-do="accept" data-challenge="${id}">${w.accept}</button>
        <button type="button" data-do="decline" data-challenge="${id}">${w.decline}</button></div>`;
    })}`,
  );
}

async function act(what, id, button) {
  if (what === "close") {
    shown.delete(id);
    draw();
    return;
  }
  const entry = shown.get(id);
  button.disabled = true;
  try {
    const path = `/api/challenge/${encodeURIComponent(id)}/${what}`;
    const answer = await request(path, { method: "POST" });
    shown.delete(id);
    draw(true);
    if (what === "accept") goToGame(answer.challenge.gameId || id);
  } catch (err) {
    if (entry) entry.error = err.message;
    draw(true);
  }
}

// The page this challenge's own page is: it says the answer itself.
function onItsPage(id) {
  return location.pathname === `/challenge/${encodeURIComponent(id)}`;
}

// A socket's message: true if it was a challenge's (shown here), false for any other.
export function challengeNotice(data) {
  const c = data && data.challenge;
  if (!c || !["challenge", "challengeCanceled", "challengeDeclined"].includes(data.type)) return false;
  if (data.type === "challenge" && !onItsPage(c.id)) shown.set(c.id, { kind: "in", challenge: c });
  else if (data.type === "challengeCanceled") shown.delete(c.id);
  else if (data.type === "challengeDeclined" && !onItsPage(c.id)) {
    shown.set(c.id, { kind: "declined", challenge: c });
  }
  draw();
  return true;
}

// A socket of the page opened (or opened again): the challenges waiting for this player,
// those received while no socket was open included; those answered meanwhile leave.
export async function readWaitingChallenges() {
  // Only these may leave: a challenge told while the answer was on its way is newer than it.
  const before = [...shown].filter(([, entry]) => entry.kind === "in").map(([id]) => id);
  let waiting;
  try {
    waiting = await request("/api/challenge");
  } catch {
    return; // no identity yet (a first visit): nobody can have challenged it
  }
  const ids = new Set();
  for (const c of waiting.in || []) {
    if (c.rematchOf || onItsPage(c.id)) continue;
    ids.add(c.id);
    if (!shown.has(c.id)) shown.set(c.id, { kind: "in", challenge: c });
  }
  for (const id of before) if (!ids.has(id)) shown.delete(id);
  if (box || shown.size) draw();
}
