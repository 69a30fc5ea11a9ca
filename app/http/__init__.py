"""The HTTP layer every feature is served through: the site app with every route (site.py),
the services container and dependencies (deps.py), who is calling (auth.py, identity.py,
visitor.py), what every WebSocket shares (connections.py), request bodies and answers
(bodies.py, lists.py, responses.py, schemas.py), the error shapes and /openapi.json
(errors.py, openapi.py, docs.py), and the middleware and server (bodylimit.py, headers.py,
origin.py, protocol.py, server.py)."""
