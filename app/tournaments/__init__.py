"""Arena tournaments, as lichess runs them: created by any account, joined and left at will,
games paired as players come free, scored by lichess's arena sheet (app/tournaments/scoring.py),
results taken from the outbox exactly once (docs/decisions/arena-tournaments.md)."""
