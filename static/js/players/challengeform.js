// A profile's challenge form: challenge its player to a game (its clock, the side, rated for
// an account or casual) with lichess's POST /api/challenge/{username}. The challenged player
// sees it at once on any page (static/js/site/challengenotice.js); the challenger then waits
// on the challenge's page, which goes to the game once accepted and says a decline.

import { api } from "../site/api.js";
import { errorText, t } from "../i18n/i18n.js";
import { html, render } from "../lib/html.js";
import { variantName } from "../lib/variant.js";
import { challengeTime, offerRated, readTimeControl, showTimeFields } from "../lobby/timecontrol.js";

// The lobby's sides in a challenge's words: the first player is lichess's white.
const COLORS = { random: "random", first: "white", second: "black" };

export class ChallengeForm {
  // section: #challenge-section (its form #challenge-form); user: GET /api/user/{username}.
  constructor(section, { user, variants }) {
    this.section = section;
    this.form = section.querySelector("form");
    this.user = user;
    this.variants = variants;
    this.form.addEventListener("change", (event) => {
      if (event.target.name === "clock") showTimeFields(this.form);
    });
    this.form.addEventListener("submit", (event) => {
      event.preventDefault();
      this.send();
    });
  }

  // Shown to anyone but the player themself (a guest too: casual only).
  async load() {
    let me;
    try {
      me = await api.me();
    } catch {
      return;
    }
    if (me.id === this.user.id) return;
    offerRated(this.form, me);
    showTimeFields(this.form);
    this.section.hidden = false;
    this.render();
  }

  render() {
    const select = this.form.elements.variant;
    const chosen = select.value || (this.variants[0] && this.variants[0].id);
    render(
      select,
      html`${this.variants.map(
        (v) => html`<option value="${v.id}" ${v.id === chosen ? html`selected` : ""}>${variantName(v)}</option>`,
      )}`,
    );
    this.section.querySelector("h2").textContent = t("profile.challenge", { name: this.user.username });
  }

  say(text) {
    const el = this.section.querySelector("#challenge-error");
    el.textContent = text;
    el.hidden = !text;
  }

  async send() {
    this.say("");
    const fields = this.form.elements;
    const time = readTimeControl(this.form);
    if (!time) {
      this.say(t("lobby.clockError"));
      return;
    }
    const body = {
      variant: fields.variant.value,
      color: COLORS[fields.color.value] || "random",
      rated: fields.rated.checked,
      ...challengeTime(time),
    };
    const button = this.form.querySelector("#challenge-button");
    button.disabled = true;
    try {
      const made = await api.challenge(this.user.username, body);
      // Its page waits for the answer: the game once accepted, or the decline.
      location.assign(`/challenge/${encodeURIComponent(made.id)}`);
    } catch (err) {
      this.say(errorText(err));
      button.disabled = false;
    }
  }
}
