"""Rematches (docs/decisions/rematch.md): offers after a game ends and the new game they make
(service.py), as transitions of the finished game's row (transitions.py)."""
