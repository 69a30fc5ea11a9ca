// A finished game's computer review, under the game page's board: the button that asks for
// it (POST /api/game/{id}/analysis), its place in the queue while it waits (asked again every
// few seconds), then the evaluation graph (the first player's winning chances after each
// move; a click on it shows that position), each player's accuracy and counts, the marked
// moves with the better move, and the marks (?!, ?, ??) in the move list.
// Everything shown comes from the server's review: no evaluation here.

import { html, render } from "../lib/html.js";
import { request } from "../site/api.js";
import { errorText, t } from "../i18n/i18n.js";
import { readableMove } from "../board/notation.js";

const POLL_MS = 3000;
// Phones (site.css's narrow screens): the review goes after the move list, so that the
// status, the buttons and the last moves stay on the first screen under the board.
const NARROW = "(max-width: 820px)";
const SYMBOL = { inaccuracy: "?!", mistake: "?", blunder: "??" };
const WIDTH = 600;
const HEIGHT = 120;

export class ComputerReview {
  // `page`: the game page's state (game, variant, fens, pieceSet); `goTo(ply)` shows a ply.
  constructor(element, { page, goTo, showError }) {
    this.element = element;
    this.page = page;
    this.goTo = goTo;
    this.showError = showError;
    this.gameId = null;
    this.review = null; // the server's answer, once read
    this.timer = null;
    element.addEventListener("click", (event) => this.clicked(event));
    const narrow = globalThis.matchMedia(NARROW);
    this.place(narrow.matches);
    narrow.addEventListener("change", (event) => this.place(event.matches));
  }

  // Under the board, or on a phone after the move list.
  place(narrow) {
    const home = narrow ? document.getElementById("moves") : document.querySelector(".play");
    if (!home) return;
    if (narrow) home.after(this.element);
    else home.append(this.element);
  }

  // The page's game changed (a state): read its review once it is over.
  setGame(game) {
    const over = game && game.status !== "started" && game.status !== "created" && game.moves.length;
    this.element.hidden = !over;
    if (!over || this.gameId === game.id) return;
    this.gameId = game.id;
    this.review = null;
    this.read();
  }

  async read() {
    clearTimeout(this.timer);
    try {
      this.show(await request(`/api/game/${encodeURIComponent(this.gameId)}/analysis`));
    } catch (err) {
      this.timer = setTimeout(() => this.read(), POLL_MS * 3); // a lost connection: later
    }
  }

  async ask() {
    try {
      const path = `/api/game/${encodeURIComponent(this.gameId)}/analysis`;
      this.show(await request(path, { method: "POST" }));
    } catch (err) {
      this.showError(errorText(err));
    }
  }

  show(review) {
    this.review = review;
    if (review.status === "queued" || review.status === "running") {
      this.timer = setTimeout(() => this.read(), POLL_MS);
    }
    this.draw();
    this.decorate();
  }

  clicked(event) {
    const target = event.target.closest("[data-review]");
    if (target && target.dataset.review === "ask") this.ask();
    else if (target && target.dataset.review === "ply") this.goTo(Number(target.dataset.ply));
    else if (event.target.closest("svg.eval-graph")) this.graphClicked(event);
  }

  graphClicked(event) {
    const plies = (this.review && this.review.plies) || [];
    const box = event.target.closest("svg").getBoundingClientRect();
    if (!plies.length || !box.width) return;
    const x = (event.clientX - box.left) / box.width;
    this.goTo(Math.max(0, Math.min(plies.length, Math.round(x * plies.length))));
  }

  // Everything drawn again (a new answer, the language switched).
  draw() {
    const review = this.review;
    if (!review || this.element.hidden) return;
    const heading = html`<h2 class="small-heading">${t("review.heading")}</h2>`;
    const ask = (words) =>
      html`<button type="button" class="btn" data-review="ask">${t(words)}</button>`;
    let body;
    if (review.status === "none") body = ask("review.request");
    else if (review.status === "failed") body = html`<p>${t("review.failed")}</p>${ask("review.again")}`;
    else if (review.status === "queued") body = html`<p role="status">${t("review.queued", { n: review.position })}</p>`;
    else if (review.status === "running") {
      const { done, total } = review.progress;
      body = html`<p role="status">${t("review.running", { done, total })}</p>`;
    } else body = this.done(review);
    render(this.element, html`${heading}${body}`);
  }

  done(review) {
    const exact = review.plies.some((p) => p.exact);
    const players = ["first", "second"].map((side) => {
      const found = review.players[side];
      const words = { side: t(`side.${side}`), ...found };
      return html`<li>${found.accuracy === null ? "" : html`<strong>${t("review.accuracy", { side: words.side, n: found.accuracy })}</strong><br>`}${t("review.counts", words)}</li>`;
    });
    const marked = review.plies.filter((p) => p.mark);
    const marks = marked.length
      ? html`<ul class="review-marks">${marked.map((p) => html`<li><button type="button" class="link"
          data-review="ply" data-ply="${p.ply}">${this.markText(p)}</button></li>`)}</ul>`
      : html`<p>${t("review.noMarks")}</p>`;
    return html`${this.graph(review)}
      <ul class="review-players">${players}</ul>
      ${exact ? html`<p class="note">${t("review.exactNote")}</p>` : ""}
      <h3 class="small-heading">${t("review.marksHeading")}</h3>${marks}`;
  }

  // The first player's winning chances, start then after each move, as a line over a
  // filled area (above the middle: first is ahead); the marked moves as dots.
  graph(review) {
    const wins = [review.start.win, ...review.plies.map((p) => p.win)];
    const n = Math.max(1, wins.length - 1);
    const x = (i) => ((i / n) * WIDTH).toFixed(1);
    const y = (w) => (HEIGHT - (w / 100) * HEIGHT).toFixed(1);
    const line = wins.map((w, i) => `${x(i)},${y(w)}`).join(" ");
    const area = `0,${HEIGHT} ${line} ${WIDTH},${HEIGHT}`;
    const shown = this.page.review ? this.page.review.shown() : wins.length - 1;
    const dots = review.plies.filter((p) => p.mark).map((p) =>
      html`<circle class="mark ${p.mark}" cx="${x(p.ply)}" cy="${y(p.win)}" r="5"></circle>`);
    return html`<figure class="eval-figure">
      <svg class="eval-graph" viewBox="0 0 ${WIDTH} ${HEIGHT}" preserveAspectRatio="none"
        role="img" aria-label="${t("review.graph")}">
        <title>${t("review.graphTitle")}</title>
        <polygon class="area" points="${area}"></polygon>
        <line class="middle" x1="0" y1="${HEIGHT / 2}" x2="${WIDTH}" y2="${HEIGHT / 2}"></line>
        <polyline class="curve" points="${line}"></polyline>
        <line class="shown" x1="${x(shown)}" y1="0" x2="${x(shown)}" y2="${HEIGHT}"></line>
        ${dots}
      </svg>
    </figure>`;
  }

  readable(ply, move) {
    const { variant, fens, pieceSet } = this.page;
    if (!variant) return { text: move, label: move };
    return readableMove(variant, fens.get(ply - 1) || null, move, pieceSet);
  }

  markText(p) {
    const move = this.readable(p.ply, p.move).label;
    const best = this.readable(p.ply, p.best).label;
    const mark = t(`review.${p.mark}`);
    if (p.outcome) {
      const lost = t(p.outcome.before === "win" ? "review.lostWin" : "review.lostDraw");
      return t("review.markExact", { n: p.ply, move, mark, lost, best });
    }
    return t("review.mark", { n: p.ply, move, mark, best });
  }

  // The move list (drawn by moves.js on every update) gets each marked move's symbol, and
  // its name and the better move in its label; the graph's "shown" line follows the board.
  decorate() {
    const review = this.review;
    if (!review || review.status !== "done") return;
    const list = document.getElementById("moves");
    for (const p of review.plies) {
      if (!p.mark) continue;
      const button = list && list.querySelector(`.mv[data-ply="${p.ply}"]`);
      if (!button || button.querySelector(".judgment")) continue;
      const words = t("review.moveMark", {
        mark: t(`review.${p.mark}`),
        best: this.readable(p.ply, p.best).label,
      });
      const symbol = document.createElement("span");
      symbol.className = `judgment ${p.mark}`;
      symbol.setAttribute("aria-hidden", "true");
      symbol.textContent = SYMBOL[p.mark];
      button.append(symbol);
      button.setAttribute("aria-label", `${button.getAttribute("aria-label")}, ${words}`);
      button.title = `${button.title} — ${words}`;
    }
    const shown = this.element.querySelector("svg.eval-graph line.shown");
    if (shown && this.page.review) {
      const n = Math.max(1, review.plies.length);
      const at = ((this.page.review.shown() / n) * WIDTH).toFixed(1);
      shown.setAttribute("x1", at);
      shown.setAttribute("x2", at);
    }
  }
}
