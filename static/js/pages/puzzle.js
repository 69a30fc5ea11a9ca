// The puzzle page (/training, /training/daily, /training/<id>): a Dōbutsu position where
// exactly one move wins (docs/decisions/puzzles.md). The opponent's last move is played out,
// then the solver plays on the board by clicking (or dragging); each right move is answered
// by the opponent's reply from the solution. A wrong move is refused and counts as a
// failure, as do a hint and giving up; the solution is then played out. Each attempt is
// reported once (POST /api/puzzle/<id>/round), which rates an account's first attempt; the
// next puzzle is one near the player's rating (GET /api/puzzle/next).
//
// The page has no rules: the positions along the solution and their legal moves come with
// the puzzle (its `positions`, docs/api.md "Puzzles").

import { request } from "../site/api.js";
import { onLanguage, setupChrome } from "../site/chrome.js";
import { html, render } from "../lib/html.js";
import { errorText, t } from "../i18n/i18n.js";
import { candidatesFor } from "../board/movechoice.js";
import { destsOf, parseMove } from "../board/position.js";
import { announce, checkSquare, moveChoice, playerBars, setUpBoard, showPosition } from "../board/setup.js";
import { playerWord } from "../lib/variant.js";
import { moveSentence } from "../i18n/words.js";

const $ = (id) => document.getElementById(id);
const REPLY_MS = 500; // the opponent's reply, after the solver's move is seen

const state = {
  variant: null, // Dōbutsu's description (/api/variants)
  data: null, // the puzzle as the API gives it: {game, puzzle, positions}
  at: 0, // the position shown: positions[at] (0: before the opponent's last move)
  // "intro" (the opponent's last move coming), "play", "solved", "failed" (played out).
  phase: "intro",
  failed: false, // a wrong move, a hint or giving up: the attempt is not a win
  hinted: false,
  reported: null, // the server's answer to the attempt, once sent
  wrong: null, // the last refused move
  me: null, // the viewer's puzzle rating (null: a guest)
  orientation: "first",
  board: null,
  pieceSet: "animals",
  choice: moveChoice({ play: (text) => play(text), cancel: () => show() }),
};

function moves() {
  return [...state.data.game.pgn.split(" ").slice(-1), ...state.data.puzzle.solution];
}

function here() {
  return state.data.positions[state.at];
}

function solver() {
  return state.data.positions[1].turn;
}

// ---- loading ------------------------------------------------------------------------------
function wanted() {
  const path = location.pathname.replace(/\/+$/, "");
  if (path === "/training/daily") return "/api/puzzle/daily";
  const id = path.startsWith("/training/") ? path.slice("/training/".length) : "";
  return id ? `/api/puzzle/${encodeURIComponent(id)}` : "/api/puzzle/next";
}

async function load(path) {
  let data;
  try {
    data = await request(path);
  } catch (err) {
    showError(err.code === "puzzle.not_found" ? t("puzzle.notFound") : errorText(err));
    return;
  }
  clearError();
  state.data = data;
  state.at = 0;
  state.phase = "intro";
  state.failed = state.hinted = false;
  state.reported = state.wrong = null;
  state.orientation = solver();
  // The address names the puzzle shown (the daily puzzle's stays /training/daily).
  const address = path === "/api/puzzle/daily" ? "/training/daily" : `/training/${data.puzzle.id}`;
  if (location.pathname !== address) history.replaceState(null, "", address);
  setUpBoard(state, state.variant, data.game.rules, onMove);
  show();
  // The opponent's last move, seen played.
  setTimeout(() => {
    state.at = 1;
    state.phase = "play";
    show();
    announce(said(0));
  }, REPLY_MS);
}

// ---- playing ------------------------------------------------------------------------------
function onMove(origin, target) {
  if (state.phase !== "play" || here().turn !== solver()) return;
  state.choice.offer(candidatesFor(here().legalMoves, origin, target), target, state.board);
}

function play(text) {
  if (state.phase !== "play") return;
  const expected = moves()[state.at];
  state.choice.clear();
  if (text !== expected) {
    state.wrong = text;
    fail();
    show();
    announce(t("puzzle.wrong"));
    return;
  }
  state.wrong = null;
  step();
}

// One move of the solution played (the solver's, or the opponent's reply after it).
function step() {
  const ply = state.at;
  state.at += 1;
  if (state.at === state.data.positions.length - 1) {
    if (state.phase === "play") {
      state.phase = "solved";
      if (!state.failed) report(true); // a failure was reported when it happened
    }
    show();
    announce(`${said(ply)}. ${t(state.phase === "solved" ? "puzzle.solved" : "puzzle.seen")}`);
    return;
  }
  show();
  announce(said(ply));
  if (here().turn !== solver() || state.phase === "failed") {
    setTimeout(step, REPLY_MS);
  }
}

function fail() {
  if (!state.failed) report(false);
  state.failed = true;
}

function hint() {
  if (state.phase !== "play") return;
  state.hinted = true;
  fail();
  show();
  announce(hintText());
}

function giveUp() {
  if (state.phase !== "play") return;
  fail();
  state.phase = "failed";
  state.wrong = null;
  show();
  setTimeout(step, REPLY_MS);
}

async function report(win) {
  try {
    state.reported = await request(`/api/puzzle/${encodeURIComponent(state.data.puzzle.id)}/round`, {
      method: "POST",
      body: { win },
    });
    if (state.reported.rating) state.me = state.reported.rating;
  } catch (err) {
    showError(errorText(err));
  }
  show();
}

async function next() {
  const after = state.data ? `?after=${encodeURIComponent(state.data.puzzle.id)}` : "";
  await load(`/api/puzzle/next${after}`);
}

// ---- words --------------------------------------------------------------------------------
function said(ply) {
  const before = state.data.positions[ply];
  return moveSentence(state.variant, before.fen, moves()[ply], before.turn, state.pieceSet);
}

function hintText() {
  const move = parseMove(moves()[state.at]);
  if (move.origin.endsWith("*")) return t("puzzle.hintDrop", { square: move.to });
  return t("puzzle.hintFrom", { square: move.origin });
}

function prompt() {
  if (state.phase === "intro") return t("puzzle.watch");
  if (state.phase === "solved") return state.failed ? t("puzzle.solvedAfter") : t("puzzle.solved");
  if (state.phase === "failed") return t("puzzle.seen");
  const side = playerWord(solver());
  if (state.wrong) return t("puzzle.wrongTry", { move: state.wrong });
  return t("puzzle.find", { side });
}

function ratingLine() {
  const r = state.reported;
  if (state.me) {
    const diff = r && r.rated ? ` (${r.ratingDiff >= 0 ? "+" : ""}${r.ratingDiff})` : "";
    return t("puzzle.yourRating", { rating: `${state.me.rating}${state.me.provisional ? "?" : ""}${diff}` });
  }
  return t("puzzle.guest");
}

// ---- drawing ------------------------------------------------------------------------------
function showError(text) {
  $("message").textContent = text;
  $("message").hidden = false;
}

function clearError() {
  $("message").hidden = true;
  $("message").textContent = "";
}

function show() {
  if (!state.data || !state.board) return;
  const pos = here();
  const live = state.phase === "play" && pos.turn === solver() && !state.choice.kind;
  const marks = {};
  if (state.hinted && state.phase === "play") {
    const move = parseMove(moves()[state.at]);
    const square = move.origin.endsWith("*") ? move.to : move.origin;
    marks[square] = ["line"];
  }
  showPosition(state, {
    fen: pos.fen,
    last: state.at > 0 ? moves()[state.at - 1] : null,
    dests: live ? destsOf(pos.legalMoves) : {},
    selectable: live ? pos.turn : null,
    check: checkSquare(state.variant, pos),
    marks,
  });
  for (const [bar, side] of playerBars(state.orientation)) {
    const who = side === solver() ? t("puzzle.you") : t("puzzle.opponent");
    render(bar.querySelector(".who"), html`<span class="side-chip side-${side}" aria-hidden="true"></span>
      <span class="name">${who}</span> <span class="sidename">${playerWord(side)}</span>`);
  }
  const p = state.data.puzzle;
  const over = state.phase === "solved" || state.phase === "failed";
  render($("puzzle-status"), html`<strong>${prompt()}</strong>`);
  $("puzzle-hint-text").textContent = state.hinted && state.phase === "play" ? hintText() : "";
  render($("puzzle-facts"), html`
    <dt>${t("puzzle.id")}</dt><dd><a href="/training/${p.id}">${p.id}</a></dd>
    <dt>${t("puzzle.rating")}</dt><dd>${over && state.reported ? state.reported.puzzleRating : p.rating}</dd>
    <dt>${t("puzzle.plays")}</dt><dd>${p.plays + (state.reported && state.reported.rated ? 1 : 0)}</dd>
    <dt>${t("puzzle.length")}</dt><dd>${t("puzzle.plies", { n: p.solution.length })}</dd>
    <dt>${t("puzzle.themes")}</dt><dd>${p.themes.map((k) => t(`puzzle.theme.${k}`)).join(", ")}</dd>`);
  $("puzzle-rating").textContent = ratingLine();
  $("puzzle-hint").disabled = state.phase !== "play" || state.hinted;
  $("puzzle-give-up").disabled = state.phase !== "play";
  $("puzzle-next").hidden = !over;
  document.title = t("title.puzzle", { id: p.id });
}

async function main() {
  setupChrome();
  onLanguage(() => {
    if (state.board) state.board.set({});
    show();
  });
  $("puzzle-hint").addEventListener("click", hint);
  $("puzzle-give-up").addEventListener("click", giveUp);
  $("puzzle-next").addEventListener("click", next);
  try {
    const [variants, me] = await Promise.all([request("/api/variants"), request("/api/puzzle/rating")]);
    state.variant = variants.find((v) => v.id === "dobutsu");
    state.me = me.rating;
  } catch (err) {
    showError(errorText(err));
    return;
  }
  await load(wanted());
}

// Kept for the page tests and for debugging in the console.
window.kodama = { state };
main();
