"""The match domain: one package, one public interface.

- ``records``  plain-data snapshots of a match (``MatchRecord``) that cross threads and the bus;
- ``store``    the only module that loads or locks a match, finds a user's seat, rebuilds a
               State, and ``commit``s a change under the core invariant (below);
- ``service``  the use cases: create, join, play, resign, flag, claim, abort;
- ``offers``   draw / agreed end / takeback / rematch; ``bots`` seats built-in bots;
- ``clocks``   typed time controls and clocks; ``timeouts`` flags overdue players;
- ``payloads`` the one place where a record becomes what a viewer may see;
- ``publish``  announces a committed change; ``outbox`` announces again what a publisher that
               died (or lost Redis) never did;
- ``results``  result reason codes.

The core invariant: a change is applied only if the match's ``version`` is still the one that
was read; a move row is unique per (match, ply); so a stale or duplicate submission changes
nothing, and the stored snapshot always equals a replay of the move log.
"""
