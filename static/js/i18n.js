// Every sentence the pages show, in English and French: `t(key, values)`. The language is
// the one chosen with the EN/FR switch (remembered), else the browser's.

const STORE_KEY = "kodama.lang";
export const LANGS = ["en", "fr"];

const TEXT = {
  en: {
    "reason.checkmate": "checkmate",
    "reason.capture": "the royal piece was captured",
    "reason.try": "try: the royal piece reached the far rank",
    "reason.den": "a piece entered the den",
    "reason.no_pieces": "no pieces left",
    "reason.no_moves": "no legal move left",
    "reason.repetition": "threefold repetition",
    "reason.repetition_tiebreak": "repetition (tiebreak)",
    "reason.no_progress": "no progress",
    "reason.agreement": "agreement",
    "reason.both_try": "both royal pieces made a try",
    "result.canceled": "Cancelled by its creator",
    "result.aborted": "Game aborted",
    "result.noStart": "Aborted: the first move was not made in time",
    "result.resigned": "{who} resigned",
    "result.outoftime": "{who} ran out of time",
    "result.left": "{who} left the game",
    "result.opponentLeft": "the opponent left the game",
    "result.draw": "Draw: {why}",
    "result.wins": "{who} wins: {why}",
    "conn.connecting": "connecting…",
    "conn.open": "connected",
    "conn.closed": "reconnecting…",
    "conn.gone": "no such game",
    "pref.sound": "Sound",
    "pref.pieces": "Pieces",
    "pref.lang": "Language",
    "set.animals": "animals",
    "set.yokai": "yokai",
    "status.yourTurn": "Your turn",
    "status.opponentTurn": "Your opponent's turn",
    "status.toMove": "{who} to move",
    "status.waitInvite": "Waiting for an opponent: send them the invite link.",
    "status.waitSecond": "Waiting for a second player.",
    "status.pick": "Choose an enemy stone to remove.",
    "status.place": " · tap an empty square to place a stone",
    "replay.first": "First position",
    "replay.prev": "Previous move",
    "replay.next": "Next move",
    "replay.last": "Last position",
    "replay.before": "Moves before {n} were played before this page opened.",
  },
  fr: {
    "reason.checkmate": "échec et mat",
    "reason.capture": "la pièce royale a été prise",
    "reason.try": "essai : la pièce royale a atteint la dernière rangée",
    "reason.den": "une pièce a atteint la tanière",
    "reason.no_pieces": "plus aucune pièce",
    "reason.no_moves": "plus aucun coup légal",
    "reason.repetition": "triple répétition",
    "reason.repetition_tiebreak": "répétition (départage)",
    "reason.no_progress": "pas de progrès",
    "reason.agreement": "accord mutuel",
    "reason.both_try": "les deux pièces royales ont réussi un essai",
    "result.canceled": "Annulée par son créateur",
    "result.aborted": "Partie annulée",
    "result.noStart": "Annulée : le premier coup n'a pas été joué à temps",
    "result.resigned": "{who} a abandonné",
    "result.outoftime": "{who} : temps écoulé",
    "result.left": "{who} a quitté la partie",
    "result.opponentLeft": "l'adversaire a quitté la partie",
    "result.draw": "Nulle : {why}",
    "result.wins": "{who} gagne : {why}",
    "conn.connecting": "connexion…",
    "conn.open": "connecté",
    "conn.closed": "reconnexion…",
    "conn.gone": "partie inconnue",
    "pref.sound": "Son",
    "pref.pieces": "Pièces",
    "pref.lang": "Langue",
    "set.animals": "animaux",
    "set.yokai": "yokai",
    "status.yourTurn": "À vous de jouer",
    "status.opponentTurn": "Au tour de votre adversaire",
    "status.toMove": "{who} doit jouer",
    "status.waitInvite": "En attente d'un adversaire : envoyez-lui le lien d'invitation.",
    "status.waitSecond": "En attente d'un second joueur.",
    "status.pick": "Choisissez une pierre adverse à retirer.",
    "status.place": " · touchez une case vide pour poser une pierre",
    "replay.first": "Première position",
    "replay.prev": "Coup précédent",
    "replay.next": "Coup suivant",
    "replay.last": "Dernière position",
    "replay.before": "Les coups avant le {n}e ont été joués avant l'ouverture de cette page.",
  },
};

function detect() {
  try {
    const stored = localStorage.getItem(STORE_KEY);
    if (LANGS.includes(stored)) return stored;
  } catch {
    /* no storage: fall back to the browser's language */
  }
  const nav = (globalThis.navigator && navigator.language) || "en";
  return nav.toLowerCase().startsWith("fr") ? "fr" : "en";
}

let lang = detect();
if (globalThis.document) document.documentElement.lang = lang;

export function getLang() {
  return lang;
}

export function setLang(value) {
  if (!LANGS.includes(value)) return;
  lang = value;
  try {
    localStorage.setItem(STORE_KEY, value);
  } catch {
    /* private mode */
  }
  if (globalThis.document) document.documentElement.lang = value;
}

// t("result.wins", {who, why}); an unknown key shows itself (easy to spot, never blank).
export function t(key, values = {}) {
  const text = (TEXT[lang] && TEXT[lang][key]) ?? TEXT.en[key] ?? key;
  return text.replace(/\{(\w+)\}/g, (_, name) => String(values[name] ?? ""));
}
