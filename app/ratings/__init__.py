"""Ratings: Glicko-2 per game per account (docs/decisions/ratings.md): the arithmetic
(glicko2.py), the outbox's consumer that changes them (service.py), reading them (reading.py),
telling a game's viewers (announce.py), and lichess's rating endpoints (routes.py)."""
