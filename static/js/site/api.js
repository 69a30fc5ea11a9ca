// REST calls: JSON in, JSON out; a 4xx/5xx answer becomes an ApiError with the server's
// stable code and sentence ({"error", "code"}).

export class ApiError extends Error {
  constructor(message, code, status, body) {
    super(message);
    this.code = code;
    this.status = status;
    this.body = body;
  }
}

export async function request(path, { method = "GET", body } = {}) {
  const init = { method, headers: { Accept: "application/json" }, credentials: "same-origin" };
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(path, init);
  } catch (err) {
    throw new ApiError("the server cannot be reached", "network.error", 0, null);
  }
  let data = null;
  try {
    data = await response.json();
  } catch {
    data = null;
  }
  if (!response.ok) {
    const message = (data && data.error) || `${response.status} ${response.statusText}`;
    throw new ApiError(message, (data && data.code) || "http.error", response.status, data);
  }
  return data;
}

// NDJSON (one JSON value a line, blank keep-alive lines skipped): the bot list.
export async function requestLines(path) {
  let response;
  try {
    response = await fetch(path, { headers: { Accept: "application/x-ndjson" }, credentials: "same-origin" });
  } catch {
    throw new ApiError("the server cannot be reached", "network.error", 0, null);
  }
  if (!response.ok) throw new ApiError(`${response.status} ${response.statusText}`, "http.error", response.status, null);
  const lines = (await response.text()).split("\n").filter((line) => line.trim());
  const values = [];
  for (const line of lines) {
    try {
      values.push(JSON.parse(line));
    } catch {
      /* a torn or foreign line: the others still count */
    }
  }
  return values;
}

let variantsPromise = null;

export const api = {
  me: () => request("/api/me"),
  // Every game's describe(): fetched once per page.
  variants: () => (variantsPromise ??= request("/api/variants")),
  lobby: () => request("/api/lobby"),
  // The games the viewer plays (lichess's nowPlaying), their turn first.
  playing: () => request("/api/account/playing?nb=50"),
  game: (id) => request(`/api/games/${encodeURIComponent(id)}`),
  create: (body) => request("/api/games", { method: "POST", body }),
  join: (id) => request(`/api/games/${encodeURIComponent(id)}/join`, { method: "POST" }),
  cancel: (id) => request(`/api/games/${encodeURIComponent(id)}/cancel`, { method: "POST" }),
  acceptInvite: (token) =>
    request(`/api/invite/${encodeURIComponent(token)}`, { method: "POST" }),
  // The built-in computer opponents (docs/api.md, lichess's challenge API).
  botsOnline: () => requestLines("/api/bot/online"),
  challenge: (username, body) =>
    request(`/api/challenge/${encodeURIComponent(username)}`, { method: "POST", body }),
  challengeShow: (id) => request(`/api/challenge/${encodeURIComponent(id)}/show`),
  challengeCancel: (id) =>
    request(`/api/challenge/${encodeURIComponent(id)}/cancel`, { method: "POST" }),
};
