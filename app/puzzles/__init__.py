"""Dōbutsu puzzles from the solved table: their generation, storage, ratings and API."""
