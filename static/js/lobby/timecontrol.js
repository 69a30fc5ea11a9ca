// The lobby form's time control: none, Fischer (minutes + increment), byo-yomi (minutes,
// then periods of some seconds) or correspondence (days per move). docs/decisions/time-controls.md,
// "Time controls". Also the Rated box of the forms that make a game (the lobby's, a
// profile's challenge), whatever the clock.

export const DAYS = [1, 2, 3, 5, 7, 10, 14];

// Show the fields of the kind chosen (the radio group `clock`), hide the others.
export function showTimeFields(form) {
  const kind = form.elements.clock.value;
  const $ = (id) => form.querySelector(`#${id}`);
  $("clock-fields").hidden = kind !== "clock" && kind !== "byoyomi";
  $("increment-field").hidden = kind !== "clock";
  $("byoyomi-fields").hidden = kind !== "byoyomi";
  $("days-fields").hidden = kind !== "days";
}

const whole = (value) => Number.isInteger(value);

// {clock, days} as POST /api/games takes them, or null if a number is out of range.
export function readTimeControl(form) {
  const fields = form.elements;
  const kind = fields.clock.value;
  if (kind === "days") {
    const days = Number(fields.days.value);
    return DAYS.includes(days) ? { clock: null, days } : null;
  }
  if (kind !== "clock" && kind !== "byoyomi") return { clock: null, days: null };
  const minutes = Number(fields.minutes.value);
  if (!(minutes > 0 && minutes <= 180)) return null;
  if (kind === "clock") {
    const increment = Math.round(Number(fields.increment.value));
    if (!(increment >= 0 && increment <= 180)) return null;
    return { clock: { minutes, increment }, days: null };
  }
  const byoyomi = Number(fields.byoyomi.value);
  const periods = Number(fields.periods.value);
  if (!(whole(byoyomi) && byoyomi >= 1 && byoyomi <= 180)) return null;
  if (!(whole(periods) && periods >= 1 && periods <= 10)) return null;
  return { clock: { minutes, increment: 0, byoyomi, periods }, days: null };
}

// The same choice in a challenge's words (lichess's clock.limit in seconds, and ours).
export function challengeTime(chosen) {
  if (chosen.days) return { days: chosen.days };
  if (!chosen.clock) return {};
  const { minutes, increment, byoyomi, periods } = chosen.clock;
  const clock = { limit: Math.round(minutes * 60), increment };
  if (byoyomi) Object.assign(clock, { byoyomi, periods });
  return { clock };
}

// The Rated box (`rated`, described by #rated-why): an account's to tick; a guest's is
// disabled, and #rated-why says why (the server refuses a guest's rated game too).
export function offerRated(form, me) {
  const account = Boolean(me && me.username);
  const box = form.elements.rated;
  box.disabled = !account;
  if (!account) box.checked = false;
  form.querySelector("#rated-why").hidden = account;
}
