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

export function render(element, content) {
  if (!(content instanceof Html)) throw new TypeError("render() takes an html`` result");
  element.innerHTML = content.text;
}

// An element's text, written only when it differs: assigning textContent replaces the text
// node even when the text is the same, and each write costs the page a style, layout and
// paint pass (the clocks' tick writes ten times a second, mostly the same text).
export function setText(element, text) {
  if (element.textContent !== text) element.textContent = text;
}
