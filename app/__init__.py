"""Kodama's server: FastAPI app, game services, realtime fan-out, persistence."""
