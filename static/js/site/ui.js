// Small page helpers shared by the pages: a brief message, copying a link.

let toastTimer = null;

export function toast(element, message, ms = 4000) {
  element.textContent = message;
  element.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => {
    element.hidden = true;
  }, ms);
}

// Clipboard API where the page is a secure context; otherwise select the text and copy.
export async function copyText(text, input) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    if (input) {
      input.focus();
      input.select();
      try {
        return document.execCommand("copy");
      } catch {
        return false;
      }
    }
    return false;
  }
}

export function inviteLink(token) {
  return `${location.origin}/invite/${encodeURIComponent(token)}`;
}
