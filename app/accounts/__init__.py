"""Accounts: registered players (username and argon2 password), their personal API tokens and
the BOT title (service.py), their HTTP routes (routes.py), the lichess user and token endpoints
(users.py), the account a route names (lookups.py), per-player game counts kept by the outbox
(stats.py), and the player bodies of the browser API (schemas.py). The owner's control of the
account: password changes and mailed reset links (control.py, mail.py, passwords.py), ending
sessions (sessions.py), closing (closing.py), the data export (export.py), their routes
(controlroutes.py)."""
