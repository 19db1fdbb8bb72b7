"""Stepwell's web service: wraps the pure engines in games/ with SQL, REST, websockets and pages."""
