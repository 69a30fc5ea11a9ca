"""Computer players and the bot client: everything a Kodama bot needs, over the public API.

``players`` picks moves with the rules engine, ``client`` talks HTTP to a server, ``runner``
ties them into a bot; ``python -m bots.random`` / ``bots.alphabeta`` run one (docs/bots.md).
"""
