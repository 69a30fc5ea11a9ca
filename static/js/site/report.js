// Reporting a player to the moderators (docs/api.md, "Reports and moderation"): one dialog
// for the profile, the game page and a chat line's menu. The reason (cheating, abuse in the
// chat, sandbagging, other) and a short text go to POST /api/report with the game or the
// line it comes from; the dialog then says thank you, or why the server refused.

import { request } from "./api.js";
import { html, render } from "../lib/html.js";
import { errorText, t } from "../i18n/i18n.js";

export const REASONS = ["cheat", "abuse", "sandbag", "other"];
const MAX_TEXT = 500;

let dialog = null;

function ensureDialog() {
  if (dialog) return dialog;
  dialog = document.createElement("dialog");
  dialog.id = "report-dialog";
  dialog.className = "report-dialog";
  dialog.setAttribute("aria-labelledby", "report-title");
  document.body.append(dialog);
  return dialog;
}

function draw(target, { done = null, error = "" } = {}) {
  const box = ensureDialog();
  if (done) {
    render(
      box,
      html`<h2 id="report-title">${t("report.title", { name: target.username })}</h2>
        <p role="status" class="report-thanks">${t("report.thanks")}</p>
        <form method="dialog"><button class="primary" value="close">${t("report.close")}</button></form>`,
    );
    return;
  }
  const about = target.chatLine
    ? html`<blockquote class="report-line">${target.chatLine.text}</blockquote>`
    : "";
  const reason = target.chatLine ? "abuse" : "cheat";
  render(
    box,
    html`<h2 id="report-title">${t("report.title", { name: target.username })}</h2>
      ${about}
      <form class="report-form">
        <label>${t("report.reason")}
          <select name="reason">${REASONS.map(
            (r) => html`<option value="${r}" ${r === reason ? html`selected` : ""}>${t(`report.reason.${r}`)}</option>`,
          )}</select></label>
        <label>${t("report.text")}
          <textarea name="text" maxlength="${MAX_TEXT}" rows="4"></textarea></label>
        <p class="error" role="alert" ${error ? "" : html`hidden`}>${error}</p>
        <div class="actions">
          <button type="submit" class="primary">${t("report.send")}</button>
          <button type="button" value="cancel" data-report-cancel>${t("report.cancel")}</button>
        </div>
      </form>`,
  );
}

// Opens the dialog about `target`: {username, gameId?, chatLine?: {id, text}}.
export function openReport(target) {
  const box = ensureDialog();
  draw(target);
  box.onclick = (event) => {
    if (event.target.closest("[data-report-cancel]")) box.close();
  };
  box.onsubmit = async (event) => {
    const form = event.target.closest(".report-form");
    if (!form) return; // the thank-you's own close button
    event.preventDefault();
    const body = {
      username: target.username,
      reason: form.elements.reason.value,
      text: form.elements.text.value,
    };
    if (target.gameId) body.gameId = target.gameId;
    if (target.chatLine) body.chatLineId = target.chatLine.id;
    try {
      await request("/api/report", { method: "POST", body });
      draw(target, { done: true });
    } catch (err) {
      const text = form.elements.text.value;
      draw(target, { error: errorText(err) });
      box.querySelector("textarea").value = text;
    }
  };
  if (!box.open) box.showModal();
  box.querySelector("select").focus();
}
