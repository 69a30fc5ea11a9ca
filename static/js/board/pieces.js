// Piece pictures drawn for Kodama as inline SVG (program-written markup, never user text).
// Looks only: the dots showing where a shogi piece may step come from describe()'s
// `moves` offsets ([file, rank], forward = +1 for the owner), not from rules written here.

import { trusted } from "../lib/html.js";

export const PIECE_SETS = ["animals", "yokai"];
const STORE_KEY = "kodama.pieceSet";

// The set the player chose, or null (then the game's own names decide, see defaultSet).
export function storedPieceSet() {
  try {
    const value = localStorage.getItem(STORE_KEY);
    return PIECE_SETS.includes(value) ? value : null;
  } catch {
    return null;
  }
}

export function storePieceSet(value) {
  try {
    localStorage.setItem(STORE_KEY, value);
  } catch {
    /* private mode: the choice lasts for this page only */
  }
}

// A game played with the yokai names starts with the yokai pictures, else the animals.
export function defaultPieceSet(variant, rules) {
  const stored = storedPieceSet();
  if (stored) return stored;
  const sets = (variant && variant.piece_sets) || [];
  const wanted = rules && rules.ruleset;
  const names = sets.includes(wanted) ? wanted : sets[0];
  return names === "yokai" ? "yokai" : "animals";
}

// ---- drawings: each draws a figure centred on (50, 50) within about 30 units -------------
const eyes = (y = 48, dx = 8, r = 3.2, fill = "#2b1d0e") =>
  `<circle cx="${50 - dx}" cy="${y}" r="${r}" fill="${fill}"/><circle cx="${50 + dx}" cy="${y}" r="${r}" fill="${fill}"/>`;
const cheeks = (y = 56) =>
  `<circle cx="37" cy="${y}" r="3.5" fill="#f28b82" opacity=".6"/><circle cx="63" cy="${y}" r="3.5" fill="#f28b82" opacity=".6"/>`;
const smile = (y = 57) =>
  `<path d="M45 ${y} q5 5 10 0" fill="none" stroke="#2b1d0e" stroke-width="2" stroke-linecap="round"/>`;

const DRAW = {
  lion() {
    let mane = "";
    for (let i = 0; i < 12; i++) {
      const a = (i / 12) * Math.PI * 2;
      mane += `<circle cx="${(50 + 21 * Math.cos(a)).toFixed(1)}" cy="${(50 + 21 * Math.sin(a)).toFixed(1)}" r="8" fill="#d9822b"/>`;
    }
    return `${mane}<circle cx="50" cy="50" r="19" fill="#f6c453"/>${eyes(47)}
      <ellipse cx="50" cy="55" rx="4" ry="3" fill="#7a4a1e"/>${smile(58)}`;
  },
  giraffe() {
    return `<rect x="44" y="54" width="12" height="24" rx="5" fill="#f2c14e"/>
      <line x1="42" y1="30" x2="40" y2="21" stroke="#a0672c" stroke-width="3"/>
      <line x1="58" y1="30" x2="60" y2="21" stroke="#a0672c" stroke-width="3"/>
      <circle cx="40" cy="20" r="3.2" fill="#a0672c"/><circle cx="60" cy="20" r="3.2" fill="#a0672c"/>
      <ellipse cx="32" cy="38" rx="6" ry="3.5" fill="#f2c14e"/><ellipse cx="68" cy="38" rx="6" ry="3.5" fill="#f2c14e"/>
      <ellipse cx="50" cy="44" rx="16" ry="17" fill="#f2c14e"/>
      <circle cx="41" cy="33" r="3" fill="#c98a3c"/><circle cx="60" cy="36" r="2.6" fill="#c98a3c"/>
      <circle cx="50" cy="70" r="2.6" fill="#c98a3c"/>
      <ellipse cx="50" cy="53" rx="10" ry="6.5" fill="#f7dc9a"/>${eyes(42, 7, 2.8)}
      <circle cx="46" cy="53" r="1.3" fill="#7a4a1e"/><circle cx="54" cy="53" r="1.3" fill="#7a4a1e"/>`;
  },
  elephant() {
    return `<ellipse cx="29" cy="48" rx="13" ry="17" fill="#a9b4c2"/><ellipse cx="71" cy="48" rx="13" ry="17" fill="#a9b4c2"/>
      <ellipse cx="29" cy="48" rx="8" ry="11" fill="#e7b8c4"/><ellipse cx="71" cy="48" rx="8" ry="11" fill="#e7b8c4"/>
      <circle cx="50" cy="46" r="18" fill="#bcc6d3"/>
      <path d="M45 54 q0 16 5 22 q7 4 9 -2 q-5 -3 -5 -20 z" fill="#bcc6d3" stroke="#98a3b3" stroke-width="1"/>
      ${eyes(43, 8, 3)}${cheeks(51)}`;
  },
  chick() {
    return `<circle cx="50" cy="52" r="22" fill="#ffd93b"/>
      <path d="M46 26 q4 -8 8 0" fill="#ffd93b" stroke="#e6b800" stroke-width="1.5"/>
      <path d="M43 54 l7 7 l7 -7 z" fill="#f08a24"/>${eyes(47, 9, 3)}${cheeks(56)}
      <ellipse cx="31" cy="60" rx="5" ry="8" fill="#f2c400"/><ellipse cx="69" cy="60" rx="5" ry="8" fill="#f2c400"/>`;
  },
  dog() {
    return `<ellipse cx="29" cy="47" rx="8" ry="15" fill="#8a5a32" transform="rotate(18 29 47)"/>
      <ellipse cx="71" cy="47" rx="8" ry="15" fill="#8a5a32" transform="rotate(-18 71 47)"/>
      <circle cx="50" cy="50" r="20" fill="#d9a066"/>
      <ellipse cx="59" cy="44" rx="7" ry="6" fill="#b07a45"/>
      <ellipse cx="50" cy="60" rx="11" ry="8" fill="#f3dcc0"/>${eyes(45, 8, 3)}
      <ellipse cx="50" cy="56" rx="4.2" ry="3" fill="#2b1d0e"/>
      <path d="M45 61 q5 4 10 0" fill="none" stroke="#2b1d0e" stroke-width="1.8" stroke-linecap="round"/>
      <path d="M48 62 q2 7 4 0 z" fill="#e0605e"/>`;
  },
  // The power-up cat (promoted) wears a red headband with a gold star.
  cat(powerUp = false) {
    const brow = powerUp
      ? `<path d="M29 37 Q50 29 71 37 L71 43 Q50 35 29 43 z" fill="#d6453a"/>
        <path d="M70 38 l11 -7 l-2 9 z M70 41 l11 3 l-6 6 z" fill="#d6453a"/>
        <path d="M50 30 l2.2 4.6 l5 .6 l-3.7 3.4 l1 5 l-4.5 -2.5 l-4.5 2.5 l1 -5 l-3.7 -3.4 l5 -.6 z" fill="#f2c14e" stroke="#b8860b" stroke-width=".8"/>`
      : `<path d="M44 33 l2 6 M50 32 l0 7 M56 33 l-2 6" stroke="#7d8391" stroke-width="2.5" stroke-linecap="round"/>`;
    return `<path d="M30 42 L31 17 L49 31 z M70 42 L69 17 L51 31 z" fill="#aab0bb"/>
      <path d="M34 35 L34 24 L44 31 z M66 35 L66 24 L56 31 z" fill="#f4b6c2"/>
      <ellipse cx="50" cy="51" rx="22" ry="19" fill="#b8bec8"/>${brow}${eyes(49, 8, 3)}
      <path d="M47 55 l3 3 l3 -3 z" fill="#e27d8a"/>
      <path d="M50 58 q-3 4 -6 2 M50 58 q3 4 6 2" fill="none" stroke="#2b1d0e" stroke-width="1.6" stroke-linecap="round"/>
      <path d="M25 54 l12 1 M25 60 l12 -2 M75 54 l-12 1 M75 60 l-12 -2" stroke="#2b1d0e" stroke-width="1.2"/>`;
  },
  hen() {
    return `<path d="M40 28 q3 -9 7 -2 q3 -9 7 0 q4 -8 7 2 z" fill="#e0362c"/>
      <circle cx="50" cy="52" r="23" fill="#fffaf0" stroke="#e8dcc2" stroke-width="1.5"/>
      <path d="M43 52 l7 7 l7 -7 z" fill="#f08a24"/><path d="M47 60 q3 8 6 0" fill="#e0362c"/>
      ${eyes(45, 9, 3)}${cheeks(54)}`;
  },
  koropokkuru() {
    return `<ellipse cx="50" cy="58" rx="15" ry="16" fill="#f3d5b5"/>
      <path d="M22 46 Q50 8 78 46 Q50 36 22 46 z" fill="#3f9b46"/>
      <path d="M50 14 L50 43" stroke="#2a6e30" stroke-width="2"/>
      <path d="M50 24 L38 34 M50 30 L62 38 M50 24 L62 32" stroke="#2a6e30" stroke-width="1.5"/>
      ${eyes(58, 6, 2.6)}${cheeks(64)}<path d="M46 66 q4 3 8 0" fill="none" stroke="#2b1d0e" stroke-width="1.8" stroke-linecap="round"/>`;
  },
  tanuki() {
    return `<circle cx="33" cy="31" r="7" fill="#7b5a3a"/><circle cx="67" cy="31" r="7" fill="#7b5a3a"/>
      <circle cx="33" cy="31" r="3.5" fill="#3a2a1c"/><circle cx="67" cy="31" r="3.5" fill="#3a2a1c"/>
      <ellipse cx="50" cy="50" rx="22" ry="20" fill="#a0784f"/>
      <ellipse cx="40" cy="48" rx="8" ry="6" fill="#3a2a1c" transform="rotate(-15 40 48)"/>
      <ellipse cx="60" cy="48" rx="8" ry="6" fill="#3a2a1c" transform="rotate(15 60 48)"/>
      <ellipse cx="50" cy="59" rx="10" ry="8" fill="#f1e3cf"/>
      ${eyes(48, 10, 2.4, "#fff")}<ellipse cx="50" cy="55" rx="3.5" ry="2.5" fill="#2b1d0e"/>`;
  },
  kitsune() {
    return `<path d="M28 22 L38 44 L24 44 z" fill="#e8842f"/><path d="M72 22 L62 44 L76 44 z" fill="#e8842f"/>
      <path d="M30 27 L36 42 L28 42 z" fill="#fff2e0"/><path d="M70 27 L64 42 L72 42 z" fill="#fff2e0"/>
      <path d="M24 40 Q50 30 76 40 L50 78 z" fill="#e8842f"/>
      <path d="M32 50 Q42 52 50 78 Q58 52 68 50 L50 78 z" fill="#fff2e0"/>
      <path d="M36 47 q5 -4 10 0 M54 47 q5 -4 10 0" fill="none" stroke="#2b1d0e" stroke-width="2.2" stroke-linecap="round"/>
      <circle cx="50" cy="74" r="3" fill="#2b1d0e"/>
      <path d="M44 36 l6 -6 l6 6" fill="none" stroke="#c0392b" stroke-width="2"/>`;
  },
  kodama() {
    return `<path d="M28 56 Q26 24 50 24 Q74 24 72 56 Q72 76 50 76 Q28 76 28 56 z" fill="#f4f1e1" stroke="#cfc8ad" stroke-width="1.5"/>
      <ellipse cx="41" cy="48" rx="3.6" ry="5" fill="#2b2a26"/><ellipse cx="59" cy="48" rx="3.6" ry="5" fill="#2b2a26"/>
      <ellipse cx="50" cy="62" rx="3" ry="4" fill="#2b2a26"/>`;
  },
  samurai() {
    return `<path d="M28 58 Q26 30 50 30 Q74 30 72 58 Q72 78 50 78 Q28 78 28 58 z" fill="#f4f1e1" stroke="#cfc8ad" stroke-width="1.5"/>
      <path d="M24 44 Q50 14 76 44 Z" fill="#3c4a6b"/>
      <path d="M36 32 Q32 14 42 12 Q38 24 46 30 Z M64 32 Q68 14 58 12 Q62 24 54 30 Z" fill="#e0b43a"/>
      <circle cx="50" cy="32" r="4" fill="#d6453a"/>
      <ellipse cx="41" cy="54" rx="3.6" ry="5" fill="#2b2a26"/><ellipse cx="59" cy="54" rx="3.6" ry="5" fill="#2b2a26"/>
      <ellipse cx="50" cy="67" rx="3" ry="4" fill="#2b2a26"/>`;
  },
  kirin() {
    return `<path d="M50 14 L46 34 L54 34 z" fill="#e0b43a"/>
      <path d="M26 36 q-6 14 4 26 M74 36 q6 14 -4 26" stroke="#5aa0c8" stroke-width="6" fill="none" stroke-linecap="round"/>
      <ellipse cx="50" cy="50" rx="20" ry="20" fill="#f2d16b"/>
      <ellipse cx="50" cy="62" rx="12" ry="9" fill="#f7e4a6"/>
      <path d="M38 44 q4 -4 8 0 M54 44 q4 -4 8 0" fill="none" stroke="#2b1d0e" stroke-width="2.4" stroke-linecap="round"/>
      <circle cx="46" cy="62" r="1.6" fill="#7a4a1e"/><circle cx="54" cy="62" r="1.6" fill="#7a4a1e"/>
      <circle cx="36" cy="36" r="3" fill="#5aa0c8"/><circle cx="64" cy="36" r="3" fill="#5aa0c8"/>`;
  },
  oni(superOni = false) {
    const face = superOni ? "#7b3fa0" : "#d6453a";
    const horns = superOni
      ? `<path d="M30 34 L26 14 L40 30 z M70 34 L74 14 L60 30 z M46 28 L50 10 L54 28 z" fill="#f0d9a0"/>`
      : `<path d="M32 34 L28 16 L42 30 z M68 34 L72 16 L58 30 z" fill="#f0d9a0"/>`;
    return `${horns}<circle cx="50" cy="52" r="22" fill="${face}"/>
      <path d="M36 38 Q50 30 64 38 Q50 34 36 38 z" fill="#2b1d0e"/>
      <circle cx="41" cy="48" r="5" fill="#fff"/><circle cx="59" cy="48" r="5" fill="#fff"/>
      <circle cx="41" cy="49" r="2.4" fill="#2b1d0e"/><circle cx="59" cy="49" r="2.4" fill="#2b1d0e"/>
      <path d="M38 62 Q50 70 62 62" fill="#2b1d0e"/>
      <path d="M41 63 l3 5 l2 -4 z M59 63 l-3 5 l-2 -4 z" fill="#fff"/>`;
  },
};

// Jungle: one face builder, the animals told apart by colour, ears and marks.
const JUNGLE = {
  E: { face: "#aab5c3", ear: "big", mark: "trunk" },
  L: { face: "#f2c14e", ear: "round", mark: "mane" },
  T: { face: "#f29a38", ear: "round", mark: "stripes" },
  P: { face: "#f4cf6a", ear: "round", mark: "spots" },
  D: { face: "#c79a6b", ear: "floppy", mark: "nose" },
  W: { face: "#8f98a3", ear: "pointed", mark: "nose" },
  C: { face: "#f0b37a", ear: "pointed", mark: "whiskers" },
  R: { face: "#b4aca4", ear: "mouse", mark: "whiskers" },
};

function animalFace(faces, letter) {
  const a = faces[letter];
  if (!a) return "";
  let s = "";
  if (a.mark === "mane") {
    for (let i = 0; i < 10; i++) {
      const t = (i / 10) * Math.PI * 2;
      s += `<circle cx="${(50 + 20 * Math.cos(t)).toFixed(1)}" cy="${(48 + 20 * Math.sin(t)).toFixed(1)}" r="8" fill="#b8651e"/>`;
    }
  }
  if (a.ear === "round") s += `<circle cx="33" cy="31" r="7" fill="${a.face}"/><circle cx="67" cy="31" r="7" fill="${a.face}"/>`;
  if (a.ear === "pointed") s += `<path d="M28 24 L42 34 L30 44 z M72 24 L58 34 L70 44 z" fill="${a.face}"/>`;
  if (a.ear === "floppy") s += `<ellipse cx="29" cy="46" rx="7" ry="14" fill="#7a5232"/><ellipse cx="71" cy="46" rx="7" ry="14" fill="#7a5232"/>`;
  if (a.ear === "mouse") s += `<circle cx="30" cy="32" r="11" fill="${a.face}"/><circle cx="70" cy="32" r="11" fill="${a.face}"/><circle cx="30" cy="32" r="6" fill="#e7b8c4"/><circle cx="70" cy="32" r="6" fill="#e7b8c4"/>`;
  if (a.ear === "big") s += `<ellipse cx="28" cy="48" rx="12" ry="16" fill="${a.face}"/><ellipse cx="72" cy="48" rx="12" ry="16" fill="${a.face}"/>`;
  s += `<circle cx="50" cy="49" r="18" fill="${a.face}"/>`;
  if (a.mark === "stripes") s += `<path d="M44 32 l2 8 M50 31 l0 9 M56 32 l-2 8 M33 46 l7 2 M67 46 l-7 2" stroke="#3a2a1c" stroke-width="2.5" stroke-linecap="round"/>`;
  if (a.mark === "spots") s += `<circle cx="40" cy="38" r="2.2" fill="#8a5a22"/><circle cx="58" cy="36" r="2.2" fill="#8a5a22"/><circle cx="62" cy="56" r="2" fill="#8a5a22"/><circle cx="37" cy="56" r="2" fill="#8a5a22"/>`;
  s += eyes(46, 7, 2.8);
  if (a.mark === "trunk") s += `<path d="M46 54 q0 14 4 20 q6 3 8 -2 q-4 -3 -4 -18 z" fill="${a.face}" stroke="#8892a0" stroke-width="1"/>`;
  else s += `<ellipse cx="50" cy="55" rx="3.6" ry="2.6" fill="#2b1d0e"/>`;
  if (a.mark === "whiskers") s += `<path d="M30 56 l12 -1 M30 61 l12 -3 M70 56 l-12 -1 M70 61 l-12 -3" stroke="#3a2a1c" stroke-width="1.2"/>`;
  return s;
}

// The games whose pieces are animal faces with their strength (by the piece's letter).
const ANIMAL_ART = { jungle: JUNGLE };

// Which drawing a shogi piece gets, per picture set and game (by the piece's letter).
const SHOGI_ART = {
  dobutsu: {
    animals: { L: "lion", E: "elephant", G: "giraffe", C: "chick", H: "hen" },
    yokai: { L: "koropokkuru", E: "kitsune", G: "tanuki", C: "kodama", H: "samurai" },
  },
  gorogoro: {
    animals: { K: "lion", G: "dog", S: "cat", "+S": "powerUpCat", P: "chick", "+P": "hen" },
    yokai: { K: "koropokkuru", G: "kirin", S: "oni", "+S": "superOni", P: "kodama", "+P": "samurai" },
  },
};

function drawing(name) {
  if (name === "superOni") return DRAW.oni(true);
  if (name === "powerUpCat") return DRAW.cat(true);
  return DRAW[name] ? DRAW[name]() : "";
}

// One dot per step, on a ring round the picture: forward (+rank) is up on the owner's tile.
function moveDots(moves, promoted) {
  const fill = promoted ? "#d6453a" : "#2f6fb5";
  return (moves || [])
    .map(([df, dr]) => {
      const len = Math.hypot(df, dr) || 1;
      const r = df && dr ? 41 : 39; // diagonals reach into the corners
      const x = 50 + (df / len) * r * (df && dr ? 1.02 : 1);
      const y = 50 - (dr / len) * r * (df && dr ? 1.02 : 1);
      return `<circle cx="${x.toFixed(1)}" cy="${y.toFixed(1)}" r="5" fill="${fill}" stroke="#fff" stroke-width="1.2"/>`;
    })
    .join("");
}

function pieceInfo(variant, token) {
  const key = token.replace(/[a-z]/, (c) => c.toUpperCase());
  return (variant.pieces || []).find((p) => p.letter === key.toUpperCase() || p.letter === key);
}

// The SVG for a board token (`C`, `+s`, `l`, `e`...): an html`` value. `turned`: the
// piece will be shown upside down (it faces the player at the top).
export function pieceSvg(variant, token, set = "animals", turned = false) {
  const promoted = token.startsWith("+");
  const letter = token.replace("+", "").toUpperCase();
  const side = token[token.length - 1] === letter ? "first" : "second";
  if (variant.family === "shogi") {
    const key = promoted ? `+${letter}` : letter;
    const info = pieceInfo(variant, key);
    const art = ((SHOGI_ART[variant.id] || SHOGI_ART.dobutsu)[set] || {})[key];
    const picture = art ? drawing(art) : `<text x="50" y="62" font-size="34" text-anchor="middle" font-weight="700">${letter}</text>`;
    const face = promoted ? "#fde4cf" : "#fbf4df";
    const edge = side === "first" ? "#6b8f3a" : "#9c4a3a";
    return trusted(`<svg viewBox="0 0 100 100" class="piece-art" aria-hidden="true" focusable="false">
      <rect x="3" y="3" width="94" height="94" rx="14" fill="${face}" stroke="${edge}" stroke-width="5"/>
      <g transform="translate(50 50) scale(.98) translate(-50 -50)">${picture}</g>
      ${moveDots(info && info.moves, promoted)}</svg>`);
  }
  if (ANIMAL_ART[variant.id]) {
    const info = pieceInfo(variant, letter);
    const rank = info && typeof info.rank === "number" ? info.rank : "";
    const ring = side === "first" ? "#c0392b" : "#2d5fa8";
    return trusted(`<svg viewBox="0 0 100 100" class="piece-art" aria-hidden="true" focusable="false">
      <circle cx="50" cy="50" r="46" fill="#fffaf0" stroke="${ring}" stroke-width="6"/>
      <g transform="translate(50 48) scale(1.12) translate(-50 -50)">${animalFace(ANIMAL_ART[variant.id], letter)}</g>
      <circle cx="76" cy="77" r="14" fill="${ring}"/>
      <text x="76" y="83" font-size="18" font-weight="800" text-anchor="middle" fill="#fff" font-family="system-ui, sans-serif"${
        // The animal faces its owner, its rank stays readable (an upside-down 6 reads 9).
        turned ? ' transform="rotate(180 76 77)"' : ""}>${rank}</text>
      </svg>`);
  }
  return trusted("");
}
