"""Benchmarks that print numbers (speed and strength goals live here, not in tests)."""
