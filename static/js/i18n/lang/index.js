// The languages kept in one file each (lang/<code>.js: {code, name, ui, game, rules}),
// merged by i18n.js and rules-text.js beside English and French (docs/i18n.md). Adding a
// language: its file, then one import and one entry here.

import ja from "./ja.js";
import zh from "./zh.js";

export const MORE_LANGUAGES = [ja, zh];
