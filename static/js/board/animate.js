// Move animations: the moved piece slides from where it came from (its square, or the
// mover's hand for a drop or a placement) to its new square, in a short time; nothing
// under `prefers-reduced-motion: reduce`. The board (board.js) redraws its squares on every
// change, and a drop may empty the hand: where the piece came from is read before the
// redraw (`origin`), the slide is played on the new drawing (`slide`).

const DURATION_MS = 180;
const reduced = window.matchMedia("(prefers-reduced-motion: reduce)");

// Where `move` (parseMove's {origin, from, to}: position.js) of `side` starts on screen.
export function origin(root, move, side) {
  if (reduced.matches || !move) return null;
  // A drop's origin is "C*" (the piece's letter), a placement's "*" (a stone: "S").
  const letter = move.from ? null : move.origin === "*" ? "S" : move.origin[0];
  const el = move.from
    ? root.querySelector(`#board [data-square="${move.from}"]`)
    : root.querySelector(`[data-hand="${letter}"][data-side="${side}"]`);
  return el ? el.getBoundingClientRect() : null;
}

export function slide(root, move, from) {
  if (reduced.matches || !move || !from) return;
  const target = root.querySelector(`#board [data-square="${move.to}"] .piece`);
  if (!target) return;
  const to = target.getBoundingClientRect();
  const dx = from.left + from.width / 2 - (to.left + to.width / 2);
  const dy = from.top + from.height / 2 - (to.top + to.height / 2);
  if (!dx && !dy) return;
  // The `translate` property, not `transform`: a piece turned towards the far side keeps
  // its rotation (its own `transform`) while it slides.
  target.animate(
    [{ translate: `${dx}px ${dy}px` }, { translate: "0px 0px" }],
    { duration: DURATION_MS, easing: "ease-out" },
  );
}
