// What the game page reads aloud (the live region: board/setup.js) of the game itself: each
// move as a sentence, with check and the result when it ends the game, and the result of a
// game already over. `page` is the game page's state (pages/game.js); `page.announcedEnd`
// keeps a result from being read twice.

import { announce } from "../board/setup.js";
import { t } from "../i18n/i18n.js";
import { moveSentence, resultText } from "../i18n/words.js";
import { mySeat } from "./gameview.js";

export function announceMove(page, before, text, mover, note = "") {
  const game = page.game;
  let sentence = moveSentence(page.variant, before, text, mover, page.pieceSet);
  if (game.check && !game.result) sentence += `. ${t("status.check")}`;
  if (game.result) {
    sentence += `. ${resultText(game, { seat: mySeat(page), variant: page.variant })}`;
    page.announcedEnd = game.id;
  }
  if (note) sentence += `. ${note}`;
  announce(sentence);
}

export function announceEnd(page) {
  if (page.announcedEnd === page.game.id) return;
  page.announcedEnd = page.game.id;
  announce(resultText(page.game, { seat: mySeat(page), variant: page.variant }));
}
