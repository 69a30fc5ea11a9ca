"""The built-in opponents: the BOT accounts the server owns, their fresh tokens and the child
process that plays them through the bot API, run by one instance per database (service.py)."""
