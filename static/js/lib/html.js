// The escaping `html` tagged template (plainvanilla): every interpolated value is escaped,
// unless it is itself an `html` result, so user text can never become markup.

export class Html {
  constructor(text) {
    this.text = text;
  }
  toString() {
    return this.text;
  }
}

const ESCAPES = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;", "`": "&#96;" };

export function escape(value) {
  return String(value).replace(/[&<>"'`]/g, (c) => ESCAPES[c]);
}

function piece(value) {
  if (value instanceof Html) return value.text;
  if (value === null || value === undefined || value === false) return "";
  if (Array.isArray(value)) return value.map(piece).join("");
  return escape(value);
}

export function html(strings, ...values) {
  let out = strings[0];
  values.forEach((value, i) => {
    out += piece(value) + strings[i + 1];
  });
  return new Html(out);
}

// Markup that is known safe because the program wrote it (never user text).
export function trusted(text) {
  return new Html(String(text));
}

// The text each element was last drawn with (render, renderChanged).
const drawn = new WeakMap();

export function render(element, content) {
  if (!(content instanceof Html)) throw new TypeError("render() takes an html`` result");
  element.innerHTML = content.text;
  drawn.set(element, content.text);
}

// Draws `content` unless the element shows exactly it already (as drawn by render or here):
// drawing the same text again would replace its buttons and links under a click in progress
// (the press on the old button, the release on the new: no click) and lose their focus.
// Only for an element whose drawn children nothing else changes (or changes again after each
// call); where a change must be undone, call render. Returns whether it drew.
export function renderChanged(element, content) {
  if (!(content instanceof Html)) throw new TypeError("renderChanged() takes an html`` result");
  if (drawn.get(element) === content.text) return false;
  render(element, content);
  return true;
}

// An element's text, written only when it differs: assigning textContent replaces the text
// node even when the text is the same, and each write costs the page a style, layout and
// paint pass (the clocks' tick writes ten times a second, mostly the same text).
export function setText(element, text) {
  if (element.textContent !== text) element.textContent = text;
}
