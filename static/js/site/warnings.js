// A moderator's warning (docs/api.md, "Reports and moderation"): every page asks
// GET /api/account/warnings once it loads and shows each warning not acknowledged yet as a
// banner under the site's header, until its player says they read it
// (POST /api/account/warnings/{id}/seen): then it is never shown again.

import { request } from "./api.js";
import { html, render } from "../lib/html.js";
import { t } from "../i18n/i18n.js";

function draw(box, warnings) {
  box.hidden = warnings.length === 0;
  render(
    box,
    html`${warnings.map(
      (w) => html`<div class="warning-banner" role="alert" data-warning="${w.id}">
        <strong>${t("warning.heading")}</strong> <span class="warning-text">${w.text}</span>
        <button type="button" data-warning-seen="${w.id}">${t("warning.seen")}</button></div>`,
    )}`,
  );
}

export async function showWarnings() {
  let warnings;
  try {
    ({ warnings } = await request("/api/account/warnings"));
  } catch {
    return; // asked again on the next page
  }
  if (!warnings.length) return;
  const box = document.createElement("div");
  box.className = "warnings";
  const header = document.querySelector("header.site");
  if (header) header.after(box);
  else document.body.prepend(box);
  draw(box, warnings);
  box.addEventListener("click", async (event) => {
    const button = event.target.closest("[data-warning-seen]");
    if (!button) return;
    const id = Number(button.dataset.warningSeen);
    button.disabled = true;
    try {
      await request(`/api/account/warnings/${id}/seen`, { method: "POST" });
      warnings = warnings.filter((w) => w.id !== id);
    } catch {
      button.disabled = false;
    }
    draw(box, warnings);
  });
}
