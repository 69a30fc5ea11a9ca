"""The browser client as served: static/ from memory under a versioned address (assets.py),
the pages about players (pages.py), the site socket of the other pages (socket.py), and what
every socket of a player hears of their new games (following.py)."""
