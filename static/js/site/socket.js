// WebSockets that reconnect with backoff. The server sends the full state on every
// (re)connect, so nothing is replayed: a reconnected page simply starts over from it.
// Every page's socket also carries the challenges to and from its player
// (challengenotice.js), whatever the page.

import { challengeNotice, readWaitingChallenges } from "./challengenotice.js";

const PING_MS = 25_000; // keeps idle connections open through proxies
const MAX_BACKOFF_MS = 10_000;

export function socketUrl(path) {
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  return `${scheme}//${location.host}${path}`;
}

export class Socket {
  // onMessage(data), onStatus("connecting" | "open" | "closed" | "gone")
  constructor(path, { onMessage = () => {}, onStatus = () => {} } = {}) {
    this.path = path;
    this.onMessage = onMessage;
    this.onStatus = onStatus;
    this.attempts = 0;
    this.ws = null;
    this.timer = null;
    this.pinger = null;
    this.stopped = false;
    this.status = "connecting";
    document.addEventListener("visibilitychange", () => {
      // A phone coming back to the page should not wait for the backoff.
      if (document.visibilityState === "visible" && this.status === "closed") this.reconnectNow();
    });
  }

  connect() {
    this.stopped = false;
    this.setStatus("connecting");
    const ws = new WebSocket(socketUrl(this.path));
    this.ws = ws;
    ws.addEventListener("open", () => {
      this.attempts = 0;
      this.setStatus("open");
      readWaitingChallenges();
      clearInterval(this.pinger);
      this.pinger = setInterval(() => this.send({ type: "ping" }), PING_MS);
    });
    ws.addEventListener("message", (event) => {
      let data;
      try {
        data = JSON.parse(event.data);
      } catch {
        return;
      }
      if (challengeNotice(data)) return;
      this.handle(data);
    });
    ws.addEventListener("close", (event) => {
      clearInterval(this.pinger);
      if (this.ws !== ws) return;
      this.ws = null;
      if (this.stopped) return;
      if (event.code === 4404) {
        // The game does not exist: retrying cannot help.
        this.setStatus("gone");
        return;
      }
      this.setStatus("closed");
      this.scheduleReconnect();
    });
    return this;
  }

  handle(data) {
    this.onMessage(data);
  }

  scheduleReconnect() {
    clearTimeout(this.timer);
    const delay = Math.min(MAX_BACKOFF_MS, 500 * 2 ** this.attempts) * (0.75 + Math.random() / 2);
    this.attempts += 1;
    this.timer = setTimeout(() => this.connect(), delay);
  }

  reconnectNow() {
    clearTimeout(this.timer);
    const old = this.ws;
    this.ws = null; // its close event is then ignored
    if (old) old.close();
    this.connect();
  }

  setStatus(status) {
    this.status = status;
    this.onStatus(status);
  }

  send(data) {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) return false;
    this.ws.send(JSON.stringify(data));
    return true;
  }

  close() {
    this.stopped = true;
    clearTimeout(this.timer);
    clearInterval(this.pinger);
    if (this.ws) this.ws.close();
  }
}

// The game socket counts the moves it has seen: a `move` that is not the next one means
// something was missed, and the page asks for the full state again.
export class GameSocket extends Socket {
  constructor(gameId, handlers) {
    super(`/ws/game/${encodeURIComponent(gameId)}`, handlers);
    this.ply = null; // unknown until the first state
  }

  handle(data) {
    if (data.type === "state") {
      this.ply = data.ply;
    } else if (data.type === "move") {
      if (this.ply === null || data.ply <= this.ply) return; // already in the state we hold
      if (data.ply !== this.ply + 1) {
        this.send({ type: "resync" });
        return;
      }
      this.ply = data.ply;
    } else if (data.type === "resync") {
      this.send({ type: "resync" });
      return;
    }
    this.onMessage(data);
  }

  connect() {
    this.ply = null;
    return super.connect();
  }

  sendMove(move) {
    return this.send({ type: "move", move, ply: this.ply });
  }
}
