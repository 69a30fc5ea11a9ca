"""Matchmaking: the quick-pairing pools (docs/decisions/quick-pairing.md): the pools and
their time controls (pools.py), the entries and the loops (service.py), a pairing round as one
transaction (rounds.py) over the arithmetic of who plays whom (pairing.py), holding an entry
(holder.py) from the lobby socket (search.py) or a board seek (boardseek.py), and the pools'
list over HTTP (routes.py)."""
