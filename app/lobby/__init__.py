"""The lobby: its lists sent as changes (feed.py), seeks that live while their creator has a
page open (seeks.py), a seek's rating range (seekrange.py), and the lobby's socket
(sockets.py)."""
