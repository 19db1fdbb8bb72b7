"""Use cases (create a guest, create/join a match, play, resign). No HTTP here."""
