// What the board marks besides the last move's own squares: what it captured with, as the
// state says (`captureMarks`, docs/protocol.md): yoté's jumped stone, wali's line of three.
// In the board's `marks` form: {square: [mark names]} (board.js draws "jumped" and "line"),
// added to `others` (the same form: a queued premove's marks).

export function captureMarks(game, others = {}) {
  const marks = Object.fromEntries(Object.entries(others).map(([sq, names]) => [sq, [...names]]));
  const found = game.captureMarks || { jumped: [], line: [] };
  for (const square of found.jumped) marks[square] = [...(marks[square] || []), "jumped"];
  for (const square of found.line) marks[square] = [...(marks[square] || []), "line"];
  return marks;
}
