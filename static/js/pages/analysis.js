// The analysis board (/analysis): a game record loaded (pasted, a file, or ?game=<id>), read
// here (record.js), then stepped through and played on by hand for both sides. Every move
// played stays: a move from an earlier position starts a variation (game/movetree.js,
// docs/decisions/analysis-move-tree.md). The page has no rules: the positions and their
// legal moves come from POST /api/analysis/moves, which stores nothing
// (docs/decisions/analysis-board.md).

import { request } from "../site/api.js";
import { onLanguage, setupChrome } from "../site/chrome.js";
import { html, render } from "../lib/html.js";
import { errorText, t } from "../i18n/i18n.js";
import { candidatesFor } from "../board/movechoice.js";
import { destsOf } from "../board/position.js";
import { announce, checkSquare, moveChoice, setUpBoard, showPosition } from "../board/setup.js";
import { RecordError, readRecordText } from "../game/record.js";
import {
  renderPlayers, renderReplay, renderStatus, renderTags, renderTitle, renderTree,
} from "../game/analysisview.js";
import { MoveTree } from "../game/movetree.js";
import { otherSide, variantName } from "../lib/variant.js";
import { moveSentence } from "../i18n/words.js";
import { PhaseHint } from "../game/phasehint.js";
import { notationPicker } from "../game/notationpref.js";
import { storeNotation } from "../board/notation.js";
import { placementMarks } from "../game/phases.js";
import { EnginePanel } from "../game/enginepanel.js";

const $ = (id) => document.getElementById(id);
const hint = new PhaseHint($("status")); // the stone games' phase line and notes

const state = {
  variants: [],
  variant: null, // the game's description (/api/variants)
  rules: {},
  tags: {}, // the record's tags ({} for a board started from a game's first position)
  tree: null, // every move loaded or played (movetree.js)
  line: [], // the line followed: tree nodes from the root (the record's, or a variation)
  moves: [], // the line's moves (from `line`)
  positions: [], // positions[i]: after i moves of the line (the server's answers)
  record: null, // {fen, moves} as loaded, for "back to the record's moves"
  ply: 0, // the position shown: line[ply]
  orientation: "first",
  board: null,
  busy: false, // a question to the server is under way: no input until it answers
  // The move meant by a gesture that stands for several (a stone to remove, a promotion).
  choice: moveChoice({ play: (text) => play(text), cancel: () => show() }),
  pieceSet: "animals",
};

// ---- messages -----------------------------------------------------------------------------
function showError(text) {
  const box = $("message");
  box.textContent = text;
  box.hidden = false;
}

function clearError() {
  $("message").hidden = true;
  $("message").textContent = "";
}

function recordErrorText(err) {
  return t(`analysis.error.${err.code}`, err.details);
}

// ---- the server ---------------------------------------------------------------------------
function ask(variant, rules, fen, moves) {
  return request("/api/analysis/moves", { method: "POST", body: { variant: variant.id, rules, fen, moves } });
}

// The engine panel: the position shown, evaluated (game/enginepanel.js); a best move clicked
// is played as by hand.
const engine = new EnginePanel($("engine-body"), $("engine-on"), {
  replay: async (variant, rules, fen, moves) => (await ask(variant, rules, fen, moves)).positions,
  play: (text) => play(text),
});

// ---- loading ------------------------------------------------------------------------------
// Shows a game from `fen` through `moves`. A move the engine refuses ends the line there:
// the moves before it are shown, and the refusal says which one and why. `clear`: the
// message shown so far goes (not when a failed load falls back to a first position).
async function loadLine({ variant, rules, fen, moves, tags }, { clear = true } = {}) {
  if (clear) clearError();
  state.busy = true;
  let answer;
  let kept = moves;
  try {
    try {
      answer = await ask(variant, rules, fen, moves);
    } catch (err) {
      const index = err.body && Number.isInteger(err.body.index) ? err.body.index : null;
      if (index === null) {
        showError(startErrorText(err));
        return false;
      }
      kept = moves.slice(0, index);
      showError(t("analysis.error.moveRefused", { n: index + 1, text: moves[index], why: errorText(err) }));
      answer = await ask(variant, rules, fen, kept);
    }
  } catch (err) {
    showError(errorText(err));
    return false;
  } finally {
    state.busy = false;
  }
  state.variant = variant;
  state.rules = answer.rules;
  hint.forget();
  setUpBoard(state, variant, state.rules, onMove, onRefuse); // a new board for each game; the pieces'
  // pictures follow the rules (dōbutsu's yōkai)
  state.tags = tags;
  state.tree = new MoveTree(answer.positions[0]);
  let node = state.tree.root;
  kept.forEach((move, i) => {
    node = state.tree.add(node, move, answer.positions[i + 1]);
  });
  state.record = { fen, moves: kept };
  follow(node, kept.length);
  state.choice.clear();
  show();
  return true;
}

function startErrorText(err) {
  if (err.code === "position.invalid") return t("analysis.error.position", { why: err.message });
  return errorText(err);
}

async function loadRecordText(text) {
  let game;
  try {
    game = readRecordText(text, state.variants);
  } catch (err) {
    if (!(err instanceof RecordError)) throw err;
    showError(recordErrorText(err));
    return false;
  }
  const loaded = await loadLine(game);
  if (loaded && game.count > 1) announce(t("analysis.firstOf", { n: game.count }));
  return loaded;
}

async function loadGameId(id) {
  let response;
  try {
    response = await fetch(`/game/export/${encodeURIComponent(id)}`, {
      headers: { Accept: "application/x-chess-pgn" },
      credentials: "same-origin",
    });
  } catch {
    showError(errorText({ code: "network.error" }));
    return;
  }
  if (!response.ok) {
    let body = null;
    try {
      body = await response.json();
    } catch {
      body = null;
    }
    showError(errorText(body || { code: "http.error", error: `${response.status}` }));
    return;
  }
  const text = await response.text();
  $("record-text").value = text;
  await loadRecordText(text);
}

// ---- the line followed --------------------------------------------------------------------
// Shows `node`: on the line followed if it is there, else on the line through it.
function follow(node, ply = node.depth) {
  if (state.line[node.depth] !== node) state.line = state.tree.lineThrough(node);
  state.moves = state.line.slice(1).map((n) => n.move);
  state.positions = state.line.map((n) => n.pos);
  state.ply = ply;
}

// ---- playing by hand ----------------------------------------------------------------------
function here() {
  return state.positions[state.ply];
}

function canPlay() {
  const pos = here();
  return Boolean(pos && !state.busy && !pos.result);
}

async function play(text) {
  if (!canPlay()) return false;
  clearError();
  const before = here();
  const from = state.line[state.ply];
  const known = state.tree.child(from, text);
  if (known) {
    // A move played here before (the line's own, or a variation's): a step to it.
    follow(known);
    const note = noteMove(before, text);
    show();
    announce(said(before, text, note));
    return true;
  }
  state.busy = true;
  show();
  try {
    const answer = await ask(state.variant, state.rules, before.fen, [text]);
    // A new node: the line goes on with it, or a variation starts here (the line kept).
    follow(state.tree.add(from, text, answer.positions[1]));
    announce(said(before, text, noteMove(before, text)));
    return true;
  } catch (err) {
    showError(t("analysis.error.refused", { text, why: errorText(err) }));
    return false;
  } finally {
    state.busy = false;
    state.choice.clear();
    show();
  }
}

function onMove(origin, target) {
  if (!canPlay()) return;
  // Several moves: the player chooses the stone to remove, or whether to promote.
  const candidates = candidatesFor(here().legalMoves, origin, target);
  if (state.choice.offer(candidates, target, state.board) === "pick") {
    renderStatus(state);
    drawHint();
  }
}

// ---- the stone games' phase line and notes (game/phasehint.js) -----------------------------
function drawHint() {
  const pos = here();
  const picking = state.choice.kind === "pick";
  hint.draw({ variant: state.variant, fen: pos.fen, ply: state.ply, playing: canPlay(), picking, over: Boolean(pos.result) });
}

// The notes on the move `text` just played from `before` (the position shown is after it).
function noteMove(before, text) {
  const move = { before: before.fen, text, mover: before.turn, after: here().fen, ply: state.ply };
  return hint.moved({ variant: state.variant, ...move });
}

function said(before, text, note) {
  const sentence = moveSentence(state.variant, before.fen, text, before.turn, state.pieceSet);
  return note ? `${sentence}. ${note}` : sentence;
}

// The board's onRefuse: why a click led nowhere, when the game says.
function onRefuse(origin, square) {
  const pos = here();
  if (!canPlay() || state.choice.kind) return;
  const where = { fen: pos.fen, ply: state.ply, legalMoves: pos.legalMoves };
  if (hint.refused({ variant: state.variant, ...where, origin, square })) drawHint();
}

// ---- drawing ------------------------------------------------------------------------------
function show() {
  if (!state.variant || !state.positions.length) return;
  const pos = here();
  const live = canPlay() && !state.choice.kind;
  showPosition(state, {
    fen: pos.fen,
    last: state.moves[state.ply - 1],
    dests: live ? destsOf(pos.legalMoves) : {},
    selectable: live ? pos.turn : null,
    check: checkSquare(state.variant, pos),
    marks: placementMarks({}, live ? pos.legalMoves : []),
  });
  drawHint();
  renderTitle(state);
  renderPlayers(state);
  renderStatus(state);
  renderReplay(state);
  engine.show({ variant: state.variant, rules: state.rules, pos, pieceSet: state.pieceSet, live });
  render($("notation-pref"), notationPicker(state.variant));
  renderTree($("analysis-moves"), state);
  render($("record-tags"), renderTags(state.tags));
  const r = state.record;
  $("restore").hidden = !r || r.moves.every((m, i) => m === state.moves[i]);
}

function goTo(where) {
  const last = state.moves.length;
  const target = { first: 0, prev: state.ply - 1, next: state.ply + 1, last }[where];
  if (!Number.isInteger(target) || target < 0 || target > last || state.busy) return;
  state.ply = target;
  state.choice.clear();
  show();
}

// A move of the tree clicked: its position, on its line.
function goToNode(id) {
  const node = state.tree && state.tree.node(id);
  if (!node || state.busy) return;
  follow(node);
  state.choice.clear();
  show();
}

// Back to the record's moves, at their end: the variations played stay in the tree.
function restore() {
  const node = state.tree.follow(state.record.moves);
  if (!node || state.busy) return;
  state.line = state.tree.lineThrough(node);
  follow(node);
  state.choice.clear();
  clearError();
  show();
}

// ---- the page's controls ------------------------------------------------------------------
function fillNewForm() {
  const select = $("new-variant");
  const chosen = select.value || (state.variant && state.variant.id);
  render(select, html`${state.variants.map((v) => html`<option value="${v.id}" ${v.id === chosen ? html`selected` : ""}>${variantName(v)}</option>`)}`);
}

function startBoard(id, options = {}) {
  const variant = state.variants.find((v) => v.id === id) || state.variants[0];
  return loadLine({ variant, rules: { ...variant.rules }, fen: variant.start, moves: [], tags: {} }, options);
}

document.addEventListener("click", (event) => {
  const target = event.target.closest("[data-action], [data-node]");
  if (!target) return;
  if (target.dataset.node !== undefined) {
    goToNode(target.dataset.node);
    return;
  }
  const action = target.dataset.action;
  if (action === "flip") {
    state.orientation = otherSide(state.orientation);
    show();
  } else if (action === "restore" && state.record) {
    restore();
  } else if (["first", "prev", "next", "last"].includes(action)) {
    goTo(action);
  }
});

document.addEventListener("keydown", (event) => {
  if (event.altKey || event.ctrlKey || event.metaKey) return;
  if (event.target.closest && event.target.closest("input, select, textarea, [data-square], [data-hand], dialog")) return;
  const where = { ArrowLeft: "prev", ArrowRight: "next", Home: "first", End: "last" }[event.key];
  if (where) {
    event.preventDefault();
    goTo(where);
  }
});

// The notation of the move list (the two shōgi games: standard or Japanese).
document.addEventListener("change", (event) => {
  if (event.target.dataset && event.target.dataset.pref === "notation") {
    storeNotation(event.target.value);
    show();
  }
});

function setupForms() {
  $("move-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const input = $("move-text");
    const text = input.value.trim();
    if (!text) return;
    if (!canPlay()) {
      showError(here() && here().result ? t("analysis.error.over") : errorText({ code: "game.busy" }));
      return;
    }
    if (await play(text)) input.value = "";
  });
  $("load-form").addEventListener("submit", (event) => {
    event.preventDefault();
    loadRecordText($("record-text").value);
  });
  $("record-file").addEventListener("change", async (event) => {
    const file = event.target.files && event.target.files[0];
    if (!file) return;
    const text = await file.text();
    $("record-text").value = text;
    loadRecordText(text);
  });
  $("new-form").addEventListener("submit", (event) => {
    event.preventDefault();
    startBoard($("new-variant").value);
  });
}

async function main() {
  setupChrome();
  setupForms();
  onLanguage(() => {
    fillNewForm();
    if (state.board) state.board.set({});
    show();
  });
  try {
    state.variants = await request("/api/variants");
  } catch (err) {
    showError(errorText(err));
    return;
  }
  fillNewForm();
  const gameId = new URLSearchParams(location.search).get("game");
  if (gameId) await loadGameId(gameId);
  // Nothing loaded (no game asked, or it could not be): a first position, the reason kept.
  if (!state.board) await startBoard(state.variants[0].id, { clear: false });
  fillNewForm();
}

// Kept for the page tests and for debugging in the console.
window.kodama = { state, engine };
main();
