// A player's profile (/@/{username}): a form to challenge them (challengeform.js), ratings
// per game (provisional marked "?"), a rating history chart per game (chart.js, with its
// numbers as a table), the game counts and the recent games with their rating changes.
// Every number comes from the public API: GET /api/user/{username}, /rating-history and
// /api/games/user/{username}.

import { ApiError, api, request, requestLines } from "../site/api.js";
import { dayText, pointDate, ratingChart, ratingTable } from "../players/chart.js";
import { onLanguage, setupChrome } from "../site/chrome.js";
import { gameList } from "../players/gamelist.js";
import { html, render, renderChanged } from "../lib/html.js";
import { errorText, getLang, t } from "../i18n/i18n.js";
import { diffClass, diffText, ratingMark } from "../players/ratings.js";
import { variantName } from "../lib/variant.js";
import { ChallengeForm } from "../players/challengeform.js";
import { openReport } from "../site/report.js";

const $ = (id) => document.getElementById(id);
const username = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop() || "");
const RECENT = 20;

// What was read, kept to draw the page again in the other language.
const data = { user: null, history: [], games: [], variants: [], missing: false };
// Whether they are online or playing, and whether the viewer follows them
// (GET /api/rel/status/{username}; docs/decisions/relations.md): the dot and the Follow button.
let relation = null;
let challengeForm = null; // the form that challenges this player (not on one's own profile)

function say(text) {
  $("message").textContent = text;
  $("message").hidden = !text;
}

function drawMissing() {
  document.title = t("title.noPlayer");
  $("name").textContent = t("profile.notFound");
  render(
    $("about"),
    html`<p>${t("profile.notFoundText", { name: username })}</p>
      <p><a href="/leaderboard">${t("profile.toLeaderboard")}</a></p>`,
  );
  $("profile").hidden = true;
}

// The page draws itself as each of its requests answers: unchanged, the name and the about
// block stay (a press on Block or Follow is not lost to them being drawn again). A Follow or
// Block change draws them anew (`force`), which also enables its button again.
function drawAbout(user, { force = false } = {}) {
  const put = force ? render : renderChanged;
  const date = new Intl.DateTimeFormat(getLang(), { dateStyle: "long" }).format(new Date(user.createdAt));
  const title = user.title ? html` <span class="bot-title">${user.title}</span>` : "";
  const name = html`${user.username}${title}${onlineDot()}`;
  put($("name"), name);
  document.title = t("title.profile", { name: user.username });
  const count = user.count;
  const about = html`${user.title === "BOT" ? html`<p>${t("profile.bot")}</p>` : ""}
      <p class="note">${t("profile.since", { date })}</p>
      <p id="record">${t("profile.record", count)}</p>
      ${followButton()}
      ${user.playing ? html`<p><a href="${user.playing}">${t("profile.playingNow")}</a></p>` : ""}`;
  put($("about"), about);
}

function onlineDot() {
  if (!relation) return "";
  const words = t(relation.online ? "relation.online" : "relation.offline");
  return html` <span id="online-dot" class="dot${relation.online ? " online" : ""}"
    data-online="${String(relation.online)}" role="img" aria-label="${words}" title="${words}"></span>`;
}

// For an account looking at another's profile only (the status says "following" then); with
// the button that reports them to the moderators (site/report.js).
function followButton() {
  if (!relation || typeof relation.following !== "boolean") return "";
  return html`<p class="relation"><button type="button" id="follow-button"
    data-following="${String(relation.following)}">${t(relation.following ? "relation.unfollow" : "relation.follow")}</button>
    ${blockButton()}
    <button type="button" id="report-button">${t("report.button")}</button></p>`;
}

// Block (docs/decisions/blocking-and-chat-safety.md): neither challenges nor plays the other,
// and their chat lines no longer reach the viewer. Following ends both ways with it.
function blockButton() {
  if (typeof relation.blocking !== "boolean") return "";
  return html`<button type="button" id="block-button" data-blocking="${String(relation.blocking)}"
    >${t(relation.blocking ? "relation.unblock" : "relation.block")}</button>`;
}

async function toggleBlock() {
  const verb = relation.blocking ? "unblock" : "block";
  $("block-button").disabled = true; // one change at a time
  try {
    await request(`/api/rel/${verb}/${encodeURIComponent(relation.username)}`, { method: "POST" });
    relation.blocking = !relation.blocking;
    if (relation.blocking) relation.following = false;
    say(relation.blocking ? t("relation.blockedNow", { name: relation.username }) : "");
  } catch (err) {
    say(t("relation.cannotBlock", { error: errorText(err) }));
  }
  drawAbout(data.user, { force: true });
  $("block-button").focus(); // drawn anew: the keyboard stays on it
}

async function toggleFollow() {
  const verb = relation.following ? "unfollow" : "follow";
  $("follow-button").disabled = true; // one change at a time: a second click waits for it
  try {
    await request(`/api/rel/${verb}/${encodeURIComponent(relation.username)}`, { method: "POST" });
    relation.following = !relation.following;
    say("");
  } catch (err) {
    say(t("relation.cannot", { error: errorText(err) }));
  }
  drawAbout(data.user, { force: true });
  $("follow-button").focus(); // drawn anew: the keyboard stays on it
}

async function loadRelation() {
  try {
    relation = await request(`/api/rel/status/${encodeURIComponent(username)}`);
  } catch {
    return; // no dot and no button: the rest of the profile stands
  }
  if (data.user) drawAbout(data.user);
}

function drawRatings(user) {
  const rows = data.variants.filter((v) => user.perfs && user.perfs[v.id]);
  if (!rows.length) {
    render($("ratings"), html`<p class="note">${t("profile.noRated")}</p>`);
    return;
  }
  render(
    $("ratings"),
    html`<table class="perfs">
      <thead><tr><th scope="col">${t("profile.game")}</th><th scope="col" class="num">${t("profile.rating")}</th>
        <th scope="col" class="num">${t("profile.games")}</th><th scope="col" class="num">${t("profile.progress")}</th></tr></thead>
      <tbody>${rows.map((v) => {
        const perf = user.perfs[v.id];
        return html`<tr data-perf="${v.id}"><th scope="row">${variantName(v)}</th>
          <td class="num" data-rating>${ratingMark(perf.rating, perf.prov)}</td>
          <td class="num" data-games>${perf.games}</td>
          <td class="num"><span class="diff ${diffClass(perf.prog)}">${diffText(perf.prog)}</span></td></tr>`;
      })}</tbody>
    </table>`,
  );
}

function chartDesc(points) {
  const ratings = points.map((p) => p[3]);
  const locale = getLang();
  return t("profile.chartDesc", {
    days: points.length,
    from: dayText(pointDate(points[0]), locale),
    to: dayText(pointDate(points[points.length - 1]), locale),
    first: ratings[0],
    last: ratings[ratings.length - 1],
    low: Math.min(...ratings),
    high: Math.max(...ratings),
  });
}

// One figure per game played rated: rating-history lists the games in /api/variants' order.
function drawHistory() {
  const locale = getLang();
  const shown = data.history
    .map((entry, i) => ({ variant: data.variants[i], points: entry.points }))
    .filter((entry) => entry.variant && entry.points.length);
  if (!shown.length) {
    render($("history"), html`<p class="note">${t("profile.noRated")}</p>`);
    return;
  }
  render(
    $("history"),
    html`${shown.map(({ variant, points }) => {
      const game = variantName(variant);
      return html`<figure class="history" data-history="${variant.id}">
        <figcaption><h3>${game}</h3></figcaption>
        ${ratingChart(points, {
          id: `chart-${variant.id}`,
          title: t("profile.chartTitle", { game }),
          desc: chartDesc(points),
          locale,
        })}
        <details><summary>${t("profile.numbers")}</summary>${ratingTable(points, {
          caption: t("profile.tableCaption", { game }),
          dateHeading: t("list.date"),
          ratingHeading: t("profile.rating"),
          locale,
        })}</details>
      </figure>`;
    })}`,
  );
}

function drawRecent() {
  render($("recent"), gameList(data.games, data.user.id, data.variants, t("profile.recent")));
}

function draw() {
  if (data.missing) {
    drawMissing();
    return;
  }
  if (!data.user) return;
  drawAbout(data.user);
  drawRatings(data.user);
  drawHistory();
  drawRecent();
  if (challengeForm) challengeForm.render();
  $("profile").hidden = false;
}

async function load() {
  const name = encodeURIComponent(username);
  try {
    data.variants = await api.variants();
    data.user = await request(`/api/user/${name}`);
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) data.missing = true;
    else say(t("profile.cannotLoad", { error: errorText(err) }));
    draw();
    return;
  }
  challengeForm = new ChallengeForm($("challenge-section"), { user: data.user, variants: data.variants });
  challengeForm.load();
  try {
    [data.history, data.games] = await Promise.all([
      request(`/api/user/${name}/rating-history`),
      requestLines(`/api/games/user/${name}?max=${RECENT}&moves=false&ongoing=true`),
    ]);
  } catch (err) {
    say(t("profile.cannotLoad", { error: errorText(err) }));
  }
  draw();
}

setupChrome();
$("about").addEventListener("click", (event) => {
  if (event.target.closest("#follow-button")) toggleFollow();
  if (event.target.closest("#block-button")) toggleBlock();
  if (event.target.closest("#report-button")) openReport({ username: relation.username });
});
loadRelation();
onLanguage(draw);
load();
