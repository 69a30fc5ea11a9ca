"""Relations (docs/decisions/relations.md): accounts following accounts, and who of the
followed is online or playing now (service.py); lichess's ``/api/rel`` routes and the site's
reads of them (routes.py)."""
