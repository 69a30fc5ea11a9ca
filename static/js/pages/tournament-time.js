// A countdown's text: "1:05:09", "4:09", "0:07" (hours only when there are some).

export function countdown(seconds) {
  const s = Math.max(0, Math.floor(seconds || 0));
  const two = (n) => String(n).padStart(2, "0");
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  return h ? `${h}:${two(m)}:${two(s % 60)}` : `${m}:${two(s % 60)}`;
}
