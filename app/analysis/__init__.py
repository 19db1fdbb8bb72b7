"""Computer analysis: per-ply values of finished games, the analysis board and hints.

- ``values``: the pure math — how much a move cost its mover, and which marks that earns;
- ``compute``: what runs in a worker process (one position's evaluation, a hint);
- ``service``: the use cases over the database (request, progress, result) and the rules of who
  may see what (finished games only; hints only in casual games against bots);
- ``board``: the stateless analysis board (replay a move list, play one more move).
"""
