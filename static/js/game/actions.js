// The game page's buttons (`data-action`, drawn by game/gamepanels.js): what each does when
// clicked. Most send one message through the game socket (`act`); the replay buttons step
// through the moves (game/review.js); joining and cancelling an open game go through the API.

import { api } from "../site/api.js";
import { copyText, toast } from "../site/ui.js";
import { errorText, t } from "../i18n/i18n.js";
import { otherSide } from "../lib/variant.js";
import { takebackMessage } from "./takeback.js";

const $ = (id) => document.getElementById(id);

// The buttons that send one message as it is.
const MESSAGES = {
  abort: { type: "abort" },
  "draw-offer": { type: "draw", action: "offer" },
  "draw-accept": { type: "draw", action: "accept" },
  "draw-decline": { type: "draw", action: "decline" },
  "claim-victory": { type: "claim", result: "victory" },
  "claim-draw": { type: "claim", result: "draw" },
};

// `page` is the game page's state (pages/game.js); `act(message)` sends a message on the
// game socket, `update()` redraws the board, `showError(text)` shows a toast, `view` is the
// page's GameView (game/gameview.js).
export function listenForActions(page, { view, act, update, showError }) {
  let resignTimer = null;

  async function onAction(action, target) {
    if (Object.hasOwn(MESSAGES, action)) {
      act(MESSAGES[action]);
      return;
    }
    switch (action) {
      case "replay-first":
      case "replay-prev":
      case "replay-next":
      case "replay-last":
        page.review.step(action.slice("replay-".length));
        break;
      case "replay-live":
        page.review.step("last");
        break;
      case "replay-to":
        page.review.go(Number(target.dataset.ply));
        break;
      case "takeback-offer":
      case "takeback-accept":
      case "takeback-decline":
        act(takebackMessage(action));
        break;
      case "flip":
        page.flipped = true;
        page.orientation = otherSide(page.orientation);
        update();
        break;
      case "resign":
        if (!page.confirmResign) {
          page.confirmResign = true;
          clearTimeout(resignTimer);
          resignTimer = setTimeout(() => {
            page.confirmResign = false;
            view.actions();
          }, 3000);
        } else {
          page.confirmResign = false;
          act({ type: "resign" });
        }
        view.actions();
        break;
      case "join":
        try {
          await api.join(page.game.id);
          // The server counts this connection as a spectator's until it reconnects seated;
          // the state broadcast after the join triggers that (pages/game.js, onMessage).
        } catch (err) {
          showError(errorText(err));
        }
        break;
      case "cancel":
        try {
          await api.cancel(page.game.id);
        } catch (err) {
          showError(errorText(err));
        }
        break;
      case "copy-invite": {
        const input = $("invite-link");
        const ok = await copyText(input.value, input);
        toast($("toast"), ok ? t("invite.copied") : t("invite.selectIt"), 2000);
        break;
      }
      default:
        break;
    }
  }

  document.addEventListener("click", (event) => {
    const target = event.target.closest("[data-action]");
    if (target) onAction(target.dataset.action, target);
  });
}
