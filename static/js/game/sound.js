// Move, capture, game-start and game-end sounds made with the Web Audio API (no audio files), and a
// mute switch remembered in this browser.

const STORE_KEY = "kodama.muted";
let context = null;

export function isMuted() {
  try {
    return localStorage.getItem(STORE_KEY) === "1";
  } catch {
    return false;
  }
}

export function setMuted(muted) {
  try {
    localStorage.setItem(STORE_KEY, muted ? "1" : "0");
  } catch {
    /* private mode: the choice lasts for this page only */
  }
}

function tone(ctx, { freq, start, length, type = "sine", gain = 0.18 }) {
  const osc = ctx.createOscillator();
  const amp = ctx.createGain();
  osc.type = type;
  osc.frequency.setValueAtTime(freq, ctx.currentTime + start);
  amp.gain.setValueAtTime(0.0001, ctx.currentTime + start);
  amp.gain.exponentialRampToValueAtTime(gain, ctx.currentTime + start + 0.01);
  amp.gain.exponentialRampToValueAtTime(0.0001, ctx.currentTime + start + length);
  osc.connect(amp).connect(ctx.destination);
  osc.start(ctx.currentTime + start);
  osc.stop(ctx.currentTime + start + length + 0.02);
}

const SOUNDS = {
  move: [{ freq: 520, start: 0, length: 0.08, type: "triangle" }],
  capture: [
    { freq: 330, start: 0, length: 0.09, type: "square", gain: 0.1 },
    { freq: 220, start: 0.07, length: 0.12, type: "triangle" },
  ],
  // A game of this player started (their seek was joined, they were paired).
  start: [
    { freq: 392, start: 0, length: 0.12, type: "triangle" },
    { freq: 587, start: 0.1, length: 0.22, type: "triangle" },
  ],
  end: [
    { freq: 523, start: 0, length: 0.18 },
    { freq: 659, start: 0.15, length: 0.18 },
    { freq: 784, start: 0.3, length: 0.35 },
  ],
};

// "move" | "capture" | "start" | "end". Browsers start audio only after a user gesture: until then
// the context stays suspended and nothing is heard, which is fine.
export function play(name) {
  if (isMuted() || !SOUNDS[name]) return;
  try {
    const Ctx = window.AudioContext || window.webkitAudioContext;
    if (!Ctx) return;
    context ??= new Ctx();
    if (context.state === "suspended") context.resume();
    for (const note of SOUNDS[name]) tone(context, note);
  } catch {
    /* no sound is no harm */
  }
}

// Unlock audio on the first gesture so the opponent's moves can be heard.
document.addEventListener(
  "pointerdown",
  () => {
    const Ctx = window.AudioContext || window.webkitAudioContext;
    if (Ctx && !isMuted()) {
      context ??= new Ctx();
      if (context.state === "suspended") context.resume();
    }
  },
  { once: true },
);
