"""Ratings: Glicko-2 per game per account (docs/decisions.md, "Ratings")."""
