// Move, capture, game-start and game-end sounds made with the Web Audio API (no audio files), and a
// mute switch remembered in this browser; audio unlocked on the first gesture (below).

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

// Browsers run audio only after a gesture on the page: a context made before one starts
// suspended. A player brought here by an invite link has made none on this page when their
// game starts, so sounds asked for while the context cannot run are not scheduled (they
// would all sound at once on the first click); the newest "start" is kept and heard as soon
// as the context runs: on the first pointerdown or key press, which creates or resumes it.
let waiting = null; // the sound kept until the context runs ("start" only: late moves are noise)

function audioContext() {
  const Ctx = window.AudioContext || window.webkitAudioContext;
  if (!Ctx) return null;
  context ??= new Ctx();
  return context;
}

function sound(ctx, name) {
  for (const note of SOUNDS[name]) tone(ctx, note);
}

// "move" | "capture" | "start" | "end".
export function play(name) {
  if (isMuted() || !SOUNDS[name]) return;
  try {
    const ctx = audioContext();
    if (!ctx) return;
    if (ctx.state === "running") {
      sound(ctx, name);
      return;
    }
    if (name === "start") waiting = name;
    unlock(); // during a gesture this runs it now; otherwise the first gesture will
  } catch {
    /* no sound is no harm */
  }
}

// Creates or resumes the context (it runs if this is called during a gesture), then plays
// the kept sound once it runs.
function unlock() {
  if (isMuted()) return;
  const ctx = audioContext();
  if (!ctx) return;
  const ready = ctx.state === "running" ? Promise.resolve() : Promise.resolve(ctx.resume());
  ready
    .then(() => {
      if (ctx.state !== "running" || !waiting) return;
      const name = waiting;
      waiting = null;
      sound(ctx, name);
    })
    .catch(() => {
      /* still locked: the next gesture tries again */
    });
}

function onGesture() {
  try {
    unlock();
  } catch {
    /* no sound is no harm */
  }
  if (context && context.state === "running") {
    document.removeEventListener("pointerdown", onGesture, true);
    document.removeEventListener("keydown", onGesture, true);
  }
}

// Captured, so that a handler that stops the event does not keep audio locked.
document.addEventListener("pointerdown", onGesture, true);
document.addEventListener("keydown", onGesture, true);
