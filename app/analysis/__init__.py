"""The analysis board: the engine asked about a position and a few moves, with no game stored
(positions.py), a position's evaluation (evaluate.py), both in worker processes (workers.py),
and its page and stateless questions (routes.py)."""
