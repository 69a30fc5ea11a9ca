"""The server's vocabulary: what a game's status and end reasons are, and the typed events a
change of a game returns (events.py). Imports only the engine: bots and tests use it too."""
