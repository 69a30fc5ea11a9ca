// The rules pages: /rules lists the five games, /rules/{game} explains one, in the chosen
// language (rules-text.js). Every diagram is drawn by the game page's own board and piece
// pictures: the start position from describe(), one small board per piece with its steps
// (describe()'s move offsets), and the example positions of rules-text.js.

import { api } from "../site/api.js";
import { Board } from "../board/board.js";
import { onLanguage, setupChrome } from "../site/chrome.js";
import { html, render } from "../lib/html.js";
import { errorText, getLang, t } from "../i18n/i18n.js";
import { PIECE_SETS, defaultPieceSet, storePieceSet } from "../board/pieces.js";
import { squareName } from "../board/position.js";
import { POSITIONS, RULES_TEXT } from "../i18n/rules-text.js";
import {
  optionAbout, optionLabel, optionValueLabel, pieceName, pieceStrength, variantBlurb,
  variantName,
} from "../lib/variant.js";

const main = document.getElementById("rules");
const parts = location.pathname.split("/").filter(Boolean);
const gameId = parts.length > 1 ? decodeURIComponent(parts[1]) : null;
let variants = [];
let pieceSet = null;

// ---- positions written as data -> position strings the board reads -----------------------
function boardField(files, ranks, pieces) {
  const rows = [];
  for (let rank = ranks - 1; rank >= 0; rank--) {
    let row = "";
    let empty = 0;
    for (let file = 0; file < files; file++) {
      const token = pieces[squareName(file, rank)];
      if (!token) {
        empty += 1;
        continue;
      }
      if (empty) row += String(empty);
      empty = 0;
      row += token;
    }
    rows.push(row + (empty ? String(empty) : ""));
  }
  return rows.join("/");
}

function positionString(variant, { pieces = {}, hands = {} }) {
  const field = boardField(variant.board.files, variant.board.ranks, pieces);
  if (variant.family === "stones") {
    const count = (side) => (hands[side] && hands[side].S) ?? 12;
    return `${field} f ${count("first")} ${count("second")}`;
  }
  if (variant.family === "shogi") {
    let text = "";
    for (const [side, change] of [["first", (l) => l], ["second", (l) => l.toLowerCase()]]) {
      for (const [letter, n] of Object.entries(hands[side] || {})) {
        if (n > 0) text += `${n > 1 ? n : ""}${change(letter)}`;
      }
    }
    return `${field} f ${text || "-"}`;
  }
  return `${field} f`;
}

// ---- diagrams -----------------------------------------------------------------------------
// Each placeholder names what to draw; boards are made once the markup is in the page.
function figure(kind, caption, extra = "") {
  return html`<figure class="diagram-figure ${extra}" data-diagram="${kind}">
    <div class="diagram-board"></div><figcaption>${caption}</figcaption></figure>`;
}

function bothNames(variant, token) {
  const names = [...new Set(PIECE_SETS.map((set) => pieceName(variant, token, set)))];
  const shown = pieceName(variant, token, pieceSet);
  return [shown, ...names.filter((n) => n !== shown)].join(" · ");
}

// One small board per piece: the piece in the middle, its steps marked around it.
function pieceBoardSpec(variant, piece) {
  const steps = piece.moves || [];
  const reach = Math.max(1, ...steps.flat().map((n) => Math.abs(n)));
  const size = 2 * reach + 1;
  const mini = { ...variant, board: { files: size, ranks: size }, squares: {} };
  const centre = squareName(reach, reach);
  const marks = {};
  for (const [df, dr] of steps) marks[squareName(reach + df, reach + dr)] = ["dest"];
  return { variant: mini, pieces: { [centre]: piece.letter }, marks };
}

function drawDiagram(el, variant) {
  const kind = el.dataset.diagram;
  const box = el.querySelector(".diagram-board");
  const options = { diagram: true, coords: true, showHands: true };
  let spec = null;
  let label = el.querySelector("figcaption").textContent;
  if (kind === "start") {
    spec = { variant, fen: variant.start };
    label = t("rules.diagramStart", { game: variantName(variant) });
  } else if (kind.startsWith("piece:")) {
    const piece = variant.pieces.find((p) => p.letter === kind.slice(6));
    const made = pieceBoardSpec(variant, piece);
    spec = { variant: made.variant, fen: positionString(made.variant, made), marks: made.marks };
    options.coords = false;
  } else if (kind.startsWith("rank:")) {
    const one = { ...variant, board: { files: 1, ranks: 1 }, squares: {} };
    spec = { variant: one, fen: positionString(one, { pieces: { a1: kind.slice(5) } }) };
    options.coords = false;
  } else if (kind.startsWith("pos:")) {
    const data = POSITIONS[variant.id][kind.slice(4)];
    spec = { variant, fen: positionString(variant, data), marks: data.marks };
  }
  if (!spec) return;
  const board = new Board(box, { ...options, variant: spec.variant, label });
  board.set({ fen: spec.fen, marks: spec.marks || {}, pieceSet });
}

function drawDiagrams(variantFor) {
  for (const el of main.querySelectorAll("[data-diagram]")) {
    const variant = variantFor(el);
    if (variant) drawDiagram(el, variant);
  }
}

// ---- the pages ----------------------------------------------------------------------------
function renderIndex() {
  document.title = t("title.rules");
  render(
    main,
    html`<h1>${t("rules.heading")}</h1><p class="lead">${t("rules.intro")}</p>
      <ul class="rules-index">${variants.map((v) => html`<li data-variant="${v.id}">
        <a class="rules-card" href="/rules/${encodeURIComponent(v.id)}">
          <div class="mini-board"></div>
          <span class="rules-card-text"><span class="variant-name">${variantName(v)}</span>
            <span class="variant-size">${v.board.files}×${v.board.ranks}</span>
            <span class="variant-blurb">${variantBlurb(v)}</span>
            <span class="rules-more">${t("rules.read")} →</span></span></a></li>`)}</ul>
      <section class="rules-section"><h2>${t("rules.onKodama")}</h2><p>${t("rules.onKodamaText")}</p></section>`,
  );
  for (const li of main.querySelectorAll(".rules-index li")) {
    const variant = variants.find((v) => v.id === li.dataset.variant);
    const box = li.querySelector(".mini-board");
    new Board(box, {
      variant,
      diagram: true,
      coords: false,
      showHands: false,
      label: t("rules.diagramStart", { game: variantName(variant) }),
    }).set({ pieceSet: defaultPieceSet(variant, {}) });
  }
}

function sectionDiagrams(variant, text, show) {
  return (show || []).map((what) => {
    if (what === "start") return figure("start", t("rules.start"), "wide");
    if (what === "pieces") {
      return html`<div class="piece-diagrams">${(variant.pieces || []).map((p) => figure(
        `piece:${p.letter}`,
        html`<strong>${bothNames(variant, p.letter)}</strong> ${(text.pieces || {})[p.letter] || ""}`,
        "small",
      ))}</div>`;
    }
    if (what === "ranks") {
      const ranked = [...(variant.pieces || [])].sort((a, b) => b.rank - a.rank);
      return html`<div class="piece-diagrams ranks">${ranked.map((p) => figure(
        `rank:${p.letter}`,
        html`<strong>${pieceStrength(variant, p.letter)}</strong> ${pieceName(variant, p.letter, pieceSet)}`,
        "tiny",
      ))}</div>`;
    }
    return figure(`pos:${what}`, text.captions[what] || "", "wide");
  });
}

function optionsSection(variant) {
  const options = variant.options || [];
  const body = options.length
    ? html`<dl class="rule-options">${options.map((o) => html`<dt>${optionLabel(variant, o)}</dt>
        <dd><ul>${o.values.map((value) => html`<li><strong>${optionValueLabel(variant, o, value)}</strong>${
          value === o.default ? html` <span class="badge">${t("rules.default")}</span>` : ""}</li>`)}</ul>
        <p>${optionAbout(variant, o)}</p></dd>`)}</dl>`
    : html`<p>${t("rules.optionsNone")}</p>`;
  return html`<section class="rules-section" id="options"><h2>${t("rules.options")}</h2>${body}</section>`;
}

function picturesSwitch(variant) {
  if (variant.family !== "shogi") return "";
  return html`<label class="pictures">${t("pref.pieces")} <select data-pref="piece-set">${PIECE_SETS.map(
    (set) => html`<option value="${set}" ${set === pieceSet ? html`selected` : ""}>${t(`set.${set}`)}</option>`,
  )}</select></label>`;
}

function renderGame(variant) {
  const text = RULES_TEXT[getLang()][variant.id] || RULES_TEXT.en[variant.id];
  const name = variantName(variant);
  document.title = t("title.rulesOf", { game: name });
  pieceSet = pieceSet || defaultPieceSet(variant, {});
  render(
    main,
    html`<nav class="crumbs"><a href="/rules">← ${t("rules.all")}</a></nav>
      <div class="rules-head"><h1>${name}</h1>
        <a class="button primary" href="/?game=${encodeURIComponent(variant.id)}">${t("rules.play", { game: name })}</a></div>
      <p class="lead">${variantBlurb(variant)}</p>${text.intro}${picturesSwitch(variant)}
      ${text.sections.map((s) => html`<section class="rules-section"><h2>${s.title}</h2>${s.body}${
        sectionDiagrams(variant, text, s.show)}</section>`)}
      ${optionsSection(variant)}
      <section class="rules-section"><h2>${t("rules.onKodama")}</h2><p>${t("rules.onKodamaText")}</p></section>`,
  );
  drawDiagrams(() => variant);
}

function renderPage() {
  if (!gameId) {
    renderIndex();
    return;
  }
  const variant = variants.find((v) => v.id === gameId);
  if (!variant) {
    render(main, html`<h1>${t("rules.heading")}</h1><p>${t("rules.unknown", { id: gameId })}
      <a href="/rules">${t("rules.all")}</a></p>`);
    return;
  }
  renderGame(variant);
}

async function start() {
  setupChrome();
  onLanguage(renderPage);
  main.addEventListener("change", (event) => {
    if (event.target.dataset.pref !== "piece-set") return;
    pieceSet = event.target.value;
    storePieceSet(pieceSet);
    renderPage();
  });
  try {
    variants = await api.variants();
  } catch (err) {
    render(main, html`<p class="error">${errorText(err)}</p>`);
    return;
  }
  renderPage();
}

start();
