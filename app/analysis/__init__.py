"""The analysis board: the engine asked about a position and a few moves, with no game stored
(positions.py), and its page and stateless question (routes.py)."""
