"""The database: the tables (``models``), engines and sessions (``session``), the request's session
dependency (``deps``), the one-hop route class and admission limit (``one_hop``) and the migration
runner (``migrate``).

A shared layer: its modules are its interface (``from app.db.models import Match``); it exports
nothing here (docs/architecture.md).
"""
