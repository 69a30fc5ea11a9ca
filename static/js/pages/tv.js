// The TV page (/tv, /tv/{game}): a channel's featured game, live, from its socket
// (/ws/tv/{channel}, tv/feed.js): the highest-rated game being played, of every
// game (`best`, at /tv) or of one; when it ends, the next best. Links to each channel.

import { api } from "../site/api.js";
import { onLanguage, setupChrome } from "../site/chrome.js";
import { html, render } from "../lib/html.js";
import { t } from "../i18n/i18n.js";
import { variantName } from "../lib/variant.js";
import { watchFeed } from "../tv/feed.js";
import { Screen } from "../tv/screen.js";

const $ = (id) => document.getElementById(id);
const BEST = "best";
const channel = decodeURIComponent(location.pathname.split("/")[2] || "") || BEST;
const screen = new Screen($("tv-screen"));
let variants = [];
let missing = false;

function channelName(id) {
  if (id === BEST) return t("tv.best");
  const variant = variants.find((v) => v.id === id);
  return variant ? variantName(variant) : id;
}

function drawChannels() {
  const ids = [BEST, ...variants.map((v) => v.id)];
  render(
    $("tv-channels"),
    html`${ids.map((id) => html`<a href="${id === BEST ? "/tv" : `/tv/${encodeURIComponent(id)}`}"
      data-channel="${id}" ${id === channel ? html`aria-current="page"` : ""}>${channelName(id)}</a>`)}`,
  );
}

function draw() {
  document.title = t("title.tv", { channel: channelName(channel) });
  drawChannels();
  if (missing) {
    $("tv-status").textContent = t("tv.unknown");
    $("tv-status").hidden = false;
  }
  if (screen.game) screen.draw();
}

async function load() {
  try {
    variants = await api.variants();
  } catch {
    variants = [];
  }
  draw();
  watchFeed(channel, {
    onLine: async (line) => {
      if (line.t === "featured") {
        await screen.featured(line.d);
        $("tv-status").hidden = true;
        $("tv-screen").hidden = false;
      } else if (line.t === "fen") {
        screen.moved(line.d);
      }
    },
    onMissing: () => {
      missing = true;
      draw();
    },
  });
}

setupChrome();
onLanguage(draw);
load();
