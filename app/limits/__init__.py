"""Limits on what callers may do: the token-bucket rate limiter (ratelimit.py), the API's
buckets per caller and per address (api.py), and the caps per address on open sockets and
open games (quotas.py)."""
