"""Computer reviews of finished games: requested by anyone who sees the game, queued and run
a few at a time in worker processes, every position evaluated, the moves that lost ground
marked with the better move, an accuracy per player; kept with the game, shown on its page
and given by its exports (docs/decisions/game-review.md)."""
