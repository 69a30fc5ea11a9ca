// The moderation page (/mod), for moderators (docs/decisions/moderation.md): the queue of
// open reports (GET /api/mod/reports); one report opened with its context (GET
// /api/mod/reports/{id}: the reported line among the lines around it, the player's recent
// games and lines, what holds on them now, what moderators did to them); and the actions,
// each with a required reason kept in the audit log. Anyone else is refused by the API
// (401 for a guest, 403 mod.required), and the page says so.

import { ApiError, request } from "../site/api.js";
import { onLanguage, setupChrome } from "../site/chrome.js";
import { html, render } from "../lib/html.js";
import { errorText, getLang, t } from "../i18n/i18n.js";

const $ = (id) => document.getElementById(id);
const data = { reports: null, open: null, refused: null };

function say(text) {
  $("message").textContent = text;
  $("message").hidden = !text;
}

function when(ms) {
  return new Intl.DateTimeFormat(getLang(), { dateStyle: "short", timeStyle: "short" }).format(new Date(ms));
}

function drawQueue() {
  const reports = data.reports || [];
  $("queue-section").hidden = data.reports === null;
  render(
    $("queue"),
    reports.length
      ? html`<ul class="queue-list">${reports.map(
          (r) => html`<li data-report="${r.id}">
            <strong>${t("mod.reportOf", { reporter: r.reporter, name: r.username })}</strong>
            · ${t(`report.reason.${r.reason}`)} · ${when(r.createdAt)}
            ${r.openAboutPlayer > 1 ? html` · ${t("mod.more", { n: r.openAboutPlayer })}` : ""}
            ${r.lineText ? html`<div class="line-text">${r.lineText}</div>` : ""}
            <button type="button" data-open="${r.id}">${t("mod.open")}</button></li>`,
        )}</ul>`
      : html`<p class="note">${t("mod.empty")}</p>`,
  );
}

function line(l, reportedId) {
  const classes = [l.id === reportedId ? "reported" : "", l.hidden ? "hidden-line" : ""].join(" ");
  const marks = [l.hidden ? t("mod.hidden") : "", l.authorOnly ? t("mod.authorOnly") : ""].filter(Boolean);
  return html`<li class="${classes}" data-line="${l.id}"><strong>${l.username}</strong>: ${l.text}
    ${marks.length ? html` <span class="note">(${marks.join(", ")})</span>` : ""}
    <span class="note">· <a href="/game/${l.gameId}">${l.gameId}</a> · ${when(l.createdAt)}</span></li>`;
}

function drawReport() {
  const r = data.open;
  const box = $("report");
  box.hidden = !r;
  if (!r) return;
  const standing = r.standing;
  render(
    box,
    html`<h2 id="report-heading">${t("mod.reportOf", { reporter: r.reporter, name: r.username })}</h2>
      <p>${t("mod.reason")}: ${t(`report.reason.${r.reason}`)} · ${when(r.createdAt)}
        ${r.gameId ? html` · ${t("mod.game")}: <a href="/game/${r.gameId}">${r.gameId}</a>` : ""}</p>
      ${r.text ? html`<p>${t("mod.text")}:</p><div class="line-text">${r.text}</div>` : ""}
      ${r.around.length
        ? html`<h3>${t("mod.context")}</h3><ul class="lines" id="context">${r.around.map((l) => line(l, r.chatLineId))}</ul>`
        : ""}
      <h3>${t("mod.standing")}</h3>
      <p id="standing">${standing.mutedUntil ? t("mod.mutedUntil", { time: when(standing.mutedUntil) }) : t("mod.notMuted")}
        ${standing.chatToThemselves ? html` · ${t("mod.toThemselves")}` : ""}</p>
      <form class="mod-actions" id="actions" aria-label="${t("mod.actions")}">
        <label>${t("mod.why")}<textarea name="reason" rows="2" maxlength="500" required></textarea></label>
        <label>${t("mod.minutes")} <input type="number" name="minutes" min="1" max="43200" value="60"></label>
        <div class="actions">
          ${r.closedAt ? "" : html`<button type="button" data-act="dismiss">${t("mod.dismiss")}</button>`}
          <button type="button" data-act="warn">${t("mod.warn")}</button>
          <button type="button" data-act="mute">${t("mod.mute")}</button>
          <button type="button" data-act="restrict">${standing.chatToThemselves ? t("mod.unrestrict") : t("mod.restrict")}</button>
          ${r.chatLineId ? html`<button type="button" data-act="hide">${t("mod.hide")}</button>` : ""}
          <button type="button" data-act="close">${t("mod.close")}</button>
        </div>
      </form>
      <h3>${t("mod.recentGames")}</h3>
      <ul class="mod-games">${r.recentGames.map(
        (g) => html`<li><a href="/game/${g.id}">${g.id}</a> · ${g.variant} · ${g.first || "?"} – ${g.second || "?"} · ${g.status} · ${when(g.createdAt)}</li>`,
      )}</ul>
      <h3>${t("mod.recentLines")}</h3>
      <ul class="lines">${r.recentLines.map((l) => line(l, r.chatLineId))}</ul>
      <h3>${t("mod.log")}</h3>
      ${r.log.length
        ? html`<ul class="mod-log">${r.log.map(
            (e) => html`<li>${when(e.createdAt)} · ${e.moderator}: ${e.action} ${e.username} — ${e.reason}</li>`,
          )}</ul>`
        : html`<p class="note">${t("mod.logEmpty")}</p>`}`,
  );
}

function draw() {
  document.title = t("title.mod");
  if (data.refused) {
    say(data.refused.status === 401 ? t("mod.signIn") : t("mod.refused"));
    return;
  }
  drawQueue();
  drawReport();
}

async function loadQueue() {
  try {
    data.reports = (await request("/api/mod/reports")).reports;
  } catch (err) {
    if (err instanceof ApiError && (err.status === 401 || err.status === 403)) data.refused = err;
    else say(errorText(err));
  }
}

async function openReport(id) {
  try {
    data.open = await request(`/api/mod/reports/${id}`);
  } catch (err) {
    say(errorText(err));
  }
}

async function act(kind, form) {
  const r = data.open;
  const reason = form.elements.reason.value;
  const reportId = r.closedAt ? undefined : r.id;
  const user = encodeURIComponent(r.username);
  const paths = {
    dismiss: [`/api/mod/reports/${r.id}/dismiss`, { reason }],
    warn: [`/api/mod/users/${user}/warn`, { reason, reportId }],
    mute: [`/api/mod/users/${user}/mute`, { reason, reportId, minutes: Number(form.elements.minutes.value) }],
    restrict: [`/api/mod/users/${user}/restrict`, { reason, reportId, on: !r.standing.chatToThemselves }],
    hide: [`/api/mod/chat/${r.chatLineId}/hide`, { reason, reportId }],
    close: [`/api/mod/users/${user}/close`, { reason, reportId }],
  };
  const [path, body] = paths[kind];
  try {
    await request(path, { method: "POST", body });
    say(t("mod.done"));
  } catch (err) {
    say(errorText(err));
    return;
  }
  await Promise.all([loadQueue(), openReport(r.id)]);
  draw();
}

document.addEventListener("click", async (event) => {
  const open = event.target.closest("[data-open]");
  if (open) {
    await openReport(Number(open.dataset.open));
    say("");
    draw();
    $("report-heading")?.focus?.();
    return;
  }
  const button = event.target.closest("[data-act]");
  if (button) act(button.dataset.act, button.closest("form"));
});

setupChrome();
onLanguage(draw);
await loadQueue();
draw();
