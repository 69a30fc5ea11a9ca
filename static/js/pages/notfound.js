// The page a browser gets for an address the site does not have (answered 404 by
// app/http/errors.py): the site's header and language switch, and a way home.

import { onLanguage, setupChrome } from "../site/chrome.js";
import { t } from "../i18n/i18n.js";

function title() {
  document.title = `${t("notFound.heading")} · Kodama`;
}

setupChrome();
onLanguage(title);
title();
