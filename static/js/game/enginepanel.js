// The analysis board's engine panel: the position's evaluation from the side to move's view
// (a number, or "wins in 3 moves"), the best line in the page's move notation and the best
// moves with theirs, from GET /api/cloud-eval (docs/decisions/engine-evaluation.md); for a
// Dōbutsu position the solved table holds, every legal move with its exact value (GET
// /api/tablebase/dobutsu). Asked for the position shown, a moment after it stops changing,
// and kept per position; a switch turns it off (remembered in this browser, as lichess).

import { request } from "../site/api.js";
import { html, render } from "../lib/html.js";
import { errorText, t, tn } from "../i18n/i18n.js";
import { playerWord } from "../lib/variant.js";
import { readableMove } from "../board/notation.js";

const STORE_KEY = "kodama.engine";
const MULTI_PV = 3;
const SETTLE_MS = 200; // a position shown this long is asked about (stepping asks once)
const RETRY_MS = 1500; // after a busy server (503) or a rate limit (429), once

function stored() {
  try {
    return localStorage.getItem(STORE_KEY) !== "off";
  } catch {
    return true;
  }
}

// A score for the side to move: {mate} (> 0 it wins) or {cp}.
function sideScore(pv, turn) {
  const sign = turn === "first" ? 1 : -1;
  return pv.mate !== undefined ? { mate: sign * pv.mate } : { cp: sign * pv.cp };
}

function number(cp) {
  const lang = document.documentElement.lang || "en";
  const format = { signDisplay: "exceptZero", minimumFractionDigits: 1, maximumFractionDigits: 1 };
  return new Intl.NumberFormat(lang, format).format(cp / 100);
}

export function scoreText(score) {
  if (score.draw) return t("engine.draws");
  if (score.mate === undefined) return number(score.cp);
  return score.mate > 0 ? tn("engine.wins", score.mate) : tn("engine.loses", -score.mate);
}

// A table move's value for the side that plays it: the position after it is the opponent's.
function tableScore(move) {
  if (move.category === "draw") return { draw: true };
  const moves = Math.ceil((Math.abs(move.dtm) + 1) / 2);
  return { mate: move.category === "loss" ? moves : -moves };
}

export class EnginePanel {
  // `element`: the panel's body; `toggle`: its checkbox; `replay(variant, rules, fen, moves)`:
  // the positions through a line (POST /api/analysis/moves); `play(text)`: a best move clicked.
  constructor(element, toggle, { replay, play }) {
    this.element = element;
    this.toggle = toggle;
    this.replay = replay;
    this.play = play;
    this.on = stored();
    this.known = new Map(); // position key -> what the panel shows for it
    this.asking = new Set(); // position keys asked about, not answered yet
    this.shown = null; // the context last drawn
    this.timer = null;
    toggle.checked = this.on;
    toggle.addEventListener("change", () => {
      this.on = toggle.checked;
      try {
        localStorage.setItem(STORE_KEY, this.on ? "on" : "off");
      } catch {
        /* private browsing: the switch holds for this page */
      }
      if (this.shown) this.show(this.shown);
    });
    element.addEventListener("click", (event) => {
      const button = event.target.closest("[data-engine-move]");
      if (button && !button.disabled) this.play(button.dataset.engineMove);
    });
  }

  // The position shown: {variant, rules, pos ({fen, turn, result, legalMoves}), pieceSet, live}.
  show(context) {
    this.shown = context;
    clearTimeout(this.timer);
    const { pos } = context;
    if (!this.on) return this.draw({ state: "off" });
    if (pos.result) return this.draw({ state: "over" });
    const key = this.key(context);
    const found = this.known.get(key);
    if (found) return this.draw(found);
    this.draw({ state: "thinking" });
    if (!this.asking.has(key)) this.timer = setTimeout(() => this.ask(context, key, true), SETTLE_MS);
    return undefined;
  }

  key({ variant, rules, pos }) {
    return `${variant.id} ${JSON.stringify(rules)} ${pos.fen}`;
  }

  isShown(key) {
    return this.on && this.shown && this.key(this.shown) === key;
  }

  async ask(context, key, retry) {
    const { variant, rules, pos } = context;
    let found;
    this.asking.add(key);
    try {
      found = await this.evaluate(variant, rules, pos);
    } catch (err) {
      this.asking.delete(key);
      if (retry && (err.status === 503 || err.status === 429) && this.isShown(key)) {
        this.timer = setTimeout(() => this.ask(context, key, false), RETRY_MS);
        return;
      }
      if (this.isShown(key)) this.draw({ state: "error", why: errorText(err) });
      return;
    }
    this.asking.delete(key);
    this.known.set(key, found);
    if (this.isShown(key)) this.draw(found);
  }

  async evaluate(variant, rules, pos) {
    const params = new URLSearchParams({ ...rules, fen: pos.fen, variant: variant.id });
    params.set("multiPv", String(Math.min(MULTI_PV, pos.legalMoves.length)));
    const cloud = await request(`/api/cloud-eval?${params}`);
    const best = cloud.pvs[0].moves.split(" ");
    // The line in the page's notation needs the position before each move: the server's.
    const line = await this.replay(variant, rules, pos.fen, best);
    const found = { state: "done", cloud, turn: pos.turn, line: best.map((move, i) => ({ move, fen: line[i].fen })) };
    if (cloud.source === "table") {
      const table = new URLSearchParams({ fen: pos.fen, ruleset: rules.ruleset || "dobutsu" });
      try {
        found.every = (await request(`/api/tablebase/dobutsu?${table}`)).moves;
      } catch {
        found.every = null; // the lines above are exact still
      }
    }
    return found;
  }

  draw(found) {
    const context = this.shown;
    let body;
    if (found.state === "off") body = html`<p class="note">${t("engine.off")}</p>`;
    else if (found.state === "over") body = html`<p class="note">${t("engine.over")}</p>`;
    else if (found.state === "thinking") body = html`<p class="note engine-thinking">${t("engine.thinking")}</p>`;
    else if (found.state === "error") body = html`<p class="note">${t("engine.failed", { why: found.why })}</p>`;
    else body = this.result(context, found);
    this.element.setAttribute("aria-busy", found.state === "thinking" ? "true" : "false");
    this.element.dataset.state = found.state;
    render(this.element, body);
  }

  result(context, found) {
    const { variant, pieceSet } = context;
    const { cloud, turn } = found;
    const fen = context.pos.fen;
    const top = sideScore(cloud.pvs[0], turn);
    const exact = cloud.source === "table";
    const words = (move, before) => readableMove(variant, before, move, pieceSet);
    const searched = cloud.knodes ? "engine.depth" : "engine.depthOnly"; // under a thousand positions
    const about = exact ? t("engine.exact") : t(searched, { depth: cloud.depth, knodes: cloud.knodes });
    const moveButton = (move, score) => {
      const { text, label } = words(move, fen);
      const value = scoreText(score);
      return html`<button type="button" class="engine-move" data-engine-move="${move}"
        aria-label="${t("engine.playMove", { move: label, value })}" ${context.live ? "" : html`disabled`}>${text}</button>
        <span class="engine-value">${value}</span>`;
    };
    const best = cloud.pvs.map((pv) => html`<li>${moveButton(pv.moves.split(" ")[0], sideScore(pv, turn))}</li>`);
    const every = found.every
      ? html`<h3 class="small-heading">${t("engine.everyMove")}</h3>
        <ol class="engine-moves engine-every">${found.every.map((m) => html`<li>${moveButton(m.uci, tableScore(m))}</li>`)}</ol>`
      : "";
    const line = found.line.map(({ move, fen: before }) => words(move, before).text).join(" ");
    const exactDraw = exact && top.mate === undefined;
    return html`<p class="engine-eval"><strong class="engine-score">${scoreText(exactDraw ? { draw: true } : top)}</strong>
        <span class="note">${t("engine.forSide", { who: playerWord(turn) })} · ${about}</span></p>
      <h3 class="small-heading">${t("engine.bestLine")}</h3>
      <p class="engine-line">${line}</p>
      ${every || html`<h3 class="small-heading">${t("engine.bestMoves")}</h3>
      <ol class="engine-moves engine-best">${best}</ol>`}`;
  }
}
