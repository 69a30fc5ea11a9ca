// The header every page shares: the links (rules, account), the menu button that shows them
// on a phone, and the language switch (each language by its own short name: EN, FR, 日本語).
// The switch remembers the choice (i18n.js) and asks the page to draw itself again. Every page
// also follows its player to a new game (site.js): a page without a socket of its own (the
// lobby's, a game's) opens the site socket for that.

import { html, render } from "../lib/html.js";
import { LANGS, LANG_NAMES, LANG_SHORT, getLang, setLang, translatePage } from "../i18n/i18n.js";
import { openSiteSocket } from "./site.js";
import { showWarnings } from "./warnings.js";

const listeners = [];

// Runs `redraw` after every language change; translates the static markup at once.
export function onLanguage(redraw) {
  listeners.push(redraw);
}

function drawSwitch(box) {
  const current = getLang();
  render(
    box,
    html`${LANGS.map(
      (l) => html`<button type="button" data-lang="${l}" lang="${l}" title="${LANG_NAMES[l]}"
        aria-label="${LANG_NAMES[l]}" aria-pressed="${l === current ? "true" : "false"}">${LANG_SHORT[l]}</button>`,
    )}`,
  );
}

function markCurrentLink() {
  const path = location.pathname;
  for (const a of document.querySelectorAll("header.site nav a")) {
    const href = a.getAttribute("href");
    const here = href === "/" ? path === "/" : path === href || path.startsWith(`${href}/`);
    if (here) a.setAttribute("aria-current", "page");
    else a.removeAttribute("aria-current");
  }
}

// On a phone the links hide behind a button (site.css): it opens and closes them; Escape
// closes them and gives the focus back to the button.
function setupMenu() {
  const header = document.querySelector("header.site");
  const button = header && header.querySelector(".menu-button");
  if (!button) return;
  const show = (open) => {
    header.classList.toggle("menu-open", open);
    button.setAttribute("aria-expanded", open ? "true" : "false");
  };
  button.addEventListener("click", () => show(!header.classList.contains("menu-open")));
  header.addEventListener("keydown", (event) => {
    if (event.key !== "Escape" || !header.classList.contains("menu-open")) return;
    show(false);
    button.focus();
  });
}

// `ownSocket`: the page has a socket that says gameStart itself (the lobby, a game page).
// The header takes a second row when its links and the language switch do not fit on one
// (a tablet held upright with four languages): the pages that fit the screen (the game, its
// board) size themselves from --header-box, the header's height as drawn.
function followHeaderHeight() {
  const header = document.querySelector("header.site");
  if (!header || !window.ResizeObserver) return;
  const root = document.documentElement;
  new ResizeObserver(() => root.style.setProperty("--header-box", `${header.offsetHeight}px`)).observe(header);
}

export function setupChrome({ ownSocket = false } = {}) {
  if (!ownSocket) openSiteSocket();
  showWarnings(); // a moderator's warning, until it is acknowledged
  const box = document.querySelector("header.site .lang-switch");
  translatePage();
  markCurrentLink();
  setupMenu();
  followHeaderHeight();
  if (!box) return;
  drawSwitch(box);
  box.addEventListener("click", (event) => {
    const button = event.target.closest("[data-lang]");
    if (!button || button.dataset.lang === getLang()) return;
    setLang(button.dataset.lang);
    drawSwitch(box);
    box.querySelector(`[data-lang="${getLang()}"]`).focus();
    translatePage();
    for (const redraw of listeners) redraw();
  });
}
