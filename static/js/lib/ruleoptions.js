// A game's rule options as a form's selects (the lobby's create form, the Swiss form): one
// select per option, labelled and described in the page's language, the game's default
// marked; a value chosen before the game changed is kept where the new game has it.

import { html, render } from "./html.js";
import { t } from "../i18n/i18n.js";
import { optionAbout, optionLabel, optionValueLabel } from "./variant.js";

// The options chosen in `container`: {name: value}.
export function chosenOptions(container) {
  const chosen = {};
  for (const select of container.querySelectorAll("select[data-option]")) {
    chosen[select.dataset.option] = select.value;
  }
  return chosen;
}

// Draws `variant`'s options into `container`; `prefix` keeps the ids of two forms apart, and
// `heading` (markup, or "") comes first when the game has options.
export function renderRuleOptions(container, variant, prefix, heading = "") {
  const options = (variant && variant.options) || [];
  const kept = chosenOptions(container);
  const selected = (o) => (o.values.includes(kept[o.name]) ? kept[o.name] : o.default);
  render(
    container,
    html`${options.length ? heading : ""}${options.map(
      (o) => html`<div class="option">
        <label for="${prefix}option-${o.name}">${optionLabel(variant, o)}</label>
        <select id="${prefix}option-${o.name}" data-option="${o.name}" aria-describedby="${prefix}about-${o.name}">
          ${o.values.map(
            (value) => html`<option value="${value}" ${value === selected(o) ? html`selected` : ""}>${
              optionValueLabel(variant, o, value)}${value === o.default ? ` ${t("lobby.default")}` : ""}</option>`,
          )}
        </select>
        <p class="note" id="${prefix}about-${o.name}">${optionAbout(variant, o)}</p>
      </div>`,
    )}`,
  );
}
