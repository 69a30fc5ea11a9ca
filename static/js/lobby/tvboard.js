// The lobby's small TV: the featured game of every game (the `best` channel, through its
// socket: tv/feed.js), its board live, linking to the TV page. Hidden until a game is shown.

import { onLanguage } from "../site/chrome.js";
import { html, render } from "../lib/html.js";
import { t } from "../i18n/i18n.js";
import { watchFeed } from "../tv/feed.js";
import { Screen } from "../tv/screen.js";

const section = document.getElementById("tv");

function heading() {
  section.querySelector("#tv-heading a").textContent = t("tv.lobbyTitle");
}

if (section) {
  render(section, html`<h2 id="tv-heading"><a href="/tv"></a></h2><div class="tv-small"></div>`);
  heading();
  const screen = new Screen(section.querySelector(".tv-small"), { small: true });
  onLanguage(() => {
    heading();
    if (screen.game) screen.draw();
  });
  watchFeed("best", {
    onLine: async (line) => {
      if (line.t === "featured") {
        await screen.featured(line.d);
        section.hidden = false;
      } else if (line.t === "fen") {
        screen.moved(line.d);
      }
    },
  });
}
