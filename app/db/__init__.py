"""The database: its tables (models/, one module per area), the engine and sessions
(engine.py), and the move pipeline's raw row store, one per backend (gamerows/)."""
