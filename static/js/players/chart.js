// A rating history chart drawn as SVG markup: axes, dates, a point per day, a line. Pure
// (no DOM, no clock): the points in, an `html` result out, so the same numbers can be
// checked outside a browser. The points are lichess's rating-history ones:
// [year, month counted from 0, day, rating], UTC days, oldest first.

import { html } from "../lib/html.js";

const DAY_MS = 86_400_000;
// The plot's frame inside the SVG's viewBox: room on the left for ratings, below for dates.
export const SIZE = { width: 640, height: 260, left: 52, right: 40, top: 14, bottom: 34 };
// A "nice" step between two rating ticks: the smallest that makes at most MAX_TICKS ticks.
const STEPS = [5, 10, 20, 25, 50, 100, 200, 250, 500, 1000];
const MAX_TICKS = 6;
const MAX_DATE_TICKS = 5;

export function pointDate(point) {
  return Date.UTC(point[0], point[1], point[2]);
}

function round(value) {
  return Math.round(value * 10) / 10;
}

// Rating ticks: multiples of one step that cover [low, high] with at most MAX_TICKS of them.
export function ratingTicks(low, high) {
  const count = (s) => Math.ceil(high / s) - Math.floor(low / s) + 1;
  const step = STEPS.find((s) => count(s) <= MAX_TICKS) ?? STEPS[STEPS.length - 1];
  const from = Math.floor(low / step) * step;
  const to = Math.ceil(high / step) * step;
  const ticks = [];
  for (let value = from; value <= to; value += step) ticks.push(value);
  return ticks;
}

// Dates to label: the first and last days and, between them, evenly spaced whole days.
export function dateTicks(first, last) {
  const days = Math.round((last - first) / DAY_MS);
  const count = Math.min(MAX_DATE_TICKS, days + 1);
  if (count <= 1) return [first];
  const ticks = [];
  for (let i = 0; i < count; i += 1) {
    ticks.push(first + Math.round((days * i) / (count - 1)) * DAY_MS);
  }
  return ticks;
}

// Where everything goes, in the viewBox's units: the model the SVG is drawn from.
export function chartModel(points, size = SIZE) {
  const plot = {
    x0: size.left,
    x1: size.width - size.right,
    y0: size.top,
    y1: size.height - size.bottom,
  };
  if (!points.length) return { plot, points: [], ratingTicks: [], dateTicks: [], path: "" };
  const dates = points.map(pointDate);
  const ratings = points.map((p) => p[3]);
  const ticks = ratingTicks(Math.min(...ratings), Math.max(...ratings));
  const low = ticks[0];
  const high = ticks[ticks.length - 1] === low ? low + 1 : ticks[ticks.length - 1];
  const first = dates[0];
  const last = dates[dates.length - 1];
  const x = (date) =>
    last === first ? (plot.x0 + plot.x1) / 2 : plot.x0 + ((date - first) / (last - first)) * (plot.x1 - plot.x0);
  const y = (rating) => plot.y1 - ((rating - low) / (high - low)) * (plot.y1 - plot.y0);
  const placed = points.map((p, i) => ({ date: dates[i], rating: ratings[i], x: round(x(dates[i])), y: round(y(ratings[i])) }));
  return {
    plot,
    points: placed,
    ratingTicks: ticks.map((value) => ({ value, y: round(y(value)) })),
    dateTicks: dateTicks(first, last).map((date) => ({ date, x: round(x(date)) })),
    path: placed.map((p, i) => `${i ? "L" : "M"}${p.x} ${p.y}`).join(" "),
  };
}

// A day as the reader's language writes it, in UTC (the points are UTC days).
export function dayText(date, locale, withYear = true) {
  const options = { day: "numeric", month: "short", timeZone: "UTC" };
  if (withYear) options.year = "numeric";
  return new Intl.DateTimeFormat(locale, options).format(new Date(date));
}

// The chart: `title` and `desc` make its accessible name and description (role="img");
// `id` keeps several charts' ids apart on one page.
export function ratingChart(points, { id, title, desc, locale }) {
  const model = chartModel(points);
  const { plot } = model;
  const yearly = new Set(model.points.map((p) => new Date(p.date).getUTCFullYear())).size > 1;
  const titleId = `${id}-title`;
  const descId = `${id}-desc`;
  return html`<svg class="rating-chart" viewBox="0 0 ${SIZE.width} ${SIZE.height}" role="img"
    aria-labelledby="${titleId}" aria-describedby="${descId}" xmlns="http://www.w3.org/2000/svg">
    <title id="${titleId}">${title}</title>
    <desc id="${descId}">${desc}</desc>
    <g class="grid" aria-hidden="true">${model.ratingTicks.map(
      (tick) => html`<line x1="${plot.x0}" x2="${plot.x1}" y1="${tick.y}" y2="${tick.y}"></line>
        <text class="tick y" x="${plot.x0 - 6}" y="${tick.y}" dy="0.32em">${tick.value}</text>`,
    )}${model.dateTicks.map(
      (tick) => html`<line class="x" x1="${tick.x}" x2="${tick.x}" y1="${plot.y1}" y2="${plot.y1 + 4}"></line>
        <text class="tick x" x="${tick.x}" y="${plot.y1 + 18}">${dayText(tick.date, locale, yearly)}</text>`,
    )}<line class="axis" x1="${plot.x0}" x2="${plot.x0}" y1="${plot.y0}" y2="${plot.y1}"></line>
      <line class="axis" x1="${plot.x0}" x2="${plot.x1}" y1="${plot.y1}" y2="${plot.y1}"></line></g>
    ${model.points.length > 1 ? html`<path class="line" d="${model.path}"></path>` : ""}
    <g class="points">${model.points.map(
      (p) => html`<circle cx="${p.x}" cy="${p.y}" r="3.5" data-rating="${p.rating}"><title>${dayText(p.date, locale)}: ${p.rating}</title></circle>`,
    )}</g>
  </svg>`;
}

// The same numbers as a table (the chart's text alternative, and a way to read exact values).
export function ratingTable(points, { caption, dateHeading, ratingHeading, locale }) {
  return html`<table class="rating-table">
    <caption>${caption}</caption>
    <thead><tr><th scope="col">${dateHeading}</th><th scope="col">${ratingHeading}</th></tr></thead>
    <tbody>${points.map(
      (p) => html`<tr><td>${dayText(pointDate(p), locale)}</td><td>${p[3]}</td></tr>`,
    )}</tbody>
  </table>`;
}
