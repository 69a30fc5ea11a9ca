"""Moderation: players report players; moderators, named by the site's operator, read the
reports with their context and act (docs/decisions/moderation.md)."""
