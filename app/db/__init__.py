"""SQLAlchemy models and session handling."""
