"""The lichess-compatible bot and board API (docs/api.md): the game routes for /api/bot and
/api/board (routes.py), the event stream and the bots online (eventroutes.py), who may call
them (callers.py), the NDJSON game stream (gamestream.py), lichess's JSON of our games
(gamejson.py) and the per-player event channels (streams.py), the game exports (export.py
routes, exports.py queries), and the Pydantic models of bodies and lines (models.py shared
pieces and game stream lines, bodies.py request bodies, eventlines.py event stream lines,
exportmodels.py exports)."""
