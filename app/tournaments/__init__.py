"""Tournaments: Swiss, arena and duplicate events (one deal at every table).

- ``pairing``   pure pairing and scoring (networkx matching; no database, no web);
- ``models``    the tables;
- ``service``   use cases: create, join, withdraw, read standings;
- ``scheduler`` what the background job does: start, pair rounds, record results, finish.
"""
