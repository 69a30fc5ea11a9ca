"""The outbox: each durable event (a game ended) consumed exactly once, right after its change
commits or, after a crash, by a sweep (consumer.py; docs/decisions/outbox.md)."""
