"""What is live across sockets and instances: the pub/sub hub (hub.py) and what it carries
(messages.py), presence in games (presence.py) told coalesced and across instances
(presencefeed.py), who has a socket open (attendance.py), following a player to their new
games (follow.py), and one holder per database for work that runs once (lease.py)."""
