"""A game's chat: its two rooms and their rules (service.py), flood control (flood.py), the kept
lines a socket gets on connecting (kept.py), and the chat messages of the game socket
(protocol.py)."""
