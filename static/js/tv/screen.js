// A TV channel's featured game, drawn: the board as a still picture (it takes no moves: the
// board view of the game page, board/board.js), the two players with their ratings and
// clocks, and a link to the game's own page. The TV page draws it large, the lobby small.
//
//   const screen = new Screen(element, { small });
//   screen.featured(line.d);  // a `featured` line: another game
//   screen.moved(line.d);     // a `fen` line: a move in it

import { api } from "../site/api.js";
import { Board } from "../board/board.js";
import { defaultPieceSet } from "../board/pieces.js";
import { moveSquares, parseMove } from "../board/position.js";
import { html, render } from "../lib/html.js";
import { shownName } from "../lib/names.js";
import { variantName } from "../lib/variant.js";
import { formatClock } from "../i18n/words.js";
import { t } from "../i18n/i18n.js";

// The API says white for the first player and black for the second (docs/api.md).
const SIDE = { white: "first", black: "second" };
const UNLIMITED_S = 2_147_483; // a game without a clock (int32's maximum in ms)

export class Screen {
  constructor(element, { small = false } = {}) {
    this.el = element;
    this.small = small;
    this.game = null; // the featured line's data, kept up to date by the moves
    this.variant = null;
    this.board = null;
  }

  async featured(data) {
    const variants = await api.variants();
    this.variant = variants.find((v) => v.id === data.variant.key) || null;
    this.game = { ...data, seconds: data.players.map((p) => p.seconds) };
    this.board = null;
    this.draw();
  }

  moved(data) {
    if (!this.game) return;
    this.game.fen = data.fen;
    this.game.lm = data.lm;
    this.game.seconds = [data.wc, data.bc];
    this.showPosition();
    this.showClocks();
  }

  player(index) {
    const seat = this.game.players[index];
    const name = seat.user ? shownName(seat.user.name) : t("tv.anonymous");
    // An account's seat has a rating (a guest's has none): its name links to its profile.
    const who = seat.user && seat.rating !== undefined
      ? html`<a href="/@/${encodeURIComponent(seat.user.name)}">${name}</a>` : html`${name}`;
    const title = seat.user && seat.user.title ? html`<span class="bot-title">${seat.user.title}</span> ` : "";
    const rating = seat.rating !== undefined ? html` <span class="tv-rating">${seat.rating}</span>` : "";
    return html`<div class="tv-player" data-side="${SIDE[seat.color]}">
      <span class="tv-name">${title}${who}${rating}</span>
      <span class="tv-clock" data-clock="${SIDE[seat.color]}"></span></div>`;
  }

  draw() {
    const game = this.game;
    const orientation = SIDE[game.orientation];
    // The bottom seat is the orientation's: the other one above the board.
    const [top, bottom] = orientation === "first" ? [1, 0] : [0, 1];
    const name = this.variant ? variantName(this.variant) : game.variant.name;
    render(
      this.el,
      html`<div class="tv-screen-game" data-game="${game.id}">
        ${this.player(top)}<div class="tv-board${this.small ? " mini-board" : ""}"></div>${this.player(bottom)}
        <p class="tv-about"><span class="tv-variant">${name}</span>
          <a class="tv-watch" href="/game/${encodeURIComponent(game.id)}">${t("tv.watch")}</a></p>
      </div>`,
    );
    if (!this.variant) return;
    this.board = new Board(this.el.querySelector(".tv-board"), {
      variant: this.variant,
      orientation,
      diagram: true,
      coords: !this.small,
      label: t("tv.boardOf", { game: name }),
    });
    this.board.set({ pieceSet: defaultPieceSet(this.variant, {}) });
    this.showPosition();
    this.showClocks();
  }

  showPosition() {
    if (!this.board) return;
    const last = this.game.lm || null;
    const move = last ? parseMove(last) : null;
    this.board.set({ fen: this.game.fen, lastMove: moveSquares(last), removed: move ? move.removed : null });
  }

  showClocks() {
    this.game.seconds.forEach((seconds, index) => {
      const el = this.el.querySelector(`[data-clock="${index === 0 ? "first" : "second"}"]`);
      if (!el) return;
      el.textContent = seconds >= UNLIMITED_S ? "" : formatClock(seconds * 1000);
    });
  }
}
