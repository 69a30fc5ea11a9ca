"""Challenges, lichess-style: to a user or open to anyone, their answers and expiry
(service.py, routes.py), what they propose and its checks (terms.py), open challenges' seats
(openseats.py), waiting for an answer (waiting.py), lichess's JSON of them (lichess.py), what
the site's pages hear of them (notices.py), and the board API's seeks outside the pools
(seeks.py, seekroutes.py)."""
