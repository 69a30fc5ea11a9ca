// A TV channel's lines, live, through its socket (/ws/tv/{channel}, docs/protocol.md): the
// lines of the channel's feed (GET /api/tv/{channel}/feed, docs/api.md "TV"), each handed to
// `onLine` as it comes: a `featured` line first, then a `fen` line per move, and a `featured`
// line again whenever the channel switches to another game. A dropped socket is opened again
// (after a pause growing to 10 s: every opening starts with the `featured` line);
// `onMissing()` when the server knows no such channel. Returns `{ stop() }`.

import { socketUrl } from "../site/socket.js";

const FIRST_PAUSE_MS = 500;
const LONGEST_PAUSE_MS = 10_000;
const PING_MS = 25_000; // keeps an idle socket open through proxies
const UNKNOWN_CHANNEL = 4404;

export function watchFeed(channel, { onLine, onMissing = () => {} }) {
  let stopped = false;
  let ws = null;
  let pinger = null;
  let pause = FIRST_PAUSE_MS;

  function open() {
    ws = new WebSocket(socketUrl(`/ws/tv/${encodeURIComponent(channel)}`));
    ws.addEventListener("open", () => {
      pinger = setInterval(() => ws.send(JSON.stringify({ type: "ping" })), PING_MS);
    });
    ws.addEventListener("message", (event) => {
      let data;
      try {
        data = JSON.parse(event.data);
      } catch {
        return;
      }
      pause = FIRST_PAUSE_MS;
      onLine(data);
    });
    ws.addEventListener("close", (event) => {
      clearInterval(pinger);
      if (stopped) return;
      if (event.code === UNKNOWN_CHANNEL) {
        stopped = true;
        onMissing();
        return;
      }
      setTimeout(open, pause);
      pause = Math.min(pause * 2, LONGEST_PAUSE_MS);
    });
  }

  open();
  return {
    stop() {
      stopped = true;
      clearInterval(pinger);
      if (ws) ws.close();
    },
  };
}
