// The game page: one socket, one board, the players, clocks, moves and buttons.
// Every legal move comes from the server (`legalMoves`); this page only matches clicks
// against that list and sends the chosen text. The board is set up as the analysis board's
// (board/setup.js); the panels around it are drawn by game/gameview.js, its buttons handled by
// game/actions.js, its moves and result read aloud by game/announce.js.

import { api } from "../site/api.js";
import { ChatPanel } from "../game/chat.js";
import { ReportLinks } from "../game/reportlinks.js";
import { onLanguage, setupChrome } from "../site/chrome.js";
import { candidatesFor } from "../board/movechoice.js";
import { storePieceSet } from "../board/pieces.js";
import { storeNotation } from "../board/notation.js";
import { html, render } from "../lib/html.js";
import { destsOf, parseBoard, parseMove } from "../board/position.js";
import { Premove, listenForCancel, premoveDests, resolvePremove } from "../board/premove.js";
import { Review, listenForKeys } from "../game/review.js";
import { ComputerReview } from "../game/computerreview.js";
import { announce, checkSquare, moveChoice, setUpBoard, showPosition } from "../board/setup.js";
import { GameView, myTurn, mySeat } from "../game/gameview.js";
import { GameSocket } from "../site/socket.js";
import { broughtTo, goToGame } from "../site/site.js";
import { play, setMuted } from "../game/sound.js";
import { errorText, t } from "../i18n/i18n.js";
import { changeLines } from "../players/ratings.js";
import { followRematch, setupRematch } from "../game/rematch.js";
import { toast } from "../site/ui.js";
import { connectionText } from "../i18n/words.js";
import { origin, slide } from "../board/animate.js";
import { captureMarks } from "../board/lastmove.js";
import { GamePhaseHint } from "../game/phasehint.js";
import { listenForActions } from "../game/actions.js";
import { announceEnd, announceMove } from "../game/announce.js";

const $ = (id) => document.getElementById(id);
const gameId = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop() || "");

const page = {
  variant: null,
  board: null,
  game: null,
  me: null,
  invite: null,
  presence: { online: {}, spectators: 0 }, // unknown until the first presence message
  seatAtConnect: null, // the seat the server saw when this socket connected
  orientation: null, // null until the first state; then the viewer's side unless flipped
  flipped: false,
  awaiting: false, // a move was sent: no input until the server answers
  // The move meant by a gesture that stands for several (a stone to remove, a promotion).
  choice: moveChoice({ play: (text) => send(text), cancel: () => update() }),
  confirmResign: false,
  // The position after each ply (the state's positions, then each move's fen), for review.
  fens: new Map(),
  review: null, // review.js: the ply shown (set in main)
  premove: new Premove(), // premove.js: one move queued while the opponent is to move
  announcedEnd: null, // the game whose result was read aloud already
};

const view = new GameView(page);
// The stone games' phase line and notes.
const hint = new GamePhaseHint($("status"), { seat: mySeat, myTurn });
let socket = null;
const chat = new ChatPanel($("chat"), { send: (message) => Boolean(socket && socket.send(message)) });
const reportLinks = new ReportLinks($("report-players"));
const computerReview = new ComputerReview($("computer-review"), {
  page,
  goTo: (ply) => page.review.go(ply),
  showError: (message) => showError(message),
});

// ---- messages -----------------------------------------------------------------------------
const LIVE = [
  "ply", "status", "fen", "turn", "check", "legalMoves", "result", "drawOffer", "clock",
  "deadline", "daysPerTurn", "serverTime", "captureMarks", "claimGrace",
];

function onMessage(data) {
  switch (data.type) {
    case "state":
      // The start is heard: by a page brought here by it (site.js), or waiting on it here.
      if (data.game.status === "started" && (broughtTo(gameId) || page.game?.status === "created")) {
        play("start");
      }
      followRematch(page.game, data.game);
      // A takeback's state is shorter: a queued premove was made for a position now gone.
      if (page.game && data.game.ply < page.game.ply) page.premove.clear();
      if (data.game.status !== "started") page.premove.clear();
      page.game = data.game;
      // Every position from the start: the whole game replays, even after a reload.
      page.fens = new Map((data.game.positions || []).map((fen, ply) => [ply, fen]));
      page.fens.set(data.game.ply, data.game.fen);
      page.review.replaced();
      // Only the state sent to this socket on (re)connect names the viewer and the invite;
      // the ones broadcast to everyone after a change do not.
      if ("me" in data) page.me = data.me;
      if ("me" in data || data.game.status !== "created") page.invite = data.invite || null;
      if ("me" in data) {
        page.seatAtConnect = mySeat(page);
      } else if (page.seatAtConnect === null && mySeat(page)) {
        // The server counts a connection as a player's or a spectator's when it opens: a
        // creator who was given a seat at the start (random colour) connects again so that
        // the opponent sees them online (and cannot claim the game).
        socket.reconnectNow();
      }
      setup();
      chat.setGame(page.game, page.me);
      reportLinks.setGame(page.game, page.me);
      page.awaiting = false;
      page.choice.clear();
      update();
      if (data.game.result && !("me" in data)) announceEnd(page);
      else if (data.game.result) page.announcedEnd = data.game.id;
      playPremove();
      break;
    case "move": {
      if (!page.game) return;
      playMoveSound(page.game.fen, data);
      const before = page.game.fen;
      const mover = page.game.turn;
      const from = page.review.live ? origin(document, parseMove(data.move), mover) : null;
      // The mover is whoever was to move before (not always the other side: wali passes).
      page.game.movers = [...(page.game.movers || []), mover];
      for (const key of LIVE) if (key in data) page.game[key] = data[key];
      page.game.moves = [...page.game.moves, data.move];
      page.fens.set(data.ply, data.fen);
      page.review.moved();
      if (page.game.status !== "started") page.premove.clear();
      page.awaiting = false;
      page.choice.clear();
      const note = hint.moved(page, before, data.move, mover);
      update();
      slide(document, parseMove(data.move), from);
      announceMove(page, before, data.move, mover, note);
      playPremove();
      break;
    }
    case "drawDeclined":
      // Told to the offer's maker: the decliner knows, a spectator sees the offer gone.
      if (mySeat(page) && data.by !== mySeat(page)) tellDeclined();
      break;
    case "chat":
      chat.line(data);
      break;
    case "chatLines":
      chat.history(data.lines);
      break;
    case "chatHidden":
      chat.hide(data.id); // a moderator hid the line
      break;
    case "gameStart":
      goToGame(data.game.id); // another game of this player started: this page follows them
      break;
    case "ratings":
      // A rated game's end changed the ratings (protocol.md): shown once, kept on reload
      // (the state's game.ratings).
      if (!page.game) return;
      page.game.ratings = data.ratings;
      view.ratings();
      announce(t("rating.said", { changes: changeLines(page.game).map((l) => l.text).join("; ") }));
      break;
    case "presence":
      page.presence = data;
      view.players();
      view.actions();
      break;
    case "error":
      if (chat.error(data)) break; // shown by the chat, under its input
      page.awaiting = false;
      page.choice.clear();
      if (data.code === "game.stale" || (socket && data.ply > socket.ply)) {
        socket.send({ type: "resync" });
      }
      showError(data.code === "game.stale" ? t("game.stale") : errorText(data));
      if (page.game) update();
      break;
    default:
      break;
  }
}

// A capture is a move after which fewer pieces stand on the board: read from the two
// position strings, no rules needed.
function piecesOnBoard(fen) {
  const { files, ranks } = page.variant.board;
  return parseBoard(fen.split(" ")[0], files, ranks).size;
}

function playMoveSound(before, data) {
  if (data.status && data.status !== "started") {
    play("end");
    return;
  }
  play(piecesOnBoard(data.fen) < piecesOnBoard(before) ? "capture" : "move");
}

let connectionStatus = "connecting";

function onStatus(status) {
  connectionStatus = status;
  const el = $("connection");
  el.textContent = connectionText(status);
  el.className = `connection ${status}`;
  if (status === "gone") {
    document.title = t("title.game");
    $("title").textContent = t("game.noSuch");
    render($("status"), html`${t("game.noSuchText")} <a href="/">${t("game.backToLobby")}</a>`);
  }
}

function tellDeclined() {
  showError(t("draw.declined"));
  announce(t("draw.declined"));
}

function showError(message) {
  const text = String(message);
  toast($("toast"), text.charAt(0).toUpperCase() + text.slice(1));
}

// ---- setting up once the game is known ----------------------------------------------------
function setup() {
  const game = page.game;
  if (!page.variant || page.variant.id !== game.variant) {
    page.variant = page.variants.find((v) => v.id === game.variant);
    page.board = null;
  }
  const seat = mySeat(page);
  if (page.orientation === null || !page.flipped) {
    page.orientation = seat || "first";
  }
  if (!page.board) setUpBoard(page, page.variant, game.rules, onMove, (o, sq) => hint.refused(page, o, sq));
  view.title();
}

// ---- the board's intents ------------------------------------------------------------------
function onMove(origin, target) {
  if (premoveAllowed()) {
    page.premove.set(origin, target);
    update();
    announce(t("premove.set", { move: page.premove.text() }));
    return;
  }
  if (!myTurn(page) || page.awaiting) return;
  // Several moves: the player chooses the stone to remove, or whether to promote.
  const candidates = candidatesFor(page.game.legalMoves, origin, target);
  if (page.choice.offer(candidates, target, page.board) === "pick") {
    view.status();
    hint.draw(page);
  }
}

function send(text) {
  if (!socket.sendMove(text)) {
    showError(t("game.notSent"));
    update();
    return;
  }
  page.awaiting = true;
  const move = parseMove(text);
  page.board.set({
    dests: {},
    pick: null,
    pending: move && move.from ? [move.from, move.to] : move ? [move.to] : [],
  });
}

function act(message) {
  if (!socket.send(message)) showError(t("game.notConnected"));
}

// ---- premove -------------------------------------------------------------------------------
// A player may queue one move while the opponent is to move, at the live position.
function premoveAllowed() {
  const game = page.game;
  return Boolean(game && game.status === "started" && mySeat(page) && game.turn !== mySeat(page)
    && !page.awaiting && page.review.live);
}

// It is the player's turn: the queued move is sent if legal now, else dropped quietly.
function playPremove() {
  const queued = page.premove.queued;
  if (!queued || !myTurn(page) || page.awaiting) return;
  page.premove.clear();
  const answer = resolvePremove(queued, page.game.legalMoves, parseMove);
  if (answer && answer.send) send(answer.send);
  else if (answer && answer.choose) onMove(queued.origin, queued.to);
  else update();
}

function update() {
  const game = page.game;
  const shown = page.review.shown();
  const live = page.review.live;
  const interactive = live && myTurn(page) && !page.awaiting;
  const premoving = live && premoveAllowed();
  let dests = interactive ? destsOf(game.legalMoves) : {};
  if (premoving && !page.premove.queued) dests = premoveDests(page.variant, game.fen, mySeat(page));
  showPosition(page, {
    fen: live ? game.fen : page.fens.get(shown),
    last: game.moves[shown - 1],
    dests,
    selectable: interactive || (premoving && !page.premove.queued) ? mySeat(page) : null,
    check: live ? checkSquare(page.variant, game) : null, // known for the live position only
    marks: live ? hint.marks(page, captureMarks(game, page.premove.marks())) : {},
  });
  view.draw(shown);
  hint.draw(page);
  computerReview.setGame(game);
  computerReview.decorate();
}

document.addEventListener("change", (event) => {
  const pref = event.target.dataset && event.target.dataset.pref;
  if (pref === "sound") setMuted(!event.target.checked);
  if (pref === "piece-set") {
    page.pieceSet = event.target.value;
    storePieceSet(page.pieceSet);
    page.board.set({ pieceSet: page.pieceSet });
    if (page.game) update(); // the move list names the pieces as the set does
  }
  if (pref === "notation") {
    storeNotation(event.target.value);
    if (page.game) update(); // the move list and the record's link
  }
});

// The buttons (game/actions.js).
listenForActions(page, { view, act, update, showError });

// ---- start --------------------------------------------------------------------------------
// The EN/FR switch: everything drawn from words is drawn again.
function redraw() {
  onStatus(connectionStatus);
  if (!page.game || !page.variant) return;
  view.title();
  page.board.set({});
  update();
  chat.redraw();
  reportLinks.draw();
  computerReview.draw();
}

async function main() {
  page.review = new Review({ game: () => page.game, changed: () => page.game && update() });
  listenForKeys(page.review);
  listenForCancel(document.querySelector(".play"), page.premove, () => {
    update();
    announce(t("premove.cancelled"));
  });
  setupChrome({ ownSocket: true });
  onLanguage(redraw);
  try {
    page.variants = await api.variants();
  } catch (err) {
    showError(t("game.cannotLoad", { error: errorText(err) }));
    return;
  }
  setupRematch($("rematch"), act);
  socket = new GameSocket(gameId, { onMessage, onStatus });
  socket.connect();
}

// Kept for debugging in the console and for the page tests.
window.kodama = {
  page,
  get socket() {
    return socket;
  },
};
main();
