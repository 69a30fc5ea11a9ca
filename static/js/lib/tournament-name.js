// A tournament's name in the page's language. A name the server made (its "defaultName":
// the period of a site's event, the system, the game) is said from those words, with the
// game's name in the page's language; a name a person typed stays as typed.

import { t } from "../i18n/i18n.js";
import { variantName } from "./variant.js";

// `event`: an arena's or a Swiss's JSON; `variants`: GET /api/variants (for the game's name).
export function tournamentName(event, variants = []) {
  const typed = event.system === "swiss" ? event.name : event.fullName;
  const words = event.defaultName;
  if (!words) return typed;
  const variant = variants.find((v) => v.id === words.variant);
  const game = variant ? variantName(variant) : event.variantName || words.variant;
  return t(`tournament.name.${words.every || "once"}.${words.system}`, { game });
}
