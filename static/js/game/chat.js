// The game page's chat (docs/protocol.md, "chat"): the players' room (the two players
// only: the server never sends it to anyone else) and the spectators' room.
//
// Players see both rooms, one at a time (two buttons switch), and write in the one shown; spectators see and write
// in the spectators' room only. Only accounts write: an anonymous visitor reads, and the
// box says why it is disabled. Anyone may mute anyone in one click from a line (remembered
// in this browser, for that person: their lines stay hidden in every game); an account may
// block or report another account from the line's menu (chatmenu.js); anyone may hide the
// spectators' room (a preference).
//
// Lines are user text: they are only ever set as `textContent`, never as markup.

import { isAccountName } from "../lib/names.js";
import { api, request } from "../site/api.js";
import { html, render } from "../lib/html.js";
import { errorText, t, tn } from "../i18n/i18n.js";
import { lineActions } from "./chatmenu.js";
import { shownText } from "./botgreeting.js";

export const MAX_CHARS = 140;
const MUTED_KEY = "kodama.chat.muted"; // a JSON list of the player ids muted, newest last
const SPECTATORS_KEY = "kodama.chat.spectators"; // "hidden" or unset (shown)
const MUTED_MAX = 500;

function readMuted() {
  try {
    const list = JSON.parse(localStorage.getItem(MUTED_KEY) || "[]");
    return new Set(Array.isArray(list) ? list.filter((id) => typeof id === "string") : []);
  } catch {
    return new Set();
  }
}

function storeMuted(set) {
  try {
    localStorage.setItem(MUTED_KEY, JSON.stringify([...set].slice(-MUTED_MAX)));
  } catch {
    /* private mode: muted for this page only */
  }
}

function readSpectatorsShown() {
  try {
    return localStorage.getItem(SPECTATORS_KEY) !== "hidden";
  } catch {
    return true;
  }
}

function storeSpectatorsShown(shown) {
  try {
    if (shown) localStorage.removeItem(SPECTATORS_KEY);
    else localStorage.setItem(SPECTATORS_KEY, "hidden");
  } catch {
    /* private mode */
  }
}

export class ChatPanel {
  // root: the page's empty chat section; send(message) -> whether the socket took it.
  constructor(root, { send }) {
    this.root = root;
    this.send = send;
    this.lines = new Map(); // id -> {id, room, userId, username, text}
    this.me = null;
    this.seat = null; // "first" | "second" | null (a spectator)
    this.opponentId = null;
    this.room = "player"; // the room shown (and written in)
    this.account = null; // null: not asked yet; for a spectator, whether they may write
    this.muted = readMuted();
    this.drawnMuted = ""; // the muted with an Unmute button drawn (mutedKey)
    this.blocked = new Set(); // ids blocked from this page (the server sends their lines no more)
    this.spectatorsShown = readSpectatorsShown();
    this.unread = { player: 0, spectator: 0 };
    this.pending = null; // the text sent, cleared from the input once it comes back
    this.drawn = false;
    root.addEventListener("submit", (event) => {
      event.preventDefault();
      this.submit();
    });
    root.addEventListener("click", (event) => {
      const button = event.target.closest("[data-chat-room]");
      if (button) this.show(button.dataset.chatRoom);
      const unmute = event.target.closest("[data-chat-unmute]");
      if (unmute) this.setMutedId(unmute.dataset.chatUnmute, false);
    });
    root.addEventListener("change", (event) => {
      const what = event.target.dataset && event.target.dataset.chat;
      if (what === "mute") this.setMuted(event.target.checked);
      if (what === "spectators") this.setSpectatorsShown(event.target.checked);
    });
  }

  // ---- what the page tells it ------------------------------------------------------------
  // On every state: who is watching, and in which seat.
  setGame(game, me) {
    const players = game.players || {};
    this.me = me;
    const seat = ["first", "second"].find((s) => players[s] && me && players[s].id === me.id) || null;
    const other = seat && players[seat === "first" ? "second" : "first"];
    const changed = seat !== this.seat || (other ? other.id : null) !== this.opponentId;
    this.seat = seat;
    this.opponentId = other ? other.id : null;
    if (!seat) this.room = "spectator";
    if (this.account === null && me) this.askAccount();
    if (!this.drawn || changed) this.draw();
  }

  // The kept lines (`chatLines`, after every state): the whole truth.
  history(lines) {
    this.lines = new Map(lines.map((line) => [line.id, line]));
    this.unread = { player: 0, spectator: 0 };
    // The kept lines may hold someone muted in this browser: their Unmute button too.
    if (this.drawn && this.mutedKey(this.mutedHere()) !== this.drawnMuted) this.draw();
    else this.drawLog();
  }

  // A line told live (`chat`); one already held (sent with the kept lines) is skipped.
  line(message) {
    if (this.lines.has(message.id)) return;
    const { id, room, userId, username, text } = message;
    const line = { id, room, userId, username, text };
    this.lines.set(id, line);
    if (this.pending !== null && this.me && userId === this.me.id && text === this.pending) {
      this.pending = null;
      const input = this.root.querySelector("#chat-input");
      if (input) input.value = "";
    }
    if (!this.visible(line)) {
      if (this.drawn && this.mutedKey(this.mutedHere()) !== this.drawnMuted) this.draw();
      return;
    }
    if (room === this.room) {
      this.append(line);
    } else {
      this.unread[room] += 1;
      this.drawRooms();
    }
  }

  // A line a moderator hid (`chatHidden`): gone from this page at once.
  hide(id) {
    if (this.lines.delete(id)) this.drawLog();
  }

  // A refusal of a chat message: shown here, not as the page's toast. True if it was one.
  error(data) {
    const code = data.code || "";
    const ours = code.startsWith("chat.") || (code === "ratelimit" && data.ratelimit?.key === "chat");
    if (!ours) return false;
    const seconds = data.ratelimit && data.ratelimit.seconds;
    const text = seconds ? t("chat.tooFast", { n: seconds }) : t(`chat.error.${code}`);
    this.note(text === `chat.error.${code}` ? data.error : text);
    return true;
  }

  redraw() {
    if (this.drawn) this.draw();
  }

  // ---- rules of what is shown --------------------------------------------------------------
  canWrite() {
    if (this.account !== true) return false; // accounts only, players too
    return Boolean(this.seat) || this.room === "spectator";
  }

  visible(line) {
    if (line.room === "spectator" && !this.spectatorsShown) return false;
    if (line.room === "player" && !this.seat) return false; // (the server sends none)
    if (this.me && line.userId === this.me.id) return true;
    return !this.muted.has(line.userId) && !this.blocked.has(line.userId);
  }

  isMuted() {
    return Boolean(this.opponentId && this.muted.has(this.opponentId));
  }

  async askAccount() {
    this.account = false; // asked once; anonymous until it says otherwise
    try {
      const me = await api.me();
      this.account = Boolean(me && me.username);
    } catch {
      this.account = false;
    }
    if (this.drawn) this.draw();
  }

  // ---- actions -----------------------------------------------------------------------------
  submit() {
    const input = this.root.querySelector("#chat-input");
    if (!input || !this.canWrite()) return;
    const text = input.value.replace(/\s+/g, " ").trim();
    if (!text) return;
    if ([...text].length > MAX_CHARS) {
      this.note(t("chat.error.chat.invalid"));
      return;
    }
    if (!this.send({ type: "chat", room: this.room, text })) {
      this.note(t("game.notConnected"));
      return;
    }
    this.pending = text;
    this.note("");
  }

  show(room) {
    if (room === this.room || (room === "player" && !this.seat)) return;
    this.room = room;
    this.unread[room] = 0;
    this.draw();
    const button = this.root.querySelector(`[data-chat-room="${room}"]`);
    if (button) button.focus();
  }

  setMuted(muted) {
    if (this.opponentId) this.setMutedId(this.opponentId, muted);
  }

  // One click: a person's lines hidden (or shown again) on this browser's pages.
  setMutedId(id, muted) {
    this.muted.delete(id);
    if (muted) this.muted.add(id);
    storeMuted(this.muted);
    this.draw();
  }

  async block(line) {
    try {
      await request(`/api/rel/block/${encodeURIComponent(line.username)}`, { method: "POST" });
    } catch (err) {
      this.note(t("chat.cannotBlock", { name: line.username, error: errorText(err) }));
      return;
    }
    this.blocked.add(line.userId);
    this.drawLog();
    this.note(t("chat.blocked", { name: line.username }));
  }

  setSpectatorsShown(shown) {
    this.spectatorsShown = shown;
    storeSpectatorsShown(shown);
    if (!shown && this.seat) this.room = "player";
    this.draw();
  }

  note(text) {
    const box = this.root.querySelector("#chat-note");
    if (box) box.textContent = text;
  }

  // ---- drawing -----------------------------------------------------------------------------
  // Everything again (a new viewer, a preference, the language): what is being typed, and
  // the focus, are kept.
  draw() {
    const typing = this.root.querySelector("#chat-input");
    const kept = typing ? typing.value : "";
    const focus = document.activeElement && this.root.contains(document.activeElement)
      ? document.activeElement.id || document.activeElement.dataset.chat || null
      : null;
    this.drawn = true;
    const seat = this.seat;
    const roomShown = this.room === "player" || this.spectatorsShown;
    const writing = this.canWrite() && roomShown;
    const placeholder = t(this.room === "player" ? "chat.write.player" : "chat.write.spectator");
    const anonymous = this.account !== true; // (no identity at all: the same)
    const mutedHere = this.mutedHere();
    this.drawnMuted = this.mutedKey(mutedHere);
    render(
      this.root,
      html`<h2 id="chat-heading" class="small-heading">${t("chat.heading")}</h2>
        <div class="chat-rooms" role="group" aria-label="${t("chat.rooms")}"></div>
        <div id="chat-log" class="chat-log" role="log" aria-live="polite" tabindex="0"
          aria-labelledby="chat-heading" ${roomShown ? "" : html`hidden`}></div>
        ${writing
          ? html`<form id="chat-form" class="chat-form">
              <label class="visually-hidden" for="chat-input">${placeholder}</label>
              <input id="chat-input" type="text" maxlength="${MAX_CHARS}" autocomplete="off"
                enterkeyhint="send" placeholder="${placeholder}">
              <button type="submit">${t("chat.send")}</button>
            </form>`
          : ""}
        ${anonymous && roomShown
          ? html`<form id="chat-form" class="chat-form" aria-describedby="chat-why">
              <label class="visually-hidden" for="chat-input">${placeholder}</label>
              <input id="chat-input" type="text" disabled placeholder="${placeholder}"
                aria-describedby="chat-why">
              <button type="submit" disabled>${t("chat.send")}</button>
            </form>
            <p id="chat-why" class="note">${t("chat.needsAccount")} <a href="/account">${t("chat.signIn")}</a></p>`
          : ""}
        <p id="chat-note" class="note chat-note" aria-live="polite"></p>
        <div class="prefs chat-prefs">${seat
          ? html`<label class="check-inline"><input type="checkbox" data-chat="mute"
              ${this.isMuted() ? html`checked` : ""} ${this.opponentId ? "" : html`disabled`}>
              ${t("chat.mute")}</label>`
          : ""}${[...mutedHere].map(([id, name]) => html`<button type="button" class="link-button"
              data-chat-unmute="${id}">${t("chat.unmuteName", { name })}</button>`)}<label class="check-inline"><input type="checkbox" data-chat="spectators"
              ${this.spectatorsShown ? html`checked` : ""}> ${t("chat.showSpectators")}</label></div>`,
    );
    this.root.hidden = false;
    this.drawRooms();
    this.drawLog();
    const input = this.root.querySelector("#chat-input");
    if (input) input.value = kept;
    const again = focus && (this.root.querySelector(`#${focus}`)
      || this.root.querySelector(`[data-chat="${focus}"]`));
    if (again) again.focus();
  }

  // The others muted whose lines this chat holds, each with its way back (the opponent
  // has the checkbox): id -> name.
  mutedHere() {
    const found = new Map();
    for (const line of this.lines.values()) {
      if (this.muted.has(line.userId) && line.userId !== this.opponentId) found.set(line.userId, line.username);
    }
    return found;
  }

  mutedKey(mutedHere) {
    return [...mutedHere.keys()].sort().join(" ");
  }

  drawRooms() {
    const box = this.root.querySelector(".chat-rooms");
    if (!box) return;
    const rooms = this.seat ? ["player", ...(this.spectatorsShown ? ["spectator"] : [])] : [];
    const button = (room) => {
      const selected = room === this.room;
      const unread = this.unread[room];
      return html`<button type="button" id="chat-room-${room}" data-chat-room="${room}"
        aria-controls="chat-log" aria-pressed="${selected ? "true" : "false"}"
        >${t(`chat.room.${room}`)}${unread
          ? html` <span class="chat-unread">${tn("chat.unread", unread)}</span>`
          : ""}</button>`;
    };
    box.hidden = rooms.length < 2;
    render(box, html`${rooms.map(button)}`);
  }

  drawLog() {
    const log = this.root.querySelector("#chat-log");
    if (!log) return;
    log.setAttribute("aria-busy", "true");
    log.replaceChildren();
    const shown = [...this.lines.values()]
      .filter((line) => line.room === this.room && this.visible(line))
      .sort((a, b) => a.id - b.id);
    for (const line of shown) log.append(this.lineElement(line));
    if (shown.length === 0) {
      const empty = document.createElement("p");
      empty.className = "chat-empty";
      empty.textContent = t(`chat.empty.${this.room}`);
      log.append(empty);
    }
    log.scrollTop = log.scrollHeight;
    log.removeAttribute("aria-busy");
  }

  append(line) {
    const log = this.root.querySelector("#chat-log");
    if (!log) return;
    const atBottom = log.scrollHeight - log.scrollTop - log.clientHeight < 24;
    const empty = log.querySelector(".chat-empty");
    if (empty) empty.remove();
    log.append(this.lineElement(line));
    if (atBottom) log.scrollTop = log.scrollHeight;
  }

  lineElement(line) {
    const p = document.createElement("p");
    p.className = "chat-line";
    if (this.me && line.userId === this.me.id) p.classList.add("chat-mine");
    p.dataset.id = String(line.id);
    p.dataset.room = line.room;
    // An account's name links to its profile (names.js).
    const account = isAccountName(line.username);
    const who = document.createElement(account ? "a" : "span");
    who.className = "chat-user";
    if (account) who.href = `/@/${encodeURIComponent(line.username)}`;
    who.textContent = line.username;
    const text = document.createElement("span");
    text.className = "chat-text";
    text.textContent = shownText(line); // user text: never markup
    p.append(who, ": ", text);
    const mine = this.me && line.userId === this.me.id;
    if (!mine) {
      const gameId = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop() || "");
      p.append(lineActions(line, {
        canAct: Boolean(account && this.me && isAccountName(this.me.name)),
        onMute: (l) => this.setMutedId(l.userId, true),
        onBlock: (l) => this.block(l),
        gameId,
      }));
    }
    return p;
  }
}
