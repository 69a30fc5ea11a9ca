"""The built-in opponents: the BOT accounts the server owns, their fresh tokens and the child
process that plays them through the bot API, run by one instance per database (service.py);
their seats and the games of players who left them, ended by that instance (seats.py); the
seats the lobby shows (routes.py)."""
