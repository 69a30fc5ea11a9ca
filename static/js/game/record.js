// Reading a game record (docs/notation.md, "Game records") in the browser: the tags, the
// game and rule options they name, the start position, the moves. The same reading as the
// server's app/games/record.py `parse`, plus the checks that need no rules (the game and
// its options against /api/variants, each move text's form). Whether the moves are legal is
// the engine's to say: the analysis page asks the server.
//
// Pure (no page, no words): a refusal is a RecordError with a stable `code` and the details
// the page puts into its sentence (`line`, `word`, `text`, `name`, `value`).

import { parseMove } from "../board/position.js";

export const RESULTS = ["1-0", "0-1", "1/2-1/2", "*"];
const TAG = /^\[([A-Za-z0-9_]+) "((?:[^"\\]|\\.)*)"\]$/;
const MOVE_NUMBER = /^\d+\.(?:\.\.)?$/;

export class RecordError extends Error {
  constructor(code, details = {}) {
    super(`${code} ${JSON.stringify(details)}`);
    this.code = code;
    this.details = details;
  }
}

// The records of a text holding several (the multi-game exports): two empty lines between
// records. A byte-order mark and Windows line ends are fine.
export function splitRecords(text) {
  const clean = String(text).replace(/^\uFEFF/, "").replace(/\r\n?/g, "\n");
  return clean.split(/\n[ \t]*\n(?:[ \t]*\n)+/).filter((chunk) => chunk.trim());
}

// One record's tags, moves and result, as written: nothing checked against a game yet.
export function parseRecord(text) {
  const tags = {};
  const words = []; // [word, line]
  const lines = String(text).replace(/^\uFEFF/, "").replace(/\r\n?/g, "\n").split("\n");
  let inComment = false; // PGN's { comments } (a review's [%eval …]) say nothing of the moves
  lines.forEach((raw, i) => {
    const line = raw.trim();
    if (!line) return;
    if (!inComment && line.startsWith("[")) {
      if (words.length) throw new RecordError("tagAfterMoves", { line: i + 1 });
      const found = TAG.exec(line);
      if (!found) throw new RecordError("notTag", { line: i + 1, text: line.slice(0, 60) });
      const [, name, quoted] = found;
      if (name in tags) throw new RecordError("tagTwice", { line: i + 1, name });
      tags[name] = quoted.replace(/\\(.)/g, "$1");
      return;
    }
    let kept = "";
    for (const ch of line) {
      // A comment ends a word: `b1c2{ x }b4b3` is two moves.
      if (inComment ? ch === "}" : ch === "{") {
        inComment = !inComment;
        kept += " ";
      } else if (!inComment) kept += ch;
    }
    for (const word of kept.split(/\s+/).filter(Boolean)) words.push([word, i + 1]);
  });
  if (!Object.keys(tags).length && !words.length) throw new RecordError("empty");
  const moves = [];
  let result = tags.Result;
  words.forEach(([word, line], index) => {
    if (RESULTS.includes(word)) {
      if (index !== words.length - 1) throw new RecordError("resultNotLast", { line, text: word });
      if (result !== undefined && result !== word) {
        throw new RecordError("resultDiffers", { line, text: word, value: result });
      }
      result = word;
    } else if (!MOVE_NUMBER.test(word)) {
      moves.push({ text: word, line });
    }
  });
  return { tags, moves, result: result ?? "*" };
}

// "name=value name=value" -> {name: value}.
export function parseRules(text) {
  const rules = {};
  for (const pair of String(text || "").split(/\s+/).filter(Boolean)) {
    const eq = pair.indexOf("=");
    if (eq <= 0 || eq === pair.length - 1) throw new RecordError("rulePair", { text: pair });
    rules[pair.slice(0, eq)] = pair.slice(eq + 1);
  }
  return rules;
}

// The game a record holds, checked against the games' descriptions (/api/variants):
// {variant: its description, rules (every option, defaults filled in), fen (the start),
//  moves: [texts], result, tags}.
export function readGame(record, variants) {
  const id = record.tags.Variant;
  if (id === undefined) throw new RecordError("noVariant");
  const variant = variants.find((v) => v.id === id);
  if (!variant) {
    throw new RecordError("unknownVariant", { value: id, text: variants.map((v) => v.id).join(", ") });
  }
  const given = parseRules(record.tags.Rules);
  const rules = {};
  for (const option of variant.options || []) rules[option.name] = option.default;
  for (const [name, value] of Object.entries(given)) {
    const option = (variant.options || []).find((o) => o.name === name);
    if (!option) throw new RecordError("unknownOption", { name, text: id });
    if (!option.values.includes(value)) {
      throw new RecordError("badValue", { name, value, text: option.values.join(", ") });
    }
    rules[name] = value;
  }
  const fen = record.tags.FEN === undefined ? variant.start : record.tags.FEN;
  if (!fen.trim()) throw new RecordError("noFen");
  record.moves.forEach((move, i) => {
    if (!parseMove(move.text)) {
      throw new RecordError("badMove", { line: move.line, word: i + 1, text: move.text });
    }
  });
  return {
    variant,
    rules,
    fen,
    moves: record.moves.map((m) => m.text),
    result: record.result,
    tags: record.tags,
  };
}

// The first record of `text`, read as a game; `count` says how many records the text held.
export function readRecordText(text, variants) {
  const chunks = splitRecords(text);
  if (!chunks.length) throw new RecordError("empty");
  return { ...readGame(parseRecord(chunks[0]), variants), count: chunks.length };
}
