"""Matchmaking: quick-pairing pools (docs/decisions.md, "Quick pairing")."""
